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

[[intent::kernel]] void rms_bf16(view<intent::bfloat16, 2> y, view<float, 2> z,
                                 view<const intent::bfloat16, 2> x,
                                 view<const intent::bfloat16, 1> w) {
  parallel_for(x.extent(0), [&](index r) {
    float ss = reduce(x.extent(1), 0.0f, ops::plus{}, [&](index c) {
      float v = float(x(r, c));
      return v * v;
    });
    float inv = 1.0f / sqrtf(ss / float(x.extent(1)) + 1e-6f);
    parallel_for(x.extent(1), [&](index c) {
      float v = float(x(r, c)) * inv;
      y(r, c) = intent::bfloat16(v * float(w[c]));
      z(r, c) = v;
    });
  });
}

[[intent::kernel]] void softmax_bf16(view<intent::bfloat16, 2> y,
                                     view<const intent::bfloat16, 2> x) {
  parallel_for(x.extent(0), [&](index r) {
    float m = reduce(x.extent(1), -INFINITY, ops::max{},
                     [&](index c) { return float(x(r, c)); });
    float s = reduce(x.extent(1), 0.0f, ops::plus{},
                     [&](index c) { return expf(float(x(r, c)) - m); });
    parallel_for(x.extent(1), [&](index c) {
      y(r, c) = intent::bfloat16(expf(float(x(r, c)) - m) / s);
    });
  });
}

} // namespace kernels

static bool runSoftmaxBf16(support::shape S, std::mt19937 &Rng) {
  using intent::bfloat16;
  const intent::index Rows = S.n0, Cols = S.n1;
  std::vector<float> FX = support::randomFloats(Rows * Cols, Rng, -4.0f, 4.0f);
  std::vector<bfloat16> HX(FX.begin(), FX.end());
  std::vector<float> Want(FX.size());
  for (intent::index R = 0; R < Rows; ++R) {
    double M = -INFINITY, Sum = 0;
    for (intent::index C = 0; C < Cols; ++C)
      M = std::fmax(M, float(HX[R * Cols + C]));
    for (intent::index C = 0; C < Cols; ++C)
      Sum += std::exp(float(HX[R * Cols + C]) - M);
    for (intent::index C = 0; C < Cols; ++C)
      Want[R * Cols + C] =
          static_cast<float>(std::exp(float(HX[R * Cols + C]) - M) / Sum);
  }
  mem::array<bfloat16> X(HX), Y(Rows * Cols);
  unsigned long long Before = support::launches();
  kernels::softmax_bf16(Y.view(Rows, Cols), X.view(Rows, Cols));
  unsigned long long Calls = support::launches() - Before;
  std::vector<bfloat16> Got = Y.to_vector();
  std::vector<float> GotF(Got.begin(), Got.end());
  long Bad = support::closeMismatches(GotF, Want, 1.0 / 128, 1e-9);
  bool Ok = support::oneLaunch(Calls) && Bad == 0;
  std::printf("softmax_bf16 rows=%lld cols=%lld: %s (launches %llu, "
              "mismatches %ld)\n",
              static_cast<long long>(Rows), static_cast<long long>(Cols),
              Ok ? "ok" : "FAIL", Calls, Bad);
  return Ok;
}

static bool runBf16(support::shape S, std::mt19937 &Rng) {
  using intent::bfloat16;
  const intent::index Rows = S.n0, Cols = S.n1;
  std::vector<float> FX = support::randomFloats(Rows * Cols, Rng, -2.0f, 2.0f);
  std::vector<float> FW = support::randomFloats(Cols, Rng, -1.0f, 1.0f);
  std::vector<bfloat16> HX(FX.begin(), FX.end()), HW(FW.begin(), FW.end());
  std::vector<float> WantY(FX.size()), WantZ(FX.size());
  for (intent::index R = 0; R < Rows; ++R) {
    double SS = 0;
    for (intent::index C = 0; C < Cols; ++C) {
      double V = float(HX[R * Cols + C]);
      SS += V * V;
    }
    double Inv = 1.0 / std::sqrt(SS / static_cast<double>(Cols) + 1e-6);
    for (intent::index C = 0; C < Cols; ++C) {
      double V = float(HX[R * Cols + C]) * Inv;
      WantZ[R * Cols + C] = static_cast<float>(V);
      WantY[R * Cols + C] = static_cast<float>(V * float(HW[C]));
    }
  }
  mem::array<bfloat16> X(HX), W(HW), Y(Rows * Cols);
  mem::array<float> Z(Rows * Cols);
  unsigned long long Before = support::launches();
  kernels::rms_bf16(Y.view(Rows, Cols), Z.view(Rows, Cols), X.view(Rows, Cols),
                    W.view());
  unsigned long long Calls = support::launches() - Before;
  std::vector<bfloat16> GotY = Y.to_vector();
  std::vector<float> GotYF(GotY.begin(), GotY.end());
  // The serial float sum of 32767 squares is off the double one by up to
  // ~1e-4 relative (the scale of every z); y is further rounded to bf16 (8
  // bits): 2^-7 covers both. A wrong element is off by far more.
  long Bad = support::closeMismatches(GotYF, WantY, 1.0 / 128, 1e-6) +
             support::closeMismatches(Z.to_vector(), WantZ, 1e-3, 1e-6);
  bool Ok = support::oneLaunch(Calls) && Bad == 0;
  std::printf("rms_bf16 rows=%lld cols=%lld: %s (launches %llu, mismatches "
              "%ld)\n",
              static_cast<long long>(Rows), static_cast<long long>(Cols),
              Ok ? "ok" : "FAIL", Calls, Bad);
  return Ok;
}

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
  return Ok && runBf16(S, Rng) && runSoftmaxBf16(S, Rng);
}

int main(int argc, char **argv) {
  return support::runShapes(argc, argv, 2,
                            {{0, 0}, {3, 0}, {1, 1}, {70, 3}, {40, 128},
                             {33, 129}, {4, 300}, {9, 1024}, {5, 2047}, {5, 2049},
                             {3, 8192}, {3, 16384}, {2, 16385}, {2, 20001},
                             // CTAs with several rows, also of 1024
                             // threads (n > 16384)
                             {30, 1024}, {14, 2048}, {14, 16400},
                             // 16-bit chunks: n % 8 != 0, one chunk, the
                             // K = 8 / 16 / 32 bounds, a long odd row
                             {9, 7}, {9, 8}, {9, 9}, {20, 257}, {6, 1000},
                             {6, 3000}, {3, 32767}, {2, 32769}},
                            runSize);
}
