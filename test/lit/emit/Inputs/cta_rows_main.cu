// Runs the CUDA emitted for Inputs/cta_rows_explicit.kir: row kernels that
// cta-rows writes with the cooperative primitives (strided members in four
// accumulators, contiguous chunks for a user combine, shuffle trees, warp
// partials in shared memory, staged rows in shared memory sized per
// launch). Row lengths from empty to rows that do not fit the staging
// budget, on aligned rows, rows whose base is off by one element (scalar
// staging copy) and padded rows; softmax and Welford within rounding of
// the serial result, argmax and the first / last element of each row (a
// user combine that is not commutative) bit for bit. Prints "ok" and exits
// 0. Also built from the annotated form (the default pipeline), run with
// INTENT_CPU_FIBERS=1 so its cooperative code runs.
#include KERNELS

#include "harness_mem.h"

#include <cmath>
#include <cstdio>
#include <cstring>
#include <random>

static int failures = 0;

static void fail(const char *what, long long rows, long long n, int variant,
                 long long i, double got, double want) {
  if (++failures <= 12)
    std::printf("mismatch %s rows=%lld n=%lld variant=%d at %lld: got %.9g "
                "want %.9g\n",
                what, rows, n, variant, i, got, want);
}

static bool close(double got, double want, double tol) {
  double scale = std::fmax(1.0, std::fmax(std::fabs(got), std::fabs(want)));
  return std::fabs(got - want) <= tol * scale;
}

int main() {
  std::mt19937_64 rng(11);
  const intent::index lengths[] = {0, 1, 3, 255, 257, 1031, 30000};
  for (intent::index rows : {intent::index(1), intent::index(5)})
    for (intent::index n : lengths)
      for (int variant = 0; variant < 3; ++variant) {
        // 0: contiguous rows; 1: base off by one element; 2: padded rows.
        const intent::index offset = variant == 1 ? 1 : 0;
        const intent::index stride = variant == 2 ? n + 3 : n;
        const intent::index need = offset + rows * stride + 3;
        Mem<float> x(need);
        for (intent::index q = 0; q < need; ++q)
          x[q] = static_cast<float>(static_cast<int>(rng() % 2001) - 1000) / 256.0f;
        intent::view<const float, 2> xv(x.data() + offset, {rows, n}, {stride, 1});
        const intent::index b = n > 1 ? 1 : 0;

        // softmax over [b, n), written for every column.
        Mem<float> out(rows * (n ? n : 1), 7.0f);
        __intent_launch_softmax_from(
            intent::view<float, 2>(out.data(), {rows, n}, {n, 1}), xv, b);
        sync();
        for (intent::index r = 0; r < rows; ++r) {
          float m = -INFINITY;
          for (intent::index c = b; c < n; ++c)
            m = std::fmax(m, xv(r, c));
          double s = 0;
          for (intent::index c = b; c < n; ++c)
            s += std::exp(static_cast<double>(xv(r, c)) - m);
          for (intent::index c = 0; c < n; ++c) {
            double want = std::exp(static_cast<double>(xv(r, c)) - m) / s;
            if (!close(out[r * n + c], want, 2e-5))
              fail("softmax_from", rows, n, variant, c, out[r * n + c], want);
          }
        }

        // Welford: count, mean and M2 of every row.
        Mem<float> mean(rows, 7.0f), m2(rows, 7.0f);
        Mem<int64_t> cnt(rows, 7);
        __intent_launch_welford_rows(intent::view<float, 1>(mean.data(), {rows}),
                                     intent::view<float, 1>(m2.data(), {rows}),
                                     intent::view<int64_t, 1>(cnt.data(), {rows}),
                                     xv);
        sync();
        for (intent::index r = 0; r < rows; ++r) {
          double mu = 0, q = 0;
          for (intent::index c = 0; c < n; ++c)
            mu += xv(r, c);
          mu = n ? mu / n : 0;
          for (intent::index c = 0; c < n; ++c)
            q += (xv(r, c) - mu) * (xv(r, c) - mu);
          if (cnt[r] != n)
            fail("welford count", rows, n, variant, r, cnt[r], n);
          if (!close(mean[r], mu, 1e-4))
            fail("welford mean", rows, n, variant, r, mean[r], mu);
          if (!close(m2[r], q, 1e-4 * (1 + n)))
            fail("welford m2", rows, n, variant, r, m2[r], q);
        }

        // The first and last element of each row (a combine that is not
        // commutative: the tree must keep member order), exact.
        Mem<float> first(rows, 7.0f), last(rows, 7.0f);
        __intent_launch_first_last(intent::view<float, 1>(first.data(), {rows}),
                                   intent::view<float, 1>(last.data(), {rows}),
                                   xv);
        sync();
        for (intent::index r = 0; r < rows; ++r) {
          float wf = n ? xv(r, 0) : 0.0f, wl = n ? xv(r, n - 1) : 0.0f;
          if (std::memcmp(&first[r], &wf, sizeof(float)) != 0)
            fail("first_last first", rows, n, variant, r, first[r], wf);
          if (std::memcmp(&last[r], &wl, sizeof(float)) != 0)
            fail("first_last last", rows, n, variant, r, last[r], wl);
        }

        // argmax (first, propagate) over [b, n), bit for bit.
        Mem<float> v(rows, 7.0f);
        Mem<int64_t> pos(rows, 7);
        __intent_launch_arg_from(intent::view<float, 1>(v.data(), {rows}),
                                 intent::view<int64_t, 1>(pos.data(), {rows}),
                                 xv, b);
        sync();
        for (intent::index r = 0; r < rows; ++r) {
          auto w = intent::argmax(intent::range{b, n},
                                  [&](intent::index c) { return xv(r, c); },
                                  intent::tie::first,
                                  intent::nan_policy::propagate);
          if (std::memcmp(&v[r], &w.value, sizeof(float)) != 0 || pos[r] != w.pos)
            fail("arg_from", rows, n, variant, r, pos[r], w.pos);
        }
      }
  if (failures) {
    std::printf("%d mismatches\n", failures);
    return 1;
  }
  std::printf("ok\n");
  return 0;
}
