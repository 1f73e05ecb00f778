// mean_var: per-row mean and variance and the normalized matrix from ONE
// kernel launch -- one producer, several outputs of different shapes. Each
// row is folded once with Welford's algorithm: a struct accumulator
// {count, mean, m2} whose user combine merges two partial summaries (Chan et
// al.), so the fold may be split and regrouped. The row's instance then
// writes mean[r] and var[r] (rank 1, the population variance m2 / count) and
// z(r, c) = (x(r, c) - mean) / sqrt(var + eps) (rank 2). Checked against a
// two-pass serial computation in double within a small tolerance, and with
// intent::rt::launch_count() that the call is exactly one launch.
//
//   intentc examples/mean_var.cpp -o mean_var && ./mean_var
//   ./mean_var 5 3      # one size: 5 rows, 3 columns
//
// It is also plain C++ (the header's serial semantics):
//   g++ -std=c++17 -Iinclude examples/mean_var.cpp
#include "support.hpp"

/// A partial Welford summary: element count, their mean, and the sum of
/// squared deviations from it.
struct Welford {
  float count, mean, m2;
};

/// The summary of the concatenation of the elements of A and B.
inline Welford merge(const Welford &A, const Welford &B) {
  float N = A.count + B.count;
  if (N == 0.0f)
    return A;
  float D = B.mean - A.mean;
  return {N, A.mean + D * B.count / N,
          A.m2 + B.m2 + D * D * A.count * B.count / N};
}

namespace kernels {
using intent::index;
using intent::parallel_for;
using intent::reduce;
using intent::view;

[[intent::kernel]] void mean_var(view<float, 1> mean, view<float, 1> var,
                                 view<float, 2> z, view<const float, 2> x,
                                 float eps) {
  parallel_for(x.extent(0), [&](index r) {
    Welford w = reduce(
        x.extent(1), Welford{0.0f, 0.0f, 0.0f},
        [](const Welford &a, const Welford &b) { return merge(a, b); },
        [&](index c) { return Welford{1.0f, x(r, c), 0.0f}; });
    float v = w.m2 / w.count;
    mean[r] = w.mean;
    var[r] = v;
    float rstd = 1.0f / sqrtf(v + eps);
    parallel_for(x.extent(1),
                 [&](index c) { z(r, c) = (x(r, c) - w.mean) * rstd; });
  });
}

} // namespace kernels

/// Runs the kernel on a random Rows x Cols matrix; true when all three
/// outputs match.
static bool runSize(support::shape S, std::mt19937 &Rng) {
  const intent::index Rows = S.n0, Cols = S.n1;
  const float Eps = 1e-5f;
  std::vector<float> HX = support::randomFloats(Rows * Cols, Rng, -3.0f, 5.0f);

  // Two-pass reference in double. Tolerances: mean within 1e-5 of the mean
  // magnitude; var within 1e-5 of var + mean^2 (the scale of the squared
  // deviations); z within 1e-5 of (|x - mean| + |mean|) * rstd. A row of no
  // columns has mean 0 (Welford's identity) and var 0/0, a NaN.
  std::vector<float> WantMean(Rows), WantVar(Rows), ScaleMean(Rows),
      ScaleVar(Rows), WantZ(HX.size()), ScaleZ(HX.size());
  for (intent::index R = 0; R < Rows; ++R) {
    const float *X = &HX[R * Cols];
    double Mean = 0, Abs = 0, Var = 0;
    for (intent::index C = 0; C < Cols; ++C) {
      Mean += X[C];
      Abs += std::fabs(X[C]);
    }
    Mean /= static_cast<double>(Cols);
    Abs = Cols ? Abs / static_cast<double>(Cols) : 0.0;
    for (intent::index C = 0; C < Cols; ++C)
      Var += (X[C] - Mean) * (X[C] - Mean);
    Var /= static_cast<double>(Cols);
    WantMean[R] = Cols ? static_cast<float>(Mean) : 0.0f;
    WantVar[R] = static_cast<float>(Var);
    ScaleMean[R] = static_cast<float>(Abs);
    ScaleVar[R] = static_cast<float>(Var + Abs * Abs);
    double Rstd = 1.0 / std::sqrt(Var + Eps);
    for (intent::index C = 0; C < Cols; ++C) {
      WantZ[R * Cols + C] = static_cast<float>((X[C] - Mean) * Rstd);
      ScaleZ[R * Cols + C] =
          static_cast<float>((std::fabs(X[C] - Mean) + Abs) * Rstd);
    }
  }

  mem::array<float> X(HX), Mean(Rows), Var(Rows), Z(Rows * Cols);
  unsigned long long Before = support::launches();
  kernels::mean_var(Mean.view(), Var.view(), Z.view(Rows, Cols),
                    X.view(Rows, Cols), Eps);
  unsigned long long Calls = support::launches() - Before;
  long BadMean =
      support::closeMismatches(Mean.to_vector(), WantMean, 1e-5, 0.0, &ScaleMean);
  long BadVar =
      support::closeMismatches(Var.to_vector(), WantVar, 1e-5, 0.0, &ScaleVar);
  long BadZ = support::closeMismatches(Z.to_vector(), WantZ, 1e-5, 0.0, &ScaleZ);
  bool Ok = support::oneLaunch(Calls) && BadMean == 0 && BadVar == 0 &&
            BadZ == 0;
  std::printf("mean_var rows=%lld cols=%lld: %s (launches %llu, mismatches: "
              "mean %ld, var %ld, z %ld)\n",
              static_cast<long long>(Rows), static_cast<long long>(Cols),
              Ok ? "ok" : "FAIL", Calls, BadMean, BadVar, BadZ);
  return Ok;
}

int main(int argc, char **argv) {
  return support::runShapes(argc, argv, 2,
                            {{0, 0}, {0, 5}, {3, 0}, {1, 1}, {7, 13},
                             {1, 4096}, {1000, 1}, {513, 257}, {20000, 33}},
                            runSize);
}
