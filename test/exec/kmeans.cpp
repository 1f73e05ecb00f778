// Execution test: one k-means step, the loops users write inside reduction
// value lambdas (issue 15 item 2). For each point, argmin over the centroids
// of a squared distance computed by a `for` over the dimensions (cta-rows:
// the value body is emitted several times: unrolled steps, tail, register
// variant); a pruned variant whose loop `break`s once the partial distance
// exceeds a bound and `continue`s over masked dimensions (carried values
// through both); per centroid, the sums of its points' coordinates (a
// reduce over the points nested in a parallel_for over centroid x dimension)
// and its count. Coordinates are small integers, so every sum is exact and
// results are compared exactly with a serial reference written without
// the header. Each call must be one launch.
//
//   intentc test/exec/kmeans.cpp -o kmeans && ./kmeans   (or ./kmeans N D)
#include "../../examples/support.hpp"

namespace kernels {
using intent::argmin;
using intent::index;
using intent::nan_policy;
using intent::parallel_for;
using intent::reduce;
using intent::tie;
using intent::view;
namespace ops = intent::ops;

/// assign[i] / dist[i]: the nearest centroid of point i and its squared
/// distance (the first on ties); pruned[i]: the nearest among the centroids
/// whose partial distance over the unmasked dimensions stays within
/// `bound` (a centroid past it counts as `bound + 1`), -1 for no point.
[[intent::kernel]] void kmeans_assign(view<index, 1> assign,
                                      view<float, 1> dist,
                                      view<index, 1> pruned,
                                      view<const float, 2> x,
                                      view<const float, 2> c,
                                      view<const int, 1> mask, float bound) {
  parallel_for(x.extent(0), [&](index i) {
    auto best = argmin(
        c.extent(0),
        [&](index j) {
          float s = 0.0f;
          for (index t = 0; t < x.extent(1); ++t) {
            float d = x(i, t) - c(j, t);
            s += d * d;
          }
          return s;
        },
        tie::first, nan_policy::ignore);
    assign[i] = best.pos;
    dist[i] = best.value;
    auto near = argmin(
        c.extent(0),
        [&](index j) {
          float s = 0.0f;
          index t = 0;
          while (t < x.extent(1)) {
            index u = t;
            ++t;
            if (mask[u] == 0)
              continue;
            float d = x(i, u) - c(j, u);
            s += d * d;
            if (s > bound) {
              s = bound + 1.0f;
              break;
            }
          }
          return s;
        },
        tie::first, nan_policy::ignore);
    pruned[i] = near.pos;
  });
}

/// sums(j, t): the sum of coordinate t of the points assigned to centroid
/// j; counts[j]: how many there are.
[[intent::kernel]] void kmeans_update(view<float, 2> sums,
                                      view<index, 1> counts,
                                      view<const float, 2> x,
                                      view<const index, 1> assign) {
  parallel_for(sums.extent(0), [&](index j) {
    counts[j] = reduce(assign.extent(0), index(0), ops::plus{},
                       [&](index i) { return assign[i] == j ? index(1) : index(0); });
    parallel_for(sums.extent(1), [&](index t) {
      sums(j, t) = reduce(x.extent(0), 0.0f, ops::plus{}, [&](index i) {
        return assign[i] == j ? x(i, t) : 0.0f;
      });
    });
  });
}

} // namespace kernels

namespace {

using intent::index;

/// Integer-valued coordinates in [-8, 8]: every sum below is exact.
std::vector<float> coords(index N, std::mt19937 &Rng) {
  std::uniform_int_distribution<int> D(-8, 8);
  std::vector<float> V(static_cast<std::size_t>(N));
  for (float &X : V)
    X = static_cast<float>(D(Rng));
  return V;
}

/// The nearest centroid (first on ties) by the pruned or full distance.
void nearest(const float *X, const std::vector<float> &C, index K, index D,
             const std::vector<int> *Mask, float Bound, index &Pos,
             float &Dist) {
  Pos = -1;
  Dist = INFINITY;
  for (index J = 0; J < K; ++J) {
    float S = 0.0f;
    for (index T = 0; T < D; ++T) {
      if (Mask && (*Mask)[T] == 0)
        continue;
      float Dt = X[T] - C[J * D + T];
      S += Dt * Dt;
      if (Mask && S > Bound) {
        S = Bound + 1.0f;
        break;
      }
    }
    if (Pos < 0 || S < Dist) {
      Pos = J;
      Dist = S;
    }
  }
}

bool runSize(index N, index D, index K, std::mt19937 &Rng) {
  std::vector<float> HX = coords(N * D, Rng), HC = coords(K * D, Rng);
  std::vector<int> HM(static_cast<std::size_t>(D));
  for (index T = 0; T < D; ++T)
    HM[T] = T % 3 != 1;
  const float Bound = 40.0f;

  std::vector<index> WantA(N), WantP(N), WantCount(K, 0);
  std::vector<float> WantDist(N), WantSums(K * D, 0.0f);
  for (index I = 0; I < N; ++I) {
    float Unused;
    nearest(&HX[I * D], HC, K, D, nullptr, 0.0f, WantA[I], WantDist[I]);
    nearest(&HX[I * D], HC, K, D, &HM, Bound, WantP[I], Unused);
  }
  for (index I = 0; I < N; ++I)
    if (WantA[I] >= 0) {
      ++WantCount[WantA[I]];
      for (index T = 0; T < D; ++T)
        WantSums[WantA[I] * D + T] += HX[I * D + T];
    }

  mem::array<float> X(HX), C(HC), Dist(N), Sums(K * D);
  mem::array<int> M(HM);
  mem::array<index> A(N), P(N), Count(K);
  unsigned long long Before = support::launches();
  kernels::kmeans_assign(A.view(), Dist.view(), P.view(), X.view(N, D),
                         C.view(K, D), M.view(), Bound);
  unsigned long long Assign = support::launches() - Before;
  long BadAssign = support::exactMismatches(A.to_vector(), WantA) +
                   support::exactMismatches(Dist.to_vector(), WantDist) +
                   support::exactMismatches(P.to_vector(), WantP);
  // The update reads the kernel's own assignment (equal to WantA if the
  // first kernel was right; a wrong one was counted above).
  Before = support::launches();
  kernels::kmeans_update(Sums.view(K, D), Count.view(), X.view(N, D), A.view());
  unsigned long long Update = support::launches() - Before;
  long BadUpdate = support::exactMismatches(Sums.to_vector(), WantSums) +
                   support::exactMismatches(Count.to_vector(), WantCount);
  bool Ok = support::oneLaunch(Assign) && support::oneLaunch(Update) &&
            BadAssign == 0 && BadUpdate == 0;
  std::printf("kmeans n=%lld d=%lld k=%lld: %s (launches %llu + %llu, "
              "mismatches: assign %ld, update %ld)\n",
              static_cast<long long>(N), static_cast<long long>(D),
              static_cast<long long>(K), Ok ? "ok" : "FAIL", Assign, Update,
              BadAssign, BadUpdate);
  return Ok;
}

} // namespace

int main(int argc, char **argv) {
  std::mt19937 Rng(15);
  if (argc == 4)
    return runSize(std::atol(argv[1]), std::atol(argv[2]), std::atol(argv[3]),
                   Rng)
               ? 0
               : 1;
  if (argc != 1) {
    std::fprintf(stderr, "usage: %s [N D K]\n", argv[0]);
    return 2;
  }
  // points x dimensions x centroids: empty, one, odd, large; a centroid
  // count past a warp and past 4 x 32 (the unrolled cta-rows steps and
  // their tail), dimensions 1 and many.
  const intent::index Shapes[][3] = {{0, 3, 4},    {5, 0, 3},     {1, 1, 1},
                             {7, 3, 5},    {33, 2, 1},    {129, 5, 37},
                             {1000, 4, 16}, {517, 7, 130}, {20000, 3, 8},
                             {3000, 16, 257}};
  bool Ok = true;
  for (const auto &S : Shapes)
    Ok = runSize(S[0], S[1], S[2], Rng) && Ok;
  return Ok ? 0 : 1;
}
