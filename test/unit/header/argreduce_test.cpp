// Tests argmax/argmin: ties, NaN policies, +-inf, +-0, empty, range positions.

#include "intent/intent.hpp"
#include "test_util.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <vector>

namespace {
using namespace intent;
using intent::index; // <strings.h>, pulled in by gtest, declares ::index().

const float NaN = std::numeric_limits<float>::quiet_NaN();
const float Inf = std::numeric_limits<float>::infinity();

/// The specification written out directly: NaN first, then the best value,
/// then the first or last position holding it.
arg_result<float> referenceArg(bool IsMax, const std::vector<float> &X, range R,
                               tie Ties, nan_policy Policy) {
  std::vector<index> NaNs, Numbers;
  for (index K = R.begin; K < R.end; ++K)
    (std::isnan(X[K]) ? NaNs : Numbers).push_back(K);
  if (Policy == nan_policy::propagate && !NaNs.empty()) {
    index K = Ties == tie::first ? NaNs.front() : NaNs.back();
    return {X[K], K};
  }
  if (Numbers.empty())
    return {IsMax ? -Inf : Inf, -1};
  float Best = X[Numbers.front()];
  for (index K : Numbers)
    Best = IsMax ? std::max(Best, X[K]) : std::min(Best, X[K]);
  std::vector<index> Winners;
  for (index K : Numbers)
    if (X[K] == Best)
      Winners.push_back(K);
  index K = Ties == tie::first ? Winners.front() : Winners.back();
  return {X[K], K};
}

/// Checks argmax/argmin against the reference for every tie and NaN rule.
void expectMatchesReference(const std::vector<float> &X, range R) {
  auto At = [&](index K) { return X[K]; };
  for (tie Ties : {tie::first, tie::last}) {
    for (nan_policy Policy : {nan_policy::propagate, nan_policy::ignore}) {
      for (bool IsMax : {true, false}) {
        arg_result<float> Got =
            IsMax ? argmax(R, At, Ties, Policy) : argmin(R, At, Ties, Policy);
        arg_result<float> Want = referenceArg(IsMax, X, R, Ties, Policy);
        ASSERT_EQ(Got.pos, Want.pos)
            << (IsMax ? "argmax" : "argmin") << " tie " << int(Ties) << " nan "
            << int(Policy) << " range [" << R.begin << ", " << R.end << ")";
        if (std::isnan(Want.value)) {
          EXPECT_TRUE(std::isnan(Got.value));
          continue;
        }
        EXPECT_EQ(Got.value, Want.value);
        EXPECT_EQ(std::signbit(Got.value), std::signbit(Want.value));
      }
    }
  }
}

/// Random values from a small set with many ties, NaN, infinities and both
/// zeros.
std::vector<float> trickyFloats(index N, std::uint32_t Seed) {
  const float Pool[] = {NaN,  Inf,   -Inf, 0.0f, -0.0f,
                        1.0f, -1.0f, 2.0f, 2.0f, 3.0f};
  std::mt19937 Gen(Seed);
  std::vector<float> X(static_cast<std::size_t>(N));
  for (float &V : X)
    V = Pool[Gen() % 10];
  return X;
}

TEST(ArgReduce, RandomDistinctValuesMatchLoop) {
  for (index N : intent_test::sizes()) {
    std::vector<float> X = intent_test::randomFloats(N, 41);
    expectMatchesReference(X, range{0, N});
    if (N == 0)
      continue;
    float Max = *std::max_element(X.begin(), X.end());
    arg_result<float> R = argmax(N, [&](index K) { return X[K]; });
    EXPECT_EQ(R.value, Max);
    EXPECT_EQ(X[R.pos], Max);
  }
}

TEST(ArgReduce, RandomTrickyValuesMatchReference) {
  for (index N : intent_test::sizes())
    for (std::uint32_t Seed = 0; Seed < 4; ++Seed)
      expectMatchesReference(trickyFloats(N, 42 + Seed), range{0, N});
}

TEST(ArgReduce, RangePositionsAreAbsolute) {
  std::vector<float> X = trickyFloats(200, 50);
  expectMatchesReference(X, range{17, 163});
  std::vector<float> Y = {9.0f, 1.0f, 5.0f, 5.0f, 2.0f, 9.0f};
  auto At = [&](index K) { return Y[K]; };
  EXPECT_EQ(argmax(range{1, 5}, At).pos, 2);
  EXPECT_EQ(argmax(range{1, 5}, At, tie::last).pos, 3);
  EXPECT_EQ(argmin(range{1, 5}, At).pos, 1);
  EXPECT_EQ(argmin(range{2, 4}, At, tie::last).pos, 3);
}

TEST(ArgReduce, TiesPickFirstOrLast) {
  std::vector<float> X = {1.0f, 3.0f, 3.0f, 2.0f, 3.0f, 0.0f, 0.0f};
  auto At = [&](index K) { return X[K]; };
  EXPECT_EQ(argmax(7, At).pos, 1);
  EXPECT_EQ(argmax(7, At, tie::first).pos, 1);
  EXPECT_EQ(argmax(7, At, tie::last).pos, 4);
  EXPECT_EQ(argmin(7, At, tie::first).pos, 5);
  EXPECT_EQ(argmin(7, At, tie::last).pos, 6);
  EXPECT_EQ(argmax(7, At).value, 3.0f);
}

TEST(ArgReduce, SignedZerosTie) {
  std::vector<float> X = {-0.0f, 0.0f, -1.0f};
  auto At = [&](index K) { return X[K]; };
  arg_result<float> First = argmax(3, At, tie::first);
  arg_result<float> Last = argmax(3, At, tie::last);
  EXPECT_EQ(First.pos, 0);
  EXPECT_TRUE(std::signbit(First.value));
  EXPECT_EQ(Last.pos, 1);
  EXPECT_FALSE(std::signbit(Last.value));
  std::vector<float> Y = {0.0f, 1.0f, -0.0f};
  auto AtY = [&](index K) { return Y[K]; };
  EXPECT_EQ(argmin(3, AtY, tie::first).pos, 0);
  EXPECT_EQ(argmin(3, AtY, tie::last).pos, 2);
}

TEST(ArgReduce, PropagatedNaNWins) {
  std::vector<float> X = {1.0f, NaN, Inf, NaN, 5.0f};
  auto At = [&](index K) { return X[K]; };
  arg_result<float> First = argmax(5, At, tie::first, nan_policy::propagate);
  EXPECT_EQ(First.pos, 1);
  EXPECT_TRUE(std::isnan(First.value));
  EXPECT_EQ(argmax(5, At, tie::last, nan_policy::propagate).pos, 3);
  EXPECT_EQ(argmin(5, At, tie::first, nan_policy::propagate).pos, 1);
  EXPECT_EQ(argmin(5, At, tie::last, nan_policy::propagate).pos, 3);
  EXPECT_EQ(argmax(5, At).pos, 1); // propagate is the default
}

TEST(ArgReduce, IgnoredNaNAreSkipped) {
  std::vector<float> X = {NaN, 1.0f, NaN, 7.0f, -3.0f, NaN};
  auto At = [&](index K) { return X[K]; };
  arg_result<float> Max = argmax(6, At, tie::first, nan_policy::ignore);
  EXPECT_EQ(Max.pos, 3);
  EXPECT_EQ(Max.value, 7.0f);
  arg_result<float> Min = argmin(6, At, tie::last, nan_policy::ignore);
  EXPECT_EQ(Min.pos, 4);
  EXPECT_EQ(Min.value, -3.0f);
}

TEST(ArgReduce, AllNaNIgnoredGivesNoPosition) {
  std::vector<float> X = {NaN, NaN, NaN};
  auto At = [&](index K) { return X[K]; };
  arg_result<float> Max = argmax(3, At, tie::first, nan_policy::ignore);
  EXPECT_EQ(Max.pos, -1);
  EXPECT_EQ(Max.value, -Inf);
  arg_result<float> Min = argmin(3, At, tie::last, nan_policy::ignore);
  EXPECT_EQ(Min.pos, -1);
  EXPECT_EQ(Min.value, Inf);
  EXPECT_EQ(argmax(3, At, tie::first).pos, 0);
  EXPECT_EQ(argmax(3, At, tie::last).pos, 2);
}

TEST(ArgReduce, EmptyGivesIdentityAndNoPosition) {
  int Calls = 0;
  auto F = [&](index) {
    ++Calls;
    return 1.0f;
  };
  arg_result<float> Max = argmax(0, F);
  EXPECT_EQ(Max.pos, -1);
  EXPECT_EQ(Max.value, -Inf);
  arg_result<float> Min = argmin(range{3, 3}, F);
  EXPECT_EQ(Min.pos, -1);
  EXPECT_EQ(Min.value, Inf);
  arg_result<double> D = argmax(0, [](index) { return 1.0; });
  EXPECT_EQ(D.value, -std::numeric_limits<double>::infinity());
  arg_result<int> I = argmax(0, [](index) { return 1; });
  EXPECT_EQ(I.pos, -1);
  EXPECT_EQ(I.value, std::numeric_limits<int>::min());
  arg_result<unsigned> U = argmin(range{5, 1}, [](index) { return 1u; });
  EXPECT_EQ(U.pos, -1);
  EXPECT_EQ(U.value, std::numeric_limits<unsigned>::max());
  EXPECT_EQ(Calls, 0);
}

TEST(ArgReduce, InfinitiesAreOrdinaryValues) {
  std::vector<float> Down = {-Inf, -Inf};
  auto AtDown = [&](index K) { return Down[K]; };
  EXPECT_EQ(argmax(2, AtDown).pos, 0); // -inf is a value, not "nothing"
  EXPECT_EQ(argmax(2, AtDown, tie::last).pos, 1);
  std::vector<float> Up = {Inf, 1.0f, Inf};
  auto AtUp = [&](index K) { return Up[K]; };
  EXPECT_EQ(argmax(3, AtUp, tie::first).pos, 0);
  EXPECT_EQ(argmax(3, AtUp, tie::last).pos, 2);
  EXPECT_EQ(argmin(3, AtUp).pos, 1);
  std::vector<float> OnlyInf = {Inf};
  EXPECT_EQ(argmin(1, [&](index K) { return OnlyInf[K]; }).pos, 0);
}

TEST(ArgReduce, IntegersWithTies) {
  for (index N : intent_test::sizes()) {
    std::vector<int> X = intent_test::randomInts(N, 43, -3, 3);
    auto At = [&](index K) { return X[K]; };
    index First = -1, Last = -1;
    for (index K = 0; K < N; ++K) {
      if (First < 0 || X[K] > X[First])
        First = K;
      if (Last < 0 || X[K] >= X[Last])
        Last = K;
    }
    EXPECT_EQ(argmax(N, At, tie::first).pos, First);
    EXPECT_EQ(argmax(N, At, tie::last).pos, Last);
    // NaN policy has no effect on integers.
    EXPECT_EQ(argmax(N, At, tie::last, nan_policy::ignore).pos, Last);
  }
}

TEST(ArgReduce, ValueTypeFollowsTheLambda) {
  std::vector<double> X = intent_test::randomDoubles(10, 44);
  auto R = argmin(10, [&](index K) -> const double & { return X[K]; });
  static_assert(std::is_same<decltype(R), arg_result<double>>::value,
                "arg_result holds the decayed value type");
  EXPECT_EQ(R.value, *std::min_element(X.begin(), X.end()));
}

} // namespace
