// colsum: the sum of every column of a row-major matrix (torch.sum(dim=0)),
// a reduction along the outer axis: one parallel_for instance per column.
#include "entry.hpp"

#include <intent/intent.hpp>

namespace kernels {
using intent::index;
using intent::parallel_for;
using intent::reduce;
using intent::view;
namespace ops = intent::ops;

[[intent::kernel]] void column_sums(view<float, 1> out,
                                    view<const float, 2> a) {
  parallel_for(a.extent(1), [&](index j) {
    out[j] = reduce(a.extent(0), 0.0f, ops::plus{},
                    [&](index i) { return a(i, j); });
  });
}
} // namespace kernels

void bench_entry::colsum(float *out, const float *a, long long rows,
                         long long cols) {
  kernels::column_sums(intent::view<float, 1>(out, {cols}),
                       intent::view<const float, 2>(a, {rows, cols}));
}
