// Execution test: element types, integer semantics and <cmath> in kernels.
// Integer results (8-, 16-, 32- and 64-bit, signed and unsigned: division
// and remainder of negative values, shifts, wrap-around, narrowing casts)
// must match the serial computation exactly; floating-point math functions
// within a few ulps (device math libraries may round differently). Also
// exercises do/while, continue, std::min/max and a helper with two returns.
#if __has_include(<intent/runtime.hpp>)
#include <intent/runtime.hpp>
#define TEST_HAS_RUNTIME 1
#else
#include <intent/intent.hpp>
#define TEST_HAS_RUNTIME 0
#endif

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <random>
#include <vector>

namespace kernels {
using intent::index;
using intent::parallel_for;
using intent::view;

/// The number of steps of a bounded digit walk: a helper with a loop and
/// two returns.
inline int digitSteps(std::int64_t V) {
  if (V == 0)
    return 0;
  int Steps = 0;
  do {
    V /= 10;
    ++Steps;
  } while (V != 0);
  return Steps;
}

[[intent::kernel]] void math_types(view<std::int8_t, 1> i8, view<std::uint8_t, 1> u8,
                                   view<std::int16_t, 1> i16, view<std::uint32_t, 1> u32,
                                   view<std::int64_t, 1> i64, view<float, 1> f32,
                                   view<double, 1> f64, view<const std::int32_t, 1> x,
                                   view<const std::int32_t, 1> y, view<const float, 1> fx) {
  parallel_for(x.extent(0), [&](index i) {
    std::int32_t a = x[i], b = y[i];
    std::int32_t d = b == 0 ? 1 : b;
    i8[i] = static_cast<std::int8_t>((a / d) % 100);
    u8[i] = static_cast<std::uint8_t>(a & 0xff);
    i16[i] = static_cast<std::int16_t>(std::max(std::min(a * 3 + (a % d), 32000), -32000));
    std::uint32_t u = static_cast<std::uint32_t>(a);
    u32[i] = (u * 2654435761u) ^ (u >> (static_cast<std::uint32_t>(b) & 31u));
    std::int64_t acc = 0;
    for (std::int32_t k = -3; k <= 3; ++k) {
      if (k == 0)
        continue;
      acc += static_cast<std::int64_t>(a) / k + static_cast<std::int64_t>(b) % k;
    }
    i64[i] = acc * 1000003 + digitSteps(a);
    float v = fx[i];
    bool neg = v < 0.0f;
    f32[i] = neg ? std::exp(v) : std::sqrt(v) + std::sin(v);
    double w = static_cast<double>(v);
    f64[i] = std::atan2(w, 1.5) + std::pow(std::fabs(w) + 1.0, 0.75) +
             std::floor(w * 4.0) / 4.0 + std::fmax(std::log(std::fabs(w) + 2.0), 0.5);
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
  intent::view<T, 1> view() const { return {Data.data(), {size()}}; }
  std::vector<T> to_vector() const { return Data; }

private:
  intent::index size() const { return static_cast<intent::index>(Data.size()); }
  mutable std::vector<T> Data;
};
#endif
} // namespace mem

/// Differences beyond Tol (relative) between Got and Want.
template <class T>
static long far(const std::vector<T> &Got, const std::vector<T> &Want, double Tol) {
  long Bad = 0;
  for (std::size_t I = 0; I < Want.size(); ++I) {
    double G = static_cast<double>(Got[I]), W = static_cast<double>(Want[I]);
    Bad += !(std::fabs(G - W) <= Tol * std::fmax(1.0, std::fabs(W)));
  }
  return Bad;
}

static bool runSize(intent::index N, std::mt19937 &Rng) {
  std::uniform_int_distribution<std::int32_t> Int(-100000, 100000), Small(-40, 40);
  std::uniform_real_distribution<float> Real(-8.0f, 8.0f);
  std::vector<std::int32_t> HX(N), HY(N);
  std::vector<float> HF(N);
  for (intent::index I = 0; I < N; ++I) {
    HX[I] = Int(Rng);
    HY[I] = I % 5 == 0 ? 0 : Small(Rng);
    HF[I] = Real(Rng);
  }
  mem::array<std::int32_t> X(HX), Y(HY);
  mem::array<float> FX(HF);
  mem::array<std::int8_t> I8(N);
  mem::array<std::uint8_t> U8(N);
  mem::array<std::int16_t> I16(N);
  mem::array<std::uint32_t> U32(N);
  mem::array<std::int64_t> I64(N);
  mem::array<float> F32(N);
  mem::array<double> F64(N);
  kernels::math_types(I8.view(), U8.view(), I16.view(), U32.view(), I64.view(),
                      F32.view(), F64.view(), X.view(), Y.view(), FX.view());

  // The serial computation, written out independently of the kernel.
  std::vector<std::int8_t> W8(N);
  std::vector<std::uint8_t> WU8(N);
  std::vector<std::int16_t> W16(N);
  std::vector<std::uint32_t> WU32(N);
  std::vector<std::int64_t> W64(N);
  std::vector<float> WF(N);
  std::vector<double> WD(N);
  for (intent::index I = 0; I < N; ++I) {
    std::int32_t A = HX[I], B = HY[I], D = B == 0 ? 1 : B;
    W8[I] = static_cast<std::int8_t>((A / D) % 100);
    WU8[I] = static_cast<std::uint8_t>(A & 0xff);
    W16[I] = static_cast<std::int16_t>(std::clamp(A * 3 + A % D, -32000, 32000));
    std::uint32_t U = static_cast<std::uint32_t>(A);
    WU32[I] = (U * 2654435761u) ^ (U >> (static_cast<std::uint32_t>(B) & 31u));
    std::int64_t Acc = 0;
    for (int K : {-3, -2, -1, 1, 2, 3})
      Acc += static_cast<std::int64_t>(A) / K + static_cast<std::int64_t>(B) % K;
    int Digits = 0;
    for (std::int64_t V = A; V != 0; V /= 10)
      ++Digits;
    W64[I] = Acc * 1000003 + Digits;
    float V = HF[I];
    WF[I] = V < 0.0f ? std::exp(V) : std::sqrt(V) + std::sin(V);
    double Wd = V;
    WD[I] = std::atan2(Wd, 1.5) + std::pow(std::fabs(Wd) + 1.0, 0.75) +
            std::floor(Wd * 4.0) / 4.0 + std::fmax(std::log(std::fabs(Wd) + 2.0), 0.5);
  }
  long Bad = far(I8.to_vector(), W8, 0) + far(U8.to_vector(), WU8, 0) +
             far(I16.to_vector(), W16, 0) + far(U32.to_vector(), WU32, 0) +
             far(I64.to_vector(), W64, 0) + far(F32.to_vector(), WF, 2e-6) +
             far(F64.to_vector(), WD, 1e-13);
  std::printf("math_types n=%lld: %s (%ld mismatches)\n", static_cast<long long>(N),
              Bad ? "FAIL" : "ok", Bad);
  return Bad == 0;
}

int main() {
  std::mt19937 Rng(11);
  bool Ok = true;
  for (intent::index N : {0, 1, 2, 31, 1000, 100003})
    Ok = runSize(N, Rng) && Ok;
  return Ok ? 0 : 1;
}
