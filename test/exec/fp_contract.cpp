// Execution test: with -ffp-contract=off (which intentc passes to nvcc as
// --fmad=false), plain floating-point arithmetic in a kernel gives results
// bitwise equal to the same arithmetic on the host, in every mode: no
// a * b + c is contracted into a fused multiply-add. Without the flag, GPU
// mode contracts like nvcc does and may differ in the last bit.
// INTENTC-FLAGS: -ffp-contract=off
#if __has_include(<intent/runtime.hpp>)
#include <intent/runtime.hpp>
#define TEST_HAS_RUNTIME 1
#else
#include <intent/intent.hpp>
#define TEST_HAS_RUNTIME 0
#endif

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <random>
#include <vector>

namespace kernels {
using intent::index;
using intent::parallel_for;
using intent::view;

/// Per element: a multiply-add, a difference of products, and a Horner
/// polynomial of degree K (an ordered loop of multiply-adds).
template <class T>
[[intent::kernel]] void fp_ops(view<T, 1> madd, view<T, 1> dprod,
                               view<T, 1> horner, view<const T, 1> a,
                               view<const T, 1> b, view<const T, 1> c,
                               view<const T, 1> coef) {
  parallel_for(a.extent(0), [&](index i) {
    madd[i] = a[i] * b[i] + c[i];
    dprod[i] = a[i] * b[i] - c[i] * a[i];
    T p = coef[0];
    for (index k = 1; k < coef.extent(0); ++k)
      p = p * a[i] + coef[k];
    horner[i] = p;
  });
}

} // namespace kernels

namespace mem {
#if TEST_HAS_RUNTIME
template <class T> using array = intent::array<T>;
#else
/// Host memory standing in for intent::array without the runtime.
template <class T> class array {
public:
  explicit array(intent::index N) : Data(static_cast<std::size_t>(N)) {}
  explicit array(const std::vector<T> &V) : Data(V) {}
  T *data() const { return Data.data(); }
  std::vector<T> to_vector() const { return Data; }

private:
  mutable std::vector<T> Data;
};
#endif
} // namespace mem

/// The number of elements whose bits differ.
template <class T>
static long bitDiffs(const std::vector<T> &Got, const std::vector<T> &Want) {
  long Bad = 0;
  for (std::size_t I = 0; I < Want.size(); ++I)
    Bad += std::memcmp(&Got[I], &Want[I], sizeof(T)) != 0;
  return Bad;
}

template <class T>
static bool run(const char *Name, intent::index N, std::mt19937 &Rng) {
  std::uniform_real_distribution<T> Dist(T(-2), T(2));
  std::vector<T> HA(N), HB(N), HC(N), HCoef(9);
  for (auto *V : {&HA, &HB, &HC, &HCoef})
    for (T &X : *V)
      X = Dist(Rng);
  // The host's results, computed here with the same -ffp-contract=off.
  std::vector<T> WantMadd(N), WantDprod(N), WantHorner(N);
  for (intent::index I = 0; I < N; ++I) {
    WantMadd[I] = HA[I] * HB[I] + HC[I];
    WantDprod[I] = HA[I] * HB[I] - HC[I] * HA[I];
    T P = HCoef[0];
    for (std::size_t K = 1; K < HCoef.size(); ++K)
      P = P * HA[I] + HCoef[K];
    WantHorner[I] = P;
  }
  mem::array<T> A(HA), B(HB), C(HC), Coef(HCoef);
  mem::array<T> Madd(N), Dprod(N), Horner(N);
  auto V = [N](const mem::array<T> &X) {
    return intent::view<T, 1>(X.data(), {N});
  };
  auto CV = [](const mem::array<T> &X, intent::index Len) {
    return intent::view<const T, 1>(X.data(), {Len});
  };
  kernels::fp_ops<T>(V(Madd), V(Dprod), V(Horner), CV(A, N), CV(B, N),
                     CV(C, N), CV(Coef, 9));
  long Bad = bitDiffs(Madd.to_vector(), WantMadd) +
             bitDiffs(Dprod.to_vector(), WantDprod) +
             bitDiffs(Horner.to_vector(), WantHorner);
  std::printf("fp_contract %s n=%lld: %s (%ld results not bitwise equal)\n",
              Name, static_cast<long long>(N), Bad ? "FAIL" : "ok", Bad);
  return Bad == 0;
}

int main() {
  std::mt19937 Rng(7);
  bool Ok = true;
  for (intent::index N : {intent::index(1), intent::index(1000),
                          intent::index(100003)}) {
    Ok = run<float>("float", N, Rng) && Ok;
    Ok = run<double>("double", N, Rng) && Ok;
  }
  return Ok ? 0 : 1;
}
