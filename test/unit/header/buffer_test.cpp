// Tests buffer: fill constructor, element access, size and value semantics.

#include "intent/intent.hpp"
#include "test_util.hpp"

#include <gtest/gtest.h>

#include <type_traits>
#include <vector>

namespace {
using namespace intent;
using intent::index; // <strings.h>, pulled in by gtest, declares ::index().

static_assert(std::is_trivially_default_constructible<buffer<float, 4>>::value,
              "a default buffer is uninitialized, like a C array");
static_assert(std::is_trivially_copyable<buffer<int, 3>>::value,
              "buffers are plain values");
static_assert(buffer<double, 5>::size() == 5, "size() is a constant");
static_assert(!std::is_convertible<float, buffer<float, 2>>::value,
              "the fill constructor is explicit");

TEST(Buffer, FillConstructorSetsEveryElement) {
  buffer<float, 7> B(2.5f);
  for (index I = 0; I < B.size(); ++I)
    EXPECT_EQ(B[I], 2.5f);
}

TEST(Buffer, ElementsAreWritableAndIndependent) {
  buffer<int, 4> B(0);
  B[1] = 5;
  B[3] += 2;
  EXPECT_EQ(B[0], 0);
  EXPECT_EQ(B[1], 5);
  EXPECT_EQ(B[2], 0);
  EXPECT_EQ(B[3], 2);
  const buffer<int, 4> &C = B;
  EXPECT_EQ(C[1], 5);
  EXPECT_EQ(C.data(), B.data());
  EXPECT_EQ(B.data() + 3, &B[3]);
}

TEST(Buffer, CopiesAreValues) {
  buffer<int, 3> A(1);
  buffer<int, 3> B = A;
  B[0] = 9;
  EXPECT_EQ(A[0], 1);
  EXPECT_EQ(B[0], 9);
}

TEST(Buffer, DefaultConstructedCanBeWrittenThenRead) {
  buffer<double, 3> B;
  for (index I = 0; I < 3; ++I)
    B[I] = static_cast<double>(I) * 0.5;
  EXPECT_EQ(B[2], 1.0);
}

TEST(Buffer, PerRowScratchInAKernelBody) {
  // out(r, c) = sum of in(r, 4c .. 4c+3) through a 4-element local buffer.
  const index Rows = 9, Cols = 5;
  std::vector<float> In = intent_test::randomFloats(Rows * Cols * 4, 91);
  std::vector<float> Out(Rows * Cols);
  view<const float, 2> I2(In.data(), {Rows, Cols * 4});
  view<float, 2> O2(Out.data(), {Rows, Cols});
  parallel_for(Rows, Cols, [&](index R, index C) {
    buffer<float, 4> Tile;
    for (index K = 0; K < 4; ++K)
      Tile[K] = I2(R, 4 * C + K);
    O2(R, C) = reduce(Tile.size(), 0.0f, ops::plus{},
                      [&](index K) { return Tile[K]; });
  });
  for (index R = 0; R < Rows; ++R)
    for (index C = 0; C < Cols; ++C) {
      float Sum = 0.0f;
      for (index K = 0; K < 4; ++K)
        Sum += In[R * Cols * 4 + 4 * C + K];
      EXPECT_EQ(Out[R * Cols + C], Sum);
    }
}

} // namespace
