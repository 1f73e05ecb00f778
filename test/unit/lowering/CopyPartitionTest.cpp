//===- CopyPartitionTest.cpp - Seed 003's partition and width tables ------===//
//
// vec_auto's gmem_smem path: the [outer, threads, vec] partitions of the
// seed's tables (dtype x scope), the widest-vector rule with its stride,
// base-offset and swizzle-chunk clamps, canonical order and coalescing, and
// the coverage of every plan.
//
//===----------------------------------------------------------------------===//

#include "CopyTestUtil.h"

using namespace copytest;

namespace {

struct TableRow {
  ElemType elem;
  ExecScope scope;
  std::vector<int64_t> shape;
  int64_t vec;
  int64_t outer;
};

/// Seed 003's dtype table and the scope cases: every row moves
/// 128-bit vectors; outer = elements / (threads * vec).
TEST(CopyPartition, SeedTables) {
  const TableRow rows[] = {
      {ElemType::F32, ExecScope::warp(), {32, 32}, 4, 8},
      {ElemType::F16, ExecScope::warp(), {32, 32}, 8, 4},
      {ElemType::U8, ExecScope::warp(), {32, 32}, 16, 2},
      {ElemType::BF16, ExecScope::warp(), {32, 32}, 8, 4},
      {ElemType::I8, ExecScope::warp(), {32, 32}, 16, 2},
      {ElemType::FP8E4M3, ExecScope::warp(), {32, 32}, 16, 2},
      {ElemType::FP8E5M2, ExecScope::warp(), {32, 32}, 16, 2},
      {ElemType::F64, ExecScope::warp(), {32, 32}, 2, 16},
      {ElemType::F32, ExecScope::warpgroup(), {32, 32}, 4, 2},
      {ElemType::F16, ExecScope::warpgroup(), {64, 64}, 8, 4},
      {ElemType::F32, ExecScope::cta(256), {32, 32}, 4, 1},
      {ElemType::U8, ExecScope::cta(256), {64, 64}, 16, 1},
      {ElemType::F16, ExecScope::cta(256), {64, 128}, 8, 4},
      {ElemType::F32, ExecScope::thread(), {32, 32}, 4, 256},
  };
  for (const TableRow &r : rows) {
    for (bool toShared : {true, false}) {
      CopyOp op = globalToShared(r.elem, r.shape, r.scope);
      if (!toShared)
        op = reversed(op);
      SCOPED_TRACE(std::string(elemTypeName(r.elem)) + " " +
                   scopeKindName(r.scope.kind) + " " + directionName(op));
      CopyPlan plan = planOf(op);
      EXPECT_EQ(plan.variant, "vec_auto");
      EXPECT_EQ(plan.path, "gmem_smem");
      EXPECT_EQ(plan.part.vec, r.vec);
      EXPECT_EQ(plan.part.outer, r.outer);
      EXPECT_EQ(plan.part.threads, r.scope.threads);
      EXPECT_EQ(plan.vecBits, 128u);
      expectCovers(plan);
    }
  }
}

/// The seed's IR: s_lin = f * 128 + tid * 4 for f in range(8).
TEST(CopyPartition, WarpF32Offsets) {
  CopyPlan plan =
      planOf(globalToShared(ElemType::F32, {32, 32}, ExecScope::warp()));
  ASSERT_TRUE(plan.part.factored);
  ASSERT_EQ(plan.part.threadDims.size(), 1u);
  EXPECT_EQ(plan.part.threadDims[0], (PDim{32, 4, 4, ""}));
  ASSERT_EQ(plan.part.outerDims.size(), 1u);
  EXPECT_EQ(plan.part.outerDims[0], (PDim{8, 128, 128, ""}));
  std::vector<std::pair<int64_t, int64_t>> got;
  forEachAccess(plan, 5, [&](int64_t d, int64_t s, int64_t elems) {
    EXPECT_EQ(elems, 4);
    got.push_back({d, s});
  });
  ASSERT_EQ(got.size(), 8u);
  for (int64_t f = 0; f < 8; ++f)
    EXPECT_EQ(got[f], std::make_pair(f * 128 + 20, f * 128 + 20));
}

/// Seed: fp16 with global row stride 20 puts tid 2 at byte 40, not 16-byte
/// aligned: 128-bit is refused, 64-bit (4 x f16) chosen.
TEST(CopyPartition, UnalignedRowStrideClamps) {
  CopyOp op = globalToShared(ElemType::F16, {16, 16}, ExecScope::warp());
  op.src = Tile::strided("A", MemSpace::Global, ElemType::F16, {16, 16},
                         {20, 1});
  CopyPlan plan = planOf(op);
  EXPECT_EQ(plan.part.vec, 4);
  EXPECT_EQ(plan.vecBits, 64u);
  ASSERT_EQ(plan.notes.size(), 2u);
  EXPECT_EQ(plan.notes[0], "128-bit (8 x f16): src (global) stride 20 (of a "
                           "dimension of extent 16) is not a multiple of 8 "
                           "elements");
  EXPECT_EQ(plan.notes[1], "64-bit (4 x f16): chosen");
  expectCovers(plan);
  expectCovers(planOf(reversed(op)));
}

/// Seed: a region starting at fp16 column 3 clamps to scalar accesses.
TEST(CopyPartition, UnalignedRegionOffsetClampsToScalar) {
  CopyOp op = globalToShared(ElemType::F16, {16, 16}, ExecScope::warp());
  op.src = Tile::strided("A", MemSpace::Global, ElemType::F16, {16, 16},
                         {24, 1});
  op.src.base.constant = 3;
  CopyPlan plan = planOf(op);
  EXPECT_EQ(plan.part.vec, 1);
  EXPECT_EQ(plan.vecBits, 16u);
  ASSERT_EQ(plan.notes.size(), 4u);
  EXPECT_EQ(plan.notes[0], "128-bit (8 x f16): src (global) base offset 3 is "
                           "not a multiple of 8 elements");
  EXPECT_EQ(plan.notes[2], "32-bit (2 x f16): src (global) base offset 3 is "
                           "not a multiple of 2 elements");
  expectCovers(plan);
  // The same offset on the shared side clamps just the same.
  CopyOp rev = reversed(op);
  rev.dst.base.constant = 0;
  rev.src.base.constant = 3;
  rev.src.dims[0].stride = 24;
  EXPECT_EQ(planOf(rev).part.vec, 1);
}

/// u8 with a row stride of 4 and a region at column 2: 16 bits.
TEST(CopyPartition, ClampsPerConstraint) {
  CopyOp op = globalToShared(ElemType::U8, {32, 32}, ExecScope::warp());
  op.src = Tile::strided("A", MemSpace::Global, ElemType::U8, {32, 32},
                         {36, 1});
  EXPECT_EQ(planOf(op).part.vec, 4); // 36 = 4 * 9
  op.src.base.constant = 2;
  EXPECT_EQ(planOf(op).part.vec, 2);
  op.dst.base.constant = 1;
  EXPECT_EQ(planOf(op).part.vec, 1);
  EXPECT_EQ(planOf(op).vecBits, 8u);
  expectCovers(planOf(op));
}

/// A runtime base offset counts with its declared alignment.
TEST(CopyPartition, RuntimeBaseAlignment) {
  CopyOp op = globalToShared(ElemType::F32, {32, 32}, ExecScope::warp());
  op.src.base.expr = "blockIdx.x * 1024";
  op.src.base.exprAlign = 1024;
  EXPECT_EQ(planOf(op).part.vec, 4);
  op.src.base.exprAlign = 2;
  CopyPlan plan = planOf(op);
  EXPECT_EQ(plan.part.vec, 2);
  EXPECT_EQ(plan.notes[0], "128-bit (4 x f32): src (global) base offset "
                           "(blockIdx.x * 1024) (expr align 2) is not a "
                           "multiple of 4 elements");
}

/// The per-thread share bounds the vector: 64 f32 over 32 threads is 2 each.
TEST(CopyPartition, ShareBoundsVector) {
  CopyPlan plan =
      planOf(globalToShared(ElemType::F32, {64}, ExecScope::warp()));
  EXPECT_EQ(plan.part.vec, 2);
  EXPECT_EQ(plan.part.outer, 1);
  EXPECT_EQ(plan.notes[0], "128-bit (4 x f32): per-thread share of 2 "
                           "elements is not a multiple of 4");
  expectCovers(plan);
}

/// A swizzled shared layout keeps the vector inside one swizzle chunk.
TEST(CopyPartition, SwizzleChunkBoundsVector) {
  struct Row {
    ElemType elem;
    Swizzle swz;
    int64_t vec;
  };
  const Row rows[] = {
      {ElemType::F16, {3, 3, 3}, 8},  // 128B swizzle, 16-byte chunks
      {ElemType::F16, {3, 2, 3}, 4},  // 8-byte chunks
      {ElemType::F16, {2, 1, 4}, 2},  // 4-byte chunks
      {ElemType::F32, {3, 2, 3}, 4},  //
      {ElemType::F32, {3, 1, 3}, 2},  //
      {ElemType::U8, {3, 4, 3}, 16},  //
      {ElemType::U8, {3, 0, 4}, 1},   // 1-element chunks: scalar
  };
  for (const Row &r : rows) {
    for (bool toShared : {true, false}) {
      CopyOp op = globalToShared(r.elem, {64, 64}, ExecScope::cta(128));
      op.dst.swizzle = r.swz;
      if (!toShared)
        op = reversed(op);
      SCOPED_TRACE(std::string(elemTypeName(r.elem)) + " swizzle<" +
                   std::to_string(r.swz.bits) + "," +
                   std::to_string(r.swz.base) + "," +
                   std::to_string(r.swz.shift) + "> " + directionName(op));
      CopyPlan plan = planOf(op);
      EXPECT_EQ(plan.part.vec, r.vec);
      EXPECT_LE(plan.part.vec, r.swz.chunkElems());
      expectCovers(plan);
    }
  }
  CopyOp op = globalToShared(ElemType::F16, {64, 64}, ExecScope::cta(128));
  op.dst.swizzle = Swizzle{3, 2, 3};
  EXPECT_EQ(planOf(op).notes[0], "128-bit (8 x f16): 8 elements cross the "
                                 "4-element swizzle chunk of dst (shared)");
}

/// The swizzle is applied once per thread when outer steps are whole atoms.
TEST(CopyPartition, SwizzleHoisting) {
  CopyOp op = globalToShared(ElemType::F16, {64, 64}, ExecScope::cta(128));
  op.dst.swizzle = Swizzle{3, 3, 3}; // atom 512 elements, outer step 1024
  CopyPlan plan = planOf(op);
  EXPECT_TRUE(swizzleHoistable(plan, /*dstSide=*/true));
  op = globalToShared(ElemType::F16, {16, 32}, ExecScope::warp());
  op.dst.swizzle = Swizzle{3, 2, 5}; // atom 1024, outer step 128
  plan = planOf(op);
  EXPECT_FALSE(swizzleHoistable(plan, /*dstSide=*/true));
  expectCovers(plan);
}

/// The global side drives the canonical order: a column-major global tile
/// makes dim 0 innermost; shared must follow for a vector tail.
TEST(CopyPartition, GlobalSideDrivesOrder) {
  CopyOp op = globalToShared(ElemType::F32, {32, 16}, ExecScope::warp());
  op.src = Tile::strided("A", MemSpace::Global, ElemType::F32, {32, 16},
                         {1, 32});
  op.dst = Tile::strided("S", MemSpace::Shared, ElemType::F32, {32, 16},
                         {1, 32});
  AlignedSpace space = alignLayouts(op);
  ASSERT_EQ(space.dims.size(), 1u); // coalesced: contiguous on both sides
  EXPECT_EQ(space.contiguousTail(), 512);
  EXPECT_EQ(planOf(op).part.vec, 4);
  // Row-major shared against column-major global: the tail is strided on
  // the shared side, so only scalars fit.
  op.dst = Tile::rowMajor("S", MemSpace::Shared, ElemType::F32, {32, 16});
  space = alignLayouts(op);
  ASSERT_EQ(space.dims.size(), 2u);
  EXPECT_EQ(space.dims.back(), (PDim{32, 16, 1, ""}));
  CopyPlan plan = planOf(op);
  EXPECT_EQ(plan.part.vec, 1);
  EXPECT_EQ(plan.notes[0], "128-bit (4 x f32): no contiguous tail: the "
                           "innermost dimension (extent 32) has dst stride 16 "
                           "and src stride 1");
  expectCovers(plan);
}

/// Unit dimensions are dropped before pairing.
TEST(CopyPartition, UnitDimensionsIgnored) {
  CopyOp op = globalToShared(ElemType::F32, {32, 32}, ExecScope::warp());
  op.dst = Tile::rowMajor("S", MemSpace::Shared, ElemType::F32, {1, 32, 1, 32});
  CopyPlan plan = planOf(op);
  EXPECT_EQ(plan.part.vec, 4);
  EXPECT_EQ(plan.part.outer, 8);
  expectCovers(plan);
}

/// Dimensions that do not coalesce become nested outer loops.
TEST(CopyPartition, NestedOuterDims) {
  CopyOp op = globalToShared(ElemType::F32, {4, 8, 32}, ExecScope::warp());
  op.src = Tile::strided("A", MemSpace::Global, ElemType::F32, {4, 8, 32},
                         {400, 40, 1});
  CopyPlan plan = planOf(op);
  EXPECT_EQ(partitionShape(plan.part), "[outer=8, threads=32, vec=4]");
  ASSERT_TRUE(plan.part.factored);
  ASSERT_EQ(plan.part.outerDims.size(), 2u);
  EXPECT_EQ(plan.part.outerDims[0], (PDim{4, 256, 400, ""}));
  EXPECT_EQ(plan.part.outerDims[1], (PDim{2, 128, 160, ""}));
  ASSERT_EQ(plan.part.threadDims.size(), 2u);
  EXPECT_EQ(plan.part.threadDims[0], (PDim{4, 32, 40, ""}));
  EXPECT_EQ(plan.part.threadDims[1], (PDim{8, 4, 4, ""}));
  expectCovers(plan);
}

/// 48 threads over 12 x 20: the threads axis does not factor; offsets are
/// decomposed per iteration and still cover the region.
TEST(CopyPartition, NonFactorableThreads) {
  CopyOp op = globalToShared(ElemType::F32, {12, 20}, ExecScope::cta(48));
  op.src = Tile::strided("A", MemSpace::Global, ElemType::F32, {12, 20},
                         {24, 1});
  CopyPlan plan = planOf(op);
  EXPECT_FALSE(plan.part.factored);
  EXPECT_EQ(partitionShape(plan.part), "[outer=5, threads=48, vec=1]");
  expectCovers(plan);
  // With 24 threads the share is 10: vec 2, still not factorable.
  op.scope = ExecScope::cta(24);
  plan = planOf(op);
  EXPECT_EQ(plan.part.vec, 2);
  EXPECT_FALSE(plan.part.factored);
  expectCovers(plan);
}

/// widestVec records every width it tried, and vecRejection's order.
TEST(CopyPartition, VecRejectionReasons) {
  CopyOp op = globalToShared(ElemType::F32, {8, 8}, ExecScope::cta(8));
  op.dst = Tile::strided("S", MemSpace::Shared, ElemType::F32, {8, 8}, {10, 1});
  AlignedSpace space = alignLayouts(op);
  EXPECT_EQ(vecRejection(op, space, 8, 4),
            "dst (shared) stride 10 (of a dimension of extent 8) is not a "
            "multiple of 4 elements");
  EXPECT_EQ(vecRejection(op, space, 8, 2), "");
  EXPECT_EQ(vecRejection(op, space, 8, 16),
            "per-thread share of 8 elements is not a multiple of 16");
  EXPECT_EQ(vecRejection(op, space, 8, 1), "");
}

} // namespace
