//===- AliasTest.cpp - Unit tests of the alias check before a launch -----===//
//
// The range of a view (any strides, empty views), the pairwise overlap test
// and the message of check_aliasing (alias.hpp, Alias.cpp). Host memory only:
// the check compares addresses and never dereferences them.
//
//===----------------------------------------------------------------------===//

#include <intent/runtime/alias.hpp>

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace {

using intent::index;
using intent::view;
namespace rt = intent::rt;
using rt::detail::range_of;
using rt::detail::view_range;

const char *at(const float *P) { return reinterpret_cast<const char *>(P); }

TEST(AliasRange, ContiguousAndStrided) {
  std::vector<float> A(100);
  view_range R = range_of("a", view<float, 1>(A.data(), {10}), true);
  EXPECT_EQ(R.Lo, at(A.data()));
  EXPECT_EQ(R.Hi, at(A.data() + 10));
  EXPECT_TRUE(R.Written);
  // Every other element: from the first to one past the last.
  R = range_of("a", view<const float, 1>(A.data(), {5}, {2}), false);
  EXPECT_EQ(R.Lo, at(A.data()));
  EXPECT_EQ(R.Hi, at(A.data() + 9));
  // A 3 x 4 block with padded rows of 10.
  R = range_of("a", view<float, 2>(A.data() + 1, {3, 4}, {10, 1}), false);
  EXPECT_EQ(R.Lo, at(A.data() + 1));
  EXPECT_EQ(R.Hi, at(A.data() + 1 + 2 * 10 + 3 + 1));
}

TEST(AliasRange, NegativeAndZeroStrides) {
  std::vector<float> A(100);
  // Reversed: data() is the highest element.
  view_range R = range_of("a", view<float, 1>(A.data() + 9, {10}, {-1}), true);
  EXPECT_EQ(R.Lo, at(A.data()));
  EXPECT_EQ(R.Hi, at(A.data() + 10));
  // Rows reversed, columns forward.
  R = range_of("a", view<float, 2>(A.data() + 20, {3, 4}, {-10, 1}), true);
  EXPECT_EQ(R.Lo, at(A.data()));
  EXPECT_EQ(R.Hi, at(A.data() + 24));
  // A broadcast (stride 0) touches one element per other dimension.
  R = range_of("a", view<const float, 2>(A.data() + 5, {7, 3}, {0, 1}), false);
  EXPECT_EQ(R.Lo, at(A.data() + 5));
  EXPECT_EQ(R.Hi, at(A.data() + 8));
}

// Whether 32-bit offsets address every in-bounds element (the dense
// variant of tiled programs): the span sum (extent - 1) * |stride| against
// INT32_MAX, exactly at the boundary. Views over no memory: never
// dereferenced.
TEST(OffsetsFitInt32, SpanAtTheBoundary) {
  using rt::detail::offsets_fit_int32;
  float *P = nullptr;
  const index Max = 0x7fffffff;
  EXPECT_TRUE(offsets_fit_int32(view<float, 1>(P, {Max + 1})));
  EXPECT_FALSE(offsets_fit_int32(view<float, 1>(P, {Max + 2})));
  // 2 x 2^30 elements: rows of 2^30 plus one row step.
  EXPECT_TRUE(offsets_fit_int32(view<float, 2>(P, {2, Max / 2 + 1})));
  EXPECT_TRUE(offsets_fit_int32(view<float, 2>(P, {2, 1}, {Max, 1})));
  EXPECT_FALSE(offsets_fit_int32(view<float, 2>(P, {2, 2}, {Max, 1})));
  EXPECT_FALSE(offsets_fit_int32(view<float, 2>(P, {3, 1}, {Max / 2 + 1, 1})));
  // Negative strides count by their magnitude (the partial sums of a
  // mixed-sign offset stay within the span).
  EXPECT_TRUE(offsets_fit_int32(view<float, 2>(P, {2, 1000}, {-(Max - 999), 1})));
  EXPECT_FALSE(offsets_fit_int32(view<float, 2>(P, {2, 1000}, {-(Max - 998), 1})));
  EXPECT_FALSE(offsets_fit_int32(view<float, 1>(P, {2}, {-Max - 1})));
  // A dimension of one element never multiplies its stride; an empty view
  // has no element; a huge extent with stride 0 stays at offset 0... but
  // its coordinates do not fit 32 bits.
  EXPECT_TRUE(offsets_fit_int32(view<float, 2>(P, {1, 4}, {INT64_C(1) << 40, 1})));
  EXPECT_TRUE(offsets_fit_int32(view<float, 2>(P, {0, INT64_C(1) << 40})));
  EXPECT_FALSE(offsets_fit_int32(view<float, 1>(P, {INT64_C(1) << 40}, {0})));
  // The dense variant's extent bound.
  using rt::detail::extents_at_most;
  EXPECT_TRUE(extents_at_most(view<float, 2>(P, {1 << 30, 1}), index(1) << 30));
  EXPECT_FALSE(extents_at_most(view<float, 2>(P, {1, (1 << 30) + 1}), index(1) << 30));
  // Overflow-proof: huge extents and strides.
  EXPECT_FALSE(offsets_fit_int32(view<float, 3>(P, {INT64_C(1) << 40, 1 << 30, 3}, {INT64_C(1) << 40, 3, 1})));
}

TEST(AliasRange, EmptyViews) {
  std::vector<float> A(10);
  view_range R = range_of("a", view<float, 2>(A.data(), {0, 5}), true);
  EXPECT_EQ(R.Lo, R.Hi);
  R = range_of("a", view<float, 1>(nullptr, {5}), true);
  EXPECT_EQ(R.Lo, R.Hi);
  view_range Full = range_of("b", view<float, 1>(A.data(), {10}), true);
  EXPECT_FALSE(rt::detail::ranges_overlap(R, Full));
  EXPECT_FALSE(rt::detail::ranges_overlap(Full, R));
}

TEST(AliasPairs, OnlyPairsWithAWrittenView) {
  std::vector<float> A(100);
  view_range Views[] = {
      range_of("out", view<float, 1>(A.data() + 50, {50}), true),
      range_of("x", view<const float, 1>(A.data(), {50}), false),
      range_of("y", view<const float, 1>(A.data(), {50}), false)};
  // x and y are the same view, but neither is written.
  rt::detail::alias_pair P = rt::detail::find_alias(Views, 3);
  EXPECT_EQ(P.First, -1);
  // Touching ranges ([0, 50) and [50, 100)) do not overlap; one more does.
  Views[1] = range_of("x", view<const float, 1>(A.data(), {51}), false);
  P = rt::detail::find_alias(Views, 3);
  EXPECT_EQ(P.First, 0);
  EXPECT_EQ(P.Second, 1);
  // Two written views.
  view_range Outs[] = {
      range_of("a", view<float, 1>(A.data(), {10}), true),
      range_of("b", view<float, 1>(A.data() + 9, {10}), true)};
  P = rt::detail::find_alias(Outs, 2);
  EXPECT_EQ(P.First, 0);
  EXPECT_EQ(P.Second, 1);
}

TEST(AliasCheck, MessageNamesKernelParametersAndCallSite) {
  std::vector<float> A(10);
  static const rt::kernel_info Info{"shift", "k.cpp", 3};
  view_range Views[] = {
      range_of("in", view<const float, 1>(A.data(), {10}), false),
      range_of("out", view<float, 1>(A.data() + 1, {9}), true)};
  rt::detail::set_call_site("main.cpp", 12);
  try {
    rt::detail::check_aliasing(Info, Views, 2);
    ADD_FAILURE() << "no rt::error";
  } catch (const rt::error &E) {
    std::string M = E.what();
    EXPECT_NE(M.find("kernel 'shift' (k.cpp:3) called at main.cpp:12"),
              std::string::npos)
        << M;
    EXPECT_NE(M.find("view parameter 'out' is written by the kernel and "
                     "overlaps view parameter 'in'"),
              std::string::npos)
        << M;
  }
  // The call site was consumed: a call from unrewritten code has none.
  try {
    rt::detail::check_aliasing(Info, Views, 2);
    ADD_FAILURE() << "no rt::error";
  } catch (const rt::error &E) {
    EXPECT_NE(std::string(E.what()).find("call site unknown"),
              std::string::npos);
  }
  // No overlap: nothing is thrown.
  Views[1] = range_of("out", view<float, 1>(nullptr, {0}), true);
  rt::detail::check_aliasing(Info, Views, 2);
}

} // namespace
