//===- WidenTest.cpp - The widen pass, its traversal and its checks -------===//
//
// The pass widens the pointwise segments of test/lit/emit/widen.kir,
// test/lit/construction/saxpy.kir and two_groups.kir (the interpreter runs
// the widened saxpy in DifferentialTest); here: the traversal it wrote as
// ops, what it leaves alone, the ownership proof the verifier re-derives
// from the traversal (Physical/Widen.h ownedChunkElements), broken
// traversals that [conflicts] rejects, and the clone utility.
//
//===----------------------------------------------------------------------===//

#include "VerifierHarness.h"

#include "Passes/Passes.h"
#include "Physical/Clone.h"
#include "Physical/Dispatch.h"
#include "Physical/Widen.h"

using namespace intent;
using namespace intent::test;

namespace {

Built widenFile(const std::string &kernel) {
  return build(readFile(litFile("emit", "widen.kir")), kernel);
}

/// Runs the verifier and expects no error.
void expectClean(const Built &b) {
  std::vector<std::string> errs;
  EXPECT_TRUE(phys::verifyProgram(*b.program, &b.kernel(), errs))
      << (errs.empty() ? "" : errs[0]);
}

/// Whether group `g`'s segment op holds the widened traversal.
bool widened(const phys::Program &p, unsigned g) {
  const phys::Op *seg = phys::segmentOp(p, g);
  return seg && phys::isWidened(*seg);
}

/// The width of the first vector_load in `p` (0: none).
int64_t vectorWidth(const phys::Program &p) {
  int64_t w = 0;
  phys::walk(*p.body, [&](const phys::Op &op) {
    if (!w && op.opcode == phys::Opcode::VectorLoad)
      w = op.intAttr("width");
  });
  return w;
}

unsigned count(const phys::Program &p, phys::Opcode opc) {
  unsigned n = 0;
  phys::walk(*p.body, [&](const phys::Op &op) { n += op.opcode == opc; });
  return n;
}

} // namespace

TEST(Widen, WidensPointwiseKernels) {
  struct Case {
    const char *kernel;
    int width;
  } cases[] = {{"saxpy", 4}, {"axpy_f64", 2}, {"add_i8", 16},
               {"widen_f32_from_i16", 4}, {"two_outputs", 4}};
  for (const Case &c : cases) {
    Built b = widenFile(c.kernel);
    const phys::Program &p = *b.program;
    const phys::Segment &s = p.segments[0];
    EXPECT_TRUE(widened(p, 0)) << c.kernel;
    EXPECT_EQ(vectorWidth(p), c.width) << c.kernel;
    ASSERT_EQ(s.extents.size(), 1u);
    EXPECT_EQ(s.extents[0], s.length) << c.kernel;
    EXPECT_EQ(p.total, s.length) << c.kernel;
    std::string len = p.exprToString(s.length);
    std::string tail = " + " + std::to_string(c.width - 1) + ") / " +
                       std::to_string(c.width) + "), " +
                       std::to_string(phys::kWidenMaxPrograms) + "), 0)";
    EXPECT_EQ(len.rfind("max(min(((max(", 0), 0u) << len;
    EXPECT_EQ(len.substr(len.size() - tail.size()), tail) << len;
    // The scalar path's elements are proven to be owned by one instance.
    EXPECT_EQ(phys::ownedChunkElements(*phys::segmentOp(p, 0), s.extents[0])
                  .size(),
              1u)
        << c.kernel;
  }
  EXPECT_TRUE(widened(*buildFile("saxpy.kir").program, 0));
}

TEST(Widen, TraversalShape) {
  // saxpy: two views, one load each per chunk; 4 chunks per step of the
  // first loop, one in the second; one scalar copy of the body.
  Built b = widenFile("saxpy");
  const phys::Program &p = *b.program;
  EXPECT_EQ(count(p, phys::Opcode::Loop), 2u);
  EXPECT_EQ(count(p, phys::Opcode::VectorLoad), 2u * 4 + 2u);
  EXPECT_EQ(count(p, phys::Opcode::VectorStore), 4u + 1u);
  EXPECT_EQ(count(p, phys::Opcode::Aligned), 2u);
  EXPECT_EQ(count(p, phys::Opcode::CheckedLaunch), 1u);
  EXPECT_EQ(count(p, phys::Opcode::Load), 2u);
  EXPECT_EQ(count(p, phys::Opcode::Store), 1u);
  EXPECT_EQ(count(p, phys::Opcode::For), 1u);
}

TEST(Widen, LeavesOthersAlone) {
  for (const char *k : {"shifted", "store_then_load"})
    EXPECT_FALSE(widened(*widenFile(k).program, 0)) << k;
  // Reductions, stencils that read what they write: unchanged.
  for (const char *f : {"softmax.kir", "inplace_stencil.kir"})
    EXPECT_EQ(count(*buildFile(f).program, phys::Opcode::VectorLoad), 0u) << f;
}

TEST(Widen, EverySegmentOfAMultiGroupProgram) {
  // two_groups.kir: y[i] = x[i] + 1 (pointwise, widened) beside a 2-D
  // group (left alone), each with its own remark.
  std::string err;
  auto m =
      kir::parseModule(readFile(litFile("emit", "two_groups.kir")), "t", err);
  ASSERT_TRUE(m) << err;
  PipelineOptions o;
  o.passes = std::vector<std::string>{"widen"};
  PipelineResult r = runPipeline(*m->kernels[0], o);
  ASSERT_TRUE(r.ok());
  const phys::Program &p = *r.program;
  ASSERT_EQ(p.segments.size(), 2u);
  EXPECT_TRUE(widened(p, 0));
  EXPECT_FALSE(widened(p, 1));
  // Offsets follow the new length (resizeSegment).
  EXPECT_EQ(p.segments[1].offset, p.segments[0].length);
  unsigned applied = 0, refused = 0;
  for (const phys::Remark &rm : r.remarks) {
    applied += rm.text.rfind("widen: each program", 0) == 0;
    refused += rm.text.rfind("widen: not applied: the instance domain is not "
                             "one-dimensional", 0) == 0;
  }
  EXPECT_EQ(applied, 1u);
  EXPECT_EQ(refused, 1u);
}

TEST(Widen, NotTwice) {
  Built b = widenFile("saxpy");
  std::string what;
  EXPECT_EQ(passes::applyWidenSegment(*b.program, 0, what),
            "the group is already widened");
}

TEST(Widen, RespectsPassSwitch) {
  Built b = widenFile("saxpy");
  std::string err;
  auto m = kir::parseModule(readFile(litFile("emit", "widen.kir")), "w", err);
  PipelineOptions o;
  o.physicalPasses = false;
  PipelineResult r = runPipeline(*m->kernels[0], o);
  ASSERT_TRUE(r.ok());
  EXPECT_FALSE(widened(*r.program, 0));
  EXPECT_TRUE(widened(*b.program, 0));
}

TEST(WidenVerifier, Clean) {
  for (const char *k : {"saxpy", "axpy_f64", "add_i8", "widen_f32_from_i16",
                        "two_outputs"})
    expectClean(widenFile(k));
}

TEST(WidenVerifier, ChunkStepMustBeTheProgramCount) {
  // The remaining-chunks loop stepping by 1 instead of P: instances would
  // share chunks; the scalar store is no longer provably owned.
  Built b = widenFile("saxpy");
  phys::Program &p = *b.program;
  phys::Op *second = findOp(p, phys::Opcode::Loop, 1);
  phys::Op *step = second->regions[2]->block.ops.front().get();
  ASSERT_EQ(step->opcode, phys::Opcode::Add);
  phys::Op *one = insertBefore(p, step, phys::Opcode::Constant, {},
                               phys::Type::index());
  one->setAttr("value", int64_t(1));
  one->origin.synth = "test";
  step->operands[1] = one->result();
  expectError(b, "[conflicts]", "may conflict with read of y");
}

TEST(WidenVerifier, ScalarRangeMustBeOneChunk) {
  // The scalar for starting at chunk c instead of c * W.
  Built b = widenFile("saxpy");
  phys::Program &p = *b.program;
  phys::Op *f = findOp(p, phys::Opcode::For);
  f->operands[0] = f->operands[0]->def->operands[0];
  expectError(b, "[conflicts]", "may conflict with read of y");
}

TEST(Clone, CopiesRegionsAndRenames) {
  // Cloning the widened saxpy's second loop: same structure, new values,
  // uses inside the copy renamed, uses of outside values kept.
  Built b = widenFile("saxpy");
  phys::Program &p = *b.program;
  phys::Op *loop = findOp(p, phys::Opcode::Loop, 1);
  phys::Builder bld(p);
  bld.setInsertionBlock(loop->parent);
  phys::ValueMap map;
  phys::Op *copy = phys::cloneOp(bld, *loop, map);
  // Appended after the block's terminator: take it out again after the
  // checks so the program stays well formed.
  EXPECT_EQ(copy->opcode, phys::Opcode::Loop);
  EXPECT_EQ(copy->operands[0], loop->operands[0]);
  EXPECT_NE(copy->result(), loop->result());
  EXPECT_EQ(map.lookup(loop->result()), copy->result());
  ASSERT_EQ(copy->regions.size(), 3u);
  const phys::Block &ob = loop->regions[1]->block, &cb = copy->regions[1]->block;
  EXPECT_EQ(ob.ops.size(), cb.ops.size());
  EXPECT_NE(ob.args[0], cb.args[0]);
  // The chunk test in the body uses the copy's own block argument.
  EXPECT_EQ(cb.ops.front()->operands[0], cb.args[0]);
  EXPECT_EQ(cb.ops.front()->operands[1], ob.ops.front()->operands[1]);
  unsigned orig = 0, copied = 0;
  phys::walk(*loop->regions[1], [&](const phys::Op &) { ++orig; });
  phys::walk(*copy->regions[1], [&](const phys::Op &) { ++copied; });
  EXPECT_EQ(orig, copied);
  phys::walk(*copy->regions[1], [&](const phys::Op &o) {
    if (o.opcode == phys::Opcode::Store)
      EXPECT_EQ(o.access.kirOp, findOp(p, phys::Opcode::Store)->access.kirOp);
  });
  loop->parent->ops.pop_back();
}
