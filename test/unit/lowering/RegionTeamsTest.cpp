//===- RegionTeamsTest.cpp - region-teams against the KIR interpreter -----===//
//
// Region folds mapped by region-teams into lane-team segments
// (Physical/Dispatch.h laneTeamSegment): the physical interpreter runs each
// CTA as fibers (real shuffles, barriers and shared memory, the race check)
// in forward and shuffled program order, and the results must equal the KIR
// interpreter's exactly (integers), for average region lengths that pick
// every kind of team: one thread per region, teams inside a warp, a warp,
// and teams of several warps (the shared-memory step). A user combine that
// is not commutative (the first nonzero) checks that a team folds its
// members in order. Each verifier rule of lane-team segments gets a
// program that breaks it; a dropped barrier is a shared-memory race; the
// form prints and parses back; an ordered fold keeps one thread per region
// and says why. Row reductions of a constant length below 256 take the
// same teams instead of a CTA per row.
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

/// sums[r] = sum over the region of x[k] * w[col[k]] (plus, a gather), and
/// first[r] = the region's first nonzero x[k] (a user combine: associative,
/// not commutative), as two region units of one kernel.
const char *kRegions =
    "kernel @regions (%0 sums: view<i64, 1> w, %1 off: view<const i64, 1> r, %2 x: view<const i32, 1> r, %3 col: view<const i32, 1> r, %4 w: view<const i32, 1> r, %5 first: view<i32, 1> w) loc(1:1) {\n"
    "  %6 = constant {value = 0} : i64 loc(2:3)\n"
    "  region_fold %1, %6 {combiner = \"plus\", reassociate = true} loc(2:3) {\n"
    "  ^(%7: i64, %8: i64):\n"
    "    %9 = load %3, %8 : i32 loc(3:30)\n"
    "    %10 = cast %9 : i64 loc(3:30)\n"
    "    %11 = load %4, %10 : i32 loc(3:28)\n"
    "    %12 = load %2, %8 : i32 loc(3:20)\n"
    "    %13 = mul %12, %11 : i32 loc(3:25)\n"
    "    %14 = cast %13 : i64 loc(3:25)\n"
    "    yield %14\n"
    "  } {\n"
    "  ^(%15: i64, %16: i64):\n"
    "    %17 = add %15, %16 : i64\n"
    "    yield %17\n"
    "  } {\n"
    "  ^(%18: i64, %19: i64):\n"
    "    store %0, %19, %18 loc(4:30)\n"
    "    yield\n"
    "  }\n"
    "  %20 = constant {value = 0} : i32 loc(5:3)\n"
    "  region_fold %1, %20 {combiner = \"user\", reassociate = true} loc(5:3) {\n"
    "  ^(%21: i64, %22: i64):\n"
    "    %23 = load %2, %22 : i32 loc(6:20)\n"
    "    yield %23\n"
    "  } {\n"
    "  ^(%24: i32, %25: i32):\n"
    "    %26 = constant {value = 0} : i32 loc(6:30)\n"
    "    %27 = cmp %24, %26 {pred = \"ne\"} : bool loc(6:30)\n"
    "    %28 = select %27, %24, %25 : i32 loc(6:30)\n"
    "    yield %28\n"
    "  } {\n"
    "  ^(%29: i64, %30: i32):\n"
    "    store %5, %30, %29 loc(7:30)\n"
    "    yield\n"
    "  }\n"
    "  return\n"
    "}\n";

/// The same plus fold, `intent::ordered`: no reassociation.
const char *kOrdered =
    "kernel @ordered (%0 sums: view<i64, 1> w, %1 off: view<const i64, 1> r, %2 x: view<const i32, 1> r) loc(1:1) {\n"
    "  %3 = constant {value = 0} : i64 loc(2:3)\n"
    "  region_fold %1, %3 {combiner = \"plus\", reassociate = false} loc(2:3) {\n"
    "  ^(%4: i64, %5: i64):\n"
    "    %6 = load %2, %5 : i32 loc(3:20)\n"
    "    %7 = cast %6 : i64 loc(3:20)\n"
    "    yield %7\n"
    "  } {\n"
    "  ^(%8: i64, %9: i64):\n"
    "    %10 = add %8, %9 : i64\n"
    "    yield %10\n"
    "  } {\n"
    "  ^(%11: i64, %12: i64):\n"
    "    store %0, %12, %11 loc(4:30)\n"
    "    yield\n"
    "  }\n"
    "  return\n"
    "}\n";

/// Rows of a constant length: out[i] = i * sum_{j < 40} a(i, j) (an
/// epilogue on the result) and first[i] = the first nonzero of a(i, :100)
/// (a user combine), two row groups cta-rows leaves to region-teams.
const char *kShortRows =
    "kernel @rows (%0 out: view<i64, 1> w, %1 a: view<const i32, 2> r, %2 first: view<i32, 1> w) loc(1:1) {\n"
    "  %3 = extent %1 {dim = 0} : i64 loc(2:3)\n"
    "  parallel_for %3 loc(2:3) {\n"
    "  ^(%4: i64):\n"
    "    %5 = constant {value = 0} : i64 loc(3:5)\n"
    "    %6 = constant {value = 40} : i64 loc(3:5)\n"
    "    %7 = reduce %5, %6, %5 {combiner = \"plus\", reassociate = true} : i64 loc(3:5) {\n"
    "    ^(%8: i64):\n"
    "      %9 = load %1, %4, %8 : i32 loc(3:20)\n"
    "      %10 = cast %9 : i64 loc(3:20)\n"
    "      yield %10\n"
    "    } {\n"
    "    ^(%11: i64, %12: i64):\n"
    "      %13 = add %11, %12 : i64\n"
    "      yield %13\n"
    "    }\n"
    "    %14 = mul %7, %4 : i64 loc(4:5)\n"
    "    store %0, %14, %4 loc(4:3)\n"
    "    yield\n"
    "  }\n"
    "  parallel_for %3 loc(5:3) {\n"
    "  ^(%20: i64):\n"
    "    %21 = constant {value = 0} : i64 loc(6:5)\n"
    "    %22 = constant {value = 100} : i64 loc(6:5)\n"
    "    %23 = constant {value = 0} : i32 loc(6:5)\n"
    "    %24 = reduce %21, %22, %23 {combiner = \"user\", reassociate = true} : i32 loc(6:5) {\n"
    "    ^(%25: i64):\n"
    "      %26 = load %1, %20, %25 : i32 loc(6:20)\n"
    "      yield %26\n"
    "    } {\n"
    "    ^(%27: i32, %28: i32):\n"
    "      %29 = constant {value = 0} : i32 loc(6:30)\n"
    "      %30 = cmp %27, %29 {pred = \"ne\"} : bool loc(6:30)\n"
    "      %31 = select %30, %27, %28 : i32 loc(6:30)\n"
    "      yield %31\n"
    "    }\n"
    "    store %2, %24, %20 loc(6:3)\n"
    "    yield\n"
    "  }\n"
    "  return\n"
    "}\n";

std::unique_ptr<kir::Module> parse(const std::string &text) {
  std::string err;
  auto m = kir::parseModule(text, "region_teams", err);
  EXPECT_TRUE(m) << err;
  return m;
}

/// Arguments for `rows` regions of up to `maxPerRow` members (a quarter
/// empty); rows < 0: an empty offsets view.
std::vector<ArgSpec> specs(int64_t rows, int64_t maxPerRow, uint64_t seed) {
  std::vector<int64_t> off =
      rows < 0 ? std::vector<int64_t>{} : randomOffsets(rows, maxPerRow, seed);
  const int64_t nnz = off.empty() ? 0 : off.back();
  const int64_t n = std::max<int64_t>(rows, 0), cols = 17;
  ArgSpec x = ArgSpec::view(ScalarKind::I32, {nnz});
  x.gen = [](std::mt19937_64 &rng) {
    // Sparse: the first nonzero lies deep in a region.
    int64_t v = static_cast<int64_t>(rng() % 61) - 30;
    return interp::Scalar::ofInt(ScalarKind::I32, std::abs(v) > 26 ? v : 0);
  };
  ArgSpec col = ArgSpec::view(ScalarKind::I32, {nnz});
  col.gen = [cols](std::mt19937_64 &rng) {
    return interp::Scalar::ofInt(ScalarKind::I32, rng() % cols);
  };
  ArgSpec offsets =
      off.empty() ? ArgSpec::view(ScalarKind::I64, {0}) : fixedView(ScalarKind::I64, off);
  return {ArgSpec::view(ScalarKind::I64, {n}), offsets, x, col,
          ArgSpec::view(ScalarKind::I32, {cols}),
          ArgSpec::view(ScalarKind::I32, {n})};
}

/// The team shift S segment `s` of `p` takes for arguments `a`.
int64_t teamShift(const phys::Program &p, unsigned s,
                  const std::vector<ArgSpec> &a) {
  Memory mem = makeMemory(a, 1);
  std::string err;
  std::optional<interp::Scalar> v =
      interp::evalLaunchExpr(p, p.segments[s].shift, test::bind(a, mem), err);
  EXPECT_TRUE(v) << err;
  return v ? v->i : -1;
}

bool laneTeamForm(const phys::Program &p) {
  for (const phys::Segment &s : p.segments)
    if (!s.team || !s.lanes || s.spread != 256)
      return false;
  return p.scope == phys::ExecScope::CTA && p.ctaThreads == 256;
}

/// Runs kRegions for `a` both ways; returns the team shift it took.
int64_t compareRuns(const std::vector<ArgSpec> &a, uint64_t seed) {
  auto m = parse(kRegions);
  const kir::Kernel &k = *m->kernels[0];
  PipelineResult r = runPipeline(k);
  EXPECT_TRUE(r.ok()) << (r.internalErrors.empty() ? "" : r.internalErrors[0]);
  if (!r.ok())
    return -1;
  EXPECT_TRUE(laneTeamForm(*r.program)) << phys::programToString(*r.program);
  Memory init = makeMemory(a, seed);
  Memory kirMem = init;
  interp::KIRRunResult kr = interp::runKernel(k, bind(a, kirMem));
  EXPECT_TRUE(kr.ok) << kr.error;
  for (int variant = 0; variant < 2; ++variant) {
    interp::PhysRunOptions opts;
    opts.order = variant ? interp::PhysRunOptions::Order::Shuffled
                         : interp::PhysRunOptions::Order::Forward;
    opts.seed = seed;
    Memory mem = init;
    interp::PhysRunResult pr =
        interp::runProgram(*r.program, bind(a, mem), opts);
    EXPECT_TRUE(pr.ok) << "variant " << variant << ": " << pr.error;
    for (unsigned i = 0; i < a.size(); ++i)
      EXPECT_EQ(mem.views[i], kirMem.views[i])
          << "variant " << variant << " arg " << i << " regions "
          << a[0].extents[0];
  }
  return teamShift(*r.program, 0, a);
}

std::unique_ptr<phys::Program> mapped() {
  auto m = parse(kRegions);
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

} // namespace

TEST(RegionTeams, MatchesTheKIRInterpreterForEveryTeamSize) {
  // (regions, most members per region) -> the team shift the launch picks
  // from the average region length (>= 8 * 2^S members per region).
  struct Shape {
    int64_t rows, maxPerRow, shift;
  };
  const Shape shapes[] = {
      {-1, 5, 0},  {0, 5, 0},     {1, 0, 0},      {300, 9, 0},
      {37, 200, 3}, {9, 700, 5},  {4, 1700, 6},   {5, 6000, 8},
  };
  for (const Shape &s : shapes) {
    std::vector<ArgSpec> a = specs(s.rows, s.maxPerRow, s.rows * 13 + 5);
    EXPECT_EQ(compareRuns(a, s.rows + 3), s.shift)
        << "regions " << s.rows << " up to " << s.maxPerRow << " members";
  }
}

TEST(RegionTeams, OrderedFoldKeepsOneThreadAndSaysWhy) {
  auto m = parse(kOrdered);
  PipelineResult r = runPipeline(*m->kernels[0]);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r.program->scope, phys::ExecScope::Thread);
  bool said = false;
  for (const phys::Remark &rm : r.remarks)
    said |= rm.text.find("region-teams: not applied: the region_fold may not "
                         "be reassociated") != std::string::npos;
  EXPECT_TRUE(said);
}

TEST(RegionTeams, PrintsAndParsesBack) {
  std::unique_ptr<phys::Program> p = mapped();
  ASSERT_TRUE(p);
  std::string text = phys::programToString(*p);
  EXPECT_NE(text.find(" team lanes shift e"), std::string::npos);
  EXPECT_NE(text.find("lanes = true"), std::string::npos);
  std::vector<std::unique_ptr<phys::Program>> parsed;
  std::string err;
  ASSERT_TRUE(phys::parsePrograms(text, "lanes", parsed, err)) << err;
  std::vector<std::string> errs;
  EXPECT_TRUE(phys::verifyProgram(*parsed[0], nullptr, errs))
      << (errs.empty() ? "" : errs[0]);
  EXPECT_EQ(phys::programToString(*parsed[0]), text);
}

TEST(RegionTeams, VerifierWantsTheLaneTeamLength) {
  expectBroken(
      [](phys::Program &p) {
        // (N + (T >> S) - 1) >> (log2 T - S) shifted by a constant 3
        // instead (edited in place: offsets and the total stay consistent).
        unsigned three = p.constExpr(3);
        p.exprs[p.segments[0].length].operands[1] = three;
      },
      "is not ceil(instances / (T >> S))");
}

TEST(RegionTeams, VerifierWantsTheShiftOperand) {
  expectBroken(
      [](phys::Program &p) {
        phys::Op *seg = phys::segmentOp(p, 0);
        seg->operands[4] = seg->operands[3];
      },
      "operands must be (program_id, O_g, L_g, N_g, S_g)");
}

TEST(RegionTeams, VerifierWantsAPowerOfTwoCta) {
  expectBroken(
      [](phys::Program &p) {
        p.ctaThreads = 192;
        for (unsigned s = 0; s < p.segments.size(); ++s) {
          p.segments[s].spread = 192;
          phys::segmentOp(p, s)->setAttr("spread", int64_t(192));
        }
      },
      "a lane-team segment needs exec scope cta, a power-of-two CTA size");
}

TEST(RegionTeams, VerifierWantsTheLanesRecord) {
  expectBroken(
      [](phys::Program &p) { phys::segmentOp(p, 1)->setAttr("lanes", false); },
      "`lanes` differs from the segment record");
}

TEST(RegionTeams, VerifierWantsStoresGuardedByActive) {
  expectBroken(
      [](phys::Program &p) {
        // Every thread of the team would store, inactive ones a copy of the
        // last instance.
        ASSERT_TRUE(unguardViewStore(p, phys::segmentOp(p, 0)));
      },
      "must be guarded by the segment's `active` argument");
}

TEST(RegionTeams, DroppedBarrierIsASharedMemoryRace) {
  std::unique_ptr<phys::Program> p = mapped();
  ASSERT_TRUE(p);
  // The barrier between the warps' partials and the leader's fold.
  phys::Op *barrier = nullptr;
  phys::walkMutable(*phys::segmentOp(*p, 0)->regions[0], [&](phys::Op &o) {
    if (o.opcode == phys::Opcode::Barrier && !barrier)
      barrier = &o;
  });
  ASSERT_TRUE(barrier);
  auto &ops = barrier->parent->ops;
  ops.erase(std::find_if(ops.begin(), ops.end(),
                         [&](const auto &o) { return o.get() == barrier; }));
  // Teams of 256 threads: regions of thousands of members.
  std::vector<ArgSpec> a = specs(5, 6000, 70);
  Memory mem = makeMemory(a, 2);
  interp::PhysRunResult pr = interp::runProgram(*p, test::bind(a, mem));
  ASSERT_FALSE(pr.ok);
  EXPECT_NE(pr.error.find("shared-memory race on buffer team_part"),
            std::string::npos)
      << pr.error;
}

TEST(RegionTeams, ShortConstantRowsTakeTeamsNotACtaPerRow) {
  auto m = parse(kShortRows);
  ASSERT_TRUE(m);
  const kir::Kernel &k = *m->kernels[0];
  PipelineResult r = runPipeline(k);
  ASSERT_TRUE(r.ok()) << (r.internalErrors.empty() ? "" : r.internalErrors[0]);
  ASSERT_TRUE(laneTeamForm(*r.program)) << phys::programToString(*r.program);
  for (int64_t rows : {0, 1, 7, 300, 1000}) {
    ArgSpec a = ArgSpec::view(ScalarKind::I32, {rows, 100});
    a.gen = [](std::mt19937_64 &rng) {
      int64_t v = static_cast<int64_t>(rng() % 61) - 30;
      return interp::Scalar::ofInt(ScalarKind::I32, std::abs(v) > 27 ? v : 0);
    };
    std::vector<ArgSpec> args = {ArgSpec::view(ScalarKind::I64, {rows}), a,
                                 ArgSpec::view(ScalarKind::I32, {rows})};
    // 40 members: teams of 4; 100: teams of 8.
    EXPECT_EQ(teamShift(*r.program, 0, args), 2);
    EXPECT_EQ(teamShift(*r.program, 1, args), 3);
    Memory init = makeMemory(args, rows + 1);
    Memory kirMem = init;
    interp::KIRRunResult kr = interp::runKernel(k, test::bind(args, kirMem));
    ASSERT_TRUE(kr.ok) << kr.error;
    Memory mem = init;
    interp::PhysRunResult pr = interp::runProgram(*r.program, test::bind(args, mem));
    ASSERT_TRUE(pr.ok) << pr.error;
    for (unsigned i = 0; i < args.size(); ++i)
      EXPECT_EQ(mem.views[i], kirMem.views[i]) << "arg " << i << " rows " << rows;
  }
  bool said = false;
  for (const phys::Remark &rm : r.remarks)
    said |= rm.text.find("cta-rows: not applied: region-teams maps these rows "
                         "(a constant member count below 256") !=
            std::string::npos;
  EXPECT_TRUE(said);
}

TEST(RegionTeams, RuntimeLengthRowsTakeTeamsAndALongRowAlternative) {
  // kShortRows with the member counts a.extent(1): teams sized at launch,
  // and the launch-time alternative (cta-rows) for rows of 256 or more.
  std::string text = kShortRows;
  for (const char *c : {"constant {value = 40} : i64", "constant {value = 100} : i64"})
    text.replace(text.find(c), std::string(c).size(), "extent %1 {dim = 1} : i64");
  auto m = parse(text);
  ASSERT_TRUE(m);
  const kir::Kernel &k = *m->kernels[0];
  PipelineResult r = runPipeline(k);
  ASSERT_TRUE(r.ok()) << (r.internalErrors.empty() ? "" : r.internalErrors[0]);
  ASSERT_TRUE(laneTeamForm(*r.program)) << phys::programToString(*r.program);
  ASSERT_TRUE(r.program->alternative);
  ASSERT_GE(r.program->alternativeWhen, 0);
  const phys::Program &alt = *r.program->alternative;
  EXPECT_TRUE(alt.longRows);
  EXPECT_FALSE(alt.alternative);
  for (const phys::Segment &s : alt.segments)
    EXPECT_FALSE(s.lanes) << "the alternative has no lane teams";
  bool said = false;
  for (const phys::Remark &rm : r.remarks)
    said |= rm.text.find("long rows (launch-time alternative): cta-rows: one "
                         "CTA per instance") != std::string::npos;
  EXPECT_TRUE(said);
  for (int64_t cols : {0, 1, 15, 16, 100, 255, 256, 1000})
    for (int64_t rows : {0, 3, 70}) {
      ArgSpec a = ArgSpec::view(ScalarKind::I32, {rows, cols});
      a.gen = [](std::mt19937_64 &rng) {
        int64_t v = static_cast<int64_t>(rng() % 61) - 30;
        return interp::Scalar::ofInt(ScalarKind::I32, std::abs(v) > 27 ? v : 0);
      };
      std::vector<ArgSpec> args = {ArgSpec::view(ScalarKind::I64, {rows}), a,
                                   ArgSpec::view(ScalarKind::I32, {rows})};
      Memory init = makeMemory(args, rows * 1000 + cols);
      std::string err;
      std::optional<interp::Scalar> when = interp::evalLaunchExpr(
          *r.program, r.program->alternativeWhen, test::bind(args, init), err);
      ASSERT_TRUE(when) << err;
      EXPECT_EQ(when->i != 0, cols >= 256) << cols;
      // At least 8 members per thread: 16 -> teams of 2, 100 -> 8, 1000 -> 64.
      int64_t want = 0;
      while (want < 8 && cols >= (int64_t(8) << (want + 1)))
        ++want;
      if (rows > 0)
        EXPECT_EQ(teamShift(*r.program, 0, args), want) << cols;
      Memory kirMem = init;
      interp::KIRRunResult kr = interp::runKernel(k, test::bind(args, kirMem));
      ASSERT_TRUE(kr.ok) << kr.error;
      for (const phys::Program *p :
           {static_cast<const phys::Program *>(r.program.get()), &alt}) {
        Memory mem = init;
        interp::PhysRunResult pr = interp::runProgram(*p, test::bind(args, mem));
        ASSERT_TRUE(pr.ok) << pr.error;
        for (unsigned i = 0; i < args.size(); ++i)
          EXPECT_EQ(mem.views[i], kirMem.views[i])
              << "arg " << i << " rows " << rows << " cols " << cols
              << (p == &alt ? " (alternative)" : "");
      }
    }
}
