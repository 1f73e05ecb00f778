//===- WidenTest.cpp - The widen pass and its [widen] checks ---------------===//
//
// The pass widens the pointwise kernels of test/lit/emit/widen.kir and
// test/lit/construction/saxpy.kir (the interpreter runs the widened saxpy
// in DifferentialTest, shuffled program order); here: what the pass
// produced, what it leaves alone, and one broken program per [widen]
// verifier check.
//
//===----------------------------------------------------------------------===//

#include "VerifierHarness.h"

#include "Passes/Passes.h"
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

/// Gives the widened segment of `b` the program count `len` (segment
/// length, total and the dispatch's launch values).
void setProgramCount(Built &b, unsigned len) {
  phys::Program &p = *b.program;
  p.segments[0].length = len;
  p.total = len;
  phys::Op *seg = findOp(p, phys::Opcode::Segment);
  seg->operands[2]->def->setAttr("expr", static_cast<int64_t>(len));
  seg->parentOp()->operands[0]->def->operands[1]->def->setAttr(
      "expr", static_cast<int64_t>(len));
}

/// min((n + add) / div, cap) over the widened segment's element count.
unsigned chunkCount(phys::Program &p, int64_t add, int64_t div) {
  using K = phys::LaunchExpr::Kind;
  unsigned n = p.segments[0].widenElements;
  return p.binaryExpr(
      K::Min,
      p.binaryExpr(K::Div, p.binaryExpr(K::Add, n, p.constExpr(add)),
                   p.constExpr(div)),
      p.constExpr(phys::kWidenMaxPrograms));
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
    const phys::Segment &s = b.program->segments[0];
    EXPECT_EQ(s.widen, c.width) << c.kernel;
    EXPECT_GE(s.widenElements, 0) << c.kernel;
    EXPECT_EQ(b.program->total, s.length) << c.kernel;
    EXPECT_EQ(b.program->exprToString(s.length),
              "min(((" + b.program->exprToString(s.widenElements) + " + " +
                  std::to_string(c.width - 1) + ") / " +
                  std::to_string(c.width) + "), " +
                  std::to_string(phys::kWidenMaxPrograms) + ")")
        << c.kernel;
  }
  EXPECT_EQ(buildFile("saxpy.kir").program->segments[0].widen, 4);
}

TEST(Widen, LeavesOthersAlone) {
  for (const char *k : {"shifted", "store_then_load"})
    EXPECT_EQ(widenFile(k).program->segments[0].widen, 0) << k;
  // Two-dimensional, reductions, several groups, stencils that read what
  // they write: unchanged.
  for (const char *f : {"softmax.kir", "inplace_stencil.kir"})
    EXPECT_EQ(buildFile(f).program->segments[0].widen, 0) << f;
}

TEST(Widen, RespectsPassSwitch) {
  Built b = widenFile("saxpy");
  std::string err;
  auto m = kir::parseModule(readFile(litFile("emit", "widen.kir")), "w", err);
  PipelineOptions o;
  o.physicalPasses = false;
  PipelineResult r = runPipeline(*m->kernels[0], o);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r.program->segments[0].widen, 0);
  EXPECT_EQ(b.program->segments[0].widen, 4);
}

TEST(WidenVerifier, Clean) { expectClean(widenFile("saxpy")); }

TEST(WidenVerifier, ElementCountWithoutWidth) {
  Built b = buildFile("inplace_stencil.kir");
  b.program->segments[0].widenElements = 0;
  expectError(b, "[widen]", "records an element count but no chunk width");
}

TEST(WidenVerifier, WidthPowerOfTwo) {
  Built b = widenFile("saxpy");
  b.program->segments[0].widen = 3;
  expectError(b, "[widen]", "is not a power of two in [2, 16]");
}

TEST(WidenVerifier, ChunkAtMost16Bytes) {
  // 4 f64 (32 bytes) per chunk, with a consistent program count.
  Built b = widenFile("axpy_f64");
  b.program->segments[0].widen = 4;
  setProgramCount(b, chunkCount(*b.program, 3, 4));
  expectError(b, "[widen]", "a chunk of 4 elements is wider than 16 bytes");
}

TEST(WidenVerifier, EveryChunkOwned) {
  // n / W programs: the remainder chunk would have no owner.
  Built b = widenFile("saxpy");
  phys::Program &p = *b.program;
  using K = phys::LaunchExpr::Kind;
  setProgramCount(
      b, p.binaryExpr(K::Min,
                      p.binaryExpr(K::Div, p.segments[0].widenElements,
                                   p.constExpr(4)),
                      p.constExpr(phys::kWidenMaxPrograms)));
  expectError(b, "[widen]", "(every chunk must have an owner)");
}

TEST(WidenVerifier, ElementCountRecorded) {
  Built b = widenFile("saxpy");
  b.program->segments[0].widenElements = -1;
  expectError(b, "[segments]", "a widened segment has no element count");
}

TEST(WidenVerifier, OneDimensionalParallel) {
  // A two-dimensional pointwise-looking domain marked widened.
  Built b = buildFile("matmul.kir");
  phys::Program &p = *b.program;
  p.segments[0].widen = 4;
  p.segments[0].widenElements = p.segments[0].length;
  setProgramCount(b, chunkCount(p, 3, 4));
  expectError(b, "[widen]", "only a parallel one-dimensional segment is widened");
}

TEST(WidenVerifier, OnlyThreadScope) {
  Built b = widenFile("saxpy");
  b.program->scope = phys::ExecScope::CTA;
  b.program->ctaThreads = 256;
  expectError(b, "[widen]", "only thread-scope programs are widened");
}

TEST(WidenVerifier, Pointwise) {
  // The widened saxpy with its load of x moved to coordinate i + 1.
  Built b = widenFile("saxpy");
  phys::Program &p = *b.program;
  phys::Op *load = findOp(p, phys::Opcode::Load);
  phys::Op *add = insertBefore(p, load, phys::Opcode::Add,
                               {load->coords()[0], load->coords()[0]},
                               phys::Type::scalar(phys::ScalarKind::I64));
  load->operands[1] = add->result();
  expectError(b, "[widen]", "region is not pointwise: an access is not at the "
                            "instance coordinate");
}

TEST(WidenVerifier, NoLoadAfterStore) {
  // The widened saxpy loading y again after it stores it: the vector path
  // would read the old value.
  Built b = widenFile("saxpy");
  phys::Program &p = *b.program;
  phys::Op *loadY = findOp(p, phys::Opcode::Load, 1);
  phys::Op *yield = loadY->parent->terminator();
  phys::Op *again =
      insertBefore(p, yield, phys::Opcode::Load,
                   {loadY->operands[0], loadY->operands[1]},
                   phys::Type::scalar(phys::ScalarKind::F32));
  again->access = loadY->access;
  expectError(b, "[widen]", "a view is loaded after the instance stores it");
}
