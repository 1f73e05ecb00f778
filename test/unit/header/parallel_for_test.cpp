// Tests parallel_for: every index visited once, in row-major order.

#include "intent/intent.hpp"
#include "test_util.hpp"

#include <gtest/gtest.h>

#include <array>
#include <tuple>
#include <vector>

namespace {
using namespace intent;
using intent::index; // <strings.h>, pulled in by gtest, declares ::index().

TEST(ParallelFor, OneDimensionVisitsEachIndexInOrder) {
  for (index N : intent_test::sizes()) {
    std::vector<index> Seen;
    parallel_for(N, [&](index I) { Seen.push_back(I); });
    ASSERT_EQ(static_cast<index>(Seen.size()), N);
    for (index I = 0; I < N; ++I)
      EXPECT_EQ(Seen[I], I);
  }
}

TEST(ParallelFor, RangeVisitsAbsoluteIndices) {
  std::vector<index> Seen;
  parallel_for(range{5, 9}, [&](index I) { Seen.push_back(I); });
  EXPECT_EQ(Seen, (std::vector<index>{5, 6, 7, 8}));
}

TEST(ParallelFor, EmptyOrReversedRangeVisitsNothing) {
  int Calls = 0;
  parallel_for(0, [&](index) { ++Calls; });
  parallel_for(-3, [&](index) { ++Calls; });
  parallel_for(range{4, 4}, [&](index) { ++Calls; });
  parallel_for(range{7, 2}, [&](index) { ++Calls; });
  parallel_for(3, 0, [&](index, index) { ++Calls; });
  parallel_for(0, 3, [&](index, index) { ++Calls; });
  parallel_for(2, 3, 0, [&](index, index, index) { ++Calls; });
  EXPECT_EQ(Calls, 0);
}

TEST(ParallelFor, TwoDimensionsAreRowMajor) {
  std::vector<std::array<index, 2>> Seen;
  parallel_for(3, 4, [&](index I, index J) { Seen.push_back({I, J}); });
  ASSERT_EQ(Seen.size(), 12u);
  for (index I = 0; I < 3; ++I)
    for (index J = 0; J < 4; ++J)
      EXPECT_EQ(Seen[I * 4 + J], (std::array<index, 2>{I, J}));
}

TEST(ParallelFor, ThreeDimensionsAreRowMajor) {
  std::vector<std::array<index, 3>> Seen;
  parallel_for(2, 3, 5, [&](index I, index J, index K) {
    Seen.push_back({I, J, K});
  });
  ASSERT_EQ(Seen.size(), 30u);
  for (index I = 0; I < 2; ++I)
    for (index J = 0; J < 3; ++J)
      for (index K = 0; K < 5; ++K)
        EXPECT_EQ(Seen[(I * 3 + J) * 5 + K], (std::array<index, 3>{I, J, K}));
}

TEST(ParallelFor, MultiDimensionalRanges) {
  std::vector<std::array<index, 2>> Seen2;
  parallel_for(range{1, 3}, range{10, 12}, [&](index I, index J) {
    Seen2.push_back({I, J});
  });
  EXPECT_EQ(Seen2, (std::vector<std::array<index, 2>>{
                       {1, 10}, {1, 11}, {2, 10}, {2, 11}}));
  std::vector<std::array<index, 3>> Seen3;
  parallel_for(range{0, 1}, range{2, 4}, range{-1, 1},
               [&](index I, index J, index K) {
                 Seen3.push_back({I, J, K});
               });
  EXPECT_EQ(Seen3, (std::vector<std::array<index, 3>>{
                       {0, 2, -1}, {0, 2, 0}, {0, 3, -1}, {0, 3, 0}}));
}

TEST(ParallelFor, SaxpyMatchesLoop) {
  for (index N : intent_test::sizes()) {
    std::vector<float> X = intent_test::randomFloats(N, 1);
    std::vector<float> Y = intent_test::randomFloats(N, 2);
    std::vector<float> Expected = Y;
    for (index I = 0; I < N; ++I)
      Expected[I] = 2.5f * X[I] + Expected[I];
    view<float, 1> YV = intent_test::viewOf(Y);
    view<const float, 1> XV = intent_test::viewOf(X);
    parallel_for(YV.extent(0), [&](index I) { YV[I] = 2.5f * XV[I] + YV[I]; });
    EXPECT_EQ(Y, Expected) << "N = " << N;
  }
}

TEST(ParallelFor, NestedLoopsOverAView) {
  std::vector<float> In = intent_test::randomFloats(7 * 9, 3);
  std::vector<float> Out(7 * 9, 0.0f);
  view<const float, 2> A(In.data(), {7, 9});
  view<float, 2> B(Out.data(), {9, 7});
  parallel_for(A.extent(0), [&](index I) {
    parallel_for(A.extent(1), [&](index J) { B(J, I) = A(I, J); });
  });
  for (index I = 0; I < 7; ++I)
    for (index J = 0; J < 9; ++J)
      EXPECT_EQ(Out[J * 7 + I], In[I * 9 + J]);
}

} // namespace
