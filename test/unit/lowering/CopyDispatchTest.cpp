//===- CopyDispatchTest.cpp - The copy variant registry and its report ----===//
//
// Priorities and order of the CUDA registry, the fixed-width variants (only
// on request, only when the width fits), the scalar fallback, custom
// registries, and the printed selection report.
//
//===----------------------------------------------------------------------===//

#include "CopyTestUtil.h"
#include "Copy/FromPhysical.h"

using namespace copytest;

namespace {

TEST(CopyDispatch, CudaRegistryOrder) {
  std::vector<std::pair<std::string, int>> got;
  for (const Variant *v : Registry::cuda().ordered())
    got.push_back({v->name, v->priority});
  std::vector<std::pair<std::string, int>> want = {
      {"vec_16b", 20},  {"vec_32b", 20},  {"vec_64b", 20}, {"vec_128b", 20},
      {"vec_256b", 20}, {"vec_auto", 10}, {"fallback", 0}};
  EXPECT_EQ(got, want);
}

TEST(CopyDispatch, ReportShowsEveryVariant) {
  Selection sel = selectCopy(
      globalToShared(ElemType::F32, {32, 32}, ExecScope::warp()),
      Target::cuda());
  ASSERT_TRUE(sel.ok());
  EXPECT_EQ(sel.attempt("vec_128b")->outcome, Attempt::Outcome::NotRequested);
  EXPECT_EQ(sel.attempt("vec_auto")->outcome, Attempt::Outcome::Chosen);
  EXPECT_EQ(sel.attempt("fallback")->outcome, Attempt::Outcome::NotTried);
  EXPECT_EQ(sel.str(),
            "copy selection (target cuda sm_90)\n"
            "  copy A_smem shared f32 [32, 32] strides [32, 1] base 0 <- A "
            "global f32 [32, 32] strides [32, 1] base 0, scope warp (32 "
            "threads, all active)\n"
            "  vec_16b (priority 20): not requested: selected only by an "
            "explicit dispatch\n"
            "  vec_32b (priority 20): not requested: selected only by an "
            "explicit dispatch\n"
            "  vec_64b (priority 20): not requested: selected only by an "
            "explicit dispatch\n"
            "  vec_128b (priority 20): not requested: selected only by an "
            "explicit dispatch\n"
            "  vec_256b (priority 20): not requested: selected only by an "
            "explicit dispatch\n"
            "  vec_auto (priority 10): chosen\n"
            "  fallback (priority 0): not tried\n"
            "  plan vec_auto/gmem_smem: global->shared f32 [outer=8, "
            "threads=32, vec=4] 128-bit\n"
            "    threads: 32x(dst 4, src 4)\n"
            "    outer: 8x(dst 128, src 128)\n"
            "    128-bit (4 x f32): chosen\n");
}

TEST(CopyDispatch, FallbackReportKeepsRejection) {
  CopyOp op = globalToShared(ElemType::F16, {10, 10}, ExecScope::cta(32));
  Selection sel = selectCopy(op, Target::cuda());
  ASSERT_TRUE(sel.ok());
  EXPECT_EQ(sel.plan->variant, "fallback");
  EXPECT_NE(sel.str().find("  vec_auto (priority 10): rejected: gmem_smem: "
                           "region of 100 elements is not divisible by 32 "
                           "threads\n"
                           "  fallback (priority 0): chosen\n"),
            std::string::npos)
      << sel.str();
  expectCovers(*sel.plan);
}

TEST(CopyDispatch, FixedWidthWhenItFits) {
  CopyOp op = globalToShared(ElemType::F32, {32, 32}, ExecScope::warp());
  for (auto [name, vec] : std::vector<std::pair<std::string, int64_t>>{
           {"vec_32b", 1}, {"vec_64b", 2}, {"vec_128b", 4}}) {
    op.dispatch = name;
    CopyPlan plan = planOf(op);
    EXPECT_EQ(plan.variant, name);
    EXPECT_EQ(plan.path, "fixed");
    EXPECT_EQ(plan.part.vec, vec);
    EXPECT_EQ(plan.part.outer, 1024 / (32 * vec));
    expectCovers(plan);
  }
}

TEST(CopyDispatch, FixedWidthRejections) {
  CopyOp op = globalToShared(ElemType::F32, {32, 32}, ExecScope::warp());
  op.dispatch = "vec_16b";
  EXPECT_EQ(reasonOf(op, "vec_16b"),
            "a 16-bit access cannot hold whole f32 elements");
  op.dispatch = "vec_256b";
  EXPECT_EQ(reasonOf(op, "vec_256b"),
            "256-bit ld/st needs sm_100 or newer (target sm_90)");
  CopyPlan wide = planOf(op, Target::cuda(100));
  EXPECT_EQ(wide.vecBits, 256u);
  EXPECT_EQ(wide.part.vec, 8);
  expectCovers(wide);
  op = globalToShared(ElemType::F16, {16, 16}, ExecScope::warp());
  op.src = Tile::strided("A", MemSpace::Global, ElemType::F16, {16, 16},
                         {20, 1});
  op.dispatch = "vec_128b";
  EXPECT_EQ(reasonOf(op, "vec_128b"),
            "128-bit (8 x f16): src (global) stride 20 (of a dimension of "
            "extent 16) is not a multiple of 8 elements");
  Selection sel = selectCopy(op, Target::cuda());
  EXPECT_FALSE(sel.ok());
  EXPECT_EQ(sel.attempt("vec_auto")->outcome, Attempt::Outcome::NotRequested);
  op.dispatch = "vec_64b";
  EXPECT_EQ(planOf(op).vecBits, 64u);
}

TEST(CopyDispatch, FixedWidthPairs) {
  // global -> local in a single-thread scope: 8 f32 as two 128-bit vectors.
  CopyOp op;
  op.src = Tile::rowMajor("g", MemSpace::Global, ElemType::F32, {8});
  op.dst = Tile::rowMajor("r", MemSpace::Local, ElemType::F32, {8});
  op.scope = ExecScope::thread();
  op.dispatch = "vec_128b";
  CopyPlan plan = planOf(op);
  EXPECT_EQ(partitionShape(plan.part), "[outer=2, threads=1, vec=4]");
  expectCovers(plan);
  op.scope = ExecScope::warp();
  op.dst = Tile::rowMajor("r", MemSpace::Local, ElemType::F32, {32, 8});
  op.src = Tile::rowMajor("g", MemSpace::Global, ElemType::F32, {32, 8});
  EXPECT_EQ(reasonOf(op, "vec_128b"),
            "a local operand is per-thread storage and needs exec_scope "
            "thread, got warp (32 threads)");
  op.dst.space = MemSpace::Global;
  EXPECT_EQ(reasonOf(op, "vec_128b"),
            "storage pair (dst global, src global) is not global<->shared, "
            "global<->local or shared<->local");
  // The fallback refuses a local side shared by many threads, too.
  op.dispatch = "";
  op.dst.space = MemSpace::Local;
  EXPECT_EQ(reasonOf(op, "fallback"),
            "a local operand in a 32-thread scope needs a register layout "
            "(the reg path)");
}

TEST(CopyDispatch, CustomRegistryPriorities) {
  Registry r;
  auto plain = [](std::string name, int prio, std::string why) {
    Variant v;
    v.name = name;
    v.priority = prio;
    v.when = [why](const CopyOp &, const Target &) { return why; };
    v.schedule = [name](const CopyOp &op, const Target &) {
      CopyPlan p;
      p.variant = name;
      p.op = op;
      return p;
    };
    return v;
  };
  r.add(plain("low", 1, ""));
  r.add(plain("high_no", 5, "never"));
  r.add(plain("mid_a", 3, ""));
  r.add(plain("mid_b", 3, ""));
  Selection sel = selectCopy(
      globalToShared(ElemType::F32, {32}, ExecScope::warp()), Target::cuda(),
      r);
  ASSERT_TRUE(sel.ok());
  EXPECT_EQ(sel.plan->variant, "mid_a");
  ASSERT_EQ(sel.attempts.size(), 4u);
  EXPECT_EQ(sel.attempts[0].variant, "high_no");
  EXPECT_EQ(sel.attempts[0].reason, "never");
  EXPECT_EQ(sel.attempts[2].variant, "mid_b");
  EXPECT_EQ(sel.attempts[2].outcome, Attempt::Outcome::NotTried);
}

/// Physical passes name element types with phys::ScalarKind.
TEST(CopyDispatch, ElemTypeFromPhysical) {
  EXPECT_EQ(elemTypeOf(intent::phys::ScalarKind::F16), ElemType::F16);
  EXPECT_EQ(elemTypeOf(intent::phys::ScalarKind::BF16), ElemType::BF16);
  EXPECT_EQ(elemTypeOf(intent::phys::ScalarKind::I8), ElemType::I8);
  EXPECT_EQ(elemTypeOf(intent::phys::ScalarKind::Bool), ElemType::U8);
  EXPECT_EQ(elemBits(elemTypeOf(intent::phys::ScalarKind::F64)), 64u);
}

} // namespace
