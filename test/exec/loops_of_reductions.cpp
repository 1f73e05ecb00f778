// Execution test: loops of reductions inside a parallel instance (issue
// 17, item 7; the counted-loops pass, docs/passes.md §3). A counted loop
// whose iterations touch disjoint memory and each compute a reduction
// becomes a `for` that cta-rows spreads over a CTA's threads: a Gram
// matrix (every j), a lower-triangular product written once (j <= i), a
// loop with a side input, rank-3 batches. Loops that must stay serial keep
// their order: iterations that accumulate into one element, a loop that
// skips iterations with `continue`, a loop stepping by 2. Integer data:
// every result exact. Sizes 0, 1, odd and a CTA's edge.
#include "../../examples/support.hpp"

#include <cstdint>
#include <cstdio>
#include <vector>

namespace kernels {
using intent::index;
using intent::parallel_for;
using intent::reduce;
using intent::view;
namespace ops = intent::ops;

/// g(i, j) = sum over k of a(k, i) a(k, j), every j.
[[intent::kernel]] void gram(view<std::int64_t, 2> g,
                             view<const std::int32_t, 2> a) {
  parallel_for(a.extent(1), [&](index i) {
    for (index j = 0; j < a.extent(1); ++j)
      g(i, j) = reduce(a.extent(0), std::int64_t(0), ops::plus{}, [&](index k) {
        return std::int64_t(a(k, i)) * a(k, j);
      });
  });
}

/// l(i, j) = sum over k <= j of a(i, k) b(k, j) + w[j], for j <= i.
[[intent::kernel]] void lower_product(view<std::int64_t, 2> l,
                                      view<const std::int32_t, 2> a,
                                      view<const std::int32_t, 2> b,
                                      view<const std::int64_t, 1> w) {
  parallel_for(l.extent(0), [&](index i) {
    for (index j = 0; j <= i; ++j) {
      std::int64_t s = reduce(j + 1, std::int64_t(0), ops::plus{}, [&](index k) {
        return std::int64_t(a(i, k)) * b(k, j);
      });
      l(i, j) = s + w[j];
    }
  });
}

/// out(b, i, j) = max over k of x(b, k, i) - x(b, k, j), j from i on.
[[intent::kernel]] void batched_spread(view<std::int32_t, 3> out,
                                       view<const std::int32_t, 3> x) {
  parallel_for(x.extent(0), x.extent(2), [&](index b, index i) {
    for (index j = i; j < x.extent(2); ++j)
      out(b, i, j) = reduce(x.extent(1), INT32_MIN, ops::max{}, [&](index k) {
        return x(b, k, i) - x(b, k, j);
      });
  });
}

/// acc[i] collects every iteration's sum: iterations write one element, in
/// order (stays serial).
[[intent::kernel]] void chained(view<std::int64_t, 1> acc,
                                view<const std::int32_t, 2> a) {
  parallel_for(acc.extent(0), [&](index i) {
    for (index j = 0; j < a.extent(0); ++j)
      acc[i] = acc[i] * 3 +
               reduce(a.extent(1), std::int64_t(0), ops::plus{},
                      [&](index k) { return std::int64_t(a(j, k)) + i; });
  });
}

/// Every other column, by a step of 2 (stays a loop).
[[intent::kernel]] void strided_columns(view<std::int64_t, 2> g,
                                        view<const std::int32_t, 2> a) {
  parallel_for(a.extent(1), [&](index i) {
    for (index j = 0; j < a.extent(1); j += 2)
      g(i, j) = reduce(a.extent(0), std::int64_t(0), ops::plus{}, [&](index k) {
        return std::int64_t(a(k, i)) - a(k, j);
      });
  });
}
} // namespace kernels

using support::programsSince;

using support::expect;

static void run(long M, long N, std::mt19937 &Rng) {
  std::vector<int> R = support::randomInts(M * N + 1, Rng, -50, 50);
  std::vector<std::int32_t> HA(R.begin(), R.end());
  // gram
  {
    mem::array<std::int32_t> A(HA);
    mem::array<std::int64_t> G(std::vector<std::int64_t>(N * N + 1, -7));
    programsSince();
    kernels::gram(intent::view<std::int64_t, 2>(G.data(), {N, N}),
                  intent::view<const std::int32_t, 2>(A.data(), {M, N}));
    long P = programsSince();
    expect(P < 0 || P == N, "gram: one program per i", N);
    std::vector<std::int64_t> Got = G.to_vector();
    for (long I = 0; I < N; ++I)
      for (long J = 0; J < N; ++J) {
        std::int64_t S = 0;
        for (long K = 0; K < M; ++K)
          S += std::int64_t(HA[K * N + I]) * HA[K * N + J];
        expect(Got[I * N + J] == S, "gram", N);
      }
    expect(Got[N * N] == -7, "gram past the end", N);
  }
  // lower_product: a is N x N (the first N * N values), b likewise
  {
    std::vector<int> RB = support::randomInts(N * N + 1, Rng, -9, 9);
    std::vector<std::int32_t> HB(RB.begin(), RB.end()), HSq(N * N + 1);
    for (long K = 0; K < N * N; ++K)
      HSq[K] = static_cast<std::int32_t>((K * 37) % 23 - 11);
    std::vector<std::int64_t> HW(N + 1);
    for (long J = 0; J < N; ++J)
      HW[J] = J * 1000 - 3;
    mem::array<std::int32_t> A(HSq), B(HB);
    mem::array<std::int64_t> W(HW), L(std::vector<std::int64_t>(N * N + 1, -5));
    kernels::lower_product(intent::view<std::int64_t, 2>(L.data(), {N, N}),
                           intent::view<const std::int32_t, 2>(A.data(), {N, N}),
                           intent::view<const std::int32_t, 2>(B.data(), {N, N}),
                           intent::view<const std::int64_t, 1>(W.data(), {N}));
    std::vector<std::int64_t> Got = L.to_vector();
    for (long I = 0; I < N; ++I)
      for (long J = 0; J < N; ++J) {
        std::int64_t Want = -5;
        if (J <= I) {
          Want = HW[J];
          for (long K = 0; K <= J; ++K)
            Want += std::int64_t(HSq[I * N + K]) * HB[K * N + J];
        }
        expect(Got[I * N + J] == Want, "lower_product", N);
      }
  }
  // batched_spread: 2 batches of M x N
  {
    std::vector<int> RX = support::randomInts(2 * M * N + 1, Rng, -1000, 1000);
    std::vector<std::int32_t> HX(RX.begin(), RX.end());
    mem::array<std::int32_t> X(HX),
        O(std::vector<std::int32_t>(2 * N * N + 1, 77));
    kernels::batched_spread(intent::view<std::int32_t, 3>(O.data(), {2, N, N}),
                            intent::view<const std::int32_t, 3>(X.data(), {2, M, N}));
    std::vector<std::int32_t> Got = O.to_vector();
    for (long B = 0; B < 2; ++B)
      for (long I = 0; I < N; ++I)
        for (long J = 0; J < N; ++J) {
          std::int32_t Want = 77;
          if (J >= I) {
            Want = INT32_MIN;
            for (long K = 0; K < M; ++K) {
              std::int32_t V = HX[(B * M + K) * N + I] - HX[(B * M + K) * N + J];
              Want = V > Want ? V : Want;
            }
          }
          expect(Got[(B * N + I) * N + J] == Want, "batched_spread", N);
        }
  }
  // chained and strided_columns: serial loops, same results
  {
    mem::array<std::int32_t> A(HA);
    std::vector<std::int64_t> H0(N + 1);
    for (long I = 0; I < N; ++I)
      H0[I] = I - 2;
    mem::array<std::int64_t> Acc(H0),
        G(std::vector<std::int64_t>(N * N + 1, -9));
    kernels::chained(intent::view<std::int64_t, 1>(Acc.data(), {N}),
                     intent::view<const std::int32_t, 2>(A.data(), {M, N}));
    kernels::strided_columns(intent::view<std::int64_t, 2>(G.data(), {N, N}),
                             intent::view<const std::int32_t, 2>(A.data(), {M, N}));
    std::vector<std::int64_t> GotAcc = Acc.to_vector(), GotG = G.to_vector();
    for (long I = 0; I < N; ++I) {
      std::int64_t Want = I - 2;
      for (long J = 0; J < M; ++J) {
        std::int64_t S = 0;
        for (long K = 0; K < N; ++K)
          S += std::int64_t(HA[J * N + K]) + I;
        Want = Want * 3 + S;
      }
      expect(GotAcc[I] == Want, "chained", N);
      for (long J = 0; J < N; ++J) {
        std::int64_t S = -9;
        if (J % 2 == 0) {
          S = 0;
          for (long K = 0; K < M; ++K)
            S += std::int64_t(HA[K * N + I]) - HA[K * N + J];
        }
        expect(GotG[I * N + J] == S, "strided_columns", N);
      }
    }
  }
}

int main() {
  std::mt19937 Rng(7);
  const long Shapes[][2] = {{3, 0}, {1, 1}, {5, 2}, {9, 33}, {40, 257}, {0, 5}};
  for (const auto &S : Shapes)
    run(S[0], S[1], Rng);
  if (support::mismatches())
    return 1;
  std::printf("all ok\n");
  return 0;
}
