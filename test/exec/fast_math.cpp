// Execution test: intentc --fast-math. The kernels' single-precision exp,
// exp2, log, log2, sin, cos, pow and division are the hardware
// approximations on the GPU (__expf, ex2.approx, __logf, ..., __fdividef)
// and the exact C functions in cpu mode; both stay within the documented
// error of a double reference: a softmax over rows (cta-rows: the
// reductions and the normalizing loop use the approximate exp and
// division) and a pointwise mix of every approximated function on inputs in
// [-3, 3]. Empty, size-1, odd and large shapes.
// INTENTC-FLAGS: --fast-math
#include "../../examples/support.hpp"

namespace kernels {
using intent::index;
using intent::parallel_for;
using intent::reduce;
using intent::view;
namespace ops = intent::ops;

[[intent::kernel]] void softmax_fast(view<float, 2> y, view<const float, 2> x) {
  parallel_for(x.extent(0), [&](index r) {
    float m = reduce(x.extent(1), -INFINITY, ops::max{},
                     [&](index c) { return x(r, c); });
    float s = reduce(x.extent(1), 0.0f, ops::plus{},
                     [&](index c) { return expf(x(r, c) - m); });
    parallel_for(x.extent(1),
                 [&](index c) { y(r, c) = expf(x(r, c) - m) / s; });
  });
}

[[intent::kernel]] void mix_fast(view<float, 1> y, view<const float, 1> x) {
  parallel_for(x.extent(0), [&](index i) {
    float v = x[i];
    float a = fabsf(v) + 1.0f;
    y[i] = sinf(v) * cosf(v) + logf(a) + log2f(a) / (v * v + 1.0f) +
           powf(a, 0.5f) + exp2f(0.5f * v);
  });
}

} // namespace kernels

static bool runSize(support::shape S, std::mt19937 &Rng) {
  const intent::index Rows = S.n0, Cols = S.n1;
  std::vector<float> HX = support::randomFloats(Rows * Cols, Rng, -3.0f, 3.0f);
  std::vector<float> Want(HX.size()), WantMix(HX.size());
  for (intent::index R = 0; R < Rows; ++R) {
    double M = -INFINITY, Sum = 0;
    for (intent::index C = 0; C < Cols; ++C)
      M = std::fmax(M, HX[R * Cols + C]);
    for (intent::index C = 0; C < Cols; ++C)
      Sum += std::exp(HX[R * Cols + C] - M);
    for (intent::index C = 0; C < Cols; ++C)
      Want[R * Cols + C] = static_cast<float>(std::exp(HX[R * Cols + C] - M) / Sum);
  }
  for (std::size_t I = 0; I < HX.size(); ++I) {
    double V = HX[I], A = std::fabs(V) + 1.0;
    WantMix[I] = static_cast<float>(std::sin(V) * std::cos(V) + std::log(A) +
                                    std::log2(A) / (V * V + 1.0) +
                                    std::pow(A, 0.5) + std::exp2(0.5 * V));
  }
  mem::array<float> X(HX), Y(Rows * Cols), Z(Rows * Cols);
  unsigned long long Before = support::launches();
  kernels::softmax_fast(Y.view(Rows, Cols), X.view(Rows, Cols));
  unsigned long long Calls = support::launches() - Before;
  Before = support::launches();
  kernels::mix_fast(Z.view(), X.view());
  unsigned long long CallsMix = support::launches() - Before;
  // __expf on [-6, 0] is within 2 + 7 ulp, __fdividef 2 ulp, the row sums
  // reassociated: 1e-5 relative. Each approximate term of the mix is within
  // ~2^-21 absolute on these inputs: 1e-5 absolute over the six terms.
  long Bad = support::closeMismatches(Y.to_vector(), Want, 1e-5, 1e-9) +
             support::closeMismatches(Z.to_vector(), WantMix, 1e-5, 1e-5);
  bool Ok = support::oneLaunch(Calls) && support::oneLaunch(CallsMix) &&
             Bad == 0;
  std::printf("fast_math rows=%lld cols=%lld: %s (launches %llu, mismatches "
              "%ld)\n",
              static_cast<long long>(Rows), static_cast<long long>(Cols),
              Ok ? "ok" : "FAIL", Calls, Bad);
  return Ok;
}

int main(int argc, char **argv) {
  return support::runShapes(argc, argv, 2,
                            {{0, 0}, {1, 1}, {3, 7}, {70, 129}, {33, 1024},
                             {5, 4099}, {4, 30001}, {4096, 256}},
                            runSize);
}
