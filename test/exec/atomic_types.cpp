// Execution test: every atomic (add, min, max, exch, cas) on every element
// type atomics support (int32, uint32, int64, uint64, float, double), with
// every memory order, from many instances of one parallel_for at once.
// Checked properties do not depend on the order the instances ran in:
//   acc[0] = min, acc[1] = max of the samples (exact; a NaN sample makes the
//   float min/max NaN, as intent::ops::min/max propagate it);
//   acc[2] = sum (exact for integers, which wrap; floats within a tolerance:
//   float atomic adds round in the order they happen);
//   acc[3]: every instance exchanges in its own sample; the final value and
//   the n old values together are exactly the n samples plus the initial
//   value (a permutation);
//   acc[4]: a CAS loop that increments (old values unique, final = n).
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
#include <cstring>
#include <limits>
#include <random>
#include <type_traits>
#include <vector>

namespace kernels {
using intent::index;
using intent::memory_order;
using intent::parallel_for;
using intent::view;

template <class T>
[[intent::kernel]] void all_atomics(view<T, 1> acc, view<T, 1> olds,
                                    view<T, 1> tickets,
                                    view<const T, 1> x) {
  parallel_for(x.extent(0), [&](index i) {
    T v = x[i];
    intent::atomic_min(acc[0], v, memory_order::acquire);
    intent::atomic_max(acc[1], v, memory_order::release);
    intent::atomic_add(acc[2], v, memory_order::acq_rel);
    olds[i] = intent::atomic_exch(acc[3], v, memory_order::seq_cst);
    T expected = T(0);
    while (true) {
      intent::cas_result<T> r =
          intent::atomic_cas(acc[4], expected, static_cast<T>(expected + T(1)));
      if (r.success)
        break;
      expected = r.old;
    }
    tickets[i] = expected;
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
  std::vector<T> to_vector() const { return Data; }

private:
  std::vector<T> Data;
};
#endif

template <class T> static bool sameBits(T A, T B) {
  return std::memcmp(&A, &B, sizeof(T)) == 0;
}

template <class T>
static bool runType(const char *Name, intent::index N, bool WithNaN,
                    std::mt19937 &Rng) {
  std::vector<T> HX(N);
  for (intent::index I = 0; I < N; ++I) {
    if constexpr (std::is_floating_point<T>::value) {
      std::uniform_real_distribution<double> D(-1000.0, 1000.0);
      T V = static_cast<T>(D(Rng));
      HX[I] = V == T(0) ? T(1) : V; // no signed-zero ties
    } else {
      std::uint64_t R = static_cast<std::uint64_t>(Rng());
      HX[I] = static_cast<T>(sizeof(T) == 8 ? R * 4294967311ull : R);
    }
  }
  if (WithNaN && N > 0)
    HX[N / 2] = std::numeric_limits<T>::quiet_NaN();
  const T Init3 = T(7);
  std::vector<T> Init = {std::numeric_limits<T>::has_infinity
                             ? std::numeric_limits<T>::infinity()
                             : std::numeric_limits<T>::max(),
                         std::numeric_limits<T>::has_infinity
                             ? -std::numeric_limits<T>::infinity()
                             : std::numeric_limits<T>::lowest(),
                         T(0), Init3, T(0)};
  std::vector<T> Want = Init;
  double Scale = 0;
  for (T V : HX) {
    Want[0] = intent::ops::min{}(Want[0], V);
    Want[1] = intent::ops::max{}(Want[1], V);
    if constexpr (std::is_floating_point<T>::value) {
      Want[2] += V;
      Scale += std::fabs(static_cast<double>(V));
    } else {
      using U = std::make_unsigned_t<T>;
      Want[2] = static_cast<T>(static_cast<U>(Want[2]) + static_cast<U>(V));
    }
  }
  Array<T> Acc(Init), Olds(std::vector<T>(N, T(0))),
      Tickets(std::vector<T>(N, T(0))), X(HX);
  kernels::all_atomics<T>(Acc.view(), Olds.view(), Tickets.view(), X.view());
  std::vector<T> Got = Acc.to_vector(), O = Olds.to_vector(),
                 Tk = Tickets.to_vector();
  long Bad = 0;
  Bad += !sameBits(Got[0], Want[0]) && !(Got[0] != Got[0] && Want[0] != Want[0]);
  Bad += !sameBits(Got[1], Want[1]) && !(Got[1] != Got[1] && Want[1] != Want[1]);
  if constexpr (std::is_floating_point<T>::value) {
    if (!(WithNaN && N > 0))
      Bad += !(std::fabs(static_cast<double>(Got[2]) - static_cast<double>(Want[2])) <=
               (sizeof(T) == 4 ? 1e-5 : 1e-12) * Scale + 1e-6);
    else
      Bad += !(Got[2] != Got[2]);
  } else {
    Bad += Got[2] != Want[2];
  }
  // exch: {final} + olds == {Init3} + samples, as multisets of bit patterns.
  auto bitsOf = [](const std::vector<T> &V) {
    std::vector<std::uint64_t> B;
    for (T E : V) {
      std::uint64_t U = 0;
      std::memcpy(&U, &E, sizeof(T));
      B.push_back(U);
    }
    std::sort(B.begin(), B.end());
    return B;
  };
  std::vector<T> Lhs = O, Rhs = HX;
  Lhs.push_back(Got[3]);
  Rhs.push_back(Init3);
  Bad += bitsOf(Lhs) != bitsOf(Rhs);
  // CAS increments: tickets are 0..N-1, the counter N.
  std::vector<T> Sorted = Tk;
  std::sort(Sorted.begin(), Sorted.end());
  for (intent::index I = 0; I < N; ++I)
    Bad += Sorted[I] != static_cast<T>(I);
  Bad += Got[4] != static_cast<T>(N);
  std::printf("atomic_types %-8s n=%lld%s: %s (bad %ld)\n", Name,
              static_cast<long long>(N), WithNaN ? " nan" : "",
              Bad ? "FAIL" : "ok", Bad);
  return Bad == 0;
}

int main() {
  std::mt19937 Rng(77);
  bool Ok = true;
  for (intent::index N : {0, 1, 2, 37, 1000, 20001}) {
    Ok = runType<std::int32_t>("int32", N, false, Rng) && Ok;
    Ok = runType<std::uint32_t>("uint32", N, false, Rng) && Ok;
    Ok = runType<std::int64_t>("int64", N, false, Rng) && Ok;
    Ok = runType<std::uint64_t>("uint64", N, false, Rng) && Ok;
    Ok = runType<float>("float", N, false, Rng) && Ok;
    Ok = runType<double>("double", N, false, Rng) && Ok;
    Ok = runType<float>("float", N, true, Rng) && Ok;
    Ok = runType<double>("double", N, true, Rng) && Ok;
  }
  return Ok ? 0 : 1;
}
