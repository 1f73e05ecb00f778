// Runs the CUDA emitted for test/lit/emit/grid_reduce.kir: device-wide
// reductions in one launch over many cooperating CTAs (the grid-reduce
// pass). Sizes from empty to several CTAs' worth, each called twice (the
// kept-zero workspace must be left zero), on aligned, misaligned (scalar
// path) and strided views; integer results and arg-reductions (ties, NaN,
// +-inf, -0.0) must equal the header's serial semantics bit for bit, float
// sums within rounding of a reassociated sum. Also checks one launch per
// call. Prints "ok" and exits 0 on success.
#include KERNELS

#include "harness_mem.h"

#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

static int failures = 0;

static void fail(const char *what, long long n, int variant, double got,
                 double want) {
  if (++failures <= 12)
    std::printf("mismatch %s n=%lld variant=%d: got %.17g want %.17g\n", what,
                n, variant, got, want);
}

template <class T> static bool sameBits(T a, T b) {
  return std::memcmp(&a, &b, sizeof(T)) == 0;
}

template <class T> static T special(std::mt19937_64 &rng, bool nan) {
  const T pool[] = {T(1), T(-1), T(0), T(-0.0), T(2.5), T(2.5), T(-2.5),
                    std::numeric_limits<T>::infinity(),
                    -std::numeric_limits<T>::infinity(),
                    std::numeric_limits<T>::quiet_NaN()};
  // Mostly small values, so that ties and specials are spread out.
  if (rng() % 4)
    return T(static_cast<int>(rng() % 2001) - 1000) / T(8);
  return pool[rng() % (nan ? 10 : 9)];
}

/// A view of n elements at data + offset with the given stride.
template <class T>
static intent::view<const T, 1> viewOf(Mem<T> &m, intent::index n,
                                       intent::index offset,
                                       intent::index stride) {
  return intent::view<const T, 1>(m.data() + offset, {n}, {stride});
}

int main() {
  std::mt19937_64 rng(7);
  const intent::index sizes[] = {0, 1, 3, 255, 4095, 4096, 4097, 70001,
                                 1 << 20, (1 << 22) + 5};
  for (intent::index n : sizes)
    for (int variant = 0; variant < 3; ++variant) {
      // 0: aligned, unit stride; 1: base off by one element; 2: stride 2.
      intent::index offset = variant == 1 ? 1 : 0;
      intent::index stride = variant == 2 ? 2 : 1;
      intent::index need = offset + (n ? (n - 1) * stride + 1 : 0);
      if (n > (1 << 20) && variant != 0)
        continue;
      Mem<float> xf(need + 1);
      Mem<int64_t> xi(need + 1);
      Mem<int32_t> x32(need + 1);
      Mem<double> xd(need + 1);
      bool nan = n % 2 == 1;
      for (intent::index q = 0; q < need + 1; ++q) {
        xf[q] = special<float>(rng, nan);
        xi[q] = static_cast<int64_t>(rng() % 200001) - 100000;
        x32[q] = static_cast<int32_t>(rng());
        xd[q] = special<double>(rng, true);
      }
      auto vf = viewOf(xf, n, offset, stride);
      auto vi = viewOf(xi, n, offset, stride);
      auto v32 = viewOf(x32, n, offset, stride);
      auto vd = viewOf(xd, n, offset, stride);
      for (int call = 0; call < 2; ++call) {
        // sum_f32 over finite values: within rounding of the sum of |x|.
        Mem<float> fin(need + 1);
        for (intent::index q = 0; q < need + 1; ++q)
          fin[q] = std::isfinite(xf[q]) ? xf[q] : 0.5f;
        auto vfin = viewOf(fin, n, offset, stride);
        Mem<float> outf(1, 99.0f);
        uint64_t launches = intent::rt::launch_count();
        __intent_launch_sum_f32(intent::view<float, 1>(outf.data(), {1}), vfin);
        sync();
        if (intent::rt::launch_count() != launches + 1)
          fail("sum_f32 launches", n, variant, intent::rt::launch_count() - launches, 1);
        double want = 0, mag = 0;
        for (intent::index k = 0; k < n; ++k) {
          want += vfin[k];
          mag += std::fabs(vfin[k]);
        }
        if (!(std::fabs(outf[0] - want) <= 1e-5 * mag + 1e-6))
          fail("sum_f32", n, variant, outf[0], want);
        if (n == 0 && !sameBits(outf[0], 0.0f))
          fail("sum_f32 empty", n, variant, outf[0], 0.0);

        // sum_i64: 7 * (init + sum (x + x*x)), exact.
        Mem<int64_t> outi(1, 99);
        __intent_launch_sum_i64(intent::view<int64_t, 1>(outi.data(), {1}), vi, 11);
        sync();
        auto wanti = intent::reduce(n, int64_t(11), intent::ops::plus{},
                                    [&](intent::index k) { return vi[k] + vi[k] * vi[k]; });
        if (outi[0] != wanti * 7)
          fail("sum_i64", n, variant, outi[0], wanti * 7);

        // max_i32, exact.
        Mem<int32_t> out32(1, 99);
        __intent_launch_max_i32(intent::view<int32_t, 1>(out32.data(), {1}), v32);
        sync();
        auto want32 = intent::reduce(n, std::numeric_limits<int32_t>::min(),
                                     intent::ops::max{}, [&](intent::index k) { return v32[k]; });
        if (out32[0] != want32)
          fail("max_i32", n, variant, out32[0], want32);

        // argmax (first, propagate), bit for bit.
        Mem<float> av(1, 7.0f);
        Mem<int64_t> ap(1, 7);
        __intent_launch_argmax_first(intent::view<float, 1>(av.data(), {1}),
                                     intent::view<int64_t, 1>(ap.data(), {1}), vf);
        sync();
        auto wa = intent::argmax(n, [&](intent::index k) { return vf[k]; },
                                 intent::tie::first, intent::nan_policy::propagate);
        if (!sameBits(av[0], wa.value) || ap[0] != wa.pos)
          fail("argmax_first pos", n, variant, ap[0], wa.pos);

        // argmin (last, ignore) over a sub-range [b, e), bit for bit.
        intent::index b = n / 3, e = n - n / 5;
        Mem<double> dv(1, 7.0);
        Mem<int64_t> dp(1, 7);
        __intent_launch_argmin_last_ignore(intent::view<double, 1>(dv.data(), {1}),
                                           intent::view<int64_t, 1>(dp.data(), {1}),
                                           vd, b, e);
        sync();
        auto wd = intent::argmin(intent::range{b, e}, [&](intent::index k) { return vd[k]; },
                                 intent::tie::last, intent::nan_policy::ignore);
        if (!sameBits(dv[0], wd.value) || dp[0] != wd.pos)
          fail("argmin_last_ignore pos", n, variant, dp[0], wd.pos);
      }
    }
  if (failures) {
    std::printf("%d mismatches\n", failures);
    return 1;
  }
  std::printf("ok\n");
  return 0;
}
