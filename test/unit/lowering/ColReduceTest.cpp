//===- ColReduceTest.cpp - col-reduce against the KIR interpreter ---------===//
//
// Reductions along an outer axis mapped by col-reduce into team segments
// (Physical/Dispatch.h teamSegment): the physical interpreter runs each CTA
// as fibers (real barriers, shared memory, the race check, the workspace
// and its tickets) in forward and shuffled program order, and the results
// must equal the KIR interpreter's (integers: exactly; a non-commutative
// user combine checks that chunks and parts combine in member order), for
// shapes with one part per group (many columns) and several (few columns,
// many rows). Each verifier rule of team segments gets a program that
// breaks it; a dropped barrier is a shared-memory race; the form prints and
// parses back.
//
//===----------------------------------------------------------------------===//

#include "DiffHarness.h"

#include "Physical/Dispatch.h"
#include "Physical/IR.h"
#include "Physical/Parser.h"
#include "Physical/Verifier.h"

using namespace intent;
using namespace intent::test;
using kir::ScalarKind;

namespace {

/// first[j] = the first nonzero a(i, j) (a user combine: associative, not
/// commutative), and sums[j] = sum_i a(i, j) * y[i] (a plus reduce with a
/// rank-1 side read at the member) as a second group.
const char *kColumns =
    "kernel @columns (%0 first: view<i32, 1> w, %1 a: view<const i32, 2> r, %2 sums: view<i64, 1> w, %3 y: view<const i32, 1> r) loc(1:1) {\n"
    "  %4 = extent %1 {dim = 1} : i64 loc(2:3)\n"
    "  parallel_for %4 loc(2:3) {\n"
    "  ^(%5: i64):\n"
    "    %6 = extent %1 {dim = 0} : i64 loc(3:5)\n"
    "    %7 = constant {value = 0} : i64 loc(3:5)\n"
    "    %8 = constant {value = 0} : i32 loc(3:5)\n"
    "    %9 = reduce %7, %6, %8 {combiner = \"user\", reassociate = true} : i32 loc(3:5) {\n"
    "    ^(%10: i64):\n"
    "      %11 = load %1, %10, %5 : i32 loc(3:20)\n"
    "      yield %11\n"
    "    } {\n"
    "    ^(%12: i32, %13: i32):\n"
    "      %14 = constant {value = 0} : i32 loc(3:30)\n"
    "      %15 = cmp %12, %14 {pred = \"ne\"} : bool loc(3:30)\n"
    "      %16 = select %15, %12, %13 : i32 loc(3:30)\n"
    "      yield %16\n"
    "    }\n"
    "    store %0, %9, %5 loc(3:3)\n"
    "    yield\n"
    "  }\n"
    "  parallel_for %4 loc(5:3) {\n"
    "  ^(%20: i64):\n"
    "    %21 = extent %1 {dim = 0} : i64 loc(6:5)\n"
    "    %22 = constant {value = 0} : i64 loc(6:5)\n"
    "    %23 = reduce %22, %21, %22 {combiner = \"plus\", reassociate = true} : i64 loc(6:5) {\n"
    "    ^(%24: i64):\n"
    "      %25 = load %1, %24, %20 : i32 loc(6:20)\n"
    "      %26 = load %3, %24 : i32 loc(6:25)\n"
    "      %27 = mul %25, %26 : i32 loc(6:22)\n"
    "      %28 = cast %27 : i64 loc(6:22)\n"
    "      yield %28\n"
    "    } {\n"
    "    ^(%29: i64, %30: i64):\n"
    "      %31 = add %29, %30 : i64\n"
    "      yield %31\n"
    "    }\n"
    "    store %2, %23, %20 loc(6:3)\n"
    "    yield\n"
    "  }\n"
    "  return\n"
    "}\n";

std::unique_ptr<kir::Module> parse(const std::string &text) {
  std::string err;
  auto m = kir::parseModule(text, "col_reduce", err);
  EXPECT_TRUE(m) << err;
  return m;
}

/// Sparse values: the first nonzero lies deep in a column.
std::function<interp::Scalar(std::mt19937_64 &)> sparse() {
  return [](std::mt19937_64 &rng) {
    int64_t v = static_cast<int64_t>(rng() % 61) - 30;
    return interp::Scalar::ofInt(ScalarKind::I32, std::abs(v) > 27 ? v : 0);
  };
}

std::vector<ArgSpec> specs(int64_t rows, int64_t cols) {
  ArgSpec a = ArgSpec::view(ScalarKind::I32, {rows, cols});
  a.gen = sparse();
  ArgSpec y = ArgSpec::view(ScalarKind::I32, {rows});
  y.gen = [](std::mt19937_64 &rng) {
    return interp::Scalar::ofInt(ScalarKind::I32,
                                 static_cast<int64_t>(rng() % 201) - 100);
  };
  return {ArgSpec::view(ScalarKind::I32, {cols}), a,
          ArgSpec::view(ScalarKind::I64, {cols}), y};
}

bool teamForm(const phys::Program &p) {
  for (const phys::Segment &s : p.segments)
    if (!s.team || s.spread != 32)
      return false;
  return p.scope == phys::ExecScope::CTA && p.ctaThreads == 256;
}

void compareRuns(const kir::Kernel &k, const std::vector<ArgSpec> &a,
                 uint64_t seed) {
  PipelineResult r = runPipeline(k);
  ASSERT_TRUE(r.ok()) << (r.internalErrors.empty() ? "" : r.internalErrors[0]);
  ASSERT_TRUE(teamForm(*r.program)) << phys::programToString(*r.program);
  Memory init = makeMemory(a, seed);
  Memory kirMem = init;
  interp::KIRRunResult kr = interp::runKernel(k, bind(a, kirMem));
  ASSERT_TRUE(kr.ok) << kr.error;
  for (int variant = 0; variant < 2; ++variant) {
    interp::PhysRunOptions opts;
    opts.order = variant ? interp::PhysRunOptions::Order::Shuffled
                         : interp::PhysRunOptions::Order::Forward;
    opts.seed = seed;
    Memory mem = init;
    interp::PhysRunResult pr =
        interp::runProgram(*r.program, bind(a, mem), opts);
    ASSERT_TRUE(pr.ok) << "variant " << variant << ": " << pr.error;
    for (unsigned i = 0; i < a.size(); ++i)
      EXPECT_EQ(mem.views[i], kirMem.views[i])
          << "variant " << variant << " arg " << i << " rows "
          << a[1].extents[0] << " cols " << a[1].extents[1];
  }
}

/// The program after the default pipeline, for the verifier tests.
std::unique_ptr<phys::Program> mapped() {
  auto m = parse(kColumns);
  PipelineResult r = runPipeline(*m->kernels[0]);
  EXPECT_TRUE(r.ok());
  return std::move(r.program);
}

void expectBroken(const std::function<void(phys::Program &)> &edit,
                  const std::string &want) {
  std::unique_ptr<phys::Program> p = mapped();
  ASSERT_TRUE(p);
  edit(*p);
  std::vector<std::string> errs;
  EXPECT_FALSE(phys::verifyProgram(*p, nullptr, errs));
  bool found = false;
  for (const std::string &e : errs)
    found |= e.find(want) != std::string::npos;
  EXPECT_TRUE(found) << want << " not in: " << (errs.empty() ? "" : errs[0]);
}

phys::Op *teamOp(phys::Program &p, unsigned group) {
  return phys::segmentOp(p, group);
}

} // namespace

TEST(ColReduce, MatchesTheKIRInterpreterWithOneAndSeveralParts) {
  auto m = parse(kColumns);
  ASSERT_TRUE(m);
  // (rows, cols): empty, one, a partial group, several parts per group
  // (few columns, many rows), many groups (one part).
  const int64_t shapes[][2] = {{0, 5},   {5, 0},   {1, 1},    {7, 33},
                               {600, 3}, {3000, 40}, {20, 2100}};
  for (const auto &s : shapes)
    compareRuns(*m->kernels[0], specs(s[0], s[1]), s[0] * 7 + s[1]);
}

TEST(ColReduce, SeveralPartsPerGroupAtLaunch) {
  // 3000 rows, 40 columns: 2 groups of 32, P = min(ceil(1024 / 2),
  // ceil(3000 / 256), 64) = 12 programs per group.
  std::unique_ptr<phys::Program> p = mapped();
  ASSERT_TRUE(p);
  std::vector<ArgSpec> a = specs(3000, 40);
  Memory mem = makeMemory(a, 1);
  std::string err;
  std::optional<interp::Scalar> parts =
      interp::evalLaunchExpr(*p, p->segments[0].parts, test::bind(a, mem), err);
  ASSERT_TRUE(parts) << err;
  EXPECT_EQ(parts->i, 12);
  std::optional<interp::Scalar> len =
      interp::evalLaunchExpr(*p, p->segments[0].length, test::bind(a, mem), err);
  ASSERT_TRUE(len) << err;
  EXPECT_EQ(len->i, 24);
}

TEST(ColReduce, PrintsAndParsesBack) {
  std::unique_ptr<phys::Program> p = mapped();
  ASSERT_TRUE(p);
  std::string text = phys::programToString(*p);
  EXPECT_NE(text.find(" team parts e"), std::string::npos);
  EXPECT_NE(text.find("team = true"), std::string::npos);
  std::vector<std::unique_ptr<phys::Program>> parsed;
  std::string err;
  ASSERT_TRUE(phys::parsePrograms(text, "team", parsed, err)) << err;
  std::vector<std::string> errs;
  EXPECT_TRUE(phys::verifyProgram(*parsed[0], nullptr, errs))
      << (errs.empty() ? "" : errs[0]);
  EXPECT_EQ(phys::programToString(*parsed[0]), text);
}

TEST(ColReduce, VerifierWantsStoresGuardedByActive) {
  expectBroken(
      [](phys::Program &p) {
        // Every thread of the team would store, inactive ones a copy of the
        // last instance.
        ASSERT_TRUE(unguardViewStore(p, teamOp(p, 0)));
      },
      "must be guarded by the segment's `active` argument");
}

TEST(ColReduce, VerifierWantsTheTeamLength) {
  expectBroken(
      [](phys::Program &p) {
        // ceil(n / 32) * 2 programs instead of * P (the node is edited in
        // place, so offsets and the total stay consistent).
        unsigned two = p.constExpr(2);
        p.exprs[p.segments[0].length].operands[1] = two;
      },
      "is not ceil(");
}

TEST(ColReduce, VerifierWantsAWidthThatDividesTheCta) {
  expectBroken(
      [](phys::Program &p) {
        p.segments[0].spread = 48;
        teamOp(p, 0)->setAttr("spread", int64_t(48));
      },
      "a team segment of 48 instances per program needs exec scope cta and "
      "a CTA size they divide");
}

TEST(ColReduce, VerifierWantsTheTeamArguments) {
  expectBroken(
      [](phys::Program &p) {
        teamOp(p, 0)->regions[0]->block.args.pop_back();
      },
      "team segment region takes");
}

TEST(ColReduce, DroppedBarrierIsASharedMemoryRace) {
  std::unique_ptr<phys::Program> p = mapped();
  ASSERT_TRUE(p);
  // The first barrier after the workers store their partials.
  phys::Op *seg = teamOp(*p, 0);
  auto &ops = seg->regions[0]->block.ops;
  auto it = std::find_if(ops.begin(), ops.end(), [](const auto &o) {
    return o->opcode == phys::Opcode::Barrier;
  });
  ASSERT_NE(it, ops.end());
  ops.erase(it);
  std::vector<ArgSpec> a = specs(300, 40);
  Memory mem = makeMemory(a, 2);
  interp::PhysRunResult pr = interp::runProgram(*p, test::bind(a, mem));
  ASSERT_FALSE(pr.ok);
  EXPECT_NE(pr.error.find("shared-memory race on buffer cols_part"),
            std::string::npos)
      << pr.error;
}
