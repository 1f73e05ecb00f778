// Tests histogram: in-range bins counted, out-of-range bins dropped.

#include "intent/intent.hpp"
#include "test_util.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <vector>

namespace {
using namespace intent;
using intent::index; // <strings.h>, pulled in by gtest, declares ::index().

TEST(Histogram, CountsMatchLoop) {
  for (index N : intent_test::sizes()) {
    const index Bins = 256;
    std::vector<int> Keys = intent_test::randomInts(N, 51, -20, 275);
    std::vector<std::uint32_t> Counts(Bins, 0), Expected(Bins, 0);
    for (int K : Keys)
      if (K >= 0 && K < Bins)
        ++Expected[K];
    histogram(intent_test::viewOf(Counts), N, [&](index I) { return Keys[I]; });
    EXPECT_EQ(Counts, Expected) << "N = " << N;
  }
}

TEST(Histogram, OutOfRangeBinsAreDropped) {
  std::vector<int> Counts(4, 0);
  std::vector<index> Keys = {-1, 0, 3, 4, 100, -100, 3, index(1) << 40};
  histogram(intent_test::viewOf(Counts), static_cast<index>(Keys.size()),
            [&](index I) { return Keys[I]; });
  EXPECT_EQ(Counts, (std::vector<int>{1, 0, 0, 2}));
}

TEST(Histogram, AddsToExistingCounts) {
  std::vector<int> Counts = {5, 6, 7};
  histogram(intent_test::viewOf(Counts), 6, [](index I) { return I % 3; });
  EXPECT_EQ(Counts, (std::vector<int>{7, 8, 9}));
}

TEST(Histogram, EmptyInputChangesNothing) {
  std::vector<int> Counts = {1, 2};
  int Calls = 0;
  histogram(intent_test::viewOf(Counts), 0, [&](index) {
    ++Calls;
    return 0;
  });
  histogram(intent_test::viewOf(Counts), range{3, 3}, [&](index) {
    ++Calls;
    return 0;
  });
  EXPECT_EQ(Counts, (std::vector<int>{1, 2}));
  EXPECT_EQ(Calls, 0);
}

TEST(Histogram, RangeVisitsAbsoluteIndices) {
  std::vector<int> Keys = intent_test::randomInts(100, 52, 0, 9);
  std::vector<int> Counts(10, 0), Expected(10, 0);
  for (index I = 25; I < 75; ++I)
    ++Expected[Keys[I]];
  histogram(intent_test::viewOf(Counts), range{25, 75},
            [&](index I) { return Keys[I]; });
  EXPECT_EQ(Counts, Expected);
}

TEST(Histogram, FloatBinsThroughAStridedView) {
  std::vector<float> Mem(8, 0.0f);
  view<float, 1> Bins(Mem.data(), {4}, {2});
  histogram(Bins, 10, [](index I) { return I % 5; }); // bin 4 is dropped
  EXPECT_EQ(Mem, (std::vector<float>{2, 0, 2, 0, 2, 0, 2, 0}));
}

TEST(Histogram, ValueBinningLikeAKernel) {
  std::vector<float> X = intent_test::randomFloats(10000, 53, -0.1f, 1.1f);
  std::vector<int> Counts(16, 0), Expected(16, 0);
  auto BinOf = [&](index I) {
    return static_cast<index>(std::floor(X[I] * 16.0f));
  };
  for (index I = 0; I < 10000; ++I) {
    index B = BinOf(I);
    if (B >= 0 && B < 16)
      ++Expected[B];
  }
  histogram(intent_test::viewOf(Counts), 10000, BinOf);
  EXPECT_EQ(Counts, Expected);
}

} // namespace
