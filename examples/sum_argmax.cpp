// sum_argmax: two whole-array reductions, each ONE launch: the sum of all
// elements (out[0] = reduce(n, 0, plus, x[k])) and the position of the
// largest element (pos[0] = argmax(n, x[k]).pos, first among ties, NaN
// wins). Each kernel is a single instance reducing a large axis, which the
// grid-reduce pass spreads over many CTAs: per-CTA partials in the
// invocation workspace, the last CTA to arrive folds them (docs/passes.md).
// The sum may be reassociated, so it is checked within a relative 1e-5 of
// the sum of magnitudes; the argmax is exact.
//
//   intentc examples/sum_argmax.cpp -o sum_argmax && ./sum_argmax
//   ./sum_argmax 268435456      # one size (2^28, the benchmark size)
//
// It is also plain C++ (the header's serial semantics):
//   g++ -std=c++17 -Iinclude examples/sum_argmax.cpp
#include "support.hpp"

#include <cmath>
#include <cstdio>
#include <limits>
#include <vector>

namespace kernels {
using intent::argmax;
using intent::index;
using intent::reduce;
using intent::view;
namespace ops = intent::ops;

[[intent::kernel]] void sum_all(view<float, 1> out, view<const float, 1> x) {
  out[0] = reduce(x.extent(0), 0.0f, ops::plus{},
                  [&](index k) { return x[k]; });
}

[[intent::kernel]] void argmax_all(view<index, 1> pos,
                                   view<const float, 1> x) {
  auto r = argmax(x.extent(0), [&](index k) { return x[k]; });
  pos[0] = r.pos;
}

} // namespace kernels

/// Runs both kernels on N random floats (a few ties and NaN for the
/// argmax); true when both match.
static bool runSize(support::shape S, std::mt19937 &Rng) {
  const intent::index N = S.n0;
  std::vector<float> HX = support::randomFloats(N, Rng, -4.0f, 4.0f);
  // Ties of the maximum, and (for odd N) a NaN, which wins.
  if (N > 10) {
    HX[N / 3] = 7.0f;
    HX[N / 2] = 7.0f;
  }
  if (N > 10 && N % 2)
    HX[N - 3] = std::numeric_limits<float>::quiet_NaN();
  double Want = 0, Mag = 0;
  for (float V : HX)
    if (!std::isnan(V)) {
      Want += V;
      Mag += std::fabs(V);
    }
  long long WantPos = intent::argmax(N, [&](intent::index K) { return HX[K]; }).pos;

  // The sum is taken over the NaN-free copy.
  std::vector<float> Finite = HX;
  for (float &V : Finite)
    if (std::isnan(V))
      V = 0.0f;
  mem::array<float> X(HX), XF(Finite), Out(1);
  mem::array<intent::index> Pos(1);
  unsigned long long Before = support::launches();
  kernels::sum_all(Out.view(), XF.view());
  unsigned long long SumCalls = support::launches() - Before;
  Before = support::launches();
  kernels::argmax_all(Pos.view(), X.view());
  unsigned long long ArgCalls = support::launches() - Before;
  float Got = Out.to_vector()[0];
  long long GotPos = static_cast<long long>(Pos.to_vector()[0]);
  bool SumOk = std::fabs(Got - Want) <= 1e-5 * Mag + 1e-6;
  bool Ok = support::oneLaunch(SumCalls) && support::oneLaunch(ArgCalls) &&
            SumOk && GotPos == WantPos;
  std::printf("sum_argmax n=%lld: %s (sum %g want %g, argmax %lld want %lld)\n",
              static_cast<long long>(N), Ok ? "ok" : "FAIL", Got, Want, GotPos,
              WantPos);
  return Ok;
}

int main(int argc, char **argv) {
  return support::runShapes(argc, argv, 1,
                            {{0, 0}, {1, 0}, {5, 0}, {4097, 0}, {100003, 0},
                             {1 << 20, 0}},
                            runSize);
}
