// rowsum: the sum of every row of a row-major matrix (torch.sum(dim=1)), a
// reduction along the contiguous axis whose length is known at launch only:
// short rows (16) and long ones (8192).
#include "entry.hpp"

#include <intent/intent.hpp>

namespace kernels {
using intent::index;
using intent::parallel_for;
using intent::reduce;
using intent::view;
namespace ops = intent::ops;

[[intent::kernel]] void row_sums2d(view<float, 1> out, view<const float, 2> a) {
  parallel_for(a.extent(0), [&](index i) {
    out[i] = reduce(a.extent(1), 0.0f, ops::plus{},
                    [&](index j) { return a(i, j); });
  });
}
} // namespace kernels

void bench_entry::rowsum(float *out, const float *a, long long rows,
                         long long cols) {
  kernels::row_sums2d(intent::view<float, 1>(out, {rows}),
                      intent::view<const float, 2>(a, {rows, cols}));
}
