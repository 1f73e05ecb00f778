// Tests matmul: plain and batched, over strided/transposed/broadcast views.

#include "intent/intent.hpp"
#include "test_util.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

namespace {
using namespace intent;
using intent::index; // <strings.h>, pulled in by gtest, declares ::index().

/// C = A B for row-major M x K and K x N, summing k in order from 0.
template <class T>
std::vector<T> referenceMatmul(const std::vector<T> &A, const std::vector<T> &B,
                               index M, index N, index K) {
  std::vector<T> C(static_cast<std::size_t>(M * N));
  for (index I = 0; I < M; ++I)
    for (index J = 0; J < N; ++J) {
      T Sum = 0;
      for (index L = 0; L < K; ++L)
        Sum += A[I * K + L] * B[L * N + J];
      C[I * N + J] = Sum;
    }
  return C;
}

/// Element-wise comparison with a tolerance: the compiler may contract
/// a * b + c into an FMA in one loop and not the other (e.g. -march=native).
template <class T>
void expectClose(const std::vector<T> &Got, const std::vector<T> &Want) {
  ASSERT_EQ(Got.size(), Want.size());
  for (std::size_t I = 0; I < Got.size(); ++I)
    EXPECT_NEAR(Got[I], Want[I], 1e-5) << "element " << I;
}

struct Shape {
  index M, N, K;
};
const Shape Shapes[] = {{0, 0, 0},    {1, 1, 1},   {0, 3, 2},  {3, 0, 2},
                        {2, 3, 0},    {3, 5, 7},   {17, 1, 9}, {1, 19, 4},
                        {33, 65, 17}, {64, 64, 64}};

TEST(Matmul, FloatMatchesLoop) {
  for (const Shape &S : Shapes) {
    std::vector<float> A = intent_test::randomFloats(S.M * S.K, 71);
    std::vector<float> B = intent_test::randomFloats(S.K * S.N, 72);
    std::vector<float> C(static_cast<std::size_t>(S.M * S.N), 123.0f);
    matmul(view<float, 2>(C.data(), {S.M, S.N}),
           view<const float, 2>(A.data(), {S.M, S.K}),
           view<const float, 2>(B.data(), {S.K, S.N}));
    SCOPED_TRACE(testing::Message() << S.M << "x" << S.N << "x" << S.K);
    expectClose(C, referenceMatmul(A, B, S.M, S.N, S.K));
  }
}

TEST(Matmul, EmptyReductionWritesZero) {
  std::vector<float> C(6, 5.0f);
  float Dummy = 0;
  matmul(view<float, 2>(C.data(), {2, 3}), view<float, 2>(&Dummy, {2, 0}),
         view<float, 2>(&Dummy, {0, 3}));
  EXPECT_EQ(C, std::vector<float>(6, 0.0f));
}

TEST(Matmul, IntegersAndDoublesAreExact) {
  std::vector<int> A = intent_test::randomInts(5 * 8, 73, -9, 9);
  std::vector<int> B = intent_test::randomInts(8 * 6, 74, -9, 9);
  std::vector<int> C(30);
  matmul(view<int, 2>(C.data(), {5, 6}), view<int, 2>(A.data(), {5, 8}),
         view<int, 2>(B.data(), {8, 6}));
  EXPECT_EQ(C, referenceMatmul(A, B, 5, 6, 8));
  std::vector<double> AD = intent_test::randomDoubles(4 * 3, 75);
  std::vector<double> BD = intent_test::randomDoubles(3 * 2, 76);
  std::vector<double> CD(8);
  matmul(view<double, 2>(CD.data(), {4, 2}), view<double, 2>(AD.data(), {4, 3}),
         view<double, 2>(BD.data(), {3, 2}));
  expectClose(CD, referenceMatmul(AD, BD, 4, 2, 3));
}

TEST(Matmul, TransposedOperandNeedsNoCopy) {
  // A stored as K x M; pass A^T as the M x K operand.
  const index M = 6, N = 5, K = 4;
  std::vector<float> At = intent_test::randomFloats(K * M, 77);
  std::vector<float> B = intent_test::randomFloats(K * N, 78);
  std::vector<float> A(M * K);
  for (index I = 0; I < M; ++I)
    for (index L = 0; L < K; ++L)
      A[I * K + L] = At[L * M + I];
  std::vector<float> C(M * N);
  matmul(view<float, 2>(C.data(), {M, N}),
         view<const float, 2>(At.data(), {K, M}).transpose(),
         view<const float, 2>(B.data(), {K, N}));
  expectClose(C, referenceMatmul(A, B, M, N, K));
}

TEST(Matmul, WritesOnlyTheOutputView) {
  // C is the middle 3 columns of a 4 x 5 array.
  std::vector<float> Mem(20, -1.0f);
  std::vector<float> A = intent_test::randomFloats(4 * 2, 79);
  std::vector<float> B = intent_test::randomFloats(2 * 3, 80);
  view<float, 2> Full(Mem.data(), {4, 5});
  matmul(Full.slice(1, range{1, 4}), view<float, 2>(A.data(), {4, 2}),
         view<float, 2>(B.data(), {2, 3}));
  std::vector<float> Expected = referenceMatmul(A, B, 4, 3, 2);
  for (index I = 0; I < 4; ++I) {
    EXPECT_EQ(Full(I, 0), -1.0f);
    EXPECT_EQ(Full(I, 4), -1.0f);
    for (index J = 0; J < 3; ++J)
      EXPECT_NEAR(Full(I, J + 1), Expected[I * 3 + J], 1e-5);
  }
}

TEST(Matmul, BatchedMatchesPerBatchLoop) {
  const index Batch = 3, M = 4, N = 5, K = 6;
  std::vector<float> A = intent_test::randomFloats(Batch * M * K, 81);
  std::vector<float> B = intent_test::randomFloats(Batch * K * N, 82);
  std::vector<float> C(Batch * M * N);
  matmul(view<float, 3>(C.data(), {Batch, M, N}),
         view<const float, 3>(A.data(), {Batch, M, K}),
         view<const float, 3>(B.data(), {Batch, K, N}));
  for (index Bt = 0; Bt < Batch; ++Bt) {
    std::vector<float> ABt(A.begin() + Bt * M * K,
                           A.begin() + (Bt + 1) * M * K);
    std::vector<float> BBt(B.begin() + Bt * K * N,
                           B.begin() + (Bt + 1) * K * N);
    std::vector<float> Want = referenceMatmul(ABt, BBt, M, N, K);
    SCOPED_TRACE(testing::Message() << "batch " << Bt);
    expectClose(std::vector<float>(C.begin() + Bt * M * N,
                                   C.begin() + (Bt + 1) * M * N),
                Want);
  }
}

TEST(Matmul, BatchedWithBroadcastOperand) {
  // One shared B for every batch, as a stride-0 batch dimension.
  const index Batch = 4, M = 3, N = 2, K = 5;
  std::vector<float> A = intent_test::randomFloats(Batch * M * K, 83);
  std::vector<float> B = intent_test::randomFloats(K * N, 84);
  std::vector<float> C(Batch * M * N);
  view<const float, 2> B2(B.data(), {K, N});
  matmul(view<float, 3>(C.data(), {Batch, M, N}),
         view<const float, 3>(A.data(), {Batch, M, K}), B2.broadcast(0, Batch));
  for (index Bt = 0; Bt < Batch; ++Bt) {
    std::vector<float> ABt(A.begin() + Bt * M * K,
                           A.begin() + (Bt + 1) * M * K);
    SCOPED_TRACE(testing::Message() << "batch " << Bt);
    expectClose(std::vector<float>(C.begin() + Bt * M * N,
                                   C.begin() + (Bt + 1) * M * N),
                referenceMatmul(ABt, B, M, N, K));
  }
}

TEST(Matmul, EmptyBatch) {
  float Dummy = 7.0f;
  matmul(view<float, 3>(&Dummy, {0, 2, 2}), view<float, 3>(&Dummy, {0, 2, 2}),
         view<float, 3>(&Dummy, {0, 2, 2}));
  EXPECT_EQ(Dummy, 7.0f);
}

} // namespace
