// phases: a reduction whose result a later parallel_for over the same data
// reads (y = exp(x - 1) / sum(exp(x - 1)) over a whole vector), written as
// a user would: one kernel. Construction keeps the two phases in one
// instance; cta-rows and cta-rows-ops run it on a cooperative grid with a
// grid barrier between the CTAs' partial sums and their fold. The peer is
// the same work as two kernels of ours (the sum, then the scaling), the
// split a user makes without dependent phases in one launch.
#include "entry.hpp"

#include <intent/intent.hpp>

#include <cmath>

namespace kernels {
using intent::index;
using intent::parallel_for;
using intent::reduce;
using intent::view;
namespace ops = intent::ops;

[[intent::kernel]] void normalize_one(view<float, 1> y,
                                      view<const float, 1> x) {
  float s = reduce(x.extent(0), 0.0f, ops::plus{},
                   [&](index i) { return expf(x[i] - 1.0f); });
  parallel_for(y.extent(0), [&](index i) { y[i] = expf(x[i] - 1.0f) / s; });
}

[[intent::kernel]] void exp_sum(view<float, 1> s, view<const float, 1> x) {
  s[0] = reduce(x.extent(0), 0.0f, ops::plus{},
                [&](index i) { return expf(x[i] - 1.0f); });
}

[[intent::kernel]] void scale_by(view<float, 1> y, view<const float, 1> x,
                                 view<const float, 1> s) {
  parallel_for(y.extent(0), [&](index i) { y[i] = expf(x[i] - 1.0f) / s[0]; });
}
} // namespace kernels

void bench_entry::phases_one(float *y, const float *x, long long n) {
  kernels::normalize_one(intent::view<float, 1>(y, {n}),
                         intent::view<const float, 1>(x, {n}));
}

void bench_entry::phases_two(float *y, float *s, const float *x, long long n) {
  kernels::exp_sum(intent::view<float, 1>(s, {1}),
                   intent::view<const float, 1>(x, {n}));
  kernels::scale_by(intent::view<float, 1>(y, {n}),
                    intent::view<const float, 1>(x, {n}),
                    intent::view<const float, 1>(s, {1}));
}
