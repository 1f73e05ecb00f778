// transpose: the transpose of a row-major matrix into a new row-major matrix
// (a.t().contiguous() in torch), out(j, i) = a(i, j), written as a user
// writes it: one parallel_for instance per element of a 2-D domain.
#include "entry.hpp"

#include <intent/intent.hpp>

namespace kernels {
using intent::index;
using intent::parallel_for;
using intent::view;

[[intent::kernel]] void transpose_matrix(view<float, 2> out,
                                         view<const float, 2> a) {
  parallel_for(a.extent(0), a.extent(1),
               [&](index i, index j) { out(j, i) = a(i, j); });
}
} // namespace kernels

void bench_entry::transpose(float *out, const float *a, long long rows,
                            long long cols) {
  kernels::transpose_matrix(intent::view<float, 2>(out, {cols, rows}),
                            intent::view<const float, 2>(a, {rows, cols}));
}
