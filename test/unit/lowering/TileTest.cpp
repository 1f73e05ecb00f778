//===- TileTest.cpp - The tile pass and tile segments ----------------------===//
//
// passes::tile (docs/passes.md §9): rank >= 2 pointwise segments become tile
// segments (Physical/Dispatch.h tileSegment); transposed accesses go through
// a shared tile. The physical interpreter (CTAs of fibers, race check)
// against the KIR interpreter and a C++ reference on permutations whose tile
// runs along different dimensions and on partial tiles; the form prints and
// parses back; the verifier rejects broken tile segments; a dropped barrier
// is a shared-memory race.
//
//===----------------------------------------------------------------------===//

#include "VerifierHarness.h"

#include "Interpreter/PhysInterpreter.h"
#include "Passes/Passes.h"
#include "Physical/Dispatch.h"
#include "Physical/IndexRange.h"
#include "Physical/PhysAffine.h"
#include "Physical/Parser.h"

#include <algorithm>

using namespace intent;
using namespace intent::test;
using kir::ScalarKind;

namespace {

// out(b, j, i) = x(b, i, j): the store is transposed along dimension 1.
const char *kPermute = R"(
kernel @permute3 (%0 out: view<i32, 3> w, %1 x: view<const i32, 3> r) loc(1:1) {
  %2 = extent %1 {dim = 0} : i64 loc(2:3)
  %3 = extent %1 {dim = 1} : i64 loc(2:3)
  %4 = extent %1 {dim = 2} : i64 loc(2:3)
  parallel_for %2, %3, %4 loc(2:3) {
  ^(%5: i64, %6: i64, %7: i64):
    %8 = load %1, %5, %6, %7 : i32 loc(3:5)
    store %0, %8, %5, %7, %6 loc(3:5)
    yield
  }
  return
}
)";

// out(k, j, i) = x(i, j, k) + y(k, j, i): the tile runs along (0, 2); the
// load of x is direct, the load of y and the store transposed.
const char *kReverse = R"(
kernel @reverse3 (%0 out: view<f32, 3> w, %1 x: view<const f32, 3> r, %2 y: view<const f32, 3> r) loc(1:1) {
  %3 = extent %1 {dim = 0} : i64 loc(2:3)
  %4 = extent %1 {dim = 1} : i64 loc(2:3)
  %5 = extent %1 {dim = 2} : i64 loc(2:3)
  parallel_for %3, %4, %5 loc(2:3) {
  ^(%6: i64, %7: i64, %8: i64):
    %9 = load %1, %6, %7, %8 : f32 loc(3:5)
    %10 = load %2, %8, %7, %6 : f32 loc(3:5)
    %11 = add %9, %10 : f32 loc(3:5)
    store %0, %11, %8, %7, %6 loc(3:5)
    yield
  }
  return
}
)";

// A guarded 5-point stencil: a thread's 4 direct instances are consecutive
// rows of one column, so a(i - 1, j), a(i, j) and a(i + 1, j) of the four
// are 6 elements (rows -1 .. 4), each loaded once; a(i, j -+ 1) are not
// shared.
const char *kStencil = R"(
kernel @stencil5 (%0 out: view<f32, 2> w, %1 a: view<const f32, 2> r) loc(3:25) {
  %2 = extent %1 {dim = 0} : i64 loc(4:21)
  %3 = extent %1 {dim = 1} : i64 loc(4:38)
  parallel_for %2, %3 loc(5:3) {
  ^(%4: i64, %5: i64):
    %6 = load %1, %4, %5 : f32 loc(6:15)
    %7 = constant {value = 0} : i64 loc(7:13)
    %8 = cmp %4, %7 {pred = "gt"} : bool loc(7:11)
    %13 = if %8 : f32 loc(7:5) {
      %9 = constant {value = 1} : i64 loc(7:27)
      %10 = sub %4, %9 : i64 loc(7:25)
      %11 = load %1, %10, %5 : f32 loc(7:21)
      %12 = add %6, %11 : f32 loc(7:18)
      yield %12 loc(7:5)
    } {
      yield %6 loc(7:5)
    }
    %14 = constant {value = 1} : i64 loc(8:13)
    %15 = add %4, %14 : i64 loc(8:11)
    %16 = cmp %15, %2 {pred = "lt"} : bool loc(8:15)
    %21 = if %16 : f32 loc(8:5) {
      %17 = constant {value = 1} : i64 loc(8:31)
      %18 = add %4, %17 : i64 loc(8:29)
      %19 = load %1, %18, %5 : f32 loc(8:25)
      %20 = add %13, %19 : f32 loc(8:22)
      yield %20 loc(8:5)
    } {
      yield %13 loc(8:5)
    }
    %22 = constant {value = 0} : i64 loc(9:13)
    %23 = cmp %5, %22 {pred = "gt"} : bool loc(9:11)
    %28 = if %23 : f32 loc(9:5) {
      %24 = constant {value = 1} : i64 loc(9:30)
      %25 = sub %5, %24 : i64 loc(9:28)
      %26 = load %1, %4, %25 : f32 loc(9:21)
      %27 = add %21, %26 : f32 loc(9:18)
      yield %27 loc(9:5)
    } {
      yield %21 loc(9:5)
    }
    %29 = constant {value = 1} : i64 loc(10:13)
    %30 = add %5, %29 : i64 loc(10:11)
    %31 = cmp %30, %3 {pred = "lt"} : bool loc(10:15)
    %36 = if %31 : f32 loc(10:5) {
      %32 = constant {value = 1} : i64 loc(10:34)
      %33 = add %5, %32 : i64 loc(10:32)
      %34 = load %1, %4, %33 : f32 loc(10:25)
      %35 = add %28, %34 : f32 loc(10:22)
      yield %35 loc(10:5)
    } {
      yield %28 loc(10:5)
    }
    %37 = constant {value = 0.20000000298023224} : f32 loc(11:17)
    %38 = mul %37, %36 : f32 loc(11:22)
    store %0, %38, %4, %5 loc(11:15)
    yield loc(12:3)
  }
  return loc(13:1)
}
)";

// out(i, j) = a(i + 2, j) - 2 a(i + 1, j) + a(i, j) * a(i + 1, j + 1), a
// two rows longer than out: active instances read rows past the domain, so
// a shared row's load must be its first reader's (the smallest instance),
// active whenever a later reader is.
const char *kDiff = R"(
kernel @diff (%0 out: view<i32, 2> w, %1 a: view<const i32, 2> r) loc(14:25) {
  %2 = extent %0 {dim = 0} : i64 loc(15:28)
  %3 = extent %0 {dim = 1} : i64 loc(15:43)
  parallel_for %2, %3 loc(15:3) {
  ^(%4: i64, %5: i64):
    %6 = constant {value = 2} : i64 loc(16:23)
    %7 = add %4, %6 : i64 loc(16:21)
    %8 = load %1, %7, %5 : i32 loc(16:17)
    %9 = constant {value = 2} : i32 loc(16:31)
    %10 = constant {value = 1} : i64 loc(16:41)
    %11 = add %4, %10 : i64 loc(16:39)
    %12 = load %1, %11, %5 : i32 loc(16:35)
    %13 = mul %9, %12 : i32 loc(16:33)
    %14 = sub %8, %13 : i32 loc(16:29)
    %15 = load %1, %4, %5 : i32 loc(16:49)
    %16 = constant {value = 1} : i64 loc(16:65)
    %17 = add %4, %16 : i64 loc(16:63)
    %18 = constant {value = 1} : i64 loc(16:72)
    %19 = add %5, %18 : i64 loc(16:70)
    %20 = load %1, %17, %19 : i32 loc(16:59)
    %21 = mul %15, %20 : i32 loc(16:57)
    %22 = add %14, %21 : i32 loc(16:45)
    store %0, %22, %4, %5 loc(16:15)
    yield loc(17:3)
  }
  return loc(18:1)
}
)";

std::unique_ptr<kir::Module> parse(const char *text) {
  std::string err;
  auto m = kir::parseModule(text, "tile.kir", err);
  EXPECT_TRUE(m) << err;
  return m;
}

phys::Op *tileOp(phys::Program &p) {
  phys::Op *found = nullptr;
  phys::walkMutable(*p.body, [&](phys::Op &op) {
    if (op.opcode == phys::Opcode::Segment && op.intAttr("tile", -1) >= 0)
      found = &op;
  });
  return found;
}

TEST(Tile, PermutationMatchesTheKIRInterpreter) {
  auto m = parse(kPermute);
  for (auto [b, n, k] : std::vector<std::array<int64_t, 3>>{
           {0, 3, 3}, {1, 1, 1}, {2, 33, 31}, {3, 64, 65}, {1, 5, 100}}) {
    std::vector<ArgSpec> a = {ArgSpec::view(ScalarKind::I32, {b, k, n}),
                              ArgSpec::view(ScalarKind::I32, {b, n, k})};
    auto ref = [&, b = b, n = n, k = k](Memory &mem) {
      int32_t *out = mem.as<int32_t>(0), *x = mem.as<int32_t>(1);
      for (int64_t p = 0; p < b; ++p)
        for (int64_t i = 0; i < n; ++i)
          for (int64_t j = 0; j < k; ++j)
            out[(p * k + j) * n + i] = x[(p * n + i) * k + j];
    };
    DiffOutcome o = runDifferential(*m->kernels[0], a, ref, b + n + k);
    // Tiles of 32 x 32 along (1, 2), one per (b, tile).
    EXPECT_EQ(o.total, b * ((n + 31) / 32) * ((k + 31) / 32));
  }
}

TEST(Tile, ReversalTilesTheFirstAndLastDimensions) {
  auto m = parse(kReverse);
  for (auto [n0, n1, n2] : std::vector<std::array<int64_t, 3>>{
           {0, 2, 2}, {1, 1, 1}, {33, 2, 40}, {7, 3, 70}}) {
    std::vector<ArgSpec> a = {ArgSpec::view(ScalarKind::F32, {n2, n1, n0}),
                              ArgSpec::view(ScalarKind::F32, {n0, n1, n2}),
                              ArgSpec::view(ScalarKind::F32, {n2, n1, n0})};
    auto ref = [&, n0 = n0, n1 = n1, n2 = n2](Memory &mem) {
      float *out = mem.as<float>(0), *x = mem.as<float>(1), *y = mem.as<float>(2);
      for (int64_t i = 0; i < n0; ++i)
        for (int64_t j = 0; j < n1; ++j)
          for (int64_t k = 0; k < n2; ++k) {
            int64_t r = (k * n1 + j) * n0 + i;
            out[r] = x[(i * n1 + j) * n2 + k] + y[r];
          }
    };
    DiffOutcome o = runDifferential(*m->kernels[0], a, ref, n0 + n1 + n2);
    EXPECT_EQ(o.total, n1 * ((n0 + 31) / 32) * ((n2 + 31) / 32));
  }
  Built b = build(kReverse);
  phys::Op *seg = tileOp(*b.program);
  ASSERT_TRUE(seg);
  EXPECT_EQ(seg->intAttr("tile"), 0);
  EXPECT_EQ(b.program->segments[0].tile, 0);
  // Two shared tiles (the load of y, the store), 2T floats each (TY rows
  // of TX + 1 for any TX).
  unsigned tiles = 0;
  for (const phys::Buffer &buf : b.program->buffers)
    tiles += buf.scope == phys::BufferScope::CTAShared && buf.size == 2 * 1024;
  EXPECT_EQ(tiles, 2u);
}

/// Loads of view parameter `param` in the tile segment's region whose value
/// is used, and how many of them are guarded (the shared rows; the loads
/// they replace stay, unused, for INTENT_CHECK=bounds).
std::pair<unsigned, unsigned> loadsOf(phys::Program &p, unsigned param) {
  unsigned all = 0, guarded = 0;
  auto uses = phys::countUses(p);
  phys::walk(*tileOp(p)->regions[0], [&](const phys::Op &o) {
    if (o.opcode == phys::Opcode::Load && o.memory()->isBlockArg() &&
        o.memory()->argNo == param && uses.lookup(o.result())) {
      ++all;
      guarded += o.guard() != nullptr;
    }
  });
  return {all, guarded};
}

TEST(Tile, StencilNeighboursAlongTheTileShareRows) {
  auto m = parse(kStencil);
  for (auto [n, k] : std::vector<std::array<int64_t, 2>>{
           {0, 5}, {1, 1}, {1, 40}, {2, 3}, {5, 33}, {33, 7}, {37, 70}, {130, 9}, {64, 64}}) {
    std::vector<ArgSpec> a = {ArgSpec::view(ScalarKind::F32, {n, k}),
                              ArgSpec::view(ScalarKind::F32, {n, k})};
    auto ref = [&, n = n, k = k](Memory &mem) {
      float *out = mem.as<float>(0), *x = mem.as<float>(1);
      for (int64_t i = 0; i < n; ++i)
        for (int64_t j = 0; j < k; ++j) {
          float s = x[i * k + j];
          if (i > 0) s += x[(i - 1) * k + j];
          if (i + 1 < n) s += x[(i + 1) * k + j];
          if (j > 0) s += x[i * k + j - 1];
          if (j + 1 < k) s += x[i * k + j + 1];
          out[i * k + j] = 0.2f * s;
        }
    };
    runDifferential(*m->kernels[0], a, ref, n * 100 + k);
  }
  Built b = build(kStencil);
  ASSERT_TRUE(tileOp(*b.program));
  // Rows -1 .. 4 once (guarded by a's extents) and the 2 x 4 column
  // neighbours: 14 loads of a instead of 20.
  EXPECT_EQ(loadsOf(*b.program, 1), std::make_pair(14u, 6u));
}

TEST(Tile, SharedRowsPastTheDomainComeFromTheirFirstReader) {
  auto m = parse(kDiff);
  for (auto [n, k] : std::vector<std::array<int64_t, 2>>{
           {0, 3}, {1, 1}, {2, 5}, {3, 33}, {33, 40}, {34, 31}, {35, 2}, {70, 65}}) {
    std::vector<ArgSpec> a = {ArgSpec::view(ScalarKind::I32, {n, k}),
                              ArgSpec::view(ScalarKind::I32, {n + 2, k + 1})};
    auto ref = [&, n = n, k = k](Memory &mem) {
      int32_t *out = mem.as<int32_t>(0), *x = mem.as<int32_t>(1);
      auto at = [&](int64_t i, int64_t j) { return x[i * (k + 1) + j]; };
      for (int64_t i = 0; i < n; ++i)
        for (int64_t j = 0; j < k; ++j)
          out[i * k + j] = static_cast<int32_t>(
              static_cast<uint32_t>(at(i + 2, j)) -
              2u * static_cast<uint32_t>(at(i + 1, j)) +
              static_cast<uint32_t>(at(i, j)) * static_cast<uint32_t>(at(i + 1, j + 1)));
    };
    runDifferential(*m->kernels[0], a, ref, n * 100 + k);
  }
  Built b = build(kDiff);
  // Rows 0 .. 5 of column j once, a(i + 1, j + 1) per instance.
  EXPECT_EQ(loadsOf(*b.program, 1), std::make_pair(10u, 6u));
}

TEST(Tile, NoRowsSharedWithoutNeighbours) {
  // A permutation reads each element once.
  Built t = build(kPermute);
  ASSERT_TRUE(tileOp(*t.program));
  EXPECT_EQ(loadsOf(*t.program, 1), std::make_pair(4u, 0u));
}

TEST(Tile, DenseVariantNarrowsBoundedIndexValuesOnly) {
  // Tile coordinates, view extents, constants and their sums fit int32_t
  // under the dense variant's launch facts; a product of two coordinates,
  // a loaded index and a scalar parameter do not.
  Built b = build(R"(
kernel @k (%0 out: view<f32, 2> w, %1 a: view<const f32, 2> r, %2 idx: view<const i64, 1> r, %3 s: i64) loc(1:1) {
  %4 = extent %1 {dim = 0} : i64 loc(2:3)
  %5 = extent %1 {dim = 1} : i64 loc(2:3)
  parallel_for %4, %5 loc(2:3) {
  ^(%6: i64, %7: i64):
    %8 = constant {value = 1} : i64 loc(3:5)
    %9 = sub %6, %8 : i64 loc(3:5)
    %10 = add %7, %5 : i64 loc(3:5)
    %11 = mul %6, %7 : i64 loc(3:5)
    %12 = load %2, %7 : i64 loc(3:5)
    %13 = add %12, %8 : i64 loc(3:5)
    %14 = add %6, %3 : i64 loc(3:5)
    %15 = cast %11 : f32 loc(3:5)
    %16 = cast %13 : f32 loc(3:5)
    %17 = cast %14 : f32 loc(3:5)
    %18 = cast %9 : f32 loc(3:5)
    %19 = cast %10 : f32 loc(3:5)
    %20 = load %1, %6, %7 : f32 loc(3:5)
    %21 = add %15, %16 : f32 loc(3:5)
    %22 = add %17, %18 : f32 loc(3:5)
    %23 = add %19, %20 : f32 loc(3:5)
    %24 = add %21, %22 : f32 loc(3:5)
    %25 = add %23, %24 : f32 loc(3:5)
    store %0, %25, %6, %7 loc(3:5)
    yield
  }
  return
}
)");
  phys::Op *seg = tileOp(*b.program);
  ASSERT_TRUE(seg);
  std::set<const phys::Value *> narrow = phys::denseInt32Values(*b.program);
  // Name each i64 value of the region by what it computes.
  std::map<std::string, phys::IndexRange> by;
  unsigned coords = 0, narrowCoords = 0;
  phys::walk(*seg->regions[0], [&](const phys::Op &o) {
    if (o.opcode == phys::Opcode::Delinearize)
      for (const phys::Value *v : o.results) {
        ++coords;
        narrowCoords += narrow.count(v);
        EXPECT_EQ(phys::denseRange(*b.program, v).hi, phys::kDenseExtent - 1);
      }
    if (o.results.size() == 1 && o.result()->type.isIndex()) {
      std::string what = phys::opcodeName(o.opcode).str();
      for (const phys::Value *x : o.operands)
        what += " " + (x->def ? phys::opcodeName(x->def->opcode).str() : "arg");
      phys::IndexRange r = phys::denseRange(*b.program, o.result());
      EXPECT_EQ(narrow.count(o.result()) != 0, r.fitsInt32()) << what;
      by[what] = r;
    }
  });
  EXPECT_GT(coords, 0u);
  EXPECT_EQ(narrowCoords, coords);
  EXPECT_TRUE(by["sub delinearize constant"].fitsInt32());
  EXPECT_EQ(by["sub delinearize constant"].lo, -1);
  EXPECT_TRUE(by["add delinearize extent"].fitsInt32());
  EXPECT_TRUE(by["extent arg"].fitsInt32());
  EXPECT_TRUE(by["mul delinearize delinearize"].known);  // up to 2^60
  EXPECT_FALSE(by["mul delinearize delinearize"].fitsInt32());
  EXPECT_FALSE(by["load arg delinearize"].known);         // data
  EXPECT_FALSE(by["add load constant"].known);
  EXPECT_FALSE(by["add delinearize arg"].known);          // a parameter
}

TEST(Tile, PrintsAndParsesBack) {
  Built b = build(kPermute);
  std::string text = phys::programToString(*b.program);
  EXPECT_NE(text.find(" tile 1 rows 4 instances e"), std::string::npos) << text;
  EXPECT_NE(text.find("{group = 0, tile = 1, rows = 4}"), std::string::npos)
      << text;
  std::vector<std::unique_ptr<phys::Program>> parsed;
  std::string err;
  ASSERT_TRUE(phys::parsePrograms(text, "tile.phys", parsed, err)) << err;
  ASSERT_EQ(parsed.size(), 1u);
  EXPECT_EQ(phys::programToString(*parsed[0]), text);
  std::vector<std::string> errs;
  EXPECT_TRUE(phys::verifyProgram(*parsed[0], nullptr, errs))
      << (errs.empty() ? "" : errs[0]);
}

TEST(Tile, NotAppliedRemarks) {
  // A rank-1 segment is widen's; a tiled one is not tiled again.
  Built b = buildFile("saxpy.kir");
  EXPECT_EQ(b.program->segments[0].tile, -1);
  std::string what;
  EXPECT_EQ(passes::applyTileSegment(*b.program, 0, what),
            "the instance domain is one-dimensional");
  Built n = buildFile("nested_2d.kir", "", true, {"tile"});
  EXPECT_EQ(passes::applyTileSegment(*n.program, 0, what), "");
  EXPECT_NE(what.find("tiles of 32 x 32 instances"), std::string::npos) << what;
  EXPECT_EQ(passes::applyTileSegment(*n.program, 0, what),
            "the group is not one instance per thread");
}

TEST(Tile, VerifierWantsTheTileCount) {
  Built b = build(kPermute);
  // The length expression (the operand's and the total's) counts
  // instances, not tiles.
  phys::Segment &seg = b.program->segments[0];
  b.program->exprs[seg.length] = b.program->exprs[seg.instances];
  expectError(b, "[dispatch]", "is not the tile count");
}

TEST(Tile, VerifierWantsTheInstanceCount) {
  Built b = build(kPermute);
  b.program->segments[0].instances = b.program->segments[0].extents[0];
  expectError(b, "[segments]", "is not the product of its extents");
}

TEST(Tile, VerifierWantsTheRecordAndTheOpToAgree) {
  Built b = build(kPermute);
  tileOp(*b.program)->setAttr("tile", int64_t(0));
  expectError(b, "[dispatch]", "`tile` / `rows` differ from the segment record");
}

TEST(Tile, VerifierWantsTheExtentOperands) {
  Built b = build(kPermute);
  phys::Op *seg = tileOp(*b.program);
  std::swap(seg->operands[4], seg->operands[5]);
  expectError(b, "[dispatch]", "a tile segment's operands must be");
}

TEST(Tile, VerifierWantsEveryInstanceDecodedByTheExtents) {
  Built b = build(kPermute);
  // The decode of the third direct instance (argument 4) by swapped extents.
  phys::Op *seg = tileOp(*b.program);
  phys::Block &r = seg->regions[0]->block;
  bool swapped = false;
  for (auto &op : r.ops)
    if (op->opcode == phys::Opcode::Delinearize && op->operands[0] == r.args[4]) {
      std::swap(op->operands[1], op->operands[2]);
      swapped = true;
    }
  ASSERT_TRUE(swapped);
  expectError(b, "[dispatch]", "a tile segment's instances are decoded by its 3 extents");
}

TEST(Tile, VerifierWantsWholeWarps) {
  Built b = build(kPermute);
  b.program->ctaThreads = 48;
  expectError(b, "[dispatch]", "whole warps per CTA");
}

TEST(Tile, VerifierWantsStoresUnderActive) {
  Built b = build(kPermute);
  // The first staged store's `if %tactive0` (argument 2K + 1 of K = 4
  // rows): make it unconditional.
  phys::Op *seg = tileOp(*b.program);
  phys::Op *guard = nullptr;
  for (auto &op : seg->regions[0]->block.ops)
    if (op->opcode == phys::Opcode::If &&
        op->operands[0] == seg->regions[0]->block.args[9])
      guard = op.get();
  ASSERT_TRUE(guard);
  phys::Builder bld(*b.program);
  bld.setInsertionBlock(&seg->regions[0]->block);
  phys::Op *t = bld.create(phys::Opcode::Constant, {}, {phys::Type::boolean()});
  t->setAttr("value", true);
  t->origin = guard->origin;
  auto &ops = seg->regions[0]->block.ops;
  std::unique_ptr<phys::Op> made = std::move(ops.back());
  ops.pop_back();
  made->parent = &seg->regions[0]->block;
  ops.insert(ops.begin(), std::move(made));
  guard->operands[0] = t->result();
  expectError(b, "[coop]", "must be guarded by the `active` argument of the instance");
}

TEST(Tile, VerifierWantsTheTransposedStoreUnderItsOwnActive) {
  Built b = build(kPermute);
  // The staged store decodes the transposed instance: `if %active` (the
  // direct instance's flag) does not cover it.
  phys::Op *seg = tileOp(*b.program);
  phys::Block &r = seg->regions[0]->block;
  bool swapped = false;
  for (auto &op : r.ops)
    if (op->opcode == phys::Opcode::If && op->operands[0] == r.args[9]) {
      op->operands[0] = r.args[1];
      swapped = true;
    }
  ASSERT_TRUE(swapped);
  expectError(b, "[coop]", "must be guarded by the `active` argument of the instance");
}

TEST(Tile, DroppedBarrierIsASharedMemoryRace) {
  Built b = build(kPermute);
  phys::Op *seg = tileOp(*b.program);
  auto &ops = seg->regions[0]->block.ops;
  // The barrier between the body's writes of the tile and the staged
  // stores' reads.
  auto it = std::find_if(ops.begin(), ops.end(), [](const auto &o) {
    return o->opcode == phys::Opcode::Barrier;
  });
  ASSERT_NE(it, ops.end());
  ops.erase(it);
  std::vector<ArgSpec> a = {ArgSpec::view(ScalarKind::I32, {2, 40, 33}),
                            ArgSpec::view(ScalarKind::I32, {2, 33, 40})};
  Memory mem = makeMemory(a, 3);
  interp::PhysRunOptions opts;
  opts.detectRaces = true;
  interp::PhysRunResult pr =
      interp::runProgram(*b.program, test::bind(a, mem), opts);
  ASSERT_FALSE(pr.ok);
  EXPECT_NE(pr.error.find("shared-memory race on buffer tile0"),
            std::string::npos)
      << pr.error;
}

} // namespace
