// Tests reduce: a left fold from init, with ops, lambdas and structs.

#include "intent/intent.hpp"
#include "test_util.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <tuple>
#include <utility>
#include <vector>

namespace {
using namespace intent;
using intent::index; // <strings.h>, pulled in by gtest, declares ::index().

TEST(Reduce, FloatSumIsTheLeftFold) {
  for (index N : intent_test::sizes()) {
    std::vector<float> X = intent_test::randomFloats(N, 11);
    float Expected = 0.5f;
    for (float V : X)
      Expected = Expected + V;
    float Got = reduce(N, 0.5f, ops::plus{}, [&](index K) { return X[K]; });
    EXPECT_EQ(Got, Expected) << "N = " << N;
  }
}

TEST(Reduce, IntegerOpsMatchLoops) {
  for (index N : intent_test::sizes()) {
    std::vector<int> X = intent_test::randomInts(N, 12, -1000, 1000);
    std::int64_t Sum = 0;
    int Max = std::numeric_limits<int>::min(),
        Min = std::numeric_limits<int>::max();
    int And = -1, Or = 0, Xor = 0;
    for (int V : X) {
      Sum += V;
      Max = std::max(Max, V);
      Min = std::min(Min, V);
      And &= V;
      Or |= V;
      Xor ^= V;
    }
    auto At = [&](index K) { return X[K]; };
    EXPECT_EQ(reduce(N, std::int64_t(0), ops::plus{}, At), Sum);
    EXPECT_EQ(reduce(N, ops::max::identity<int>(), ops::max{}, At), Max);
    EXPECT_EQ(reduce(N, ops::min::identity<int>(), ops::min{}, At), Min);
    EXPECT_EQ(reduce(N, ops::bit_and::identity<int>(), ops::bit_and{}, At),
              And);
    EXPECT_EQ(reduce(N, 0, ops::bit_or{}, At), Or);
    EXPECT_EQ(reduce(N, 0, ops::bit_xor{}, At), Xor);
  }
}

TEST(Reduce, ProductMatchesLoop) {
  std::vector<double> X = intent_test::randomDoubles(101, 13, 0.9, 1.1);
  double Expected = 1.0;
  for (double V : X)
    Expected *= V;
  EXPECT_EQ(reduce(101, 1.0, ops::mul{}, [&](index K) { return X[K]; }),
            Expected);
}

TEST(Reduce, EmptyReturnsInit) {
  int Calls = 0;
  auto F = [&](index) {
    ++Calls;
    return 1.0f;
  };
  EXPECT_EQ(reduce(0, 42.0f, ops::plus{}, F), 42.0f);
  EXPECT_EQ(reduce(range{5, 5}, -INFINITY, ops::max{}, F), -INFINITY);
  EXPECT_EQ(reduce(range{5, 2}, 3.0f, ops::mul{}, F), 3.0f);
  EXPECT_EQ(Calls, 0);
}

TEST(Reduce, RangeVisitsAbsoluteIndices) {
  std::vector<int> X = intent_test::randomInts(50, 14, 0, 100);
  int Expected = 0;
  for (index K = 10; K < 37; ++K)
    Expected += X[K];
  EXPECT_EQ(
      reduce(range{10, 37}, 0, ops::plus{}, [&](index K) { return X[K]; }),
      Expected);
}

TEST(Reduce, MaxFromMinusInfinityLikeSoftmax) {
  std::vector<float> X = intent_test::randomFloats(1000, 15, -50.0f, 50.0f);
  float Expected = -INFINITY;
  for (float V : X)
    Expected = std::max(Expected, V);
  EXPECT_EQ(reduce(1000, -INFINITY, ops::max{}, [&](index K) { return X[K]; }),
            Expected);
}

TEST(Reduce, MaxPropagatesNaN) {
  std::vector<float> X = {1.0f, NAN, 3.0f};
  EXPECT_TRUE(std::isnan(
      reduce(3, -INFINITY, ops::max{}, [&](index K) { return X[K]; })));
}

TEST(Reduce, ValueIsConvertedToTheInitType) {
  // Init is a double: each float value converts, the sum is in double.
  std::vector<float> X = {1e8f, 1.0f, -1e8f, 1.0f};
  EXPECT_EQ(reduce(4, 0.0, ops::plus{}, [&](index K) { return X[K]; }), 2.0);
  // Init is an int64: int values widen, so the sum does not overflow.
  std::int64_t Big =
      reduce(3, std::int64_t(0), ops::plus{}, [](index) { return 2000000000; });
  EXPECT_EQ(Big, 6000000000LL);
}

TEST(Reduce, UserCombineIsAppliedLeftToRight) {
  // Composition of affine maps x -> a x + b is associative, not commutative.
  struct Affine {
    double A, B;
  };
  std::vector<double> As = intent_test::randomDoubles(64, 16, 0.5, 1.5);
  std::vector<double> Bs = intent_test::randomDoubles(64, 17);
  auto Then = [](Affine F, Affine G) {
    return Affine{G.A * F.A, G.A * F.B + G.B};
  };
  Affine Got = reduce(64, Affine{1.0, 0.0}, Then, [&](index K) {
    return Affine{As[K], Bs[K]};
  });
  double X = 0.25, Y = X;
  for (index K = 0; K < 64; ++K)
    Y = As[K] * Y + Bs[K];
  EXPECT_NEAR(Got.A * X + Got.B, Y, 1e-12);
}

TEST(Reduce, WelfordStructAccumulator) {
  // Mean and M2 (sum of squared deviations) with Chan et al.'s combine.
  struct Welford {
    double Count, Mean, M2;
  };
  auto Combine = [](Welford A, Welford B) {
    double N = A.Count + B.Count;
    if (N == 0)
      return A;
    double Delta = B.Mean - A.Mean;
    return Welford{N, A.Mean + Delta * B.Count / N,
                   A.M2 + B.M2 + Delta * Delta * A.Count * B.Count / N};
  };
  for (index N : intent_test::sizes()) {
    std::vector<double> X = intent_test::randomDoubles(N, 18, 10.0, 20.0);
    Welford W = reduce(N, Welford{0, 0, 0}, Combine, [&](index K) {
      return Welford{1, X[K], 0};
    });
    double Mean = 0, M2 = 0;
    for (double V : X)
      Mean += V;
    Mean = N ? Mean / N : 0;
    for (double V : X)
      M2 += (V - Mean) * (V - Mean);
    EXPECT_EQ(W.Count, static_cast<double>(N));
    EXPECT_NEAR(W.Mean, Mean, 1e-9);
    EXPECT_NEAR(W.M2, M2, 1e-9 * (1 + M2));
  }
}

TEST(Reduce, TupleAccumulator) {
  std::vector<float> X = intent_test::randomFloats(333, 19);
  using Acc = std::tuple<float, int, float>; // sum, count of positives, max
  auto Combine = [](const Acc &A, const Acc &B) {
    return Acc{std::get<0>(A) + std::get<0>(B), std::get<1>(A) + std::get<1>(B),
               ops::max{}(std::get<2>(A), std::get<2>(B))};
  };
  Acc Got = reduce(333, Acc{0.0f, 0, -INFINITY}, Combine, [&](index K) {
    return Acc{X[K], X[K] > 0 ? 1 : 0, X[K]};
  });
  float Sum = 0, Max = -INFINITY;
  int Pos = 0;
  for (float V : X) {
    Sum += V;
    Pos += V > 0;
    Max = std::max(Max, V);
  }
  EXPECT_EQ(std::get<0>(Got), Sum);
  EXPECT_EQ(std::get<1>(Got), Pos);
  EXPECT_EQ(std::get<2>(Got), Max);
}

TEST(Reduce, PairAccumulatorWithStdPair) {
  std::vector<int> X = intent_test::randomInts(77, 20, -5, 5);
  auto Got = reduce(
      77, std::pair<int, int>{0, 0},
      [](std::pair<int, int> A, std::pair<int, int> B) {
        return std::pair<int, int>{A.first + B.first, A.second + B.second};
      },
      [&](index K) {
        return std::pair<int, int>{X[K], X[K] * X[K]};
      });
  int S = 0, SS = 0;
  for (int V : X) {
    S += V;
    SS += V * V;
  }
  EXPECT_EQ(Got.first, S);
  EXPECT_EQ(Got.second, SS);
}

} // namespace
