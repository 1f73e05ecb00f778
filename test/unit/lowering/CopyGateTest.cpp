//===- CopyGateTest.cpp - vec_auto's gate rejects with precise reasons ----===//
//
// Every condition of the design.md §5 `_is_gmem_smem` gate (target, scope, all
// threads active, valid copy, global<->shared pair, constant extents,
// divisibility) rejects with its own reason, in the seed's order, and the
// selection report carries it even when the fallback takes over.
//
//===----------------------------------------------------------------------===//

#include "CopyTestUtil.h"

using namespace copytest;

namespace {

CopyOp warpF32() {
  return globalToShared(ElemType::F32, {32, 32}, ExecScope::warp());
}

TEST(CopyGate, AcceptsBothDirections) {
  EXPECT_EQ(reasonOf(warpF32(), "vec_auto"), "");
  EXPECT_EQ(planOf(warpF32()).variant, "vec_auto");
  EXPECT_EQ(planOf(reversed(warpF32())).variant, "vec_auto");
}

TEST(CopyGate, NonCudaTarget) {
  EXPECT_EQ(reasonOf(warpF32(), "vec_auto", Target::host()),
            "gmem_smem: non-cuda target");
  // The scalar fallback is plain C++ and serves any target.
  EXPECT_EQ(planOf(warpF32(), Target::host()).variant, "fallback");
}

TEST(CopyGate, UnsupportedScope) {
  CopyOp op = warpF32();
  op.scope = ExecScope::cluster(256);
  EXPECT_EQ(reasonOf(op, "vec_auto"),
            "gmem_smem: unsupported exec_scope cluster");
  Selection sel = selectCopy(op, Target::cuda());
  EXPECT_FALSE(sel.ok());
  EXPECT_EQ(sel.error,
            "no copy variant applies: vec_auto: gmem_smem: unsupported "
            "exec_scope cluster; fallback: unsupported exec_scope cluster");
}

TEST(CopyGate, NotAllThreadsActive) {
  CopyOp op = warpF32();
  op.scope.activateFirst(31);
  EXPECT_EQ(reasonOf(op, "vec_auto"),
            "gmem_smem: not all threads active: 31 of 32 threads of the warp "
            "scope run the copy (active: 0-30)");
  op.scope = ExecScope::cta(256);
  op.scope.active[7] = false;
  op.scope.active[200] = false;
  EXPECT_EQ(reasonOf(op, "vec_auto"),
            "gmem_smem: not all threads active: 254 of 256 threads of the cta "
            "scope run the copy (active: 0-6, 8-199, 201-255)");
  // The fallback runs on the lowest active thread.
  op.scope.active[0] = false;
  CopyPlan plan = planOf(op);
  EXPECT_EQ(plan.variant, "fallback");
  EXPECT_FALSE(plan.distributed);
  EXPECT_EQ(plan.runner, 1u);
  expectCovers(plan);
}

TEST(CopyGate, DtypeMismatch) {
  CopyOp op = warpF32();
  op.dst.elem = ElemType::F16;
  EXPECT_EQ(reasonOf(op, "vec_auto"),
            "gmem_smem: dtype mismatch: dst f16 vs src f32");
  EXPECT_FALSE(selectCopy(op, Target::cuda()).ok());
}

TEST(CopyGate, ExtentMismatch) {
  CopyOp op = warpF32();
  op.src = Tile::rowMajor("A", MemSpace::Global, ElemType::F32, {32, 16});
  EXPECT_EQ(reasonOf(op, "vec_auto"),
            "gmem_smem: extent mismatch: dst non-unit extents [32, 32] vs src "
            "[32, 16]");
}

TEST(CopyGate, MalformedLayouts) {
  CopyOp op = warpF32();
  op.src.dims[1].stride = -1;
  EXPECT_EQ(reasonOf(op, "vec_auto"),
            "gmem_smem: src stride -1 of dim 1 is negative");
  op = warpF32();
  op.dst.dims[0].stride = 0;
  EXPECT_EQ(reasonOf(op, "vec_auto"),
            "gmem_smem: dst dim 0 has stride 0: its elements alias");
  op = warpF32();
  op.dst.swizzle = Swizzle{3, 3, 2};
  EXPECT_EQ(reasonOf(op, "vec_auto"),
            "gmem_smem: dst swizzle<3,3,2> has shift < bits: XOR sources "
            "overlap their destinations");
}

TEST(CopyGate, StoragePair) {
  CopyOp op = warpF32();
  op.dst.space = MemSpace::Local;
  EXPECT_EQ(reasonOf(op, "vec_auto"),
            "gmem_smem: storage pair (dst local, src global) is not "
            "global<->shared (a local side is not allowed)");
  op = warpF32();
  op.src.space = MemSpace::Shared;
  EXPECT_EQ(reasonOf(op, "vec_auto"),
            "gmem_smem: storage pair (dst shared, src shared) is not "
            "global<->shared");
  EXPECT_EQ(planOf(op).variant, "fallback");
  op.dst.space = op.src.space = MemSpace::Global;
  EXPECT_EQ(reasonOf(op, "vec_auto"),
            "gmem_smem: storage pair (dst global, src global) is not "
            "global<->shared");
}

TEST(CopyGate, RuntimeExtent) {
  CopyOp op = warpF32();
  op.src.dims[0].dynExtent = "n";
  op.dst.dims[0].dynExtent = "n";
  EXPECT_EQ(reasonOf(op, "vec_auto"),
            "gmem_smem: region extent 'n' is not a constant");
  CopyPlan plan = planOf(op);
  EXPECT_EQ(plan.variant, "fallback");
  EXPECT_TRUE(plan.distributed);
}

/// Seed: a 1024-thread CTA moving a 64-element tail is refused rather than
/// emitted as a slow scalar loop.
TEST(CopyGate, IndivisibleRegion) {
  CopyOp op = globalToShared(ElemType::F32, {64}, ExecScope::cta(1024));
  EXPECT_EQ(reasonOf(op, "vec_auto"),
            "gmem_smem: region of 64 elements is not divisible by 1024 "
            "threads");
  op.scope = ExecScope::cta(0);
  op.scope.active.clear();
  EXPECT_EQ(reasonOf(op, "vec_auto"), "gmem_smem: empty exec scope: 0 threads");
}

/// The gate's order: the first failing condition is the one reported.
TEST(CopyGate, FirstFailureWins) {
  CopyOp op = globalToShared(ElemType::F32, {64}, ExecScope::cta(1024));
  op.dst.elem = ElemType::F16;
  op.scope.activateFirst(10);
  EXPECT_EQ(reasonOf(op, "vec_auto", Target::host()),
            "gmem_smem: non-cuda target");
  EXPECT_EQ(reasonOf(op, "vec_auto"),
            "gmem_smem: not all threads active: 10 of 1024 threads of the cta "
            "scope run the copy (active: 0-9)");
  op.scope = ExecScope::cta(1024);
  EXPECT_EQ(reasonOf(op, "vec_auto"),
            "gmem_smem: dtype mismatch: dst f16 vs src f32");
}

/// An explicit vec_auto dispatch never falls back silently.
TEST(CopyGate, ExplicitDispatchIsStrict) {
  CopyOp op = globalToShared(ElemType::F32, {64}, ExecScope::cta(1024));
  op.dispatch = "vec_auto";
  Selection sel = selectCopy(op, Target::cuda());
  EXPECT_FALSE(sel.ok());
  EXPECT_EQ(sel.error, "no copy variant applies: vec_auto: gmem_smem: region "
                       "of 64 elements is not divisible by 1024 threads");
  ASSERT_NE(sel.attempt("fallback"), nullptr);
  EXPECT_EQ(sel.attempt("fallback")->outcome,
            Attempt::Outcome::NotRequested);
  op.dispatch = "vec_magic";
  sel = selectCopy(op, Target::cuda());
  EXPECT_FALSE(sel.ok());
  EXPECT_EQ(sel.error, "no copy variant applies: unknown dispatch 'vec_magic'");
}

} // namespace
