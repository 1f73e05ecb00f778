// Tests intent::view: construction, addressing and the sub-view relations.

#include "intent/intent.hpp"
#include "test_util.hpp"

#include <gtest/gtest.h>

#include <array>
#include <numeric>
#include <type_traits>
#include <vector>

namespace {
using namespace intent;
using intent::index; // <strings.h>, pulled in by gtest, declares ::index().

std::vector<float> iota(index N) {
  std::vector<float> V(static_cast<std::size_t>(N));
  std::iota(V.begin(), V.end(), 0.0f);
  return V;
}

float takesConstView(view<const float, 2> V) { return V(1, 1); }

TEST(View, DefaultConstructedIsEmpty) {
  view<float, 2> V;
  EXPECT_EQ(V.data(), nullptr);
  EXPECT_EQ(V.extent(0), 0);
  EXPECT_EQ(V.extent(1), 0);
  EXPECT_EQ(V.stride(0), 0);
  EXPECT_EQ(V.size(), 0);
  EXPECT_TRUE(V.empty());
  EXPECT_TRUE(V.is_contiguous());
}

TEST(View, RowMajorConstructorSetsStrides) {
  std::vector<float> Mem = iota(24);
  view<float, 3> V(Mem.data(), {2, 3, 4});
  EXPECT_EQ(V.stride(0), 12);
  EXPECT_EQ(V.stride(1), 4);
  EXPECT_EQ(V.stride(2), 1);
  EXPECT_EQ(V.size(), 24);
  EXPECT_TRUE(V.is_contiguous());
  for (index I = 0; I < 2; ++I)
    for (index J = 0; J < 3; ++J)
      for (index K = 0; K < 4; ++K)
        EXPECT_EQ(&V(I, J, K), &Mem[I * 12 + J * 4 + K]);
}

TEST(View, ExplicitStridesAddressColumnMajor) {
  std::vector<float> Mem = iota(15);
  view<float, 2> V(Mem.data(), {3, 5}, {1, 3});
  for (index I = 0; I < 3; ++I)
    for (index J = 0; J < 5; ++J)
      EXPECT_EQ(&V(I, J), &Mem[I + J * 3]);
  EXPECT_FALSE(V.is_contiguous());
}

TEST(View, NegativeStrideWalksBackwards) {
  std::vector<float> Mem = iota(6);
  view<float, 1> V(Mem.data() + 5, {6}, {-1});
  for (index I = 0; I < 6; ++I)
    EXPECT_EQ(V[I], static_cast<float>(5 - I));
}

TEST(View, BracketUsesStride) {
  std::vector<float> Mem = iota(10);
  view<float, 1> V(Mem.data(), {5}, {2});
  for (index I = 0; I < 5; ++I)
    EXPECT_EQ(&V[I], &Mem[2 * I]);
}

TEST(View, AcceptsAnyIntegralIndexType) {
  std::vector<float> Mem = iota(6);
  view<float, 2> V(Mem.data(), {2, 3});
  EXPECT_EQ(V(1, 2), 5.0f);
  EXPECT_EQ(V(short(1), 2u), 5.0f);
  EXPECT_EQ(V(index(1), std::size_t(2)), 5.0f);
}

TEST(View, WritesReachTheData) {
  std::vector<float> Mem(6, 0.0f);
  const view<float, 2> V(Mem.data(), {2, 3});
  V(1, 0) = 7.0f;
  view<float, 1>(Mem.data(), {6})[5] = 9.0f;
  EXPECT_EQ(Mem[3], 7.0f);
  EXPECT_EQ(Mem[5], 9.0f);
}

TEST(View, ConvertsToConstView) {
  std::vector<float> Mem = iota(9);
  view<float, 2> V(Mem.data(), {3, 3});
  view<const float, 2> C = V;
  EXPECT_EQ(C.data(), V.data());
  EXPECT_EQ(C.extent(1), 3);
  EXPECT_EQ(C.stride(0), 3);
  EXPECT_EQ(takesConstView(V), 4.0f);
  static_assert(
      std::is_convertible<view<float, 2>, view<const float, 2>>::value,
      "view<T> must convert to view<const T>");
  static_assert(
      !std::is_convertible<view<const float, 2>, view<float, 2>>::value,
      "view<const T> must not convert to view<T>");
  static_assert(
      !std::is_convertible<view<float, 2>, view<const float, 1>>::value,
      "rank must match");
  static_assert(std::is_trivially_copyable<view<float, 3>>::value,
                "views are passed to kernels by value");
}

TEST(View, SliceNarrowsOneDimension) {
  std::vector<float> Mem = iota(20);
  view<float, 2> V(Mem.data(), {4, 5});
  view<float, 2> S = V.slice(1, range{1, 4});
  EXPECT_EQ(S.extent(0), 4);
  EXPECT_EQ(S.extent(1), 3);
  EXPECT_EQ(S.stride(0), 5);
  for (index I = 0; I < 4; ++I)
    for (index J = 0; J < 3; ++J)
      EXPECT_EQ(&S(I, J), &V(I, J + 1));
  view<float, 2> Rows = V.slice(0, range{2, 4});
  EXPECT_EQ(&Rows(0, 0), &V(2, 0));
  EXPECT_TRUE(Rows.is_contiguous());
  EXPECT_FALSE(S.is_contiguous());
}

TEST(View, SliceMayBeEmpty) {
  std::vector<float> Mem = iota(20);
  view<float, 2> V(Mem.data(), {4, 5});
  EXPECT_EQ(V.slice(0, range{4, 4}).size(), 0);
  EXPECT_EQ(V.slice(1, range{0, 0}).extent(1), 0);
}

TEST(View, RowFixesTheFirstCoordinate) {
  std::vector<float> Mem = iota(24);
  view<float, 3> V(Mem.data(), {2, 3, 4});
  view<float, 2> R = V.row(1);
  EXPECT_EQ(R.extent(0), 3);
  EXPECT_EQ(R.extent(1), 4);
  for (index J = 0; J < 3; ++J)
    for (index K = 0; K < 4; ++K)
      EXPECT_EQ(&R(J, K), &V(1, J, K));
  view<float, 1> RR = R.row(2);
  for (index K = 0; K < 4; ++K)
    EXPECT_EQ(&RR[K], &V(1, 2, K));
}

TEST(View, TransposeSwapsTwoDimensions) {
  std::vector<float> Mem = iota(6);
  view<float, 2> V(Mem.data(), {2, 3});
  view<float, 2> T = V.transpose();
  EXPECT_EQ(T.extent(0), 3);
  EXPECT_EQ(T.extent(1), 2);
  for (index I = 0; I < 2; ++I)
    for (index J = 0; J < 3; ++J)
      EXPECT_EQ(&T(J, I), &V(I, J));
  EXPECT_FALSE(T.is_contiguous());
}

TEST(View, TransposeOfGeneralRank) {
  std::vector<float> Mem = iota(24);
  view<float, 3> V(Mem.data(), {2, 3, 4});
  view<float, 3> T = V.transpose(0, 2);
  EXPECT_EQ(T.extent(0), 4);
  EXPECT_EQ(T.extent(1), 3);
  EXPECT_EQ(T.extent(2), 2);
  for (index I = 0; I < 2; ++I)
    for (index J = 0; J < 3; ++J)
      for (index K = 0; K < 4; ++K)
        EXPECT_EQ(&T(K, J, I), &V(I, J, K));
  EXPECT_EQ(V.transpose(1, 1).stride(1), V.stride(1));
}

TEST(View, ReshapeKeepsRowMajorOrder) {
  std::vector<float> Mem = iota(24);
  view<float, 2> V(Mem.data(), {4, 6});
  view<float, 3> R = V.reshape<3>({2, 3, 4});
  EXPECT_EQ(R.extent(0), 2);
  EXPECT_EQ(R.stride(0), 12);
  for (index I = 0; I < 2; ++I)
    for (index J = 0; J < 3; ++J)
      for (index K = 0; K < 4; ++K)
        EXPECT_EQ(R(I, J, K), static_cast<float>(I * 12 + J * 4 + K));
  view<float, 1> Flat = V.reshape(std::array<index, 1>{24});
  for (index I = 0; I < 24; ++I)
    EXPECT_EQ(&Flat[I], &Mem[I]);
}

TEST(View, ReshapeOfContiguousSubview) {
  std::vector<float> Mem = iota(24);
  view<float, 2> V(Mem.data(), {4, 6});
  view<float, 1> Rows = V.slice(0, range{1, 3}).reshape<1>({12});
  for (index I = 0; I < 12; ++I)
    EXPECT_EQ(Rows[I], static_cast<float>(6 + I));
  // A unit dimension may carry any stride and still be contiguous.
  view<float, 2> Column(Mem.data(), {6, 1}, {1, 99});
  EXPECT_TRUE(Column.is_contiguous());
  EXPECT_EQ(Column.reshape<1>({6})[5], 5.0f);
}

TEST(View, BroadcastInsertsAStrideZeroDimension) {
  std::vector<float> Bias = iota(5);
  view<float, 1> B(Bias.data(), {5});
  view<float, 2> Rows = B.broadcast(0, 3); // 3 x 5, every row is B.
  EXPECT_EQ(Rows.extent(0), 3);
  EXPECT_EQ(Rows.extent(1), 5);
  EXPECT_EQ(Rows.stride(0), 0);
  view<float, 2> Cols = B.broadcast(1, 4); // 5 x 4, every column is B.
  EXPECT_EQ(Cols.extent(0), 5);
  EXPECT_EQ(Cols.extent(1), 4);
  for (index I = 0; I < 3; ++I)
    for (index J = 0; J < 5; ++J)
      EXPECT_EQ(&Rows(I, J), &B[J]);
  for (index J = 0; J < 5; ++J)
    for (index I = 0; I < 4; ++I)
      EXPECT_EQ(&Cols(J, I), &B[J]);
  EXPECT_FALSE(Rows.is_contiguous());
}

TEST(View, BroadcastInTheMiddleOfRankTwo) {
  std::vector<float> Mem = iota(6);
  view<float, 2> V(Mem.data(), {2, 3});
  view<float, 3> B = V.broadcast(1, 4);
  EXPECT_EQ(B.extent(0), 2);
  EXPECT_EQ(B.extent(1), 4);
  EXPECT_EQ(B.extent(2), 3);
  for (index I = 0; I < 2; ++I)
    for (index N = 0; N < 4; ++N)
      for (index J = 0; J < 3; ++J)
        EXPECT_EQ(&B(I, N, J), &V(I, J));
}

TEST(View, ExpandStretchesAUnitDimension) {
  std::vector<float> Mem = iota(3);
  view<float, 2> Col(Mem.data(), {3, 1});
  view<float, 2> E = Col.expand(1, 4);
  EXPECT_EQ(E.extent(1), 4);
  EXPECT_EQ(E.stride(1), 0);
  for (index I = 0; I < 3; ++I)
    for (index J = 0; J < 4; ++J)
      EXPECT_EQ(&E(I, J), &Col(I, 0));
}

TEST(View, SubviewsComposeIntoOneAffineRelation) {
  // 4 x 6 x 5 array; take T = V.transpose(0, 2) (5 x 6 x 4), slice dim 1 to
  // [2, 5), fix row 3, transpose the rest: W(a, b) = V(a, 2 + b, 3).
  std::vector<float> Mem = iota(120);
  view<float, 3> V(Mem.data(), {4, 6, 5});
  view<float, 2> W = V.transpose(0, 2).slice(1, range{2, 5}).row(3).transpose();
  EXPECT_EQ(W.extent(0), 4);
  EXPECT_EQ(W.extent(1), 3);
  for (index A = 0; A < 4; ++A)
    for (index B = 0; B < 3; ++B)
      EXPECT_EQ(&W(A, B), &Mem[A * 30 + (2 + B) * 5 + 3]);
}

TEST(View, SizeUses64BitExtents) {
  float X = 1.5f;
  index Big = index(1) << 33;
  view<float, 1> V(&X, {Big}, {0});
  EXPECT_EQ(V.size(), Big);
  EXPECT_EQ(&V[Big - 1], &X);
  view<float, 2> B = V.broadcast(0, 4);
  EXPECT_EQ(B.size(), 4 * Big);
}

TEST(ViewDeathTest, ReshapeOfNonContiguousViewAsserts) {
  std::vector<float> Mem = iota(6);
  view<float, 2> V(Mem.data(), {2, 3});
  EXPECT_DEBUG_DEATH(V.transpose().reshape<1>({6}), "contiguous");
}

TEST(ViewDeathTest, ReshapeToAnotherSizeAsserts) {
  std::vector<float> Mem = iota(6);
  view<float, 2> V(Mem.data(), {2, 3});
  EXPECT_DEBUG_DEATH(V.reshape<1>({7}), "number of elements");
}

TEST(ViewDeathTest, OutOfBoundsIndexAsserts) {
  std::vector<float> Mem = iota(6);
  view<float, 2> V(Mem.data(), {2, 3});
  EXPECT_DEBUG_DEATH(V(0, 3) = 1.0f, "out of bounds");
  EXPECT_DEBUG_DEATH(V.slice(1, range{1, 4}), "out of bounds");
  EXPECT_DEBUG_DEATH(V.expand(1, 4), "extent 1");
}

} // namespace
