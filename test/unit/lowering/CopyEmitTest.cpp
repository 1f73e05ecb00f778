//===- CopyEmitTest.cpp - The CUDA C++ text of scheduled copies -----------===//
//
// Checks on emitted blocks, FileCheck-style: the direct-PTX vector forms per
// direction and width, the serial `#pragma unroll 1` loop and its bound, the
// uint32 scratch, the host branch, structured XOR swizzle addressing without
// division, nested and decomposed loops, and the scalar fallback loop.
//
//===----------------------------------------------------------------------===//

#include "CopyTestUtil.h"

using namespace copytest;

namespace {

/// Emits the plan selected for `op` with names dst "D", src "S", tid "t".
std::string emitted(const CopyOp &op, Target target = Target::cuda()) {
  return emitCopy(planOf(op, target), {"D", "S", "t", ""});
}

/// Whether `needle` occurs in `hay`.
bool has(const std::string &hay, const std::string &needle) {
  return hay.find(needle) != std::string::npos;
}

/// The lines of `text` that contain `needle`, counted.
int count(const std::string &text, const std::string &needle) {
  int n = 0;
  for (size_t p = text.find(needle); p != std::string::npos;
       p = text.find(needle, p + 1))
    ++n;
  return n;
}

/// The text of the outermost loop body (from the first "for (" on).
std::string loopBody(const std::string &code) {
  size_t p = code.find("for (");
  return p == std::string::npos ? "" : code.substr(p);
}

TEST(CopyEmit, SeedWarpF32GlobalToShared) {
  std::string code =
      emitted(globalToShared(ElemType::F32, {32, 32}, ExecScope::warp()));
  EXPECT_TRUE(has(code, "{ // copy vec_auto/gmem_smem global->shared f32 "
                        "[outer=8, threads=32, vec=4] 128-bit: A_smem <- A\n"))
      << code;
  EXPECT_TRUE(has(code, "const long long icp_tid = static_cast<long "
                        "long>(t);\n"));
  EXPECT_TRUE(has(code, "const long long icp_dt = icp_tid * 4;\n"));
  EXPECT_TRUE(has(code, "unsigned int icp_r[4];\n#pragma unroll 1\n"
                        "  for (long long icp_f0 = 0; icp_f0 < 8; ++icp_f0) "
                        "{\n"))
      << code;
  EXPECT_TRUE(has(code, "const long long icp_do = icp_dt + icp_f0 * 128;\n"));
  EXPECT_TRUE(has(code, "#if defined(__CUDA_ARCH__)\n"
                        "    asm volatile(\"ld.global.v4.u32 {%0, %1, %2, "
                        "%3}, [%4];\"\n"
                        "                 : \"=r\"(icp_r[0]), \"=r\"(icp_r[1]), "
                        "\"=r\"(icp_r[2]), \"=r\"(icp_r[3])\n"
                        "                 : \"l\"(icp_src + icp_so * 4) : "
                        "\"memory\");\n"
                        "    asm volatile(\"st.shared.v4.u32 [%0], {%1, %2, "
                        "%3, %4};\"\n"
                        "                 :: \"r\"(::intent::rt::shared_"
                        "address(icp_dst + icp_do * 4)), \"r\"(icp_r[0]), "
                        "\"r\"(icp_r[1]), \"r\"(icp_r[2]), \"r\"(icp_r[3])\n"))
      << code;
  EXPECT_TRUE(has(code, "#else\n"
                        "    ::intent::rt::copy_load_bits<16>(icp_r, icp_src "
                        "+ icp_so * 4);\n"
                        "    ::intent::rt::copy_store_bits<16>(icp_dst + "
                        "icp_do * 4, icp_r);\n"
                        "#endif\n"));
  // One access pair per iteration: the loop is not unrolled.
  EXPECT_EQ(count(code, "asm volatile"), 2);
  EXPECT_EQ(count(code, "#pragma unroll 1"), 1);
  EXPECT_FALSE(has(code, "#pragma unroll\n"));
}

TEST(CopyEmit, SharedToGlobal) {
  std::string code = emitted(
      reversed(globalToShared(ElemType::F16, {32, 32}, ExecScope::warp())));
  EXPECT_TRUE(has(code, "asm volatile(\"ld.shared.v4.u32 {%0, %1, %2, %3}, "
                        "[%4];\""));
  EXPECT_TRUE(has(code, ": \"r\"(::intent::rt::shared_address(icp_src + "
                        "icp_so * 2)) : \"memory\");"));
  EXPECT_TRUE(has(code, "asm volatile(\"st.global.v4.u32 [%0], {%1, %2, %3, "
                        "%4};\"\n                 :: \"l\"(icp_dst + icp_do "
                        "* 2)"));
  EXPECT_TRUE(has(code, "icp_f0 < 4;"));
}

TEST(CopyEmit, NarrowForms) {
  CopyOp op = globalToShared(ElemType::F16, {16, 16}, ExecScope::warp());
  op.src = Tile::strided("A", MemSpace::Global, ElemType::F16, {16, 16},
                         {20, 1});
  std::string code = emitted(op);
  EXPECT_TRUE(has(code, "\"ld.global.v2.u32 {%0, %1}, [%2];\"")) << code;
  EXPECT_TRUE(has(code, "\"st.shared.v2.u32 [%0], {%1, %2};\""));
  EXPECT_TRUE(has(code, "unsigned int icp_r[2];"));
  op.src.base.constant = 3;
  code = emitted(op);
  EXPECT_TRUE(has(code, "\"ld.global.u16 %0, [%1];\"")) << code;
  EXPECT_TRUE(has(code, "\"st.shared.u16 [%0], %1;\""));
  EXPECT_TRUE(has(code, "unsigned int icp_r[1];"));
  EXPECT_TRUE(has(code, "copy_load_bits<2>("));
  op = globalToShared(ElemType::U8, {32, 32}, ExecScope::warp());
  op.src.base.constant = 1;
  code = emitted(op);
  EXPECT_TRUE(has(code, "\"ld.global.u8 %0, [%1];\"")) << code;
  EXPECT_TRUE(has(code, "icp_src + icp_so)")); // 1-byte elements: no scale
  op = globalToShared(ElemType::F32, {32, 32}, ExecScope::warp());
  op.dispatch = "vec_32b";
  EXPECT_TRUE(has(emitted(op), "\"ld.global.u32 %0, [%1];\""));
}

TEST(CopyEmit, CacheHint) {
  CopyOp op = globalToShared(ElemType::F32, {32, 32}, ExecScope::warp());
  op.cache = CacheHint::CG;
  EXPECT_TRUE(has(emitted(op), "\"ld.global.cg.v4.u32 {%0, %1, %2, %3}"));
  // Stores and shared loads carry no cache operator.
  EXPECT_TRUE(has(emitted(reversed(op)), "\"ld.shared.v4.u32 "));
  EXPECT_EQ(ptxAccess(true, MemSpace::Global, 8, CacheHint::CS),
            "ld.global.cs.v2.u32");
  EXPECT_EQ(ptxAccess(false, MemSpace::Global, 8, CacheHint::CS),
            "st.global.v2.u32");
}

TEST(CopyEmit, Wide256Bit) {
  CopyOp op = globalToShared(ElemType::F32, {32, 64}, ExecScope::warp());
  op.dispatch = "vec_256b";
  std::string code = emitted(op, Target::cuda(100));
  EXPECT_TRUE(has(code, "\"ld.global.v8.u32 {%0, %1, %2, %3, %4, %5, %6, "
                        "%7}, [%8];\""))
      << code;
  // Below sm_100 (the same file compiled for several GPUs) the global side
  // falls back to two 128-bit halves too.
  EXPECT_TRUE(has(code, "#if __CUDA_ARCH__ >= 1000\n")) << code;
  EXPECT_EQ(count(code, "\"ld.global.v4.u32 {%0, %1, %2, %3}, [%4];\""), 2)
      << code;
  // Shared memory has no 256-bit access: two 128-bit halves.
  EXPECT_EQ(count(code, "\"st.shared.v4.u32 [%0], {%1, %2, %3, %4};\""), 2);
  EXPECT_TRUE(has(code, "shared_address(icp_dst + icp_do * 4 + 16)"));
  EXPECT_TRUE(has(code, "\"r\"(icp_r[4]), \"r\"(icp_r[5])"));
  EXPECT_TRUE(has(code, "copy_load_bits<32>("));
}

TEST(CopyEmit, LocalSideUsesPlainBits) {
  CopyOp op;
  op.src = Tile::rowMajor("g", MemSpace::Global, ElemType::F32, {8});
  op.dst = Tile::rowMajor("r", MemSpace::Local, ElemType::F32, {8});
  op.scope = ExecScope::thread();
  op.dispatch = "vec_128b";
  std::string code = emitted(op);
  EXPECT_TRUE(has(code, "const long long icp_tid = 0;")) << code;
  EXPECT_TRUE(has(code, "\"ld.global.v4.u32 "));
  EXPECT_FALSE(has(code, "st.local"));
  // The local store is the same in both branches.
  EXPECT_EQ(count(code, "copy_store_bits<16>(icp_dst + icp_do * 4, icp_r);"),
            2);
}

TEST(CopyEmit, SwizzleHoistedOutOfLoop) {
  CopyOp op = globalToShared(ElemType::F16, {64, 64}, ExecScope::cta(128));
  op.dst.swizzle = Swizzle{3, 3, 3};
  std::string code = emitted(op);
  EXPECT_TRUE(has(code, "const long long icp_dl = icp_tid * 8;\n"
                        "  const long long icp_dt = (icp_dl & ~511LL) + "
                        "((icp_dl & 511LL) ^ ((icp_dl >> 3) & 56LL));\n"))
      << code;
  std::string body = loopBody(code);
  EXPECT_TRUE(has(body, "const long long icp_do = icp_dt + icp_f0 * 1024;"));
  EXPECT_FALSE(has(body, "^"));
}

TEST(CopyEmit, SwizzlePerIterationIsStructured) {
  CopyOp op = globalToShared(ElemType::F16, {16, 32}, ExecScope::warp());
  op.dst.swizzle = Swizzle{3, 2, 5};
  std::string body = loopBody(emitted(op));
  EXPECT_TRUE(has(body, "const long long icp_dl = icp_dt + icp_f0 * 128;\n"
                        "    const long long icp_do = (icp_dl & ~1023LL) + "
                        "((icp_dl & 1023LL) ^ ((icp_dl >> 5) & 28LL));\n"))
      << body;
  // No full div/mod decomposition per iteration.
  EXPECT_FALSE(has(body, " / "));
  EXPECT_FALSE(has(body, " % "));
}

TEST(CopyEmit, NestedLoopsAndThreadDigits) {
  CopyOp op = globalToShared(ElemType::F32, {4, 8, 32}, ExecScope::warp());
  op.src = Tile::strided("A", MemSpace::Global, ElemType::F32, {4, 8, 32},
                         {400, 40, 1});
  std::string code = emitted(op);
  EXPECT_TRUE(has(code, "const long long icp_t0 = icp_tid / 8;\n"
                        "  const long long icp_t1 = icp_tid % 8;\n"))
      << code;
  EXPECT_TRUE(has(code, "const long long icp_st = icp_t0 * 40 + icp_t1 * 4;"));
  EXPECT_EQ(count(code, "#pragma unroll 1\n"), 2);
  EXPECT_TRUE(has(code, "for (long long icp_f0 = 0; icp_f0 < 4; ++icp_f0)"));
  EXPECT_TRUE(has(code, "for (long long icp_f1 = 0; icp_f1 < 2; ++icp_f1)"));
  EXPECT_TRUE(has(code, "const long long icp_so = icp_st + icp_f0 * 400 + "
                        "icp_f1 * 160;"));
}

TEST(CopyEmit, DecomposedThreads) {
  CopyOp op = globalToShared(ElemType::F32, {12, 20}, ExecScope::cta(48));
  op.src = Tile::strided("A", MemSpace::Global, ElemType::F32, {12, 20},
                         {24, 1});
  std::string code = emitted(op);
  EXPECT_TRUE(has(code, "for (long long icp_f0 = 0; icp_f0 < 5; ++icp_f0)"));
  EXPECT_TRUE(has(code, "long long icp_l = icp_f0 * 48 + icp_tid;\n"
                        "    const long long icp_q1 = icp_l % 20;\n"
                        "    icp_l /= 20;\n"
                        "    const long long icp_q0 = icp_l;\n"))
      << code;
  EXPECT_TRUE(has(code, "const long long icp_so = icp_q0 * 24 + icp_q1;"));
}

TEST(CopyEmit, RuntimeBase) {
  CopyOp op = globalToShared(ElemType::F32, {32, 32}, ExecScope::warp());
  op.src.base.expr = "blockIdx.x * 1024";
  op.src.base.exprAlign = 1024;
  op.src.base.constant = 4;
  std::string code = emitted(op);
  EXPECT_TRUE(has(code, "const long long icp_st = static_cast<long "
                        "long>(blockIdx.x * 1024) + 4 + icp_tid * 4;"))
      << code;
}

TEST(CopyEmit, ScalarFallback) {
  CopyOp op = globalToShared(ElemType::F16, {10, 10}, ExecScope::cta(32));
  std::string code = emitted(op);
  EXPECT_TRUE(has(code, "{ // copy fallback/scalar global->shared f16 "
                        "round-robin: A_smem <- A\n"))
      << code;
  EXPECT_TRUE(has(code, "const long long icp_n = 10 * 10;\n#pragma unroll 1\n"
                        "  for (long long icp_e = icp_tid; icp_e < icp_n; "
                        "icp_e += 32) {\n"));
  EXPECT_TRUE(has(code, "::intent::rt::copy_bytes<2>(icp_dst + icp_do * 2, "
                        "icp_src + icp_so * 2);"));
  EXPECT_FALSE(has(code, "asm"));
  // Runtime extents, and a single runner for a narrowed active set.
  op.src.dims[0].dynExtent = op.dst.dims[0].dynExtent = "n";
  op.scope.activateFirst(5);
  code = emitted(op);
  EXPECT_TRUE(has(code, "const long long icp_n = static_cast<long long>(n) "
                        "* 10;\n  if (icp_tid == 0) {\n"))
      << code;
  EXPECT_TRUE(has(code, "for (long long icp_e = 0; icp_e < icp_n; icp_e += "
                        "1)"));
}

TEST(CopyEmit, EmptyRegion) {
  CopyOp op = globalToShared(ElemType::F32, {0, 32}, ExecScope::warp());
  CopyPlan plan = planOf(op);
  EXPECT_EQ(plan.variant, "vec_auto");
  EXPECT_EQ(plan.part.outer, 0);
  std::string code = emitCopy(plan, {"D", "S", "t", ""});
  EXPECT_TRUE(has(code, "// empty region: nothing to move"));
  EXPECT_FALSE(has(code, "for ("));
}

} // namespace
