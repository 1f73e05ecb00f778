//===- CtaRowsTest.cpp - The cta-rows pass and its [coop] checks -----------===//
//
// The pass distributes the row kernels of test/lit/construction (softmax,
// layernorm, argmax over rows) and stages their rows; the interpreter runs
// them in StructuredDiffTest (distribution does not change the semantics);
// here: what the pass produced, and one broken program per cta-rows
// verifier check.
//
//===----------------------------------------------------------------------===//

#include "VerifierHarness.h"

#include "Passes/Passes.h"
#include "Physical/Coop.h"
#include "Physical/RowCache.h"

using namespace intent;
using namespace intent::test;

namespace {

phys::Op *distributed(phys::Program &p, phys::Opcode opc) {
  phys::Op *found = nullptr;
  phys::walkMutable(*p.body, [&](phys::Op &op) {
    if (!found && op.opcode == opc && op.attr("dist"))
      found = &op;
  });
  return found;
}

phys::Op *stagedLoad(phys::Program &p) {
  phys::Op *found = nullptr;
  phys::walkMutable(*p.body, [&](phys::Op &op) {
    if (!found && op.opcode == phys::Opcode::Load && op.boolAttr("staged"))
      found = &op;
  });
  EXPECT_TRUE(found);
  return found;
}

} // namespace

TEST(CtaRows, DistributesRowKernels) {
  // argmax_rows (only a reduction per row, of a runtime length): cta-rows
  // maps it in the long-row alternative.
  for (const char *f : {"softmax.kir", "layernorm.kir", "argmax_rows.kir"}) {
    Built b = std::string(f) == "argmax_rows.kir" ? buildLongRows(f)
                                                  : buildFile(f);
    EXPECT_EQ(b.program->scope, phys::ExecScope::CTA) << f;
    EXPECT_TRUE(distributed(*b.program, phys::Opcode::Reduce) ||
                distributed(*b.program, phys::Opcode::ArgReduce));
  }
  Built s = buildFile("softmax.kir");
  ASSERT_EQ(s.program->stagedParams.size(), 1u);
  EXPECT_EQ(s.program->params[s.program->stagedParams[0]].name, "in");
  // A pointwise kernel and a stencil that reads what it writes stay threads.
  EXPECT_EQ(buildFile("saxpy.kir").program->scope, phys::ExecScope::Thread);
  EXPECT_EQ(buildFile("inplace_stencil.kir").program->scope,
            phys::ExecScope::Thread);
}

TEST(CtaRowsVerifier, DistNeedsCtaScope) {
  Built b = buildFile("softmax.kir");
  b.program->scope = phys::ExecScope::Thread;
  b.program->ctaThreads = 0;
  b.program->sharedBytes = 0;
  expectError(b, "[coop]", "`dist` needs exec scope cta");
}

TEST(CtaRowsVerifier, DistValue) {
  Built b = buildFile("softmax.kir");
  distributed(*b.program, phys::Opcode::For)->setAttr("dist", std::string("warp"));
  expectError(b, "[coop]", "`dist` must be \"cta\"");
}

TEST(CtaRowsVerifier, OnlyReductionsAndFors) {
  Built b = buildFile("softmax.kir");
  stagedLoad(*b.program)->setAttr("dist", std::string("cta"));
  expectError(b, "[coop]", "only reduce, argreduce and for are distributed");
}

TEST(CtaRowsVerifier, ForFromParallelFor) {
  Built b = buildFile("softmax.kir");
  distributed(*b.program, phys::Opcode::For)->origin.op = -1;
  expectError(b, "[coop]", "came from a parallel_for");
}

TEST(CtaRowsVerifier, Reassociation) {
  Built b = buildFile("softmax.kir");
  distributed(*b.program, phys::Opcode::Reduce)->setAttr("reassociate", false);
  expectError(b, "[coop]", "a distributed reduce regroups the combines");
}

TEST(CtaRowsVerifier, Scratch) {
  Built b = buildLongRows("argmax_rows.kir");
  b.program->sharedBytes = 256;
  expectError(b, "[coop]", "bytes of shared scratch per CTA");
}

TEST(CtaRowsVerifier, LeaderStores) {
  Built b = buildFile("layernorm.kir");
  phys::Op *seg = findOp(*b.program, phys::Opcode::Segment);
  for (auto &op : seg->regions[0]->block.ops)
    if (op->opcode == phys::Opcode::Store)
      op->access.active = phys::ActiveSet::All;
  expectError(b, "[active]", "only a load may be done by all threads");
}

TEST(CtaRowsVerifier, PerThreadAccesses) {
  Built b = buildFile("softmax.kir");
  stagedLoad(*b.program)->access.active = phys::ActiveSet::All;
  expectError(b, "[active]", "is done by each thread for its own members");
}

TEST(CtaRowsVerifier, StagedParamShape) {
  Built b = buildFile("layernorm.kir");
  b.program->stagedParams.push_back(1); // mean: rank 1, written
  expectError(b, "[coop]", "is not a view of const elements of rank 2 or more");
}

TEST(CtaRowsVerifier, StageLimit) {
  Built b = buildFile("softmax.kir");
  b.program->stageLimitBytes = 0;
  expectError(b, "[coop]", "positive stage limit");
}

TEST(CtaRowsVerifier, StagedLoadOfStagedParam) {
  Built b = buildFile("softmax.kir");
  b.program->stagedParams.clear();
  expectError(b, "[coop]", "a staged load must read a staged parameter");
}

TEST(CtaRowsVerifier, StagedLoadReadsRowR) {
  Built b = buildFile("softmax.kir");
  phys::Op *l = stagedLoad(*b.program);
  l->operands[1] = l->operands[2]; // (c, c) instead of (r, c)
  expectError(b, "[coop]", "reads row r of its instance");
}

TEST(CtaRowsVerifier, ShuffleTypes) {
  const char *text = R"(
kernel @row_sum_i16 (%0 out: view<i16, 1> w, %1 x: view<const i16, 2> r) loc(1:1) {
  %2 = extent %1 {dim = 0} : i64 loc(2:3)
  parallel_for %2 loc(2:3) {
  ^(%3: i64):
    %4 = constant {value = 0} : i64 loc(3:5)
    %5 = extent %1 {dim = 1} : i64 loc(3:5)
    %6 = constant {value = 0} : i16 loc(3:5)
    %7 = reduce %4, %5, %6 {combiner = "plus", reassociate = true} : i16 loc(3:15) {
    ^(%8: i64):
      %9 = load %1, %3, %8 : i16 loc(3:60)
      yield %9
    } {
    ^(%10: i16, %11: i16):
      %12 = add %10, %11 : i16
      yield %12
    }
    store %0, %7, %3 loc(4:5)
    yield
  }
  return
}
)";
  Built b = build(text);
  ASSERT_EQ(b.program->scope, phys::ExecScope::Thread); // the pass declined
  b.program->scope = phys::ExecScope::CTA;
  b.program->ctaThreads = 256;
  b.program->sharedBytes = 512;
  findOp(*b.program, phys::Opcode::Reduce)->setAttr("dist", std::string("cta"));
  findOp(*b.program, phys::Opcode::Store)->access.active = phys::ActiveSet::Leader;
  expectError(b, "[coop]", "cannot be exchanged by a warp shuffle");
}

//===--- Register rows ------------------------------------------------------===//

namespace {
phys::Op *regLoad(phys::Program &p) {
  phys::Op *found = nullptr;
  phys::walkMutable(*p.body, [&](phys::Op &op) {
    if (!found && op.opcode == phys::Opcode::Load && op.boolAttr("reg"))
      found = &op;
  });
  EXPECT_TRUE(found);
  return found;
}
} // namespace

TEST(CtaRows, RegisterRows) {
  Built s = buildFile("softmax.kir");
  EXPECT_EQ(s.program->regMaxK, 32);
  ASSERT_EQ(s.program->regParams.size(), 1u);
  EXPECT_EQ(s.program->params[s.program->regParams[0]].name, "in");
  EXPECT_EQ(s.program->params[s.program->regLengthParam].name, "in");
  EXPECT_EQ(s.program->regLengthDim, 1u);
  Built l = buildFile("layernorm.kir");
  ASSERT_EQ(l.program->regParams.size(), 1u);
  EXPECT_EQ(l.program->params[l.program->regParams[0]].name, "x");
  EXPECT_EQ(buildLongRows("argmax_rows.kir").program->regMaxK, 32);
  // The launch's choice: T * K covers n, short rows get small CTAs.
  EXPECT_EQ(phys::rowRegChoice(1024, 32).k, 16);
  EXPECT_EQ(phys::rowRegChoice(1024, 32).threads, 64);
  EXPECT_EQ(phys::rowRegChoice(1025, 32).k, 32);
  EXPECT_EQ(phys::rowRegChoice(8192, 32).k, 32);
  EXPECT_EQ(phys::rowRegChoice(8192, 32).threads, 256);
  EXPECT_EQ(phys::rowRegChoice(100, 32).k, 4);
  EXPECT_EQ(phys::rowRegChoice(200, 32).k, 8);
  EXPECT_EQ(phys::rowRegChoice(512, 32).k, 16);
  EXPECT_EQ(phys::rowRegChoice(512, 32).threads, 32);
  EXPECT_EQ(phys::rowRegChoice(513, 32).k, 16);
  EXPECT_EQ(phys::rowRegChoice(513, 32).threads, 64);
  EXPECT_EQ(phys::rowRegChoice(1025, 32).threads, 64);
  EXPECT_EQ(phys::rowRegChoice(200, 8).threads, 64);
  EXPECT_EQ(phys::rowRegChoice(200, 8).k, 4);
  EXPECT_EQ(phys::rowRegMaxThreads(4, 32), 32);
  EXPECT_EQ(phys::rowRegMaxThreads(8, 32), 32);
  EXPECT_EQ(phys::rowRegMaxThreads(16, 32), 64);
  EXPECT_EQ(phys::rowRegMaxThreads(32, 32), 1024);
  EXPECT_EQ(phys::rowRegChoice(8192, 8).threads, 1024);
  EXPECT_EQ(phys::rowRegChoice(8193, 8).k, 0);
  EXPECT_EQ(phys::rowRegChoice(32768, 32).threads, 1024);
  EXPECT_EQ(phys::rowRegChoice(32769, 32).k, 0);
  EXPECT_EQ(phys::rowRegChoice(16384, 16).k, 16);
  EXPECT_EQ(phys::rowRegChoice(1, 32).threads, 32);
  // 16-bit views: chunks of 8, K from 8 up.
  EXPECT_EQ(phys::rowRegChoice(100, 32, 8).k, 8);
  EXPECT_EQ(phys::rowRegChoice(257, 32, 8).k, 16);
  EXPECT_EQ(phys::rowRegChoice(3000, 32, 8).k, 32);
  EXPECT_EQ(phys::rowRegChoice(3000, 32, 8).threads, 96);
  // Multiples of 32, not powers of two.
  EXPECT_EQ(phys::rowRegChoice(6000, 32).threads, 192);
  EXPECT_EQ(phys::rowRegChoice(20001, 32).threads, 640);
  EXPECT_EQ(phys::rowRegMaxK(4), 32);
  EXPECT_EQ(phys::rowRegMaxK(8), 16);
  EXPECT_EQ(phys::rowRegMaxK(8, 2), 8);
  EXPECT_EQ(phys::rowRegMaxK(12, 3), 0);
  EXPECT_EQ(phys::rowRegMaxK(64), 0);
}

TEST(CtaRowsVerifier, RegisterK) {
  Built b = buildFile("softmax.kir");
  b.program->regMaxK = 12;
  expectError(b, "[coop]", "is not one of 4, 8, 16, 32");
}

TEST(CtaRowsVerifier, RegisterBudget) {
  Built b = buildFile("softmax.kir");
  b.program->regParams.push_back(1); // twice the words per member
  expectError(b, "[coop]", "more than the register budget");
}

TEST(CtaRowsVerifier, RegisterParamShape) {
  Built b = buildFile("softmax.kir");
  b.program->regParams = {0}; // out: written
  expectError(b, "[coop]", "is not a view of const elements of rank 2 or more");
}

TEST(CtaRowsVerifier, RegisterViewsWithoutForm) {
  Built b = buildFile("softmax.kir");
  b.program->regMaxK = 0;
  b.program->regParams = {1};
  expectError(b, "[coop]", "without a register form");
}

TEST(CtaRowsVerifier, RegLoadOfRegisterParam) {
  Built b = buildFile("softmax.kir");
  b.program->regParams.clear();
  expectError(b, "[coop]", "must read a register row parameter");
}

TEST(CtaRowsVerifier, RegLoadNeedsForm) {
  Built b = buildFile("softmax.kir");
  b.program->regMaxK = 0;
  b.program->regParams.clear();
  expectError(b, "[coop]", "needs register rows");
}

TEST(CtaRowsVerifier, RegLoadReadsRowRAtMember) {
  Built b = buildFile("softmax.kir");
  phys::Op *l = regLoad(*b.program);
  l->operands[1] = l->operands[2]; // (c, c) instead of (r, c)
  expectError(b, "[coop]", "reads row r at the member");
}

TEST(CtaRowsVerifier, RegisterRange) {
  Built b = buildFile("softmax.kir");
  phys::Op *r = distributed(*b.program, phys::Opcode::Reduce);
  r->operands[1] = r->operands[0]; // [0, 0) instead of [0, n)
  expectError(b, "[coop]", "ranges over [0, n)");
}

TEST(CtaRowsVerifier, RegisterRowLength) {
  Built b = buildFile("softmax.kir");
  b.program->regLengthDim = 0; // in.extent(0): the rows, not the row length
  expectError(b, "[coop]", "ranges over [0, n)");
}

//===--- Row cache (Physical/RowCache.h) -------------------------------------===//

namespace {
/// The `nth` op of `p` carrying attribute `attr`.
phys::Op *withAttr(phys::Program &p, const char *attr, unsigned nth = 0) {
  phys::Op *found = nullptr;
  phys::walkMutable(*p.body, [&](phys::Op &op) {
    if (!found && op.attr(attr) && nth-- == 0)
      found = &op;
  });
  EXPECT_TRUE(found) << "no op with " << attr;
  return found;
}
} // namespace

TEST(RowCache, SoftmaxKeepsExpLayernormKeepsCentered) {
  Built s = buildFile("softmax.kir");
  phys::Op *c = withAttr(*s.program, "row_cache");
  EXPECT_EQ(c->opcode, phys::Opcode::Math);
  EXPECT_EQ(c->strAttr("fn"), "exp");
  EXPECT_EQ(c->intAttr("row_cache"), 1); // in
  EXPECT_EQ(c->parentOp()->opcode, phys::Opcode::Reduce);
  phys::Op *u = withAttr(*s.program, "row_cached");
  EXPECT_EQ(u->strAttr("fn"), "exp");
  EXPECT_EQ(u->parentOp()->opcode, phys::Opcode::For);
  EXPECT_TRUE(phys::sameRowExpression(c->result(), *c->parent, u->result(),
                                      *u->parent));
  // x - m is not the same expression as exp(x - m).
  EXPECT_FALSE(phys::sameRowExpression(c->operands[0], *c->parent,
                                       u->result(), *u->parent));
  Built l = buildFile("layernorm.kir");
  EXPECT_EQ(withAttr(*l.program, "row_cache")->opcode, phys::Opcode::Sub);
  EXPECT_EQ(withAttr(*l.program, "row_cached")->opcode, phys::Opcode::Sub);
  // argmax over rows reads each row once: nothing to keep.
  Built a = buildLongRows("argmax_rows.kir");
  bool any = false;
  phys::walk(*a.program->body, [&](const phys::Op &op) {
    any = any || op.attr("row_cache") || op.attr("row_cached");
  });
  EXPECT_FALSE(any);
}

TEST(RowCacheVerifier, SiteIsAComputedRowExpression) {
  Built b = buildFile("softmax.kir");
  regLoad(*b.program)->setAttr("row_cache", int64_t(1));
  expectError(b, "[coop]", "`row_cache` on an op that cannot write the "
                           "register row");
}

TEST(RowCacheVerifier, SiteInAMemberBlock) {
  Built b = buildFile("softmax.kir");
  // The max reduce's combine region is not a member block.
  phys::Op *isnan = findOp(*b.program, phys::Opcode::Math);
  isnan->setAttr("row_cache", int64_t(1));
  expectError(b, "[coop]", "`row_cache` on an op that cannot write the "
                           "register row");
}

TEST(RowCacheVerifier, LaterReadsThroughTheCachedValue) {
  Built b = buildFile("layernorm.kir");
  phys::Op *c = withAttr(*b.program, "row_cache");
  c->attrs.clear();
  // The variance's d * d instead: the output loop reads x - mean.
  for (auto &op : c->parent->ops)
    if (op->opcode == phys::Opcode::Mul)
      op->setAttr("row_cache", int64_t(3));
  expectError(b, "[coop]", "other than through the cached value");
}

TEST(RowCacheVerifier, EveryCopyReadsTheSlot) {
  Built b = buildFile("softmax.kir");
  withAttr(*b.program, "row_cached")->attrs.pop_back();
  expectError(b, "[coop]", "without `row_cached`");
}

TEST(RowCacheVerifier, OnlyEqualValuesReadTheSlot) {
  Built b = buildFile("softmax.kir");
  phys::Op *u = withAttr(*b.program, "row_cached");
  for (auto &op : u->parent->ops)
    if (op->opcode == phys::Opcode::Div)
      op->setAttr("row_cached", int64_t(1));
  expectError(b, "[coop]", "is not the cached expression");
}

TEST(RowCacheVerifier, CachedNeedsAnEarlierCache) {
  Built b = buildFile("softmax.kir");
  withAttr(*b.program, "row_cache")->attrs.pop_back();
  expectError(b, "[coop]", "no earlier distributed op caches");
}

TEST(RowCacheVerifier, OneCachePerView) {
  Built b = buildFile("softmax.kir");
  withAttr(*b.program, "row_cached")->setAttr("row_cache", int64_t(1));
  expectError(b, "[coop]", "a second `row_cache` of the same view");
}

TEST(RowCacheVerifier, CachedAtTheTopOfAMemberBlock) {
  Built b = buildFile("softmax.kir");
  phys::Op *seg = findOp(*b.program, phys::Opcode::Segment);
  for (auto &op : seg->regions[0]->block.ops)
    if (op->opcode == phys::Opcode::Extent) {
      op->setAttr("row_cached", int64_t(1));
      break;
    }
  expectError(b, "[coop]", "`row_cached` outside the member block");
}
