// intent::half / intent::bfloat16: round-to-nearest-even conversions checked
// against an independent reference (exact arithmetic in double with ldexp),
// every half bit pattern round-tripped, NaN/inf/-0 and subnormals.

#include "intent/half.hpp"
#include "intent/matmul.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <type_traits>

namespace {

std::uint32_t bitsOf(float F) {
  std::uint32_t U;
  std::memcpy(&U, &F, 4);
  return U;
}

/// Value of a finite binary16 bit pattern, computed in double.
double halfValue(std::uint16_t H) {
  int E = (H >> 10) & 0x1f, M = H & 0x3ff;
  double V = E == 0 ? std::ldexp(M, -24) : std::ldexp(1024 + M, E - 25);
  return (H & 0x8000) ? -V : V;
}

/// Reference rounding of a finite float to binary16 by searching the two
/// neighbours in double arithmetic (independent of the header's bit code).
std::uint16_t refHalf(float F) {
  double X = std::fabs(static_cast<double>(F));
  std::uint16_t Sign = std::signbit(F) ? 0x8000 : 0;
  if (X >= 65520.0)
    return Sign | 0x7c00;
  std::uint16_t Lo = 0;
  for (std::uint16_t H = 0; H < 0x7c00; ++H)
    if (halfValue(H) <= X)
      Lo = H;
  if (halfValue(Lo) == X)
    return Sign | Lo;
  double DLo = X - halfValue(Lo), DHi = halfValue(Lo + 1) - X;
  std::uint16_t R = DLo < DHi ? Lo : DHi < DLo ? Lo + 1 : (Lo & 1 ? Lo + 1 : Lo);
  return Sign | R;
}

TEST(HalfTest, TriviallyCopyable16Bit) {
  static_assert(std::is_trivially_copyable<intent::half>::value);
  static_assert(std::is_trivially_copyable<intent::bfloat16>::value);
  static_assert(sizeof(intent::half) == 2 && sizeof(intent::bfloat16) == 2);
  static_assert(std::is_same<intent::accumulator_t<intent::half>, float>::value);
  static_assert(
      std::is_same<intent::accumulator_t<intent::bfloat16>, float>::value);
  static_assert(std::is_same<intent::accumulator_t<double>, double>::value);
}

TEST(HalfTest, EveryHalfRoundTrips) {
  for (std::uint32_t B = 0; B < 0x10000; ++B) {
    intent::half H = intent::half::fromBits(static_cast<std::uint16_t>(B));
    float F = H;
    if (((B >> 10) & 0x1f) == 0x1f && (B & 0x3ff)) {
      EXPECT_TRUE(std::isnan(F)) << B;
      EXPECT_TRUE(std::isnan(static_cast<float>(intent::half(F))));
      continue;
    }
    if (((B >> 10) & 0x1f) != 0x1f)
      EXPECT_EQ(static_cast<double>(F), halfValue(static_cast<std::uint16_t>(B)));
    EXPECT_EQ(intent::half(F).bits, B) << B;
  }
}

TEST(HalfTest, RoundsToNearestEven) {
  std::mt19937 Rng(7);
  std::uniform_int_distribution<std::uint32_t> Bits;
  // Random floats in the half range and around ties/subnormals.
  for (int N = 0; N < 3000; ++N) {
    float F;
    if (N % 3 == 0) {
      std::uint32_t U = (Bits(Rng) & 0x807fffffu) |
                        ((Bits(Rng) % 40 + 100) << 23); // 2^-27 .. 2^12
      std::memcpy(&F, &U, 4);
    } else if (N % 3 == 1) {
      // exact midpoints between neighbouring halves
      std::uint16_t H = Bits(Rng) % 0x7bff;
      F = static_cast<float>((halfValue(H) + halfValue(H + 1)) / 2);
    } else {
      F = std::uniform_real_distribution<float>(-70000.f, 70000.f)(Rng);
    }
    EXPECT_EQ(intent::half(F).bits, refHalf(F)) << F;
  }
  EXPECT_EQ(intent::half(65504.0f).bits, 0x7bff);
  EXPECT_EQ(intent::half(65519.996f).bits, 0x7bff);
  EXPECT_EQ(intent::half(65520.0f).bits, 0x7c00);
  EXPECT_EQ(intent::half(-INFINITY).bits, 0xfc00);
  EXPECT_EQ(intent::half(-0.0f).bits, 0x8000);
  EXPECT_EQ(intent::half(std::ldexp(1.0f, -24)).bits, 0x0001);
  EXPECT_EQ(intent::half(std::ldexp(1.0f, -25)).bits, 0x0000); // tie -> even
  EXPECT_EQ(intent::half(std::ldexp(1.5f, -25)).bits, 0x0001);
  EXPECT_TRUE(std::isnan(static_cast<float>(intent::half(NAN))));
}

TEST(HalfTest, BFloat16) {
  EXPECT_EQ(intent::bfloat16(1.0f).bits, 0x3f80);
  EXPECT_EQ(intent::bfloat16(-0.0f).bits, 0x8000);
  EXPECT_EQ(intent::bfloat16(INFINITY).bits, 0x7f80);
  EXPECT_TRUE(std::isnan(static_cast<float>(intent::bfloat16(NAN))));
  // A NaN whose payload lies only in the low 16 bits stays a NaN.
  float LowNaN;
  std::uint32_t U = 0x7f800001u;
  std::memcpy(&LowNaN, &U, 4);
  EXPECT_TRUE(std::isnan(static_cast<float>(intent::bfloat16(LowNaN))));
  // Ties to even: 1 + 2^-8 is halfway between 1 and 1 + 2^-7.
  EXPECT_EQ(intent::bfloat16(1.0f + std::ldexp(1.0f, -8)).bits, 0x3f80);
  EXPECT_EQ(intent::bfloat16(1.0f + 3 * std::ldexp(1.0f, -8)).bits, 0x3f82);
  // Largest finite rounds up to inf past the midpoint.
  EXPECT_EQ(intent::bfloat16(std::numeric_limits<float>::max()).bits, 0x7f80);
  std::mt19937 Rng(3);
  for (int N = 0; N < 2000; ++N) {
    std::uint32_t B = Rng() & 0xffff;
    if (((B >> 7) & 0xff) == 0xff)
      continue;
    float F = intent::bfloat16::fromBits(static_cast<std::uint16_t>(B));
    EXPECT_EQ(bitsOf(F), B << 16);
    EXPECT_EQ(intent::bfloat16(F).bits, B);
  }
}

TEST(HalfTest, ArithmeticGoesThroughFloat) {
  intent::half A = 1.5f, B = 0.25f;
  float S = A + B; // both convert to float
  EXPECT_EQ(S, 1.75f);
  intent::half C = A * B;
  EXPECT_EQ(static_cast<float>(C), 0.375f);
  EXPECT_TRUE(A > B);
  // The serial matmul over halves accumulates in float.
  intent::half Av[3] = {1.0f, 2.0f, 2049.0f}, Bv[3] = {1.0f, 1.0f, 1.0f};
  intent::half Cv[1];
  intent::view<intent::half, 2> Cm(Cv, {1, 1});
  intent::view<const intent::half, 2> Am(Av, {1, 3}), Bm(Bv, {3, 1});
  intent::matmul(Cm, Am, Bm);
  // 2049 is not a half (rounds to 2048); 1 + 2 + 2048 = 2051 in float, stored
  // as the nearest half 2052.
  EXPECT_EQ(static_cast<float>(Cv[0]), 2052.0f);
}

} // namespace
