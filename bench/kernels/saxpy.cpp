// saxpy: y = a * x + y, one parallel_for over the elements.
#include "entry.hpp"

#include <intent/intent.hpp>

namespace kernels {
using intent::index;
using intent::parallel_for;
using intent::view;

[[intent::kernel]] void saxpy(view<float, 1> y, view<const float, 1> x,
                              float a) {
  parallel_for(y.extent(0), [&](index i) { y[i] = a * x[i] + y[i]; });
}
} // namespace kernels

void bench_entry::saxpy(float *y, const float *x, float a, long long n) {
  kernels::saxpy(intent::view<float, 1>(y, {n}),
                 intent::view<const float, 1>(x, {n}), a);
}
