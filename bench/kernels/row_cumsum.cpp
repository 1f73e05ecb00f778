// row_cumsum: the inclusive prefix sum of every row of a row-major matrix
// (torch.cumsum(dim=-1)), a scan along the contiguous axis whose length is
// known at launch only: short rows (32), medium (4096) and a few long ones.
#include "entry.hpp"

#include <intent/intent.hpp>

namespace kernels {
using intent::index;
using intent::parallel_for;
using intent::scan;
using intent::view;
namespace ops = intent::ops;

[[intent::kernel]] void row_cumsum2d(view<float, 2> y, view<const float, 2> x) {
  parallel_for(x.extent(0), [&](index r) {
    scan(x.extent(1), 0.0f, ops::plus{}, [&](index k) { return x(r, k); },
         [&](index k, float p) { y(r, k) = p; });
  });
}
} // namespace kernels

void bench_entry::rowcumsum(float *y, const float *x, long long rows,
                            long long cols) {
  kernels::row_cumsum2d(intent::view<float, 2>(y, {rows, cols}),
                        intent::view<const float, 2>(x, {rows, cols}));
}
