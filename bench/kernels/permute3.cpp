// permute3: the last two axes of a rank-3 tensor swapped into a new
// row-major tensor (x.permute(0, 2, 1).contiguous() in torch: a batch of
// matrix transposes), out(b, j, i) = x(b, i, j), written as a user writes
// it: one parallel_for instance per element of a 3-D domain.
#include "entry.hpp"

#include <intent/intent.hpp>

namespace kernels {
using intent::index;
using intent::parallel_for;
using intent::view;

[[intent::kernel]] void swap_last_axes(view<float, 3> out,
                                       view<const float, 3> x) {
  parallel_for(x.extent(0), x.extent(1), x.extent(2),
               [&](index b, index i, index j) { out(b, j, i) = x(b, i, j); });
}
} // namespace kernels

void bench_entry::permute3(float *out, const float *x, long long b,
                           long long n, long long m) {
  kernels::swap_last_axes(intent::view<float, 3>(out, {b, m, n}),
                          intent::view<const float, 3>(x, {b, n, m}));
}
