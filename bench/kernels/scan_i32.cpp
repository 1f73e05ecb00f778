// scan_i32: y[k] = x[0] + ... + x[k] over 32-bit integers (wrapping), one
// scan in a kernel with no parallel_for.
#include "entry.hpp"

#include <cstdint>
#include <intent/intent.hpp>

namespace kernels {
using intent::index;
using intent::scan;
using intent::view;
namespace ops = intent::ops;

[[intent::kernel]] void prefix_sum_i32(view<std::int32_t, 1> y,
                                       view<const std::int32_t, 1> x) {
  scan(x.extent(0), std::int32_t(0), ops::plus{}, [&](index k) { return x[k]; },
       [&](index k, std::int32_t p) { y[k] = p; });
}
} // namespace kernels

void bench_entry::scan_i32(int *y, const int *x, long long n) {
  kernels::prefix_sum_i32(intent::view<std::int32_t, 1>(y, {n}),
                          intent::view<const std::int32_t, 1>(x, {n}));
}
