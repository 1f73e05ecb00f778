// inclusive_scan: y[k] = x[0] + ... + x[k], one scan in a kernel with no
// parallel_for.
#include "entry.hpp"

#include <intent/intent.hpp>

namespace kernels {
using intent::index;
using intent::scan;
using intent::view;
namespace ops = intent::ops;

[[intent::kernel]] void prefix_sum(view<float, 1> y, view<const float, 1> x) {
  scan(x.extent(0), 0.0f, ops::plus{}, [&](index k) { return x[k]; },
       [&](index k, float p) { y[k] = p; }, intent::scan_kind::inclusive);
}
} // namespace kernels

void bench_entry::inclusive_scan(float *y, const float *x, long long n) {
  kernels::prefix_sum(intent::view<float, 1>(y, {n}),
                      intent::view<const float, 1>(x, {n}));
}
