// scan_affine: the linear recurrence h[k] = a[k] h[k - 1] + b[k] (h[-1] = 0)
// as a scan with a user combine: the composition of affine maps, a pair
// state, associative but not commutative. x holds the pairs interleaved
// (x[2k] = a[k], x[2k + 1] = b[k]); y[k] = h[k].
#include "entry.hpp"

#include <intent/intent.hpp>

struct AffineMap {
  float a, b;
};

namespace kernels {
using intent::index;
using intent::scan;
using intent::view;

[[intent::kernel]] void linear_recurrence(view<float, 1> y,
                                          view<const float, 1> x) {
  scan(
      y.extent(0), AffineMap{1.0f, 0.0f},
      [](const AffineMap &l, const AffineMap &r) {
        return AffineMap{l.a * r.a, r.a * l.b + r.b};
      },
      [&](index k) { return AffineMap{x[2 * k], x[2 * k + 1]}; },
      [&](index k, const AffineMap &s) { y[k] = s.b; });
}
} // namespace kernels

void bench_entry::scan_affine(float *y, const float *x, long long n) {
  kernels::linear_recurrence(intent::view<float, 1>(y, {n}),
                             intent::view<const float, 1>(x, {2 * n}));
}
