//===- test_util.hpp - Shared helpers for the header unit tests -----------===//
//
// Seeded random data (platform-independent: mt19937 words converted by hand,
// not through std distributions) and the sizes the tests sweep.
//
//===----------------------------------------------------------------------===//

#ifndef INTENT_TEST_UNIT_HEADER_TEST_UTIL_HPP
#define INTENT_TEST_UNIT_HEADER_TEST_UTIL_HPP

#include "intent/intent.hpp"

#include <cstdint>
#include <random>
#include <vector>

namespace intent_test {

/// Sizes covering empty, tiny, odd, power-of-two and large inputs.
inline std::vector<intent::index> sizes() {
  return {0, 1, 2, 3, 7, 31, 64, 1000, (1 << 16) + 3};
}

/// A uniform float in [Lo, Hi) from one generator word.
inline float uniformFloat(std::mt19937 &Gen, float Lo, float Hi) {
  float U = static_cast<float>(Gen() >> 8) * (1.0f / 16777216.0f);
  return Lo + (Hi - Lo) * U;
}

/// N uniform floats in [Lo, Hi).
inline std::vector<float> randomFloats(intent::index N, std::uint32_t Seed,
                                       float Lo = -1.0f, float Hi = 1.0f) {
  std::mt19937 Gen(Seed);
  std::vector<float> V(static_cast<std::size_t>(N));
  for (float &X : V)
    X = uniformFloat(Gen, Lo, Hi);
  return V;
}

/// N uniform doubles in [Lo, Hi).
inline std::vector<double> randomDoubles(intent::index N, std::uint32_t Seed,
                                         double Lo = -1.0, double Hi = 1.0) {
  std::mt19937 Gen(Seed);
  std::vector<double> V(static_cast<std::size_t>(N));
  for (double &X : V)
    X = Lo + (Hi - Lo) * (static_cast<double>(Gen()) / 4294967296.0);
  return V;
}

/// N integers in [Lo, Hi] (Hi - Lo small compared with 2^32).
inline std::vector<int> randomInts(intent::index N, std::uint32_t Seed, int Lo,
                                   int Hi) {
  std::mt19937 Gen(Seed);
  std::vector<int> V(static_cast<std::size_t>(N));
  auto Span = static_cast<std::uint32_t>(Hi - Lo + 1);
  for (int &X : V)
    X = Lo + static_cast<int>(Gen() % Span);
  return V;
}

/// A rank-1 view of a whole vector.
template <class T> intent::view<T, 1> viewOf(std::vector<T> &V) {
  return intent::view<T, 1>(V.data(), {static_cast<intent::index>(V.size())});
}

/// A read-only rank-1 view of a whole vector.
template <class T> intent::view<const T, 1> viewOf(const std::vector<T> &V) {
  return intent::view<const T, 1>(V.data(),
                                  {static_cast<intent::index>(V.size())});
}

/// Ragged-region offsets for N regions with lengths in [0, MaxLen], about a
/// quarter of them empty, starting at Start.
inline std::vector<int> randomOffsets(intent::index N, std::uint32_t Seed,
                                      int MaxLen, int Start = 0) {
  std::mt19937 Gen(Seed);
  std::vector<int> Offsets{Start};
  for (intent::index R = 0; R < N; ++R) {
    int Len = Gen() % 4 == 0 ? 0 : static_cast<int>(Gen() % (MaxLen + 1));
    Offsets.push_back(Offsets.back() + Len);
  }
  return Offsets;
}

} // namespace intent_test

#endif // INTENT_TEST_UNIT_HEADER_TEST_UTIL_HPP
