// Tests intent::ops: results, identities, NaN propagation, signed-zero ties.

#include "intent/intent.hpp"
#include "test_util.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>

namespace {
using namespace intent;
using intent::index; // <strings.h>, pulled in by gtest, declares ::index().

const float NaN = std::numeric_limits<float>::quiet_NaN();
const float Inf = std::numeric_limits<float>::infinity();

static_assert(ops::plus::identity<int>() == 0, "identities are constexpr");
static_assert(ops::bit_and::identity<std::uint8_t>() == 0xff,
              "identities are constexpr");

TEST(Ops, ArithmeticResults) {
  EXPECT_EQ(ops::plus{}(2, 3), 5);
  EXPECT_EQ(ops::mul{}(2.5f, 4.0f), 10.0f);
  EXPECT_EQ(ops::max{}(-2, 7), 7);
  EXPECT_EQ(ops::min{}(-2, 7), -2);
  EXPECT_EQ(ops::max{}(2.0, -7.0), 2.0);
  EXPECT_EQ(ops::min{}(2.0, -7.0), -7.0);
  EXPECT_EQ(ops::bit_and{}(0b1100, 0b1010), 0b1000);
  EXPECT_EQ(ops::bit_or{}(0b1100, 0b1010), 0b1110);
  EXPECT_EQ(ops::bit_xor{}(0b1100, 0b1010), 0b0110);
}

TEST(Ops, SmallIntegerTypesKeepTheirType) {
  std::int8_t A = 100, B = 27;
  auto S = ops::plus{}(A, B);
  static_assert(std::is_same<decltype(S), std::int8_t>::value,
                "ops return the operand type");
  EXPECT_EQ(S, 127);
  std::uint16_t X = 0xF0F0, Y = 0x0FF0;
  EXPECT_EQ(ops::bit_xor{}(X, Y), std::uint16_t(0xFF00));
}

TEST(Ops, IdentityValues) {
  EXPECT_EQ(ops::plus::identity<float>(), 0.0f);
  EXPECT_EQ(ops::mul::identity<int>(), 1);
  EXPECT_EQ(ops::max::identity<float>(), -Inf);
  EXPECT_EQ(ops::max::identity<double>(),
            -std::numeric_limits<double>::infinity());
  EXPECT_EQ(ops::max::identity<int>(), std::numeric_limits<int>::min());
  EXPECT_EQ(ops::max::identity<std::int64_t>(),
            std::numeric_limits<std::int64_t>::min());
  EXPECT_EQ(ops::max::identity<unsigned>(), 0u);
  EXPECT_EQ(ops::min::identity<float>(), Inf);
  EXPECT_EQ(ops::min::identity<int>(), std::numeric_limits<int>::max());
  EXPECT_EQ(ops::min::identity<std::uint8_t>(), 255);
  EXPECT_EQ(ops::min::identity<std::int8_t>(), 127);
  EXPECT_EQ(ops::max::identity<std::int8_t>(), -128);
  EXPECT_EQ(ops::min::identity<std::uint64_t>(),
            std::numeric_limits<std::uint64_t>::max());
  EXPECT_EQ(ops::bit_and::identity<std::uint32_t>(), 0xffffffffu);
  EXPECT_EQ(ops::bit_and::identity<int>(), -1);
  EXPECT_EQ(ops::bit_or::identity<int>(), 0);
  EXPECT_EQ(ops::bit_xor::identity<std::uint64_t>(), 0u);
}

TEST(Ops, IdentityIsNeutralForRandomValues) {
  std::vector<float> F = intent_test::randomFloats(1000, 7, -1e6f, 1e6f);
  for (float X : F) {
    EXPECT_EQ(ops::plus{}(ops::plus::identity<float>(), X), X);
    EXPECT_EQ(ops::mul{}(ops::mul::identity<float>(), X), X);
    EXPECT_EQ(ops::max{}(ops::max::identity<float>(), X), X);
    EXPECT_EQ(ops::max{}(X, ops::max::identity<float>()), X);
    EXPECT_EQ(ops::min{}(ops::min::identity<float>(), X), X);
    EXPECT_EQ(ops::min{}(X, ops::min::identity<float>()), X);
  }
  std::vector<int> I = intent_test::randomInts(1000, 8, -1000000, 1000000);
  for (int X : I) {
    EXPECT_EQ(ops::max{}(ops::max::identity<int>(), X), X);
    EXPECT_EQ(ops::min{}(ops::min::identity<int>(), X), X);
    EXPECT_EQ(ops::bit_and{}(ops::bit_and::identity<int>(), X), X);
    EXPECT_EQ(ops::bit_or{}(ops::bit_or::identity<int>(), X), X);
    EXPECT_EQ(ops::bit_xor{}(ops::bit_xor::identity<int>(), X), X);
  }
}

TEST(Ops, MaxAndMinPropagateNaN) {
  EXPECT_TRUE(std::isnan(ops::max{}(NaN, 1.0f)));
  EXPECT_TRUE(std::isnan(ops::max{}(1.0f, NaN)));
  EXPECT_TRUE(std::isnan(ops::max{}(-Inf, NaN)));
  EXPECT_TRUE(std::isnan(ops::max{}(NaN, Inf)));
  EXPECT_TRUE(std::isnan(ops::min{}(NaN, 1.0f)));
  EXPECT_TRUE(std::isnan(ops::min{}(1.0f, NaN)));
  EXPECT_TRUE(std::isnan(ops::min{}(Inf, NaN)));
  EXPECT_TRUE(std::isnan(ops::min{}(NaN, -Inf)));
  EXPECT_TRUE(std::isnan(ops::max{}(std::nan(""), 0.0)));
}

TEST(Ops, MaxAndMinOfEqualOperandsReturnTheLeft) {
  EXPECT_TRUE(std::signbit(ops::max{}(-0.0f, 0.0f)));
  EXPECT_FALSE(std::signbit(ops::max{}(0.0f, -0.0f)));
  EXPECT_TRUE(std::signbit(ops::min{}(-0.0f, 0.0f)));
  EXPECT_FALSE(std::signbit(ops::min{}(0.0f, -0.0f)));
}

TEST(Ops, MaxAndMinHandleInfinities) {
  EXPECT_EQ(ops::max{}(Inf, 1.0f), Inf);
  EXPECT_EQ(ops::max{}(-Inf, -Inf), -Inf);
  EXPECT_EQ(ops::min{}(-Inf, 1.0f), -Inf);
  EXPECT_EQ(ops::min{}(Inf, Inf), Inf);
}

} // namespace
