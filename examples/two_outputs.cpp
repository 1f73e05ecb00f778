// two_outputs: one kernel, two independent parallel_fors writing two outputs
// of different shapes and ranks -- a scaled copy y = a*x (rank 1, n elements)
// and an outer product plus bias z(i, j) = x[i]*w[j] + bias[j] (rank 2,
// n x m). The compiler turns each parallel_for into a group with its own
// instance domain, and the call stays ONE launch, which the program checks
// with intent::rt::launch_count(). Results are checked against a serial
// computation on random inputs of several sizes.
//
//   intentc examples/two_outputs.cpp -o two_outputs && ./two_outputs
//   ./two_outputs 5 3      # one size: n=5, m=3
//
// It is also plain C++ (the header's serial semantics):
//   g++ -std=c++17 -Iinclude examples/two_outputs.cpp
// With INTENT_CHECK_LAUNCHES=1 in the environment (set by test/exec/run.sh) a
// call that is not counted as exactly one launch is an error; otherwise a
// build without the Intent compiler, whose calls are not counted, is accepted.
#include "support.hpp"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <vector>

namespace kernels {
using intent::index;
using intent::parallel_for;
using intent::view;

[[intent::kernel]] void scale_and_outer(view<float, 1> y, view<float, 2> z,
                                        view<const float, 1> x,
                                        view<const float, 1> w,
                                        view<const float, 1> bias, float a) {
  // Group 1: rank 1, n instances.
  parallel_for(x.extent(0), [&](index i) { y[i] = a * x[i]; });
  // Group 2: rank 2, n x m instances.
  parallel_for(x.extent(0), w.extent(0),
               [&](index i, index j) { z(i, j) = x[i] * w[j] + bias[j]; });
}

} // namespace kernels

/// Elements of Got that differ from Want by more than a relative 1e-6 (the
/// GPU may fuse x*w+b into one rounding).
static long mismatches(const std::vector<float> &Got,
                       const std::vector<float> &Want) {
  if (Got.size() != Want.size())
    return static_cast<long>(Want.size()) + 1;
  long Bad = 0;
  for (std::size_t I = 0; I < Got.size(); ++I)
    if (!(std::fabs(Got[I] - Want[I]) <=
          1e-6f * std::fmax(1.0f, std::fabs(Want[I]))))
      ++Bad;
  return Bad;
}

/// Runs the kernel on random inputs with x of N elements and w of M; returns
/// true when both outputs match the serial computation.
static bool runSize(intent::index N, intent::index M, std::mt19937 &Rng) {
  std::uniform_real_distribution<float> Dist(-2.0f, 2.0f);
  std::vector<float> HX(N), HW(M), HB(M);
  for (float &V : HX)
    V = Dist(Rng);
  for (float &V : HW)
    V = Dist(Rng);
  for (float &V : HB)
    V = Dist(Rng);
  const float A = -1.5f;

  std::vector<float> WantY(N), WantZ(N * M);
  for (intent::index I = 0; I < N; ++I) {
    WantY[I] = A * HX[I];
    for (intent::index J = 0; J < M; ++J)
      WantZ[I * M + J] = HX[I] * HW[J] + HB[J];
  }

  mem::array<float> X(HX), W(HW), B(HB), Y(N), Z(N * M);
  unsigned long long Before = support::launches();
  kernels::scale_and_outer(Y.view(), Z.view(N, M), X.view(), W.view(),
                           B.view(), A);
  unsigned long long Calls = support::launches() - Before;
  long BadY = mismatches(Y.to_vector(), WantY);
  long BadZ = mismatches(Z.to_vector(), WantZ);
  bool Ok = support::oneLaunch(Calls) && BadY == 0 && BadZ == 0;
  std::printf("two_outputs n=%lld m=%lld: %s (launches %llu, mismatches: "
              "y %ld, z %ld)\n",
              static_cast<long long>(N), static_cast<long long>(M),
              Ok ? "ok" : "FAIL", Calls, BadY, BadZ);
  return Ok;
}

int main(int argc, char **argv) {
  std::mt19937 Rng(2024);
  if (argc == 3)
    return runSize(std::atol(argv[1]), std::atol(argv[2]), Rng) ? 0 : 1;
  const intent::index Sizes[][2] = {{0, 0}, {0, 4},  {3, 0},    {1, 1},
                                    {7, 13}, {1, 1000}, {1000, 1}, {200003, 7}};
  bool Ok = true;
  for (const auto &S : Sizes)
    Ok = runSize(S[0], S[1], Rng) && Ok;
  return Ok ? 0 : 1;
}
