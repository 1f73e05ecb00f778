// stencil: a 5-point stencil over a row-major matrix with zero padding at
// the edges (out = 0.2 times the element and its four neighbours, a
// neighbour outside the matrix counting as zero), written as a user writes
// it: one parallel_for instance per element of a 2-D domain, each guarded
// neighbour read under an if.
#include "entry.hpp"

#include <intent/intent.hpp>

namespace kernels {
using intent::index;
using intent::parallel_for;
using intent::view;

[[intent::kernel]] void stencil5(view<float, 2> out, view<const float, 2> a) {
  const index n = a.extent(0), m = a.extent(1);
  parallel_for(n, m, [&](index i, index j) {
    float s = a(i, j);
    if (i > 0)
      s += a(i - 1, j);
    if (i + 1 < n)
      s += a(i + 1, j);
    if (j > 0)
      s += a(i, j - 1);
    if (j + 1 < m)
      s += a(i, j + 1);
    out(i, j) = 0.2f * s;
  });
}
} // namespace kernels

void bench_entry::stencil(float *out, const float *a, long long n,
                          long long m) {
  kernels::stencil5(intent::view<float, 2>(out, {n, m}),
                    intent::view<const float, 2>(a, {n, m}));
}
