// layernorm: layer normalization forward over the rows, as
// examples/layernorm.cpp writes it: mean and (population) variance as two
// reduces per row, then a nested parallel_for writing the row.
#include "entry.hpp"

#include <intent/intent.hpp>

#include <cmath>

namespace kernels {
using intent::index;
using intent::parallel_for;
using intent::reduce;
using intent::view;
namespace ops = intent::ops;

[[intent::kernel]] void layernorm(view<float, 2> y, view<const float, 2> x,
                                  view<const float, 1> gamma,
                                  view<const float, 1> beta, float eps) {
  parallel_for(x.extent(0), [&](index r) {
    float n = static_cast<float>(x.extent(1));
    float mean = reduce(x.extent(1), 0.0f, ops::plus{},
                        [&](index c) { return x(r, c); }) /
                 n;
    float var = reduce(x.extent(1), 0.0f, ops::plus{},
                       [&](index c) {
                         float d = x(r, c) - mean;
                         return d * d;
                       }) /
                n;
    float rstd = 1.0f / sqrtf(var + eps);
    parallel_for(x.extent(1), [&](index c) {
      y(r, c) = (x(r, c) - mean) * rstd * gamma[c] + beta[c];
    });
  });
}
} // namespace kernels

void bench_entry::layernorm(float *y, const float *x, const float *gamma,
                            const float *beta, float eps, long long rows,
                            long long cols) {
  kernels::layernorm(intent::view<float, 2>(y, {rows, cols}),
                     intent::view<const float, 2>(x, {rows, cols}),
                     intent::view<const float, 1>(gamma, {cols}),
                     intent::view<const float, 1>(beta, {cols}), eps);
}
