//===- examples/support.hpp - Shared helpers of the self-checking examples ===//
//
// The boilerplate every example in examples/ repeats: the Intent headers (the
// runtime when the Intent compiler builds the program, the plain header
// otherwise), the mem::array stand-in that makes an example plain serial C++,
// the launch counter and its INTENT_CHECK_LAUNCHES rule, random inputs,
// tolerance and exact comparisons, and a main() driver over a list of sizes.
// Include it with quotes before the kernels:  #include "support.hpp"
//
//===----------------------------------------------------------------------===//

#ifndef INTENT_EXAMPLES_SUPPORT_HPP
#define INTENT_EXAMPLES_SUPPORT_HPP

#if __has_include(<intent/runtime.hpp>)
#include <intent/runtime.hpp>
#define EXAMPLE_HAS_RUNTIME 1
#else
#include <intent/intent.hpp>
#define EXAMPLE_HAS_RUNTIME 0
#endif

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <initializer_list>
#include <random>
#include <vector>

namespace mem {
#if EXAMPLE_HAS_RUNTIME
template <class T> using array = intent::array<T>;
#else
/// Host memory standing in for intent::array when there is no runtime: the
/// kernels then run their serial bodies on the host.
template <class T> class array {
public:
  explicit array(intent::index N) : Data(static_cast<std::size_t>(N)) {}
  explicit array(const std::vector<T> &V) : Data(V) {}
  /// The rank-1 view of all elements.
  intent::view<T, 1> view() { return {Data.data(), {size()}}; }
  /// The row-major N0 x N1 view of all elements.
  intent::view<T, 2> view(intent::index N0, intent::index N1) {
    return {Data.data(), {N0, N1}};
  }
  /// The elements, copied.
  std::vector<T> to_vector() const { return Data; }
  /// The first element.
  T *data() { return Data.data(); }

private:
  intent::index size() const { return static_cast<intent::index>(Data.size()); }
  std::vector<T> Data;
};
#endif
} // namespace mem

namespace support {

using intent::index;

/// Kernel calls counted by the runtime so far (0 without the runtime).
inline unsigned long long launches() {
#if EXAMPLE_HAS_RUNTIME
  return intent::rt::launch_count();
#else
  return 0;
#endif
}

/// Program instances launched since the previous call (cpu and gpu modes;
/// the first call counts from the start), or -1 where instances are not
/// counted (reference mode, no runtime).
inline long programsSince() {
#if EXAMPLE_HAS_RUNTIME
  static std::uint64_t Last = 0;
  std::uint64_t Now = intent::rt::program_count();
  long D = static_cast<long>(Now - Last);
  Last = Now;
  return intent::rt::mode() == intent::rt::device_mode::reference ? -1 : D;
#else
  return -1;
#endif
}

/// Checks counted so far that failed (expect()).
inline long &mismatches() {
  static long Bad = 0;
  return Bad;
}

/// A check of a test that runs many: prints "MISMATCH <What> n=<N>" and
/// counts it when Ok is false (the test exits 1 when mismatches() != 0).
inline void expect(bool Ok, const char *What, long N) {
  if (!Ok) {
    std::printf("MISMATCH %s n=%ld\n", What, N);
    ++mismatches();
  }
}

/// True when one kernel call moved the launch counter by Delta: exactly 1,
/// or 0 for a build whose calls are not counted (no Intent compiler) unless
/// INTENT_CHECK_LAUNCHES=1 demands the count.
inline bool oneLaunch(unsigned long long Delta) {
  const char *Env = std::getenv("INTENT_CHECK_LAUNCHES");
  bool Required = Env && Env[0] == '1';
  return Delta == 1 || (Delta == 0 && !Required);
}

/// N floats drawn uniformly from [Lo, Hi).
inline std::vector<float> randomFloats(index N, std::mt19937 &Rng, float Lo,
                                       float Hi) {
  std::uniform_real_distribution<float> Dist(Lo, Hi);
  std::vector<float> V(static_cast<std::size_t>(N));
  for (float &X : V)
    X = Dist(Rng);
  return V;
}

/// N integers drawn uniformly from [Lo, Hi].
inline std::vector<int> randomInts(index N, std::mt19937 &Rng, int Lo, int Hi) {
  std::uniform_int_distribution<int> Dist(Lo, Hi);
  std::vector<int> V(static_cast<std::size_t>(N));
  for (int &X : V)
    X = Dist(Rng);
  return V;
}

/// Offsets of N consecutive regions (N + 1 non-decreasing values from 0)
/// whose sizes are drawn from [0, MaxSize]; about one region in EmptyEvery is
/// forced empty so that empty regions always occur (EmptyEvery 0: never).
inline std::vector<int> randomOffsets(index N, std::mt19937 &Rng, int MaxSize,
                                      int EmptyEvery) {
  std::uniform_int_distribution<int> Size(0, MaxSize);
  std::vector<int> Offsets(static_cast<std::size_t>(N) + 1, 0);
  for (index R = 0; R < N; ++R) {
    bool Empty = EmptyEvery > 0 && Rng() % EmptyEvery == 0;
    Offsets[R + 1] = Offsets[R] + (Empty ? 0 : Size(Rng));
  }
  return Offsets;
}

/// Elements of Got that differ from Want by more than
/// Rel * (Scale[i] when Scale is given, else |Want[i]|) + Abs. Reassociated
/// float sums are compared this way: the scale of a sum is the sum of the
/// magnitudes of its terms. Two NaN compare equal.
inline long closeMismatches(const std::vector<float> &Got,
                            const std::vector<float> &Want, double Rel,
                            double Abs,
                            const std::vector<float> *Scale = nullptr) {
  if (Got.size() != Want.size())
    return static_cast<long>(Want.size()) + 1;
  long Bad = 0;
  for (std::size_t I = 0; I < Got.size(); ++I) {
    if (std::isnan(Got[I]) && std::isnan(Want[I]))
      continue;
    double Mag = Scale ? (*Scale)[I] : std::fabs(static_cast<double>(Want[I]));
    double Err = std::fabs(static_cast<double>(Got[I]) - Want[I]);
    if (!(Err <= Rel * Mag + Abs))
      ++Bad;
  }
  return Bad;
}

/// Elements of Got whose object representation differs from Want's: exact
/// for integers, bit-for-bit for floating point (NaN payloads and the sign of
/// zero included).
template <class T>
long exactMismatches(const std::vector<T> &Got, const std::vector<T> &Want) {
  if (Got.size() != Want.size())
    return static_cast<long>(Want.size()) + 1;
  long Bad = 0;
  for (std::size_t I = 0; I < Got.size(); ++I)
    if (std::memcmp(&Got[I], &Want[I], sizeof(T)) != 0)
      ++Bad;
  return Bad;
}

/// A problem size: N0 (e.g. rows) and N1 (e.g. columns; unused by examples
/// with one size parameter).
struct shape {
  index n0;
  index n1;
};

/// The example driver: with Dims (1 or 2) sizes on the command line runs
/// Run(shape, Rng) once for them, otherwise once per shape of Defaults.
/// Run prints one line per size and returns whether it matched. Returns the
/// process exit status: 0 when every size matched, else 1.
template <class F>
int runShapes(int Argc, char **Argv, int Dims,
              std::initializer_list<shape> Defaults, F &&Run) {
  std::mt19937 Rng(2024);
  if (Argc == 1 + Dims) {
    shape S{std::atol(Argv[1]), Dims > 1 ? std::atol(Argv[2]) : 0};
    return Run(S, Rng) ? 0 : 1;
  }
  if (Argc != 1) {
    std::fprintf(stderr, "usage: %s%s\n", Argv[0], Dims > 1 ? " [N0 N1]" : " [N]");
    return 2;
  }
  bool Ok = true;
  for (const shape &S : Defaults)
    Ok = Run(S, Rng) && Ok;
  return Ok ? 0 : 1;
}

} // namespace support

#endif // INTENT_EXAMPLES_SUPPORT_HPP
