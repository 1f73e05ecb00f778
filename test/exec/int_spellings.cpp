// Execution test: kernels over every integer spelling as view element and
// scalar parameter (long long, unsigned long long, long, unsigned long,
// std::int64_t, std::size_t, std::ptrdiff_t, short, unsigned short,
// signed char, unsigned char, char, int8_t .. uint64_t, int, unsigned): the
// call passes views of the user's own element type to the launcher. Each
// kernel computes y[i] = T(a * x[i] + y[i]) (integer arithmetic wraps on
// the conversion back to T) and the sum of x in T, checked against the
// same computation done serially on the host, for sizes 0, 1, odd and large.
// A plain (non-template) kernel over long long 2-D views checks ranks > 1.
#if __has_include(<intent/runtime.hpp>)
#include <intent/runtime.hpp>
#define TEST_HAS_RUNTIME 1
#else
#include <intent/intent.hpp>
#define TEST_HAS_RUNTIME 0
#endif

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <random>
#include <vector>

namespace kernels {
using intent::index;
using intent::parallel_for;
using intent::view;

template <class T>
[[intent::kernel]] void axpy_sum(view<T, 1> y, view<const T, 1> x,
                                 view<T, 1> total, T a) {
  parallel_for(y.extent(0),
               [&](index i) { y[i] = static_cast<T>(a * x[i] + y[i]); });
  total[0] = intent::reduce(x.extent(0), T(0), intent::ops::plus{},
                            [&](index i) { return x[i]; });
}

[[intent::kernel]] void transpose_ll(view<long long, 2> out,
                                     view<const long long, 2> in,
                                     long long shift) {
  parallel_for(in.extent(0), in.extent(1), [&](index i, index j) {
    out(j, i) = in(i, j) + shift;
  });
}

} // namespace kernels

#if TEST_HAS_RUNTIME
template <class T> using Array = intent::array<T>;
#else
template <class T> class Array {
public:
  explicit Array(const std::vector<T> &V) : Data(V) {}
  intent::view<T, 1> view() {
    return {Data.data(), {static_cast<intent::index>(Data.size())}};
  }
  intent::view<T, 2> view(intent::index N0, intent::index N1) {
    return {Data.data(), {N0, N1}};
  }
  std::vector<T> to_vector() const { return Data; }

private:
  std::vector<T> Data;
};
#endif

template <class T>
static bool runType(const char *Name, intent::index N, std::mt19937 &Rng) {
  std::uniform_int_distribution<int> D(-60, 60);
  std::vector<T> HX(N), HY(N);
  for (intent::index I = 0; I < N; ++I) {
    HX[I] = static_cast<T>(D(Rng));
    HY[I] = static_cast<T>(D(Rng));
  }
  const T A = static_cast<T>(3);
  std::vector<T> WantY(N);
  T WantSum = T(0);
  for (intent::index I = 0; I < N; ++I) {
    WantY[I] = static_cast<T>(A * HX[I] + HY[I]);
    WantSum = static_cast<T>(WantSum + HX[I]);
  }
  Array<T> Y(HY), X(HX), Total(std::vector<T>(1, T(5)));
  kernels::axpy_sum<T>(Y.view(), X.view(), Total.view(), A);
  std::vector<T> GotY = Y.to_vector(), GotSum = Total.to_vector();
  long Bad = GotSum[0] != WantSum;
  for (intent::index I = 0; I < N; ++I)
    Bad += GotY[I] != WantY[I];
  std::printf("int_spellings %-18s n=%lld: %s (bad %ld)\n", Name,
              static_cast<long long>(N), Bad ? "FAIL" : "ok", Bad);
  return Bad == 0;
}

static bool runTranspose(intent::index M, intent::index N) {
  std::vector<long long> In(M * N), Want(M * N);
  for (intent::index I = 0; I < M * N; ++I)
    In[I] = (1LL << 40) + I * 7;
  for (intent::index I = 0; I < M; ++I)
    for (intent::index J = 0; J < N; ++J)
      Want[J * M + I] = In[I * N + J] - 3;
  Array<long long> A(In), B(std::vector<long long>(M * N, 0));
  kernels::transpose_ll(B.view(N, M), A.view(M, N), -3);
  std::vector<long long> Got = B.to_vector();
  long Bad = 0;
  for (intent::index I = 0; I < M * N; ++I)
    Bad += Got[I] != Want[I];
  std::printf("int_spellings transpose %lldx%lld: %s (bad %ld)\n",
              static_cast<long long>(M), static_cast<long long>(N),
              Bad ? "FAIL" : "ok", Bad);
  return Bad == 0;
}

int main() {
  std::mt19937 Rng(15);
  bool Ok = true;
  for (intent::index N : {0, 1, 37, 100003}) {
    Ok = runType<long long>("long long", N, Rng) && Ok;
    Ok = runType<unsigned long long>("unsigned long long", N, Rng) && Ok;
    Ok = runType<long>("long", N, Rng) && Ok;
    Ok = runType<unsigned long>("unsigned long", N, Rng) && Ok;
    Ok = runType<std::int64_t>("std::int64_t", N, Rng) && Ok;
    Ok = runType<std::size_t>("std::size_t", N, Rng) && Ok;
    Ok = runType<std::ptrdiff_t>("std::ptrdiff_t", N, Rng) && Ok;
    Ok = runType<short>("short", N, Rng) && Ok;
    Ok = runType<unsigned short>("unsigned short", N, Rng) && Ok;
    Ok = runType<signed char>("signed char", N, Rng) && Ok;
    Ok = runType<unsigned char>("unsigned char", N, Rng) && Ok;
    Ok = runType<char>("char", N, Rng) && Ok;
    Ok = runType<std::int8_t>("int8_t", N, Rng) && Ok;
    Ok = runType<std::uint8_t>("uint8_t", N, Rng) && Ok;
    Ok = runType<std::int16_t>("int16_t", N, Rng) && Ok;
    Ok = runType<std::uint16_t>("uint16_t", N, Rng) && Ok;
    Ok = runType<std::int32_t>("int32_t", N, Rng) && Ok;
    Ok = runType<std::uint32_t>("uint32_t", N, Rng) && Ok;
    Ok = runType<std::uint64_t>("uint64_t", N, Rng) && Ok;
    Ok = runType<int>("int", N, Rng) && Ok;
    Ok = runType<unsigned>("unsigned", N, Rng) && Ok;
  }
  Ok = runTranspose(0, 3) && Ok;
  Ok = runTranspose(1, 1) && Ok;
  Ok = runTranspose(37, 5) && Ok;
  Ok = runTranspose(301, 299) && Ok;
  return Ok ? 0 : 1;
}
