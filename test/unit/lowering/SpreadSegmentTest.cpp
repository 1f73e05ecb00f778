//===- SpreadSegmentTest.cpp - Thread-style segments in cta programs ------===//
//
// phys::spreadSegment (Physical/Dispatch.h): the instances of a segment
// spread over the threads of a cta program's CTAs, so one launch can hold
// groups mapped to whole CTAs and groups of one instance per thread. Here
// every segment of multi-group programs is spread by hand (after the default
// passes: widened segments too) and the program must still match the KIR
// interpreter, run as CTAs of fiber threads with the race check; the
// verifier's [dispatch], [active] and [uniform] rules for spread segments
// each get a program that breaks them.
//
//===----------------------------------------------------------------------===//

#include "VerifierHarness.h"

#include "Physical/Dispatch.h"
#include "Physical/Parser.h"

using namespace intent;
using namespace intent::test;
using kir::ScalarKind;

namespace {

const ScalarKind F32 = ScalarKind::F32;
const ScalarKind I32 = ScalarKind::I32;
const ScalarKind I64 = ScalarKind::I64;

/// Makes `p` a cta program of `threads` threads and spreads every segment.
void spreadAll(phys::Program &p, int threads) {
  p.scope = phys::ExecScope::CTA;
  p.ctaThreads = threads;
  for (unsigned s = 0; s < p.segments.size(); ++s)
    phys::spreadSegment(p, s, threads);
}

TEST(SpreadSegment, TwoGroupsMatchTheKIRInterpreter) {
  auto m = loadKernel("two_groups.kir");
  for (int64_t n : {0, 1, 63, 64, 65, 1000})
    for (auto [r, c] : std::vector<std::pair<int64_t, int64_t>>{
             {0, 5}, {1, 1}, {3, 7}, {31, 17}}) {
      std::vector<ArgSpec> a = {ArgSpec::view(F32, {n}),
                                ArgSpec::view(F32, {r, c}),
                                ArgSpec::view(F32, {n})};
      auto ref = [&, r = r, c = c](Memory &mem) {
        float *y = mem.as<float>(0), *z = mem.as<float>(1), *x = mem.as<float>(2);
        for (int64_t i = 0; i < n; ++i)
          y[i] = x[i] + 1.0f;
        for (int64_t i = 0; i < r; ++i)
          for (int64_t j = 0; j < c; ++j)
            z[i * c + j] = static_cast<float>(i * 10 + j);
      };
      DiffOptions o;
      // The thread program widen leaves (tile would make group 1 a tile
      // segment of a cta program: TileTest.cpp).
      o.pipeline.disabledPasses = {"tile"};
      o.rewrite = [](phys::Program &p) { spreadAll(p, 64); };
      DiffOutcome out = runDifferential(*m->kernels[0], a, ref, n + r * c, o);
      ASSERT_EQ(out.segmentLengths.size(), 2u);
      // Group 0 is widened (chunks of 4) and its programs spread over 64
      // threads; group 1 has r * c instances, 64 per program.
      EXPECT_EQ(out.segmentLengths[0], ((n + 3) / 4 + 63) / 64);
      EXPECT_EQ(out.segmentLengths[1], (r * c + 63) / 64);
    }
}

int64_t wrapAdd(int64_t p, int64_t q) {
  return static_cast<int64_t>(static_cast<uint64_t>(p) +
                              static_cast<uint64_t>(q));
}

TEST(SpreadSegment, OrderedScanRowReducePointwiseInOneCtaProgram) {
  // The ordered scan's one instance runs on thread 0 of its program only.
  auto m = loadKernel("mixed_groups.kir");
  for (int64_t n : {0, 1, 33, 200})
    for (auto [r, c] : std::vector<std::pair<int64_t, int64_t>>{
             {0, 5}, {1, 1}, {33, 7}}) {
      ArgSpec x = ArgSpec::view(I64, {n});
      x.gen = [](std::mt19937_64 &rng) {
        return interp::Scalar::ofInt(I64, static_cast<int64_t>(rng()));
      };
      ArgSpec mv = ArgSpec::view(I32, {r, c});
      mv.gen = [](std::mt19937_64 &rng) {
        return interp::Scalar::ofInt(I32, static_cast<int32_t>(rng()));
      };
      int64_t nz = n + 3;
      std::vector<ArgSpec> a = {ArgSpec::view(I64, {n}), x,
                                ArgSpec::view(I32, {r}),  mv,
                                ArgSpec::view(F32, {nz}), ArgSpec::view(F32, {nz})};
      auto ref = [&, r = r, c = c](Memory &mem) {
        const int64_t *xs = mem.as<int64_t>(1);
        int64_t s = 0;
        for (int64_t k = 0; k < n; ++k) {
          mem.as<int64_t>(0)[k] = s;
          s = wrapAdd(s, xs[k]);
        }
        for (int64_t i = 0; i < r; ++i) {
          int32_t mx = std::numeric_limits<int32_t>::min();
          for (int64_t j = 0; j < c; ++j)
            mx = std::max(mx, mem.as<int32_t>(3)[i * c + j]);
          mem.as<int32_t>(2)[i] = mx;
        }
        for (int64_t i = 0; i < nz; ++i)
          mem.as<float>(5)[i] = mem.as<float>(4)[i] * 2.0f;
      };
      DiffOptions o;
      // Every group spread by hand (region-teams would give the row group
      // lane teams, cta-rows a CTA per row:
      // CtaRowsDiffTest.RowGroupsNextToOtherGroups).
      o.pipeline.disabledPasses = {"cta-rows", "region-teams"};
      o.rewrite = [](phys::Program &p) { spreadAll(p, 32); };
      DiffOutcome out = runDifferential(*m->kernels[0], a, ref, n + r + c, o);
      ASSERT_EQ(out.segmentLengths.size(), 3u);
      EXPECT_EQ(out.segmentLengths[0], 1);
      EXPECT_EQ(out.segmentLengths[1], (r + 31) / 32);
    }
}

TEST(SpreadSegment, PrintsAndParsesBack) {
  Built b = buildFile("two_groups.kir", "", true, {"tile"});
  spreadAll(*b.program, 64);
  std::string text = phys::programToString(*b.program);
  EXPECT_NE(text.find(" spread 64 instances e"), std::string::npos) << text;
  EXPECT_NE(text.find("{group = 1, spread = 64}"), std::string::npos) << text;
  std::vector<std::unique_ptr<phys::Program>> parsed;
  std::string err;
  ASSERT_TRUE(phys::parsePrograms(text, "spread.phys", parsed, err)) << err;
  ASSERT_EQ(parsed.size(), 1u);
  EXPECT_EQ(phys::programToString(*parsed[0]), text);
  std::vector<std::string> errs;
  EXPECT_TRUE(phys::verifyProgram(*parsed[0], nullptr, errs))
      << (errs.empty() ? "" : errs[0]);
}

TEST(SpreadSegment, VerifierWantsTheSpreadOverEveryThreadOfACtaProgram) {
  Built b = buildFile("two_groups.kir", "", true, {"tile"});
  spreadAll(*b.program, 64);
  b.program->ctaThreads = 128;
  expectError(b, "[dispatch]", "spread over 64 threads in a program of 128");
}

TEST(SpreadSegment, VerifierWantsTheRecordAndTheOpToAgree) {
  Built b = buildFile("two_groups.kir", "", true, {"tile"});
  spreadAll(*b.program, 64);
  phys::segmentOp(*b.program, 1)->setAttr("spread", int64_t(0));
  expectError(b, "[dispatch]", "`spread` differs from the segment record's 64");
}

TEST(SpreadSegment, VerifierWantsTheInstanceCount) {
  Built b = buildFile("two_groups.kir", "", true, {"tile"});
  spreadAll(*b.program, 64);
  phys::segmentOp(*b.program, 0)->operands.pop_back();
  expectError(b, "[dispatch]", "operands must be (program_id, O_g, L_g, N_g)");
}

TEST(SpreadSegment, VerifierWantsCeilOfInstancesOverThreads) {
  Built b = buildFile("two_groups.kir", "", true, {"tile"});
  spreadAll(*b.program, 64);
  // One program per instance again: the spread would skip instances.
  phys::Segment &seg = b.program->segments[1];
  seg.length = seg.instances;
  phys::Op *op = phys::segmentOp(*b.program, 1);
  op->operands[2]->def->setAttr("expr", static_cast<int64_t>(seg.length));
  expectError(b, "[dispatch]", "is not ceil(");
}

TEST(SpreadSegment, AccessesAreEachThreadsOwn) {
  Built b = buildFile("two_groups.kir", "", true, {"tile"});
  spreadAll(*b.program, 64);
  phys::Op *store = findOp(*b.program, phys::Opcode::Store);
  store->access.active = phys::ActiveSet::Leader;
  expectError(b, "[active]", "an access in a distributed region is done by "
                             "each thread for its own members");
}

TEST(SpreadSegment, NoBarrierInASpreadSegment) {
  Built b = buildFile("two_groups.kir", "", true, {"tile"});
  spreadAll(*b.program, 64);
  // Whether a thread has an instance varies per thread: a barrier in the
  // segment is not reached by every thread.
  phys::Op *store = findOp(*b.program, phys::Opcode::Store);
  phys::Op *bar = insertBefore(*b.program, store, phys::Opcode::Barrier, {}, {});
  bar->setAttr("scope", std::string("cta"));
  bar->origin.synth = "test";
  expectError(b, "[uniform]", "a CTA barrier must be reached by every thread");
}

} // namespace
