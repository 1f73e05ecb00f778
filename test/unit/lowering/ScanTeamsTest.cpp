//===- ScanTeamsTest.cpp - scan-teams against the KIR interpreter ---------===//
//
// Row scans mapped by scan-teams into lane-team segments (Physical/Dispatch.h
// laneTeamSegment): the physical interpreter runs each CTA as fibers (real
// shuffles, the race check) in forward and shuffled program order, and the
// results must equal the KIR interpreter's exactly (integers), for row
// lengths that pick one thread per row, teams inside a warp and a whole
// warp. Two groups of one kernel: an exclusive reverse sum with an init
// that is not the identity, and a user combine that is not commutative
// (the first nonzero so far) over rows of per-row lengths, so the teams of
// one warp run different numbers of tiles. The verifier rejects the form
// when the tile loop's trip count is not the same on a whole warp or a
// store is not kept to the active teams.
//
//===----------------------------------------------------------------------===//

#include "DiffHarness.h"

#include "Physical/Dispatch.h"
#include "Physical/IR.h"
#include "Physical/Verifier.h"

using namespace intent;
using namespace intent::test;
using kir::ScalarKind;

namespace {

/// y(r, k) = 3 + x(r, k + 1) + ... (exclusive, reverse); f(r, k) = the
/// first nonzero of x(r, 0..k) for k < len[r].
const char *kRows =
    "kernel @rows (%0 y: view<i64, 2> w, %1 f: view<i32, 2> w, %2 x: view<const i32, 2> r, %3 len: view<const i32, 1> r) loc(4:25) {\n"
    "  %4 = extent %2 {dim = 0} : i64 loc(5:26)\n"
    "  parallel_for %4 loc(5:3) {\n"
    "  ^(%5: i64):\n"
    "    %6 = extent %2 {dim = 1} : i64 loc(6:20)\n"
    "    %7 = constant {value = 0} : i64 loc(6:20)\n"
    "    %8 = constant {value = 3} : i64 loc(6:31)\n"
    "    scan %7, %6, %8 {kind = \"exclusive\", direction = \"reverse\", combiner = \"plus\", reassociate = true} loc(6:5) {\n"
    "    ^(%9: i64):\n"
    "      %10 = load %2, %5, %9 : i32 loc(6:96)\n"
    "      %11 = cast %10 : i64 loc(6:96)\n"
    "      yield %11 loc(6:106)\n"
    "    } {\n"
    "    ^(%12: i64, %13: i64):\n"
    "      %14 = add %12, %13 : i64 loc(6:5)\n"
    "      yield %14 loc(6:5)\n"
    "    } {\n"
    "    ^(%15: i64, %16: i64):\n"
    "      store %0, %16, %5, %15 loc(7:47)\n"
    "      yield loc(7:52)\n"
    "    }\n"
    "    yield loc(8:3)\n"
    "  }\n"
    "  %17 = extent %2 {dim = 0} : i64 loc(9:26)\n"
    "  parallel_for %17 loc(9:3) {\n"
    "  ^(%18: i64):\n"
    "    %19 = load %3, %18 : i32 loc(10:18)\n"
    "    %20 = cast %19 : i64 loc(10:18)\n"
    "    %21 = constant {value = 0} : i64 loc(10:18)\n"
    "    %22 = constant {value = 0} : i32 loc(10:26)\n"
    "    scan %21, %20, %22 {kind = \"inclusive\", direction = \"forward\", combiner = \"user\", reassociate = true} loc(10:5) {\n"
    "    ^(%23: i64):\n"
    "      %24 = load %2, %18, %23 : i32 loc(10:114)\n"
    "      yield %24 loc(10:123)\n"
    "    } {\n"
    "    ^(%25: i32, %26: i32):\n"
    "      %27 = constant {value = 0} : i32 loc(10:78)\n"
    "      %28 = cmp %25, %27 {pred = \"ne\"} : bool loc(10:75)\n"
    "      %29 = if %28 : i32 loc(10:73) {\n"
    "        yield %25 loc(10:73)\n"
    "      } {\n"
    "        yield %26 loc(10:73)\n"
    "      }\n"
    "      yield %29 loc(10:89)\n"
    "    } {\n"
    "    ^(%30: i64, %31: i32):\n"
    "      store %1, %31, %18, %30 loc(11:47)\n"
    "      yield loc(11:52)\n"
    "    }\n"
    "    yield loc(12:3)\n"
    "  }\n"
    "  return loc(13:1)\n"
    "}\n";

std::unique_ptr<kir::Module> parse() {
  std::string err;
  auto m = kir::parseModule(kRows, "scan_teams", err);
  EXPECT_TRUE(m) << err;
  return m;
}

std::vector<ArgSpec> specs(int64_t rows, int64_t cols) {
  ArgSpec x = ArgSpec::view(ScalarKind::I32, {rows, cols});
  x.gen = [](std::mt19937_64 &rng) {
    // Sparse: the first nonzero lies deep in a row.
    int64_t v = static_cast<int64_t>(rng() % 61) - 30;
    return interp::Scalar::ofInt(ScalarKind::I32, std::abs(v) > 26 ? v : 0);
  };
  ArgSpec len = ArgSpec::view(ScalarKind::I32, {rows});
  len.gen = [cols](std::mt19937_64 &rng) {
    return interp::Scalar::ofInt(ScalarKind::I32,
                                 static_cast<int64_t>(rng() % (cols + 1)));
  };
  return {ArgSpec::view(ScalarKind::I64, {rows, cols}),
          ArgSpec::view(ScalarKind::I32, {rows, cols}), x, len};
}

/// The mapped program (teams of at most a warp; its long-row alternative
/// has teams up to the CTA), or with `wide` that alternative itself (the
/// pipeline with PipelineOptions::longRows).
std::unique_ptr<phys::Program> mapped(bool wide = false) {
  auto m = parse();
  PipelineOptions opts;
  opts.longRows = wide;
  PipelineResult r = runPipeline(*m->kernels[0], opts);
  EXPECT_TRUE(r.ok()) << (r.internalErrors.empty() ? "" : r.internalErrors[0]);
  return std::move(r.program);
}

/// Launch expression `e` of `p` for arguments `a`.
int64_t launchValue(const phys::Program &p, unsigned e,
                    const std::vector<ArgSpec> &a) {
  Memory mem = makeMemory(a, 1);
  std::string err;
  std::optional<interp::Scalar> v =
      interp::evalLaunchExpr(p, e, test::bind(a, mem), err);
  EXPECT_TRUE(v) << err;
  return v ? v->i : -1;
}

/// The team shift S segment `s` of `p` takes for arguments `a`.
int64_t teamShift(const phys::Program &p, unsigned s,
                  const std::vector<ArgSpec> &a) {
  return launchValue(p, p.segments[s].shift, a);
}

void expectBroken(const std::function<void(phys::Program &)> &edit,
                  const std::string &want, bool wide = false) {
  std::unique_ptr<phys::Program> p = mapped(wide);
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

TEST(ScanTeams, MatchesTheKIRInterpreterForEveryTeamSize) {
  auto m = parse();
  const kir::Kernel &k = *m->kernels[0];
  std::unique_ptr<phys::Program> p = mapped();
  ASSERT_TRUE(p);
  ASSERT_TRUE(p->alternative);
  ASSERT_GE(p->alternativeWhen, 0);
  const phys::Program &alt = *p->alternative;
  EXPECT_TRUE(alt.longRows);
  EXPECT_FALSE(alt.alternative);
  for (const phys::Program *q : std::initializer_list<const phys::Program *>{p.get(), &alt}) {
    ASSERT_EQ(q->segments.size(), 2u);
    for (const phys::Segment &s : q->segments)
      EXPECT_TRUE(s.team && s.lanes && s.spread == 256);
  }
  // (rows, columns) -> the team shift: at least 4 members per lane, at
  // most a warp in the program, up to the CTA in the alternative, which
  // runs when the rows give fewer than 2^18 threads as warp teams and a
  // wider team would do (teams of 2 and 8 warps at 300 and 1100 columns).
  struct Shape {
    int64_t rows, cols, shift, wideShift;
  };
  const Shape shapes[] = {{0, 5, 0, 0},     {5, 0, 0, 0},     {1, 1, 0, 0},
                          {300, 3, 0, 0},   {37, 9, 1, 1},    {20, 16, 2, 2},
                          {9, 100, 4, 4},   {6, 129, 5, 5},   {4, 300, 5, 6},
                          {3, 1000, 5, 7},  {2, 1100, 5, 8},  {3, 4099, 5, 8}};
  {
    // The condition on the launch expressions alone (no run).
    std::vector<ArgSpec> many = specs(8192, 1000), fewer = specs(8191, 1000),
                         narrow = specs(8191, 255);
    EXPECT_EQ(launchValue(*p, p->alternativeWhen, many), 0);
    EXPECT_EQ(launchValue(*p, p->alternativeWhen, fewer), 1);
    EXPECT_EQ(launchValue(*p, p->alternativeWhen, narrow), 0);
  }
  for (const Shape &s : shapes) {
    std::vector<ArgSpec> a = specs(s.rows, s.cols);
    for (unsigned g = 0; g < 2; ++g) {
      EXPECT_EQ(teamShift(*p, g, a), s.shift) << s.rows << " x " << s.cols;
      EXPECT_EQ(teamShift(alt, g, a), s.wideShift) << s.rows << " x " << s.cols;
    }
    EXPECT_EQ(launchValue(*p, p->alternativeWhen, a), s.wideShift > 5)
        << s.rows << " x " << s.cols;
    const uint64_t seed = s.rows * 31 + s.cols;
    Memory init = makeMemory(a, seed), kirMem = init;
    interp::KIRRunResult kr = interp::runKernel(k, test::bind(a, kirMem));
    EXPECT_TRUE(kr.ok) << kr.error;
    for (const phys::Program *q : std::initializer_list<const phys::Program *>{p.get(), &alt})
      for (int variant = 0; variant < 2; ++variant) {
        interp::PhysRunOptions opts;
        opts.order = variant ? interp::PhysRunOptions::Order::Shuffled
                             : interp::PhysRunOptions::Order::Forward;
        opts.seed = seed;
        Memory mem = init;
        interp::PhysRunResult pr =
            interp::runProgram(*q, test::bind(a, mem), opts);
        const char *which = q == &alt ? " (alternative)" : "";
        EXPECT_TRUE(pr.ok) << "variant " << variant << which << ": "
                           << pr.error;
        for (unsigned i = 0; i < a.size(); ++i)
          EXPECT_EQ(mem.views[i], kirMem.views[i])
              << "variant " << variant << which << " arg " << i << " shape "
              << s.rows << " x " << s.cols;
      }
  }
}

TEST(ScanTeams, VerifierWantsTheTripCountUniformOverTheWarp) {
  expectBroken(
      [](phys::Program &p) {
        // The trips of the lane's own row instead of the warp's busiest:
        // the shuffles in the tile loop would run on part of a warp.
        phys::Op *idx = nullptr;
        phys::walkMutable(*p.body, [&](phys::Op &o) {
          if (!idx && o.opcode == phys::Opcode::Shuffle &&
              o.strAttr("mode") == "idx")
            idx = &o;
        });
        ASSERT_TRUE(idx);
        phys::Value *own = idx->operands[0];
        phys::walkMutable(*p.body, [&](phys::Op &o) {
          for (phys::Value *&v : o.operands)
            if (v == idx->result(0))
              v = own;
        });
      },
      "[uniform]");
}

TEST(ScanTeams, VerifierWantsTheTripCountUniformOverTheCTA) {
  expectBroken(
      [](phys::Program &p) {
        // The trips of the lane's own row instead of the CTA's busiest: the
        // shuffles and barriers in the tile loop would run on part of a
        // warp or CTA. The CTA's is the last max over the warps' counts
        // loaded from shared memory; the lane's own is what the first xor
        // shuffle exchanges. (Group 1: its rows' lengths vary per lane.)
        phys::Op *seg = const_cast<phys::Op *>(phys::segmentOp(p, 1));
        ASSERT_TRUE(seg);
        phys::Op *xorOp = nullptr, *ctaMax = nullptr;
        phys::walkMutable(*seg->regions[0], [&](phys::Op &o) {
          if (!xorOp && o.opcode == phys::Opcode::Shuffle &&
              o.strAttr("mode") == "xor")
            xorOp = &o;
          if (xorOp && !ctaMax && o.opcode == phys::Opcode::Max)
            for (phys::Value *v : o.operands)
              if (v->def && v->def->opcode == phys::Opcode::Load)
                ctaMax = &o; // the first of the chain; follow it below
        });
        ASSERT_TRUE(xorOp && ctaMax);
        // Follow the chain of maxes to its end.
        for (bool grew = true; grew;) {
          grew = false;
          phys::walkMutable(*seg->regions[0], [&](phys::Op &o) {
            if (!grew && o.opcode == phys::Opcode::Max &&
                o.operands[0] == ctaMax->result(0)) {
              ctaMax = &o;
              grew = true;
            }
          });
        }
        phys::Value *own = xorOp->operands[0];
        phys::walkMutable(*p.body, [&](phys::Op &o) {
          for (phys::Value *&v : o.operands)
            if (v == ctaMax->result(0))
              v = own;
        });
      },
      "[uniform]", /*wide=*/true);
}

TEST(ScanTeams, VerifierWantsStoresGuardedByActive) {
  expectBroken(
      [](phys::Program &p) {
        ASSERT_TRUE(unguardViewStore(p, phys::segmentOp(p, 0)));
      },
      "active");
}

TEST(ScanTeams, ADroppedBarrierIsARace) {
  // Each CTA barrier (after the warps' trip counts, after a wide team's
  // warp totals, after they are read and before the next tile writes
  // them) is dropped in turn, in each group: on rows that take teams of 8
  // warps and run several tiles, the interpreter reports the shared-memory
  // race or the read of an element not yet written.
  auto m = parse();
  int tried = 0;
  for (int drop = 0;; ++drop) {
    std::unique_ptr<phys::Program> p = mapped(/*wide=*/true);
    ASSERT_TRUE(p);
    const bool dropped =
        eraseNthOp(*p, drop, [](const phys::Block &blk, size_t i) {
          const phys::Op &o = *blk.ops[i];
          return o.opcode == phys::Opcode::Barrier &&
                 o.strAttr("scope") == "cta";
        });
    if (!dropped)
      break;
    ++tried;
    std::vector<ArgSpec> a = specs(3, 4099);
    ASSERT_EQ(teamShift(*p, 0, a), 8);
    Memory mem = makeMemory(a, 11);
    interp::PhysRunResult pr = interp::runProgram(*p, test::bind(a, mem));
    EXPECT_FALSE(pr.ok) << "barrier " << drop;
  }
  EXPECT_EQ(tried, 6); // three per group
}
