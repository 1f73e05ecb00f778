// Execution test: device-wide scans in one launch (issue 18, item 1; the
// grid-scan pass, docs/passes.md §12). Scans written as a user writes them,
// the kernel's whole work: inclusive and exclusive integer prefix sums
// (exact), a float prefix sum (within rounding of the magnitudes), a
// running maximum, a user combine that is associative but not commutative
// (composition of affine maps x -> a x + b, exact in wrapping 32-bit
// integers), a struct state (count and sum), an init that is not the
// identity, a sub-range, reverse scans (suffix sums; the affine maps
// composed from the end, exclusive), maps stored as interleaved records
// (read with vector loads). Sizes 0, 1, a tile's edge (2048) +-1, several
// tiles per CTA and, on the GPU, many CTAs (the aggregates of the CTAs
// before are folded in order).
#include "../../examples/support.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

struct Affine {
  std::uint32_t a, b;
};
struct CountSum {
  std::int64_t count;
  double sum;
};

namespace kernels {
using intent::index;
using intent::scan;
using intent::view;
namespace ops = intent::ops;

[[intent::kernel]] void prefix_i64(view<std::int64_t, 1> y,
                                   view<const std::int32_t, 1> x) {
  scan(x.extent(0), std::int64_t(5), ops::plus{},
       [&](index k) { return std::int64_t(x[k]); },
       [&](index k, std::int64_t p) { y[k] = p; });
}

[[intent::kernel]] void exclusive_i32(view<std::int32_t, 1> y,
                                      view<const std::int32_t, 1> x) {
  scan(x.extent(0), 0, ops::plus{}, [&](index k) { return x[k]; },
       [&](index k, std::int32_t p) { y[k] = p; },
       intent::scan_kind::exclusive);
}

[[intent::kernel]] void prefix_f32(view<float, 1> y, view<const float, 1> x) {
  scan(x.extent(0), 0.0f, ops::plus{}, [&](index k) { return x[k]; },
       [&](index k, float p) { y[k] = p; });
}

[[intent::kernel]] void running_max(view<float, 1> y, view<const float, 1> x,
                                    index lo, index hi) {
  scan(intent::range{lo, hi}, -1e30f, ops::max{},
       [&](index k) { return x[k] * 2.0f; },
       [&](index k, float p) { y[k - lo] = p; });
}

/// h[k] = the composition of the maps 0..k applied to 1 (mod 2^32).
[[intent::kernel]] void compose(view<std::uint32_t, 1> h,
                                view<const std::uint32_t, 1> a,
                                view<const std::uint32_t, 1> b) {
  scan(
      a.extent(0), Affine{1u, 0u},
      [](const Affine &l, const Affine &r) {
        return Affine{l.a * r.a, r.a * l.b + r.b};
      },
      [&](index k) { return Affine{a[k], b[k]}; },
      [&](index k, const Affine &p) { h[k] = p.a + p.b; });
}

[[intent::kernel]] void count_sum(view<std::int64_t, 1> c, view<double, 1> s,
                                  view<const double, 1> x) {
  scan(
      x.extent(0), CountSum{0, 0.0},
      [](const CountSum &l, const CountSum &r) {
        return CountSum{l.count + r.count, l.sum + r.sum};
      },
      [&](index k) { return CountSum{x[k] > 0 ? 1 : 0, x[k]}; },
      [&](index k, const CountSum &p) {
        c[k] = p.count;
        s[k] = p.sum;
      });
}

/// Suffix sums: y[k] = x[k] + ... + x[n - 1] (a reverse scan).
[[intent::kernel]] void suffix_i64(view<std::int64_t, 1> y,
                                   view<const std::int32_t, 1> x) {
  scan(x.extent(0), std::int64_t(0), ops::plus{},
       [&](index k) { return std::int64_t(x[k]); },
       [&](index k, std::int64_t p) { y[k] = p; }, intent::scan_kind::inclusive,
       intent::direction::reverse);
}

/// h[k] = the composition of the maps n - 1 down to k + 1 applied to 1
/// (reverse, exclusive: the last member gets the init).
[[intent::kernel]] void compose_reverse(view<std::uint32_t, 1> h,
                                        view<const std::uint32_t, 1> a,
                                        view<const std::uint32_t, 1> b) {
  scan(
      a.extent(0), Affine{1u, 0u},
      [](const Affine &l, const Affine &r) {
        return Affine{l.a * r.a, r.a * l.b + r.b};
      },
      [&](index k) { return Affine{a[k], b[k]}; },
      [&](index k, const Affine &p) { h[k] = p.a + p.b; },
      intent::scan_kind::exclusive, intent::direction::reverse);
}

/// out(r, k) = m(r, 0) + ... + m(r, k) for one row r of a matrix (vector
/// accesses along the row when its start is aligned).
[[intent::kernel]] void row_prefix(view<std::int64_t, 2> out,
                                   view<const std::int32_t, 2> m, index r) {
  scan(m.extent(1), std::int64_t(0), ops::plus{},
       [&](index k) { return std::int64_t(m(r, k)); },
       [&](index k, std::int64_t p) { out(r, k) = p; });
}

/// compose over records: the maps stored interleaved, m[2k] = a, m[2k + 1]
/// = b (a thread's 8 records read as four 4-wide vector loads).
[[intent::kernel]] void compose_records(view<std::uint32_t, 1> h,
                                        view<const std::uint32_t, 1> m) {
  scan(
      h.extent(0), Affine{1u, 0u},
      [](const Affine &l, const Affine &r) {
        return Affine{l.a * r.a, r.a * l.b + r.b};
      },
      [&](index k) { return Affine{m[2 * k], m[2 * k + 1]}; },
      [&](index k, const Affine &p) { h[k] = p.a + p.b; });
}

} // namespace kernels

using support::expect;

static void run(long N, std::mt19937 &Rng) {
  std::vector<int> R = support::randomInts(N, Rng, -1000, 1000);
  std::vector<std::int32_t> X(R.begin(), R.end());
  mem::array<std::int32_t> DX(X);
  {
    mem::array<std::int64_t> Y(std::vector<std::int64_t>(N + 1, -1));
    kernels::prefix_i64(intent::view<std::int64_t, 1>(Y.data(), {N}),
                        intent::view<const std::int32_t, 1>(DX.data(), {N}));
    std::vector<std::int64_t> Want(N + 1, -1);
    std::int64_t S = 5;
    for (long K = 0; K < N; ++K)
      Want[K] = S += X[K];
    expect(Y.to_vector() == Want, "prefix_i64", N);
  }
  {
    mem::array<std::int32_t> Y(std::vector<std::int32_t>(N + 1, -1));
    kernels::exclusive_i32(intent::view<std::int32_t, 1>(Y.data(), {N}),
                           intent::view<const std::int32_t, 1>(DX.data(), {N}));
    std::vector<std::int32_t> Want(N + 1, -1);
    std::int32_t S = 0;
    for (long K = 0; K < N; ++K) {
      Want[K] = S;
      S += X[K];
    }
    expect(Y.to_vector() == Want, "exclusive_i32", N);
  }
  {
    std::vector<float> F = support::randomFloats(N, Rng, -1.0f, 1.0f);
    mem::array<float> DF(F), Y(std::vector<float>(N, 0.0f));
    kernels::prefix_f32(intent::view<float, 1>(Y.data(), {N}),
                        intent::view<const float, 1>(DF.data(), {N}));
    std::vector<float> Got = Y.to_vector();
    double S = 0, Mag = 0;
    // The tiles' prefixes are chained in float: the rounding grows with
    // the square root of the tiles before (a random walk), past 2^20 too.
    const double Tol = 1e-5 * std::max(1.0, std::sqrt(N / double(1L << 20)));
    for (long K = 0; K < N; ++K) {
      S += F[K];
      Mag += std::fabs(F[K]);
      expect(std::fabs(Got[K] - S) <= Tol * Mag + 1e-6, "prefix_f32", N);
    }
    // Running maximum over [N / 3, N).
    const long Lo = N / 3;
    mem::array<float> M(std::vector<float>(N - Lo + 1, 7.0f));
    kernels::running_max(intent::view<float, 1>(M.data(), {N - Lo}),
                         intent::view<const float, 1>(DF.data(), {N}), Lo, N);
    std::vector<float> Want(N - Lo + 1, 7.0f);
    float Best = -1e30f;
    for (long K = Lo; K < N; ++K)
      Want[K - Lo] = Best = std::max(Best, F[K] * 2.0f);
    expect(M.to_vector() == Want, "running_max", N);
  }
  {
    std::vector<std::uint32_t> A(N), B(N);
    for (long K = 0; K < N; ++K) {
      A[K] = static_cast<std::uint32_t>(Rng()) | 1u;
      B[K] = static_cast<std::uint32_t>(Rng());
    }
    mem::array<std::uint32_t> DA(A), DB(B), H(std::vector<std::uint32_t>(N, 0));
    kernels::compose(intent::view<std::uint32_t, 1>(H.data(), {N}),
                     intent::view<const std::uint32_t, 1>(DA.data(), {N}),
                     intent::view<const std::uint32_t, 1>(DB.data(), {N}));
    std::vector<std::uint32_t> Want(N);
    Affine P{1u, 0u};
    for (long K = 0; K < N; ++K) {
      P = Affine{P.a * A[K], A[K] * P.b + B[K]};
      Want[K] = P.a + P.b;
    }
    expect(H.to_vector() == Want, "compose", N);
    mem::array<std::uint32_t> HR(std::vector<std::uint32_t>(N, 0));
    kernels::compose_reverse(intent::view<std::uint32_t, 1>(HR.data(), {N}),
                             intent::view<const std::uint32_t, 1>(DA.data(), {N}),
                             intent::view<const std::uint32_t, 1>(DB.data(), {N}));
    P = Affine{1u, 0u};
    for (long K = N - 1; K >= 0; --K) {
      Want[K] = P.a + P.b;
      P = Affine{P.a * A[K], A[K] * P.b + B[K]};
    }
    expect(HR.to_vector() == Want, "compose_reverse", N);
    std::vector<std::uint32_t> M(2 * N);
    for (long K = 0; K < N; ++K) {
      M[2 * K] = A[K];
      M[2 * K + 1] = B[K];
    }
    mem::array<std::uint32_t> DM(M), HM(std::vector<std::uint32_t>(N, 0));
    kernels::compose_records(intent::view<std::uint32_t, 1>(HM.data(), {N}),
                             intent::view<const std::uint32_t, 1>(DM.data(), {2 * N}));
    P = Affine{1u, 0u};
    for (long K = 0; K < N; ++K) {
      P = Affine{P.a * A[K], A[K] * P.b + B[K]};
      Want[K] = P.a + P.b;
    }
    expect(HM.to_vector() == Want, "compose_records", N);
  }
  {
    // Row 1 of a 3 x N matrix of X's values: its start is 4-byte aligned
    // to 16 only when N is a multiple of 4.
    std::vector<std::int32_t> MX(3 * N);
    for (long K = 0; K < 3 * N; ++K)
      MX[K] = X[K % (N ? N : 1)] + static_cast<std::int32_t>(K / (N ? N : 1));
    mem::array<std::int32_t> DMX(MX);
    mem::array<std::int64_t> O(std::vector<std::int64_t>(3 * N, -1));
    kernels::row_prefix(intent::view<std::int64_t, 2>(O.data(), {3, N}),
                        intent::view<const std::int32_t, 2>(DMX.data(), {3, N}), 1);
    std::vector<std::int64_t> Want(3 * N, -1);
    std::int64_t S = 0;
    for (long K = 0; K < N; ++K)
      Want[N + K] = S += MX[N + K];
    expect(O.to_vector() == Want, "row_prefix", N);
  }
  {
    mem::array<std::int64_t> Y(std::vector<std::int64_t>(N + 1, -1));
    kernels::suffix_i64(intent::view<std::int64_t, 1>(Y.data(), {N}),
                        intent::view<const std::int32_t, 1>(DX.data(), {N}));
    std::vector<std::int64_t> Want(N + 1, -1);
    std::int64_t S = 0;
    for (long K = N - 1; K >= 0; --K)
      Want[K] = S += X[K];
    expect(Y.to_vector() == Want, "suffix_i64", N);
  }
  {
    std::vector<double> D(N);
    for (long K = 0; K < N; ++K)
      D[K] = static_cast<double>(X[K]) / 8.0; // exact sums
    mem::array<double> DD(D), S(std::vector<double>(N, 0.0));
    mem::array<std::int64_t> C(std::vector<std::int64_t>(N, 0));
    kernels::count_sum(intent::view<std::int64_t, 1>(C.data(), {N}),
                       intent::view<double, 1>(S.data(), {N}),
                       intent::view<const double, 1>(DD.data(), {N}));
    std::vector<std::int64_t> WC(N);
    std::vector<double> WS(N);
    std::int64_t Cnt = 0;
    double Sum = 0;
    for (long K = 0; K < N; ++K) {
      WC[K] = Cnt += D[K] > 0;
      WS[K] = Sum += D[K];
    }
    expect(C.to_vector() == WC, "count_sum count", N);
    expect(S.to_vector() == WS, "count_sum sum", N);
  }
}

int main() {
  std::mt19937 Rng(1818);
  for (long N : {0L, 1L, 2047L, 2048L, 2049L, 8191L, 8193L, 100003L,
                 (1L << 20) + 3})
    run(N, Rng);
  // On the GPU, thousands of tiles in flight at once: look-backs that
  // cross windows of aggregates (cpu mode runs the tiles one at a time).
  // INTENT_QUICK (the sanitizer runs) skips them.
  if (intent::rt::mode() == intent::rt::device_mode::gpu &&
      !std::getenv("INTENT_QUICK"))
    for (long N : {(1L << 24) + 5, (1L << 26) - 7})
      run(N, Rng);
  if (support::mismatches())
    return 1;
  std::printf("device_scan: ok\n");
  return 0;
}
