// Execution test: mirrored triangular writes (issue 17, item 7). Instance i
// writes cov(i, j) and cov(j, i) for a counter j that starts at i and only
// grows (a covariance matrix from its upper triangle), or only shrinks
// (a symmetric outer product from its lower triangle): no two instances
// touch one element, so the kernels run one program per i in cpu and gpu
// modes (before: one instance for the whole loop). Sizes 0, 1, odd and
// larger; covariance checked within a tolerance (reduction order), the
// outer product exactly.
#include "../../examples/support.hpp"

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <vector>

namespace kernels {
using intent::index;
using intent::parallel_for;
using intent::reduce;
using intent::view;

[[intent::kernel]] void covariance(view<float, 2> cov, view<const float, 2> d) {
  parallel_for(d.extent(1), [&](index i) {
    for (index j = i; j < d.extent(1); ++j) {
      float s = reduce(d.extent(0), 0.0f, intent::ops::plus{},
                       [&](index k) { return d(k, i) * d(k, j); });
      cov(i, j) = s;
      cov(j, i) = s;
    }
  });
}

[[intent::kernel]] void outer_lower(view<std::int64_t, 2> m,
                                    view<const std::int64_t, 1> x) {
  parallel_for(x.extent(0), [&](index i) {
    for (index j = i; j >= 0; j -= 1) {
      m(i, j) = x[i] * x[j] + i;
      m(j, i) = x[i] * x[j] + i;
    }
  });
}
} // namespace kernels

using support::programsSince;

using support::expect;

static void run(long Rows, long N) {
  std::vector<float> HD(Rows * N + 1);
  for (long K = 0; K < Rows * N; ++K)
    HD[K] = static_cast<float>((K * 37) % 101) / 16.0f - 3.0f;
  mem::array<float> D(HD), Cov(std::vector<float>(N * N + 1, -1.0f));
  programsSince();
  kernels::covariance(intent::view<float, 2>(Cov.data(), {N, N}),
                      intent::view<const float, 2>(D.data(), {Rows, N}));
  long P = programsSince();
  if (P >= 0 && N >= 2)
    expect(P >= 2, "covariance runs in parallel", N);
  std::vector<float> G = Cov.to_vector();
  for (long I = 0; I < N; ++I)
    for (long J = 0; J < N; ++J) {
      double S = 0, Scale = 0;
      for (long K = 0; K < Rows; ++K) {
        S += double(HD[K * N + I]) * HD[K * N + J];
        Scale += std::fabs(double(HD[K * N + I]) * HD[K * N + J]);
      }
      expect(std::fabs(G[I * N + J] - S) <= 1e-5 * (Scale + 1), "covariance",
             N);
    }
  expect(G[N * N] == -1.0f, "covariance past the end", N);

  std::vector<std::int64_t> HX(N + 1);
  for (long I = 0; I < N; ++I)
    HX[I] = (I * 7919) % 1009 - 500;
  mem::array<std::int64_t> X(HX),
      M(std::vector<std::int64_t>(N * N + 1, -7));
  programsSince();
  kernels::outer_lower(intent::view<std::int64_t, 2>(M.data(), {N, N}),
                       intent::view<const std::int64_t, 1>(X.data(), {N}));
  P = programsSince();
  if (P >= 0 && N >= 2)
    expect(P >= 2, "outer_lower runs in parallel", N);
  std::vector<std::int64_t> GM = M.to_vector();
  for (long I = 0; I < N; ++I)
    for (long J = 0; J < N; ++J) {
      const long Hi = I > J ? I : J; // the instance that writes (I, J)
      expect(GM[I * N + J] == HX[I] * HX[J] + Hi, "outer_lower", N);
    }
  expect(GM[N * N] == -7, "outer_lower past the end", N);
}

int main() {
  for (long N : {0L, 1L, 2L, 7L, 33L, 130L})
    run(N == 0 ? 3 : 2 * N + 1, N);
  run(0, 5); // no rows: every covariance 0
  if (support::mismatches())
    return 1;
  std::printf("all ok\n");
  return 0;
}
