// Execution test: the row-cache pass (docs/passes.md §3) keeps exp(x - max)
// in the register slot when every later read of the row goes through it --
// here the normalize loop computes it twice (two copies read the slot) --
// and keeps x when a later loop also reads x itself (exp_plus_x: a wrong
// cache would add exp(x - max) instead of x). Sizes hit every register
// variant at its bounds and the fallback; rows outnumber the cpu grid so
// CTAs run several rows. Results within a relative 1e-5 (plus 1e-6 per
// square root of the row length for the normalized sums) of a double
// reference.
#include "../../examples/support.hpp"

namespace kernels {
using intent::index;
using intent::parallel_for;
using intent::reduce;
using intent::view;
namespace ops = intent::ops;

[[intent::kernel]] void exp_twice(view<float, 2> y, view<float, 2> e,
                                  view<const float, 2> x) {
  parallel_for(x.extent(0), [&](index r) {
    float m = reduce(x.extent(1), -INFINITY, ops::max{},
                     [&](index c) { return x(r, c); });
    float s = reduce(x.extent(1), 0.0f, ops::plus{},
                     [&](index c) { return expf(x(r, c) - m); });
    parallel_for(x.extent(1), [&](index c) {
      y(r, c) = expf(x(r, c) - m) / s;
      e(r, c) = expf(x(r, c) - m) * 0.5f;
    });
  });
}

[[intent::kernel]] void exp_plus_x(view<float, 2> y, view<const float, 2> x) {
  parallel_for(x.extent(0), [&](index r) {
    float m = reduce(x.extent(1), -INFINITY, ops::max{},
                     [&](index c) { return x(r, c); });
    float s = reduce(x.extent(1), 0.0f, ops::plus{},
                     [&](index c) { return expf(x(r, c) - m); });
    parallel_for(x.extent(1),
                 [&](index c) { y(r, c) = expf(x(r, c) - m) / s + x(r, c); });
  });
}

} // namespace kernels

static bool runSize(support::shape S, std::mt19937 &Rng) {
  const intent::index Rows = S.n0, Cols = S.n1;
  std::vector<float> HX = support::randomFloats(Rows * Cols, Rng, -8.0f, 8.0f);
  std::vector<float> WantY(HX.size()), WantE(HX.size()), WantP(HX.size());
  for (intent::index R = 0; R < Rows; ++R) {
    const float *X = &HX[R * Cols];
    double M = -INFINITY, Sum = 0;
    for (intent::index C = 0; C < Cols; ++C)
      M = std::fmax(M, X[C]);
    for (intent::index C = 0; C < Cols; ++C)
      Sum += std::exp(X[C] - M);
    for (intent::index C = 0; C < Cols; ++C) {
      const double Ex = std::exp(X[C] - M);
      WantY[R * Cols + C] = static_cast<float>(Ex / Sum);
      WantE[R * Cols + C] = static_cast<float>(Ex * 0.5);
      WantP[R * Cols + C] = static_cast<float>(Ex / Sum + X[C]);
    }
  }
  mem::array<float> X(HX), Y(Rows * Cols), E(Rows * Cols), P(Rows * Cols);
  unsigned long long Before = support::launches();
  kernels::exp_twice(Y.view(Rows, Cols), E.view(Rows, Cols),
                     X.view(Rows, Cols));
  unsigned long long Calls = support::launches() - Before;
  Before = support::launches();
  kernels::exp_plus_x(P.view(Rows, Cols), X.view(Rows, Cols));
  unsigned long long Calls2 = support::launches() - Before;
  // The float sum of Cols comparable terms: relative 1e-6 per sqrt(column).
  const double Rel = 1e-5 + 1e-6 * std::sqrt(static_cast<double>(Cols));
  long Bad = support::closeMismatches(Y.to_vector(), WantY, Rel, 1e-12) +
             support::closeMismatches(E.to_vector(), WantE, 1e-5, 1e-12) +
             support::closeMismatches(P.to_vector(), WantP, Rel, 1e-6);
  bool Ok = support::oneLaunch(Calls) && support::oneLaunch(Calls2) && Bad == 0;
  std::printf("row_cache rows=%lld cols=%lld: %s (launches %llu, mismatches "
              "%ld)\n",
              static_cast<long long>(Rows), static_cast<long long>(Cols),
              Ok ? "ok" : "FAIL", Calls + Calls2, Bad);
  return Ok;
}

int main(int argc, char **argv) {
  return support::runShapes(argc, argv, 2,
                            {{0, 0}, {3, 0}, {1, 1}, {70, 3}, {40, 128},
                             {33, 129}, {4, 300}, {5, 513}, {9, 1024},
                             {5, 1025}, {3, 8192}, {2, 32768}, {2, 32769},
                             // CTAs with several rows, also of 1024
                             // threads (n > 16384)
                             {30, 1024}, {14, 20000}},
                            runSize);
}
