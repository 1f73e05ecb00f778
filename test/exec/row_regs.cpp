// Execution test: cta-rows with the rows in registers (docs/passes.md §3) on
// shapes the examples do not have: two register views in one row (K up to
// 16, so rows of 16385 columns and more take the fallback), a row read
// under a condition (not a register load: read from memory in the register
// variants), a per-column side view (vector loads per chunk) and two
// outputs written by the normalize loop. Sizes hit K = 4, 8, 16 at their
// bounds and the fallback; rows outnumber the cpu grid so CTAs run several
// rows. Float results within a relative 1e-5 of a double reference.
#include "../../examples/support.hpp"

namespace kernels {
using intent::index;
using intent::parallel_for;
using intent::reduce;
using intent::view;
namespace ops = intent::ops;

[[intent::kernel]] void row_dot(view<float, 2> y, view<float, 2> e,
                                view<const float, 2> x,
                                view<const float, 2> z,
                                view<const float, 1> w) {
  parallel_for(x.extent(0), [&](index r) {
    float s = reduce(x.extent(1), 0.0f, ops::plus{},
                     [&](index c) { return x(r, c) * z(r, c); });
    float m = reduce(x.extent(1), -INFINITY, ops::max{}, [&](index c) {
      return c % 3 == 0 ? z(r, c) : x(r, c);
    });
    float q = reduce(x.extent(1), 0.0f, ops::plus{},
                     [&](index c) { return fabsf(x(r, c) - m); });
    parallel_for(x.extent(1), [&](index c) {
      y(r, c) = x(r, c) * s + w[c];
      e(r, c) = (z(r, c) - m) / (q + 1.0f);
    });
  });
}

} // namespace kernels

static bool runSize(support::shape S, std::mt19937 &Rng) {
  const intent::index Rows = S.n0, Cols = S.n1;
  std::vector<float> HX = support::randomFloats(Rows * Cols, Rng, -1.0f, 1.0f);
  std::vector<float> HZ = support::randomFloats(Rows * Cols, Rng, -1.0f, 1.0f);
  std::vector<float> HW = support::randomFloats(Cols, Rng, -1.0f, 1.0f);
  std::vector<float> WantY(HX.size()), WantE(HX.size());
  for (intent::index R = 0; R < Rows; ++R) {
    const float *X = &HX[R * Cols], *Z = &HZ[R * Cols];
    double Sum = 0, Q = 0;
    float M = -INFINITY;
    for (intent::index C = 0; C < Cols; ++C) {
      Sum += static_cast<double>(X[C]) * Z[C];
      M = std::fmax(M, C % 3 == 0 ? Z[C] : X[C]);
    }
    for (intent::index C = 0; C < Cols; ++C)
      Q += std::fabs(static_cast<double>(X[C]) - M);
    for (intent::index C = 0; C < Cols; ++C) {
      WantY[R * Cols + C] = static_cast<float>(X[C] * Sum + HW[C]);
      WantE[R * Cols + C] = static_cast<float>((Z[C] - M) / (Q + 1.0));
    }
  }
  mem::array<float> X(HX), Z(HZ), W(HW), Y(Rows * Cols), E(Rows * Cols);
  unsigned long long Before = support::launches();
  kernels::row_dot(Y.view(Rows, Cols), E.view(Rows, Cols), X.view(Rows, Cols),
                   Z.view(Rows, Cols), W.view());
  unsigned long long Calls = support::launches() - Before;
  // The dot product's float sum: absolute 1e-4 per sqrt(column) of scale.
  const double Tol = 1e-4 * std::sqrt(static_cast<double>(Cols) + 1.0);
  long Bad = support::closeMismatches(Y.to_vector(), WantY, 1e-5, Tol) +
             support::closeMismatches(E.to_vector(), WantE, 1e-4, 1e-6);
  bool Ok = support::oneLaunch(Calls) && Bad == 0;
  std::printf("row_dot rows=%lld cols=%lld: %s (launches %llu, mismatches "
              "%ld)\n",
              static_cast<long long>(Rows), static_cast<long long>(Cols),
              Ok ? "ok" : "FAIL", Calls, Bad);
  return Ok;
}

int main(int argc, char **argv) {
  return support::runShapes(argc, argv, 2,
                            {{0, 0}, {3, 0}, {1, 1}, {70, 3}, {40, 128},
                             {33, 129}, {4, 300}, {9, 1024}, {5, 2047}, {5, 2049},
                             {3, 8192}, {3, 16384}, {2, 16385}, {2, 20001},
                             // CTAs with several rows, also of 1024
                             // threads (n > 16384)
                             {30, 1024}, {14, 2048}, {14, 16400}},
                            runSize);
}
