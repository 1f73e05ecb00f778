// Tests philox: Random123 known answers, block layout, uniform and normal.

#include "intent/intent.hpp"
#include "test_util.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <cstdint>
#include <set>

namespace {
using namespace intent;
using intent::index; // <strings.h>, pulled in by gtest, declares ::index().

void expectBlock(philox_block Got, std::uint32_t W0, std::uint32_t W1,
                 std::uint32_t W2, std::uint32_t W3) {
  EXPECT_EQ(Got.w[0], W0);
  EXPECT_EQ(Got.w[1], W1);
  EXPECT_EQ(Got.w[2], W2);
  EXPECT_EQ(Got.w[3], W3);
}

// Random123 kat_vectors, philox4x32 10 rounds.
TEST(Philox, KnownAnswerZeros) {
  expectBlock(philox4x32_10({{0, 0, 0, 0}}, {{0, 0}}), 0x6627e8d5u, 0xe169c58du,
              0xbc57ac4cu, 0x9b00dbd8u);
}

TEST(Philox, KnownAnswerOnes) {
  const std::uint32_t F = 0xffffffffu;
  expectBlock(philox4x32_10({{F, F, F, F}}, {{F, F}}), 0x408f276du, 0x41c83b0eu,
              0xa20bc7c6u, 0x6d5451fdu);
}

TEST(Philox, KnownAnswerPiDigits) {
  expectBlock(
      philox4x32_10({{0x243f6a88u, 0x85a308d3u, 0x13198a2eu, 0x03707344u}},
                    {{0xa4093822u, 0x299f31d0u}}),
      0xd16cfe09u, 0x94fdccebu, 0x5001e420u, 0x24126ea1u);
}

TEST(Philox, GeneratorLaysOutSeedStreamAndCounter) {
  // key = (seed lo, seed hi); counter block = (ctr lo, ctr hi, stream lo, hi).
  philox Pi(0x299f31d0a4093822ull, 0x0370734413198a2eull);
  expectBlock(Pi.block(0x85a308d3243f6a88ull), 0xd16cfe09u, 0x94fdccebu,
              0x5001e420u, 0x24126ea1u);
  EXPECT_EQ(Pi.u32(0x85a308d3243f6a88ull), 0xd16cfe09u);
  EXPECT_EQ(philox(0, 0).u32(0), 0x6627e8d5u);
  const std::uint64_t Ones = ~std::uint64_t(0);
  EXPECT_EQ(philox(Ones, Ones).u32(Ones), 0x408f276du);
  EXPECT_EQ(Pi.stream(), 0x0370734413198a2eull);
  EXPECT_EQ(Pi.key().w[0], 0xa4093822u);
  EXPECT_EQ(Pi.key().w[1], 0x299f31d0u);
}

TEST(Philox, SameInputsSameOutputs) {
  const philox A(12345, 7), B(12345, 7);
  for (std::uint64_t C = 0; C < 1000; ++C) {
    EXPECT_EQ(A.u32(C), B.u32(C));
    EXPECT_EQ(A.uniform(C), B.uniform(C));
  }
}

TEST(Philox, StreamsSeedsAndCountersDiffer) {
  std::set<std::uint32_t> Seen;
  for (std::uint64_t Seed : {1ull, 2ull, 1ull << 32})
    for (std::uint64_t Stream : {0ull, 1ull, 1ull << 32})
      for (std::uint64_t C : {0ull, 1ull, 1ull << 32})
        Seen.insert(philox(Seed, Stream).u32(C));
  EXPECT_EQ(Seen.size(), 27u);
}

TEST(Philox, UniformIsTheTop24BitsScaled) {
  philox G(2024, 3);
  double Sum = 0;
  const int N = 100000;
  for (int C = 0; C < N; ++C) {
    float U = G.uniform(C);
    EXPECT_EQ(U, static_cast<float>(G.u32(C) >> 8) / 16777216.0f);
    ASSERT_GE(U, 0.0f);
    ASSERT_LT(U, 1.0f);
    Sum += U;
  }
  EXPECT_NEAR(Sum / N, 0.5, 0.01);
}

namespace {
/// Distance in units in the last place between two finite floats of one
/// sign (or zero).
long ulps(float A, float B) {
  std::int32_t X, Y;
  std::memcpy(&X, &A, 4);
  std::memcpy(&Y, &B, 4);
  if ((X < 0) != (Y < 0))
    return A == B ? 0 : 1L << 30;
  return std::labs(static_cast<long>(X) - static_cast<long>(Y));
}
} // namespace

TEST(Philox, LogOfEveryDrawWithinTwoUlp) {
  // det_log_unit(A) = ln(A * 2^-24), every A in [1, 2^24] (A = 2^24 is 0).
  EXPECT_EQ(intent::detail::det_log_unit(1u << 24), 0.0f);
  long Worst = 0;
  for (std::uint32_t A = 1; A < (1u << 24); ++A) {
    float Want = static_cast<float>(std::log(A / 16777216.0));
    long U = ulps(intent::detail::det_log_unit(A), Want);
    Worst = U > Worst ? U : Worst;
  }
  EXPECT_LE(Worst, 2);
}

TEST(Philox, CosOfEveryTurnWithinTwoUlp) {
  // det_cos_turns(J) = cos(2 pi J / 2^24), every J; near the zeros of cos,
  // within 1e-7 absolute instead.
  long Worst = 0;
  double WorstAbs = 0;
  for (std::uint32_t J = 0; J < (1u << 24); ++J) {
    double Want = std::cos(6.283185307179586476925 * J / 16777216.0);
    float Got = intent::detail::det_cos_turns(J);
    WorstAbs = std::max(WorstAbs, std::fabs(Got - Want));
    if (std::fabs(Want) > 1e-3)
      Worst = std::max(Worst, ulps(Got, static_cast<float>(Want)));
  }
  EXPECT_LE(Worst, 2);
  EXPECT_LE(WorstAbs, 1e-7);
}

TEST(Philox, NormalIsBoxMullerOnWordsZeroAndOne) {
  philox G(99, 0);
  long Worst = 0;
  for (std::uint64_t C = 0; C < 1000000; ++C) {
    philox_block B = G.block(C);
    double U1 = ((B.w[0] >> 8) + 1) / 16777216.0;
    double U2 = (B.w[1] >> 8) / 16777216.0;
    double Z =
        std::sqrt(-2.0 * std::log(U1)) * std::cos(6.283185307179586 * U2);
    float Got = G.normal(C);
    ASSERT_NEAR(Got, Z, 1e-6) << "counter " << C;
    if (std::fabs(Z) > 1e-3)
      Worst = std::max(Worst, ulps(Got, static_cast<float>(Z)));
  }
  EXPECT_LE(Worst, 4);
}

TEST(Philox, NormalBitsArePinned) {
  // The first draws of one generator, as bit patterns: normal() is defined
  // by the header's operations, so these never change with the compiler,
  // its flags or the device (test/runtime/philox_modes.cu compares devices).
  philox G(12345, 7);
  std::uint64_t H = 1469598103934665603ull; // FNV-1a over 4M draws
  for (std::uint64_t C = 0; C < 4000000; ++C) {
    float Z = G.normal(C);
    std::uint32_t Bits;
    std::memcpy(&Bits, &Z, 4);
    H = (H ^ Bits) * 1099511628211ull;
  }
  EXPECT_EQ(H, 0x741a15a02699bc88ull);
}

TEST(Philox, NormalHasUnitMoments) {
  philox G(7, 11);
  const int N = 200000;
  double Sum = 0, SumSq = 0;
  for (int C = 0; C < N; ++C) {
    float Z = G.normal(C);
    ASSERT_TRUE(std::isfinite(Z));
    Sum += Z;
    SumSq += double(Z) * Z;
  }
  double Mean = Sum / N;
  EXPECT_NEAR(Mean, 0.0, 0.01);
  EXPECT_NEAR(SumSq / N - Mean * Mean, 1.0, 0.02);
}

TEST(Philox, DrawsPerIterationInsideParallelFor) {
  // Each iteration draws from its own counter: the result does not depend on
  // the visiting order.
  philox G(5, 1);
  std::vector<float> Out(64);
  view<float, 1> O = intent_test::viewOf(Out);
  parallel_for(
      64, [&](index I) { O[I] = G.uniform(static_cast<std::uint64_t>(I)); });
  for (index I = 63; I >= 0; --I)
    EXPECT_EQ(Out[I], G.uniform(static_cast<std::uint64_t>(I)));
}

} // namespace
