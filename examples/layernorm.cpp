// layernorm: layer normalization forward over the rows of a matrix,
//   y(r, c) = (x(r, c) - mean_r) / sqrt(var_r + eps) * gamma[c] + beta[c],
// with mean_r = sum_c x(r, c) / cols and the (population) variance
// var_r = sum_c (x(r, c) - mean_r)^2 / cols: two reduces per row (the second
// reads the first's result), then a nested parallel_for writing the row. The
// sums may be reassociated, so y is checked against a serial computation
// within a small tolerance; the call must be ONE launch.
//
//   intentc examples/layernorm.cpp -o layernorm && ./layernorm
//   ./layernorm 5 3      # one size: 5 rows, 3 columns
//
// It is also plain C++ (the header's serial semantics):
//   g++ -std=c++17 -Iinclude examples/layernorm.cpp
#include "support.hpp"

namespace kernels {
using intent::index;
using intent::parallel_for;
using intent::reduce;
using intent::view;
namespace ops = intent::ops;

[[intent::kernel]] void layernorm(view<float, 2> y, view<const float, 2> x,
                                  view<const float, 1> gamma,
                                  view<const float, 1> beta, float eps) {
  parallel_for(x.extent(0), [&](index r) {
    float n = static_cast<float>(x.extent(1));
    float mean = reduce(x.extent(1), 0.0f, ops::plus{},
                        [&](index c) { return x(r, c); }) /
                 n;
    float var = reduce(x.extent(1), 0.0f, ops::plus{},
                       [&](index c) {
                         float d = x(r, c) - mean;
                         return d * d;
                       }) /
                n;
    float rstd = 1.0f / sqrtf(var + eps);
    parallel_for(x.extent(1), [&](index c) {
      y(r, c) = (x(r, c) - mean) * rstd * gamma[c] + beta[c];
    });
  });
}

} // namespace kernels

/// Runs the kernel on a random Rows x Cols matrix; true when it matches.
static bool runSize(support::shape S, std::mt19937 &Rng) {
  const intent::index Rows = S.n0, Cols = S.n1;
  const float Eps = 1e-5f;
  // An offset mean, so that the centring matters.
  std::vector<float> HX = support::randomFloats(Rows * Cols, Rng, 2.0f, 6.0f);
  std::vector<float> HG = support::randomFloats(Cols, Rng, 0.5f, 1.5f);
  std::vector<float> HB = support::randomFloats(Cols, Rng, -1.0f, 1.0f);
  // The reference in double; each y is compared within 2e-5 of the scale of
  // its terms, (|x - mean| + |mean|) * rstd * |gamma| + |beta| (|mean| for
  // the rounding of the float sum of the row before the subtraction).
  std::vector<float> Want(HX.size()), Scale(HX.size());
  for (intent::index R = 0; R < Rows; ++R) {
    const float *X = &HX[R * Cols];
    double Mean = 0, Var = 0;
    for (intent::index C = 0; C < Cols; ++C)
      Mean += X[C];
    Mean /= static_cast<double>(Cols);
    for (intent::index C = 0; C < Cols; ++C)
      Var += (X[C] - Mean) * (X[C] - Mean);
    Var /= static_cast<double>(Cols);
    double Rstd = 1.0 / std::sqrt(Var + Eps);
    for (intent::index C = 0; C < Cols; ++C) {
      double N = (X[C] - Mean) * Rstd * HG[C];
      Want[R * Cols + C] = static_cast<float>(N + HB[C]);
      Scale[R * Cols + C] = static_cast<float>(
          (std::fabs(X[C] - Mean) + std::fabs(Mean)) * Rstd * HG[C] +
          std::fabs(HB[C]));
    }
  }

  mem::array<float> X(HX), G(HG), B(HB), Y(Rows * Cols);
  unsigned long long Before = support::launches();
  kernels::layernorm(Y.view(Rows, Cols), X.view(Rows, Cols), G.view(),
                     B.view(), Eps);
  unsigned long long Calls = support::launches() - Before;
  long Bad = support::closeMismatches(Y.to_vector(), Want, 2e-5, 0.0, &Scale);
  bool Ok = support::oneLaunch(Calls) && Bad == 0;
  std::printf("layernorm rows=%lld cols=%lld: %s (launches %llu, mismatches "
              "%ld)\n",
              static_cast<long long>(Rows), static_cast<long long>(Cols),
              Ok ? "ok" : "FAIL", Calls, Bad);
  return Ok;
}

int main(int argc, char **argv) {
  return support::runShapes(argc, argv, 2,
                            {{0, 0}, {0, 5}, {3, 0}, {1, 1}, {7, 13},
                             {1, 4096}, {1000, 1}, {513, 257}, {20000, 33},
                             {3, 30001}, {2, 60001},
                             // every register variant (K = 4, 8, 16, 32) at
                             // its bounds, aligned and not, and the fallback
                             {3, 31}, {5, 128}, {4, 129}, {3, 300}, {3, 512}, {2, 513}, {9, 1024}, {3, 1025},
                             {2, 2048}, {2, 2049}, {2, 8192}, {2, 8193},
                             {2, 32768}, {2, 32769},
                             // more rows than cpu-mode CTAs (CTAs run
                             // several rows), also of 1024 threads
                             {40, 1024}, {20, 4096}, {16, 20000}, {13, 32768}},
                            runSize);
}
