//===- ContractDiffTest.cpp - matmul: interpreters vs the header ----------===//
//
// The kernels of test/lit/construction/matmul.kir (a transposed f32 matmul
// and a batched half matmul with a transposed, broadcast operand) run by the
// KIR interpreter and the physical interpreter (in order and shuffled with
// race detection) on random inputs of sizes 0, 1, odd and larger, against
// the header's own intent::matmul: bit for bit (same summation order, f32
// accumulation for half).
//
//===----------------------------------------------------------------------===//

#include "DiffHarness.h"

#include "intent/matmul.hpp"

using namespace intent;
using namespace intent::test;

namespace {

const kir::ScalarKind F32 = kir::ScalarKind::F32;
const kir::ScalarKind F16 = kir::ScalarKind::F16;

struct Shape {
  int64_t m, n, k;
};
const Shape Shapes[] = {{0, 0, 0}, {0, 3, 2}, {3, 0, 2}, {2, 3, 0},
                        {1, 1, 1}, {7, 5, 3}, {33, 17, 29}};

TEST(ContractDiff, TransposedF32) {
  auto m = loadKernel("matmul.kir");
  for (Shape s : Shapes) {
    std::vector<ArgSpec> a = {ArgSpec::view(F32, {s.m, s.n}),
                              ArgSpec::view(F32, {s.m, s.k}),
                              ArgSpec::view(F32, {s.n, s.k})};
    auto ref = [&](Memory &mem) {
      intent::view<float, 2> c(mem.as<float>(0), {s.m, s.n});
      intent::view<const float, 2> x(mem.as<float>(1), {s.m, s.k});
      intent::view<const float, 2> bt(mem.as<float>(2), {s.n, s.k});
      intent::matmul(c, x, bt.transpose());
    };
    DiffOutcome o = runDifferential(*m->kernels[0], a, ref, s.m * 31 + s.n + s.k);
    EXPECT_EQ(o.total, s.m * s.n) << "one instance per (i, j)";
  }
}

TEST(ContractDiff, BatchedHalfBroadcastAccumulatesInFloat) {
  auto m = loadKernel("matmul.kir");
  for (Shape s : Shapes)
    for (int64_t nb : {0, 1, 3}) {
      std::vector<ArgSpec> a = {ArgSpec::view(F16, {nb, s.m, s.n}),
                                ArgSpec::view(F16, {nb, s.m, s.k}),
                                ArgSpec::view(F16, {s.n, s.k})};
      auto ref = [&](Memory &mem) {
        intent::view<intent::half, 3> c(mem.as<intent::half>(0), {nb, s.m, s.n});
        intent::view<const intent::half, 3> x(mem.as<intent::half>(1), {nb, s.m, s.k});
        intent::view<const intent::half, 2> bt(mem.as<intent::half>(2), {s.n, s.k});
        intent::matmul(c, x, bt.transpose().broadcast(0, nb));
      };
      DiffOutcome o = runDifferential(*m->kernels[1], a, ref,
                                      nb * 1000 + s.m * 31 + s.n + s.k);
      EXPECT_EQ(o.total, nb * s.m * s.n) << "one instance per (batch, i, j)";
    }
}

// The same kernels written as one `contract` op (test/lit/construction/
// contract.kir): the KIR interpreter runs the op itself, construction its
// expansion; both must equal the header bit for bit.
TEST(ContractDiff, ContractOpTransposedF32) {
  auto m = loadKernel("contract.kir");
  for (Shape s : Shapes) {
    std::vector<ArgSpec> a = {ArgSpec::view(F32, {s.m, s.n}),
                              ArgSpec::view(F32, {s.m, s.k}),
                              ArgSpec::view(F32, {s.n, s.k})};
    auto ref = [&](Memory &mem) {
      intent::view<float, 2> c(mem.as<float>(0), {s.m, s.n});
      intent::view<const float, 2> x(mem.as<float>(1), {s.m, s.k});
      intent::view<const float, 2> bt(mem.as<float>(2), {s.n, s.k});
      intent::matmul(c, x, bt.transpose());
    };
    DiffOutcome o = runDifferential(*m->kernels[0], a, ref, s.m * 37 + s.n + s.k);
    EXPECT_EQ(o.total, s.m * s.n) << "one instance per (i, j)";
  }
}

TEST(ContractDiff, ContractOpBatchedHalfBroadcast) {
  auto m = loadKernel("contract.kir");
  for (Shape s : Shapes)
    for (int64_t nb : {0, 1, 3}) {
      std::vector<ArgSpec> a = {ArgSpec::view(F16, {nb, s.m, s.n}),
                                ArgSpec::view(F16, {nb, s.m, s.k}),
                                ArgSpec::view(F16, {s.n, s.k})};
      auto ref = [&](Memory &mem) {
        intent::view<intent::half, 3> c(mem.as<intent::half>(0), {nb, s.m, s.n});
        intent::view<const intent::half, 3> x(mem.as<intent::half>(1), {nb, s.m, s.k});
        intent::view<const intent::half, 2> bt(mem.as<intent::half>(2), {s.n, s.k});
        intent::matmul(c, x, bt.transpose().broadcast(0, nb));
      };
      DiffOutcome o = runDifferential(*m->kernels[1], a, ref,
                                      nb * 997 + s.m * 31 + s.n + s.k);
      EXPECT_EQ(o.total, nb * s.m * s.n) << "one instance per (batch, i, j)";
    }
}

TEST(ContractDiff, ContractOpF64) {
  auto m = loadKernel("contract.kir");
  for (Shape s : Shapes) {
    std::vector<ArgSpec> a = {ArgSpec::view(kir::ScalarKind::F64, {s.m, s.n}),
                              ArgSpec::view(kir::ScalarKind::F64, {s.m, s.k}),
                              ArgSpec::view(kir::ScalarKind::F64, {s.k, s.n})};
    auto ref = [&](Memory &mem) {
      intent::view<double, 2> c(mem.as<double>(0), {s.m, s.n});
      intent::view<const double, 2> x(mem.as<double>(1), {s.m, s.k});
      intent::view<const double, 2> y(mem.as<double>(2), {s.k, s.n});
      intent::matmul(c, x, y);
    };
    DiffOutcome o = runDifferential(*m->kernels[2], a, ref, s.m * 41 + s.n + s.k);
    EXPECT_EQ(o.total, s.m * s.n) << "one instance per (i, j)";
  }
}

} // namespace
