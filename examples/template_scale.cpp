// template_scale: a template kernel. Each instantiation (here float and
// double) is its own kernel specialization, compiled and launched
// separately. The kernel clamps a*x + b into [lo, hi] through an ordinary
// helper function, which the compiler inlines. Results are checked against a
// serial computation on random inputs of several sizes, for both types.
//
//   intentc examples/template_scale.cpp -o template_scale && ./template_scale
//   ./template_scale 1000  # one size
//
// It is also plain C++ (the header's serial semantics):
//   g++ -std=c++17 -Iinclude examples/template_scale.cpp
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

/// V limited to [Lo, Hi] (Lo <= Hi).
template <class T> T clampTo(T V, T Lo, T Hi) {
  if (V < Lo)
    return Lo;
  return V > Hi ? Hi : V;
}

/// y[i] = clamp(a * x[i] + b, lo, hi).
template <class T>
[[intent::kernel]] void scale_clamp(view<T, 1> y, view<const T, 1> x, T a, T b,
                                    T lo, T hi) {
  parallel_for(x.extent(0),
               [&](index i) { y[i] = clampTo(a * x[i] + b, lo, hi); });
}

} // namespace kernels

/// Runs scale_clamp<T> on N random values; true when every element is within
/// Tol (relative) of the serial result: a GPU may fuse a*x + b into one
/// rounding.
template <class T>
static bool runSize(const char *Type, intent::index N, double Tol,
                    std::mt19937 &Rng) {
  std::uniform_real_distribution<T> Dist(T(-4), T(4));
  std::vector<T> HX(N);
  for (T &V : HX)
    V = Dist(Rng);
  const T A = T(1.75), B = T(-0.5), Lo = T(-6), Hi = T(5);
  std::vector<T> Want(N);
  for (intent::index I = 0; I < N; ++I) {
    T V = A * HX[I] + B;
    Want[I] = V < Lo ? Lo : (V > Hi ? Hi : V);
  }

  mem::array<T> X(HX), Y(N);
  kernels::scale_clamp<T>(Y.view(), X.view(), A, B, Lo, Hi);
  std::vector<T> Got = Y.to_vector();
  long Bad = 0, Clamped = 0;
  for (intent::index I = 0; I < N; ++I) {
    double G = static_cast<double>(Got[I]), W = static_cast<double>(Want[I]);
    Bad += !(std::fabs(G - W) <= Tol * std::fmax(1.0, std::fabs(W)));
    Clamped += Want[I] == Lo || Want[I] == Hi;
  }
  std::printf("template_scale<%s> n=%lld: %s (%ld clamped, %ld mismatches)\n",
              Type, static_cast<long long>(N), Bad ? "FAIL" : "ok", Clamped,
              Bad);
  return Bad == 0;
}

int main(int argc, char **argv) {
  std::mt19937 Rng(5);
  std::vector<intent::index> Sizes = {0, 1, 2, 17, 1000, 65537, 1000003};
  if (argc == 2)
    Sizes = {std::atol(argv[1])};
  bool Ok = true;
  for (intent::index N : Sizes) {
    Ok = runSize<float>("float", N, 1e-6, Rng) && Ok;
    Ok = runSize<double>("double", N, 1e-14, Rng) && Ok;
  }
  return Ok ? 0 : 1;
}
