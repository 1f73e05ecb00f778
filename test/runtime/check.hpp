//===- check.hpp - A tiny self-checking harness for execution tests ------===//
//
// The runtime's execution tests are ordinary programs (as a user would write
// them) that compare what a kernel call produced with a serial computation
// written out in the test, and check the launch statistics. Each prints one
// line per failed check and a summary, and exits non-zero on any failure.
//
//===----------------------------------------------------------------------===//

#ifndef INTENT_TEST_RUNTIME_CHECK_HPP
#define INTENT_TEST_RUNTIME_CHECK_HPP

#include <intent/array.hpp>
#include <intent/runtime/api.hpp>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

namespace check {

/// Launch statistics at one point of a test.
struct counters {
  std::uint64_t Launches;
  std::uint64_t Programs;
};

inline counters now() {
  return {intent::rt::launch_count(), intent::rt::program_count()};
}

inline bool reference() {
  return intent::rt::mode() == intent::rt::device_mode::reference;
}

class suite {
public:
  explicit suite(std::string Name) : Name(std::move(Name)), Rng(12345) {}

  /// Records one check.
  bool expect(bool Ok, const std::string &What) {
    ++Checks;
    if (!Ok) {
      ++Failures;
      std::printf("FAIL %s: %s\n", Name.c_str(), What.c_str());
    }
    return Ok;
  }

  /// Checks that exactly one kernel call happened since Before and, in the
  /// launching modes, that it ran Programs program instances.
  void expectOneLaunch(const counters &Before, std::uint64_t Programs,
                       const std::string &What) {
    counters After = now();
    expect(After.Launches == Before.Launches + 1,
           What + ": " + std::to_string(After.Launches - Before.Launches) +
               " launches for one call");
    std::uint64_t Want = reference() ? 0 : Programs;
    expect(After.Programs == Before.Programs + Want,
           What + ": " + std::to_string(After.Programs - Before.Programs) +
               " programs, expected " + std::to_string(Want));
  }

  /// Element-wise comparison within a relative tolerance (0: exact).
  template <class T>
  void expectNear(const std::vector<T> &Got, const std::vector<T> &Want,
                  double RelTol, const std::string &What) {
    if (!expect(Got.size() == Want.size(), What + ": size " +
                                               std::to_string(Got.size()) +
                                               " != " +
                                               std::to_string(Want.size())))
      return;
    for (std::size_t I = 0; I < Got.size(); ++I) {
      double G = static_cast<double>(Got[I]), W = static_cast<double>(Want[I]);
      double Err = std::fabs(G - W);
      // NaN matches only NaN (a NaN difference would compare as "near").
      bool Bad = std::isnan(G) || std::isnan(W)
                     ? std::isnan(G) != std::isnan(W)
                     : Err > RelTol * std::fmax(1.0, std::fabs(W));
      if (Bad) {
        expect(false, What + ": element " + std::to_string(I) + " is " +
                          std::to_string(G) + ", expected " +
                          std::to_string(W));
        return;
      }
    }
    expect(true, What);
  }

  /// N uniform floats in [-1, 1).
  std::vector<float> floats(std::size_t N) {
    std::uniform_real_distribution<float> D(-1.0f, 1.0f);
    std::vector<float> V(N);
    for (float &X : V)
      X = D(Rng);
    return V;
  }

  /// N uniform ints in [Lo, Hi].
  std::vector<int> ints(std::size_t N, int Lo, int Hi) {
    std::uniform_int_distribution<int> D(Lo, Hi);
    std::vector<int> V(N);
    for (int &X : V)
      X = D(Rng);
    return V;
  }

  /// Prints the summary; the process's exit code.
  int finish() const {
    std::printf("%s [%s]: %d checks, %d failed\n", Name.c_str(),
                intent::rt::mode_name(intent::rt::mode()), Checks, Failures);
    return Failures == 0 && Checks > 0 ? 0 : 1;
  }

private:
  std::string Name;
  std::mt19937 Rng;
  int Checks = 0;
  int Failures = 0;
};

} // namespace check

#endif // INTENT_TEST_RUNTIME_CHECK_HPP
