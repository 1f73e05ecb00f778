//===- CtaPhasesTest.cpp - A single instance's phases on one CTA ----------===//
//
// Kernels whose phases depend on each other (a parallel_for, then a
// reduction or another parallel_for over what it wrote) form one ordered
// instance; cta-rows runs it on one CTA of kPhaseThreads threads with CTA
// barriers between the phases that share memory (test/lit/construction/
// phases.kir). The physical interpreter runs the CTA as fibers with the
// race check on and is compared with the KIR interpreter on random integer
// data (exact), sizes 0, 1, odd, around the CTA size and larger. A dropped
// phase barrier is a race on the host and a [coop] error; a distributed
// loop whose iterations may conflict is a [coop] error; a parallel for
// with conflicting iterations, or an instance-level buffer, keeps the
// instance on one thread.
//
//===----------------------------------------------------------------------===//

#include "DiffHarness.h"
#include "VerifierHarness.h"

#include "Passes/Passes.h"
#include "Physical/IR.h"
#include "Physical/Verifier.h"

using namespace intent;
using namespace intent::test;
using kir::ScalarKind;

namespace {

std::unique_ptr<kir::Module> phasesModule() { return litModule("construction", "phases.kir"); }

unsigned countOps(const phys::Program &p, phys::Opcode opc) {
  unsigned n = 0;
  phys::walk(*p.body, [&](const phys::Op &o) { n += o.opcode == opc; });
  return n;
}

/// Runs `k` through the default pipeline and compares the physical
/// interpreter (forward and shuffled program order, the race check on)
/// with the KIR interpreter, exactly.
void compareRuns(const kir::Kernel &k, const std::vector<ArgSpec> &specs,
                 uint64_t seed, unsigned threads) {
  PipelineResult r = runPipeline(k, PipelineOptions{});
  ASSERT_TRUE(r.ok()) << (r.internalErrors.empty() ? "" : r.internalErrors[0]);
  ASSERT_EQ(r.program->scope, phys::ExecScope::CTA) << k.name;
  EXPECT_EQ(r.program->ctaThreads, threads) << k.name;
  EXPECT_GE(countOps(*r.program, phys::Opcode::ThreadId), 1u) << k.name;
  Memory init = makeMemory(specs, seed);
  Memory kirMem = init;
  interp::KIRRunResult kr = interp::runKernel(k, bind(specs, kirMem));
  ASSERT_TRUE(kr.ok) << kr.error;
  for (int variant = 0; variant < 2; ++variant) {
    interp::PhysRunOptions opts;
    opts.order = variant ? interp::PhysRunOptions::Order::Shuffled
                         : interp::PhysRunOptions::Order::Forward;
    opts.seed = seed;
    Memory mem = init;
    interp::PhysRunResult pr =
        interp::runProgram(*r.program, bind(specs, mem), opts);
    ASSERT_TRUE(pr.ok) << k.name << " variant " << variant << ": " << pr.error;
    for (unsigned i = 0; i < specs.size(); ++i)
      if (specs[i].isView)
        EXPECT_TRUE(mem.views[i] == kirMem.views[i])
            << k.name << " variant " << variant << " arg " << i << " (seed "
            << seed << ")";
  }
}

const int64_t kSizes[] = {0, 1, 7, 1023, 1025, 2500};

/// The annotated form (cta-rows without cta-rows-ops) of kernel `name`.
Built annotated(const std::string &name) {
  Built b;
  std::string err;
  b.module = kir::parseModule(readFile(litFile("construction", "phases.kir")),
                              "phases.kir", err);
  EXPECT_TRUE(b.module) << err;
  for (unsigned i = 0; i < b.module->kernels.size(); ++i)
    if (b.module->kernels[i]->name == name)
      b.index = i;
  PipelineOptions o;
  o.disabledPasses = {"cta-rows-ops"};
  PipelineResult r = runPipeline(b.kernel(), o);
  EXPECT_TRUE(r.ok()) << (r.internalErrors.empty() ? "" : r.internalErrors[0]);
  b.program = std::move(r.program);
  return b;
}

} // namespace

TEST(CtaPhases, ParallelForThenReductionThenParallelFor) {
  auto m = phasesModule();
  ASSERT_TRUE(m);
  for (int64_t n : kSizes)
    compareRuns(kernelNamed(*m, "sum_then_use"),
                {ArgSpec::view(ScalarKind::I64, {n}),
                 ArgSpec::view(ScalarKind::I64, {n}),
                 ArgSpec::view(ScalarKind::I32, {n})},
                n + 1, passes::kPhaseThreads);
}

TEST(CtaPhases, ArgReductionLeaderStoresThenAPhaseReadingThem) {
  // Small values: many ties (tie::first must pick the first position).
  auto m = phasesModule();
  ASSERT_TRUE(m);
  for (int64_t n : kSizes)
    compareRuns(kernelNamed(*m, "nearest_then_shift"),
                {ArgSpec::view(ScalarKind::I64, {n}),
                 ArgSpec::view(ScalarKind::I64, {2}),
                 ArgSpec::view(ScalarKind::I64, {n}),
                 ArgSpec::view(ScalarKind::I32, {n}), ArgSpec::i64(3)},
                n + 2, passes::kPhaseThreads);
}

TEST(CtaPhases, TwoDimensionalPhasesReadingTheTranspose) {
  auto m = phasesModule();
  ASSERT_TRUE(m);
  for (auto [r, c] : std::vector<std::pair<int64_t, int64_t>>{
           {0, 0}, {1, 1}, {3, 3}, {40, 40}, {1030, 2}})
    compareRuns(kernelNamed(*m, "transpose_phases"),
                {ArgSpec::view(ScalarKind::I32, {r, c}),
                 ArgSpec::view(ScalarKind::I32, {c, r}),
                 ArgSpec::view(ScalarKind::I32, {r, c})},
                r * 3 + c, passes::kPhaseThreads);
}

TEST(CtaPhases, RowsThatUpdateTheViewTheyRead) {
  // x(r, c) = 4 x(r, c) - sum(x(r, :)): a CTA per row; the reduction's
  // reads end before any thread's write.
  auto m = phasesModule();
  ASSERT_TRUE(m);
  for (auto [r, c] : std::vector<std::pair<int64_t, int64_t>>{
           {0, 5}, {3, 0}, {1, 1}, {5, 257}, {2, 1000}})
    compareRuns(kernelNamed(*m, "center_rows"),
                {ArgSpec::view(ScalarKind::I64, {r, c})}, r * 5 + c,
                passes::kCtaThreads);
}

TEST(CtaPhases, DroppedPhaseBarrierIsARace) {
  auto m = phasesModule();
  ASSERT_TRUE(m);
  PipelineResult r = runPipeline(kernelNamed(*m, "sum_then_use"), PipelineOptions{});
  ASSERT_TRUE(r.ok());
  // The phase barrier is the first grid barrier of the program (the
  // cooperating CTAs' one: a CTA barrier where one CTA runs the instance).
  phys::Op *bar = nullptr;
  phys::walkMutable(*r.program->body, [&](phys::Op &o) {
    if (!bar && o.opcode == phys::Opcode::Barrier &&
        o.strAttr("scope") == "grid")
      bar = &o;
  });
  ASSERT_TRUE(bar);
  auto &ops = bar->parent->ops;
  ops.erase(std::find_if(ops.begin(), ops.end(),
                         [&](const auto &o) { return o.get() == bar; }));
  std::vector<ArgSpec> a = {ArgSpec::view(ScalarKind::I64, {2000}),
                            ArgSpec::view(ScalarKind::I64, {2000}),
                            ArgSpec::view(ScalarKind::I32, {2000})};
  Memory mem = makeMemory(a, 5);
  interp::PhysRunResult pr = interp::runProgram(*r.program, test::bind(a, mem));
  ASSERT_FALSE(pr.ok);
  EXPECT_NE(pr.error.find("race"), std::string::npos) << pr.error;
}

TEST(CtaPhasesVerifier, PhasesSharingMemoryNeedABarrier) {
  Built b = annotated("nearest_then_shift");
  ASSERT_TRUE(b.program);
  phys::Op *seg = findOp(*b.program, phys::Opcode::Segment);
  ASSERT_TRUE(seg);
  auto &ops = seg->regions[0]->block.ops;
  // The barrier before the last phase (after the leader stores).
  auto it = std::find_if(ops.rbegin(), ops.rend(), [](const auto &o) {
    return o->opcode == phys::Opcode::Barrier;
  });
  ASSERT_NE(it, ops.rend());
  ops.erase(std::next(it).base());
  expectError(b, "[coop]", "with no CTA barrier between them");
}

TEST(CtaPhasesVerifier, DistributedIterationsMustNotConflict) {
  Built b = annotated("sum_then_use");
  ASSERT_TRUE(b.program);
  // The first phase writes tmp[i]; make it write tmp[0] in every iteration.
  phys::Op *store = nullptr;
  phys::walkMutable(*b.program->body, [&](phys::Op &o) {
    if (!store && o.opcode == phys::Opcode::Store)
      store = &o;
  });
  ASSERT_TRUE(store);
  phys::Builder builder(*b.program);
  builder.setInsertionBlock(store->parent);
  phys::Value *zero = builder.constInt(0);
  // constInt appended the constant: move it before the store.
  auto &ops = store->parent->ops;
  std::unique_ptr<phys::Op> c = std::move(ops.back());
  ops.pop_back();
  auto at = std::find_if(ops.begin(), ops.end(),
                         [&](const auto &o) { return o.get() == store; });
  ops.insert(at, std::move(c));
  store->operands[2] = zero;
  expectError(b, "[coop]", "its iterations run on different threads but may "
                           "conflict");
}

TEST(CtaPhases, TwoDimensionalPhasesAreFlatLoops) {
  // Both 2-D phases of transpose_phases stride one flat index over both
  // dimensions (`dims = 2`); the coverage check counts both dimensions
  // only with the attribute.
  auto m = phasesModule();
  ASSERT_TRUE(m);
  const kir::Kernel &k = kernelNamed(*m, "transpose_phases");
  PipelineResult r = runPipeline(k, PipelineOptions{});
  ASSERT_TRUE(r.ok());
  std::vector<phys::Op *> flat;
  phys::walkMutable(*r.program->body, [&](phys::Op &o) {
    if (o.opcode == phys::Opcode::Loop && o.intAttr("dims", 1) == 2)
      flat.push_back(&o);
  });
  ASSERT_EQ(flat.size(), 2u);
  flat[0]->attrs.erase(std::remove_if(flat[0]->attrs.begin(),
                                      flat[0]->attrs.end(),
                                      [](const phys::NamedAttr &a) {
                                        return a.name == "dims";
                                      }),
                       flat[0]->attrs.end());
  std::vector<std::string> errs;
  EXPECT_FALSE(phys::verifyProgram(*r.program, &k, errs));
  bool coverage = false;
  for (const std::string &e : errs)
    coverage |= e.find("[coverage]") != std::string::npos;
  EXPECT_TRUE(coverage) << (errs.empty() ? "" : errs[0]);
}

TEST(CtaPhases, ConflictingIterationsStayOnOneThread) {
  auto m = phasesModule();
  ASSERT_TRUE(m);
  PipelineResult r = runPipeline(kernelNamed(*m, "last_wins"), PipelineOptions{});
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r.program->scope, phys::ExecScope::Thread);
  bool said = false;
  for (const phys::Remark &rm : r.remarks)
    said |= rm.text.find("cta-rows: not applied: the iterations of the "
                         "parallel for at 59:3 may conflict") !=
            std::string::npos;
  EXPECT_TRUE(said);
  // The user still hears that the kernel runs in a single instance.
  EXPECT_FALSE(r.serializations.empty());
}
