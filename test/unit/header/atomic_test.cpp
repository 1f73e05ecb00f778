// Tests the atomics: old values returned, min/max NaN rules, bitwise CAS.

#include "intent/intent.hpp"
#include "test_util.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

namespace {
using namespace intent;
using intent::index; // <strings.h>, pulled in by gtest, declares ::index().

TEST(Atomic, AddReturnsTheOldValue) {
  int X = 5;
  EXPECT_EQ(atomic_add(X, 3), 5);
  EXPECT_EQ(X, 8);
  float F = 1.5f;
  EXPECT_EQ(atomic_add(F, 1), 1.5f); // T is deduced from the reference
  EXPECT_EQ(F, 2.5f);
  std::uint64_t U = 0;
  EXPECT_EQ(atomic_add(U, 1, memory_order::seq_cst), 0u);
  EXPECT_EQ(U, 1u);
}

TEST(Atomic, MinAndMaxReturnTheOldValue) {
  int X = 5;
  EXPECT_EQ(atomic_min(X, 9), 5);
  EXPECT_EQ(X, 5);
  EXPECT_EQ(atomic_min(X, -2), 5);
  EXPECT_EQ(X, -2);
  EXPECT_EQ(atomic_max(X, 4, memory_order::acq_rel), -2);
  EXPECT_EQ(X, 4);
  EXPECT_EQ(atomic_max(X, 1), 4);
  EXPECT_EQ(X, 4);
}

TEST(Atomic, FloatMinAndMaxPropagateNaN) {
  float X = 1.0f;
  atomic_max(X, NAN);
  EXPECT_TRUE(std::isnan(X));
  EXPECT_TRUE(std::isnan(atomic_min(X, 0.0f)));
  EXPECT_TRUE(std::isnan(X));
}

TEST(Atomic, ExchangeReturnsTheOldValue) {
  double X = 2.0;
  EXPECT_EQ(atomic_exch(X, 7.0, memory_order::release), 2.0);
  EXPECT_EQ(X, 7.0);
}

TEST(Atomic, CasSucceedsOnlyOnMatch) {
  int X = 3;
  cas_result<int> Miss = atomic_cas(X, 4, 10);
  EXPECT_FALSE(Miss.success);
  EXPECT_EQ(Miss.old, 3);
  EXPECT_EQ(X, 3);
  cas_result<int> Hit = atomic_cas(X, 3, 10, memory_order::acquire);
  EXPECT_TRUE(Hit.success);
  EXPECT_EQ(Hit.old, 3);
  EXPECT_EQ(X, 10);
}

TEST(Atomic, FloatCasComparesBits) {
  float Zero = 0.0f;
  cas_result<float> R = atomic_cas(Zero, -0.0f, 1.0f);
  EXPECT_FALSE(R.success); // -0.0 == +0.0 numerically, but not bitwise
  EXPECT_EQ(Zero, 0.0f);
  float N = std::numeric_limits<float>::quiet_NaN();
  cas_result<float> S =
      atomic_cas(N, std::numeric_limits<float>::quiet_NaN(), 2.0f);
  EXPECT_TRUE(S.success); // the same NaN bits match
  EXPECT_TRUE(std::isnan(S.old));
  EXPECT_EQ(N, 2.0f);
}

TEST(Atomic, CasLoopImplementsAnUpdate) {
  // The classic retry loop: multiply atomically.
  int X = 3;
  for (int Step = 0; Step < 4; ++Step) {
    int Seen = X;
    while (true) {
      cas_result<int> R = atomic_cas(X, Seen, Seen * 2);
      if (R.success)
        break;
      Seen = R.old;
    }
  }
  EXPECT_EQ(X, 48);
}

TEST(Atomic, AddInsideParallelForMatchesLoop) {
  std::vector<int> Keys = intent_test::randomInts(5000, 61, 0, 31);
  std::vector<float> W = intent_test::randomFloats(5000, 62);
  std::vector<float> Sums(32, 0.0f), Expected(32, 0.0f);
  for (index I = 0; I < 5000; ++I)
    Expected[Keys[I]] += W[I];
  view<float, 1> S = intent_test::viewOf(Sums);
  parallel_for(5000, [&](index I) { atomic_add(S[Keys[I]], W[I]); });
  EXPECT_EQ(Sums, Expected);
}

} // namespace
