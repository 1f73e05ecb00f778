// mv2: two independent matrix-vector products in one kernel (the bicg / mvt
// pattern of PolyBench): p = A u and q = B v, each a parallel_for over rows
// with a reduce along the row. Two groups in one launch.
#include "entry.hpp"

#include <intent/intent.hpp>

namespace kernels {
using intent::index;
using intent::parallel_for;
using intent::reduce;
using intent::view;
namespace ops = intent::ops;

[[intent::kernel]] void two_mv(view<float, 1> p, view<float, 1> q,
                               view<const float, 2> a, view<const float, 1> u,
                               view<const float, 2> b, view<const float, 1> v) {
  parallel_for(a.extent(0), [&](index i) {
    p[i] = reduce(a.extent(1), 0.0f, ops::plus{},
                  [&](index j) { return a(i, j) * u[j]; });
  });
  parallel_for(b.extent(0), [&](index i) {
    q[i] = reduce(b.extent(1), 0.0f, ops::plus{},
                  [&](index j) { return b(i, j) * v[j]; });
  });
}
} // namespace kernels

void bench_entry::mv2(float *p, float *q, const float *a, const float *u,
                      const float *b, const float *v, long long rows,
                      long long cols) {
  kernels::two_mv(intent::view<float, 1>(p, {rows}),
                  intent::view<float, 1>(q, {rows}),
                  intent::view<const float, 2>(a, {rows, cols}),
                  intent::view<const float, 1>(u, {cols}),
                  intent::view<const float, 2>(b, {rows, cols}),
                  intent::view<const float, 1>(v, {cols}));
}
