//===- CtaRowsDiffTest.cpp - cta-rows' explicit form against KIR ----------===//
//
// Row kernels that cta-rows and cta-rows-ops lower into the cooperative
// primitives (the programs without register rows: user combines,
// reductions over a sub-range of the row): the physical interpreter runs each CTA as fibers
// (real barriers, shuffles, shared memory, the race check) and the results
// are compared with the KIR interpreter's serial ones, for row lengths 0,
// 1, 3, 255, 257 and 1031, rows that do not fit the staging budget, the
// scalar paths (misaligned views, the bounds-checked launch) and a shuffled
// program order. Float results of reassociated reductions match within a
// relative tolerance; integer ones and arg-reductions exactly. A program
// with a barrier dropped is reported as a shared-memory race. The shared
// buffer sized per launch prints, parses back and breaks [shared] when its
// expressions are wrong.
//
//===----------------------------------------------------------------------===//

#include "DiffHarness.h"

#include "Physical/IR.h"
#include "Physical/Parser.h"
#include "Physical/Verifier.h"

using namespace intent;
using namespace intent::test;
using kir::ScalarKind;

namespace {

/// The NaN-propagating max combine region of softmax.kir, args %A, %B.
std::string maxRegion(int a) {
  auto v = [&](int i) { return "%" + std::to_string(a + i); };
  return "    ^(" + v(0) + ": f32, " + v(1) + ": f32):\n"
         "      " + v(2) + " = math " + v(0) + " {fn = \"isnan\"} : bool\n"
         "      " + v(3) + " = if " + v(2) + " : f32 {\n"
         "        yield " + v(0) + "\n"
         "      } {\n"
         "        " + v(4) + " = math " + v(1) + " {fn = \"isnan\"} : bool\n"
         "        " + v(5) + " = if " + v(4) + " : f32 {\n"
         "          yield " + v(1) + "\n"
         "        } {\n"
         "          " + v(6) + " = cmp " + v(0) + ", " + v(1) + " {pred = \"lt\"} : bool\n"
         "          " + v(7) + " = select " + v(6) + ", " + v(1) + ", " + v(0) + " : f32\n"
         "          yield " + v(7) + "\n"
         "        }\n"
         "        yield " + v(5) + "\n"
         "      }\n"
         "      yield " + v(3) + "\n";
}

/// Softmax over columns [b, n) of each row, written for every column: two
/// reductions and a parallel_for read `in` (staged), none ranges over
/// [0, n) alone (no register rows).
std::string softmaxFrom() {
  return "kernel @softmax_from (%0 out: view<f32, 2> w, %1 in: view<const f32, 2> r, %2 b: i64) loc(1:1) {\n"
         "  %3 = extent %1 {dim = 0} : i64 loc(2:3)\n"
         "  parallel_for %3 loc(2:3) {\n"
         "  ^(%4: i64):\n"
         "    %5 = extent %1 {dim = 1} : i64 loc(3:5)\n"
         "    %6 = constant {value = -inf} : f32 loc(3:5)\n"
         "    %7 = reduce %2, %5, %6 {combiner = \"max\", reassociate = true} : f32 loc(3:15) {\n"
         "    ^(%8: i64):\n"
         "      %9 = load %1, %4, %8 : f32 loc(3:60)\n"
         "      yield %9\n"
         "    } {\n" +
         maxRegion(10) +
         "    }\n"
         "    %18 = constant {value = 0.0} : f32 loc(4:5)\n"
         "    %19 = reduce %2, %5, %18 {combiner = \"plus\", reassociate = true} : f32 loc(4:15) {\n"
         "    ^(%20: i64):\n"
         "      %21 = load %1, %4, %20 : f32 loc(4:60)\n"
         "      %22 = sub %21, %7 : f32 loc(4:60)\n"
         "      %23 = math %22 {fn = \"exp\"} : f32 loc(4:60)\n"
         "      yield %23\n"
         "    } {\n"
         "    ^(%24: f32, %25: f32):\n"
         "      %26 = add %24, %25 : f32\n"
         "      yield %26\n"
         "    }\n"
         "    parallel_for %5 loc(5:5) {\n"
         "    ^(%27: i64):\n"
         "      %28 = load %1, %4, %27 : f32 loc(5:50)\n"
         "      %29 = sub %28, %7 : f32 loc(5:50)\n"
         "      %30 = math %29 {fn = \"exp\"} : f32 loc(5:50)\n"
         "      %31 = div %30, %19 : f32 loc(5:50)\n"
         "      store %0, %31, %4, %27 loc(5:40)\n"
         "      yield\n"
         "    }\n"
         "    yield\n"
         "  }\n"
         "  return\n"
         "}\n";
}

/// Welford mean and M2 of every row with a user combine (associative only:
/// contiguous chunks in member order), stored by one thread.
std::string welfordRows() {
  return "kernel @welford_rows (%0 mean: view<f32, 1> w, %1 m2: view<f32, 1> w, %2 n: view<i64, 1> w, %3 x: view<const f32, 2> r) loc(1:1) {\n"
         "  %4 = extent %3 {dim = 0} : i64 loc(2:3)\n"
         "  parallel_for %4 loc(2:3) {\n"
         "  ^(%5: i64):\n"
         "    %6 = constant {value = 0} : i64 loc(3:3)\n"
         "    %7 = extent %3 {dim = 1} : i64 loc(3:3)\n"
         "    %8 = constant {value = 0.0} : f32 loc(3:3)\n"
         "    %9, %10, %11 = reduce %6, %7, %6, %8, %8 {combiner = \"user\", reassociate = true} : i64, f32, f32 loc(3:12) {\n"
         "    ^(%12: i64):\n"
         "      %13 = constant {value = 1} : i64 loc(3:40)\n"
         "      %14 = load %3, %5, %12 : f32 loc(3:45)\n"
         "      %15 = constant {value = 0.0} : f32 loc(3:50)\n"
         "      yield %13, %14, %15\n"
         "    } {\n"
         "    ^(%16: i64, %17: f32, %18: f32, %19: i64, %20: f32, %21: f32):\n"
         "      %22 = add %16, %19 : i64 loc(4:5)\n"
         "      %23 = constant {value = 0} : i64 loc(4:5)\n"
         "      %24 = cmp %22, %23 {pred = \"eq\"} : bool loc(4:5)\n"
         "      %25, %26 = if %24 : f32, f32 loc(4:5) {\n"
         "        yield %17, %18\n"
         "      } {\n"
         "        %27 = sub %20, %17 : f32 loc(5:5)\n"
         "        %28 = cast %19 : f32 loc(5:5)\n"
         "        %29 = cast %22 : f32 loc(5:5)\n"
         "        %30 = mul %27, %28 : f32 loc(5:5)\n"
         "        %31 = div %30, %29 : f32 loc(5:5)\n"
         "        %32 = add %17, %31 : f32 loc(5:5)\n"
         "        %33 = cast %16 : f32 loc(6:5)\n"
         "        %34 = mul %27, %27 : f32 loc(6:5)\n"
         "        %35 = mul %34, %33 : f32 loc(6:5)\n"
         "        %36 = mul %35, %28 : f32 loc(6:5)\n"
         "        %37 = div %36, %29 : f32 loc(6:5)\n"
         "        %38 = add %18, %21 : f32 loc(6:5)\n"
         "        %39 = add %38, %37 : f32 loc(6:5)\n"
         "        yield %32, %39\n"
         "      }\n"
         "      yield %22, %25, %26\n"
         "    }\n"
         "    store %0, %10, %5 loc(7:3)\n"
         "    store %1, %11, %5 loc(8:3)\n"
         "    store %2, %9, %5 loc(9:3)\n"
         "    yield\n"
         "  }\n"
         "  return\n"
         "}\n";
}

/// The first and last element of every row through an associative but not
/// commutative user combine (count, first, last), exact: any reordering of
/// members, chunks, lanes or warps shows.
std::string firstLastRows() {
  return "kernel @first_last (%0 first: view<f32, 1> w, %1 last: view<f32, 1> w, %2 x: view<const f32, 2> r) loc(1:1) {\n"
         "  %3 = extent %2 {dim = 0} : i64 loc(2:3)\n"
         "  parallel_for %3 loc(2:3) {\n"
         "  ^(%4: i64):\n"
         "    %5 = constant {value = 0} : i64 loc(3:3)\n"
         "    %6 = extent %2 {dim = 1} : i64 loc(3:3)\n"
         "    %7 = constant {value = 0.0} : f32 loc(3:3)\n"
         "    %8, %9, %10 = reduce %5, %6, %5, %7, %7 {combiner = \"user\", reassociate = true} : i64, f32, f32 loc(3:12) {\n"
         "    ^(%11: i64):\n"
         "      %12 = constant {value = 1} : i64 loc(3:40)\n"
         "      %13 = load %2, %4, %11 : f32 loc(3:45)\n"
         "      yield %12, %13, %13\n"
         "    } {\n"
         "    ^(%14: i64, %15: f32, %16: f32, %17: i64, %18: f32, %19: f32):\n"
         "      %20 = add %14, %17 : i64 loc(4:5)\n"
         "      %21 = constant {value = 0} : i64 loc(4:5)\n"
         "      %22 = cmp %14, %21 {pred = \"gt\"} : bool loc(4:5)\n"
         "      %23 = select %22, %15, %18 : f32 loc(4:5)\n"
         "      %24 = cmp %17, %21 {pred = \"gt\"} : bool loc(4:5)\n"
         "      %25 = select %24, %19, %16 : f32 loc(4:5)\n"
         "      yield %20, %23, %25\n"
         "    }\n"
         "    store %0, %9, %4 loc(5:3)\n"
         "    store %1, %10, %4 loc(6:3)\n"
         "    yield\n"
         "  }\n"
         "  return\n"
         "}\n";
}

/// An arg-reduction over columns [b, n) of each row (`rules`: which, tie,
/// nan attributes; `t` the element type).
std::string argFrom(const std::string &rules, const std::string &t) {
  return "kernel @arg_from (%0 v: view<" + t + ", 1> w, %1 pos: view<i64, 1> w, %2 x: view<const " + t + ", 2> r, %3 b: i64) loc(1:1) {\n"
         "  %4 = extent %2 {dim = 0} : i64 loc(2:3)\n"
         "  parallel_for %4 loc(2:3) {\n"
         "  ^(%5: i64):\n"
         "    %6 = extent %2 {dim = 1} : i64 loc(3:5)\n"
         "    %7, %8 = argreduce %3, %6 {" + rules + "} : " + t + ", i64 loc(3:14) {\n"
         "    ^(%9: i64):\n"
         "      %10 = load %2, %5, %9 : " + t + " loc(3:50)\n"
         "      yield %10\n"
         "    }\n"
         "    store %0, %7, %5 loc(4:5)\n"
         "    store %1, %8, %5 loc(5:5)\n"
         "    yield\n"
         "  }\n"
         "  return\n"
         "}\n";
}

/// The default pipeline with cta-rows-ops after cta-rows (not a default
/// pass: docs/passes.md §3), building the long-row alternative
/// (Program::longRows): region-teams takes these kernels' runtime-length
/// rows otherwise, and cta-rows runs them when they are long.
PipelineOptions withRowOps() {
  PipelineOptions o;
  o.longRows = true;
  o.passes = std::vector<std::string>{"grid-reduce", "cta-rows", "cta-rows-ops",
                                      "row-cache",   "widen",    "atomic-scopes"};
  return o;
}

std::unique_ptr<kir::Module> parse(const std::string &text) {
  std::string err;
  auto m = kir::parseModule(text, "cta_rows_diff", err);
  EXPECT_TRUE(m) << err;
  if (m) {
    std::vector<std::string> errs;
    EXPECT_TRUE(kir::verifyKernel(*m->kernels[0], errs))
        << (errs.empty() ? "" : errs[0]);
  }
  return m;
}

/// Whether the program is cta-rows' explicit form: a cta program with
/// thread ids and barriers and no `dist` / `staged` annotations left.
bool explicitForm(const phys::Program &p) {
  bool tid = false, barrier = false, annotated = false;
  phys::walk(*p.body, [&](const phys::Op &o) {
    tid |= o.opcode == phys::Opcode::ThreadId;
    barrier |= o.opcode == phys::Opcode::Barrier;
    annotated |= o.attr("dist") || o.attr("staged") || o.attr("reg");
  });
  return p.scope == phys::ExecScope::CTA && tid && barrier && !annotated &&
         p.stagedParams.empty() && !p.regMaxK;
}

/// Runs `k` through the pipeline, checks the explicit form, and compares
/// the physical interpreter (forward; shuffled; misaligned views; the
/// checked launch) with the KIR interpreter on the same inputs.
void compareProgram(const phys::Program &p, const kir::Kernel &k,
                    const std::vector<ArgSpec> &specs, uint64_t seed,
                    double tol) {
  Memory init = makeMemory(specs, seed);
  Memory kirMem = init;
  interp::KIRRunResult kr = interp::runKernel(k, bind(specs, kirMem));
  ASSERT_TRUE(kr.ok) << kr.error;
  for (int variant = 0; variant < 4; ++variant) {
    interp::PhysRunOptions opts;
    opts.order = variant == 1 ? interp::PhysRunOptions::Order::Shuffled
                              : interp::PhysRunOptions::Order::Forward;
    opts.seed = seed;
    opts.blockSize = variant == 1 ? 3 : 32;
    opts.misalignedViews = variant == 2;
    opts.checkedLaunch = variant == 3;
    Memory mem = init;
    interp::PhysRunResult pr = interp::runProgram(p, bind(specs, mem), opts);
    ASSERT_TRUE(pr.ok) << k.name << " variant " << variant << ": " << pr.error;
    for (unsigned i = 0; i < specs.size(); ++i) {
      if (!specs[i].isView)
        continue;
      std::string d = compareView(specs[i], mem.views[i], kirMem.views[i], tol);
      EXPECT_TRUE(d.empty()) << k.name << " variant " << variant << " arg "
                             << i << " (seed " << seed << "): " << d;
    }
  }
}

void compareRuns(const kir::Kernel &k, const std::vector<ArgSpec> &specs,
                 uint64_t seed, double tol) {
  PipelineResult r = runPipeline(k, withRowOps());
  ASSERT_TRUE(r.ok()) << (r.internalErrors.empty() ? "" : r.internalErrors[0]);
  ASSERT_TRUE(explicitForm(*r.program)) << phys::programToString(*r.program);
  compareProgram(*r.program, k, specs, seed, tol);
}

/// The row lengths every kernel is run with (0: empty rows).
const int64_t kLengths[] = {0, 1, 3, 255, 257, 1031};

/// Values with ties and NaNs for arg-reductions.
std::function<interp::Scalar(std::mt19937_64 &)> specials(ScalarKind k,
                                                          bool nan) {
  return [k, nan](std::mt19937_64 &rng) {
    static const double pool[] = {-2, -1, 0, 1, 2, 3, 3, -3, 1.5,
                                  std::nan("")};
    return interp::Scalar::ofFloat(k, pool[rng() % (nan ? 10 : 9)]);
  };
}

} // namespace

TEST(CtaRowsDiff, SoftmaxOverASubRangeWithStagedRows) {
  auto m = parse(softmaxFrom());
  ASSERT_TRUE(m);
  for (int64_t n : kLengths)
    for (int64_t b : {int64_t(0), int64_t(1)}) {
      if (b > n)
        continue;
      std::vector<ArgSpec> a = {ArgSpec::view(ScalarKind::F32, {3, n}),
                                ArgSpec::view(ScalarKind::F32, {3, n}),
                                ArgSpec::i64(b)};
      compareRuns(*m->kernels[0], a, n * 7 + b, 1e-5);
    }
}

TEST(CtaRowsDiff, RowsBeyondTheStagingBudgetReadGlobalMemory) {
  // 30000 f32 take 120000 bytes, more than the staging budget: the staged
  // buffer is sized 0 for this launch and the loads read the view.
  auto m = parse(softmaxFrom());
  ASSERT_TRUE(m);
  std::vector<ArgSpec> a = {ArgSpec::view(ScalarKind::F32, {1, 30000}),
                            ArgSpec::view(ScalarKind::F32, {1, 30000}),
                            ArgSpec::i64(2)};
  compareRuns(*m->kernels[0], a, 11, 1e-5);
}

TEST(CtaRowsDiff, UserCombineInContiguousChunks) {
  auto m = parse(welfordRows());
  ASSERT_TRUE(m);
  for (int64_t n : kLengths) {
    std::vector<ArgSpec> a = {ArgSpec::view(ScalarKind::F32, {4}),
                              ArgSpec::view(ScalarKind::F32, {4}),
                              ArgSpec::view(ScalarKind::I64, {4}),
                              ArgSpec::view(ScalarKind::F32, {4, n})};
    compareRuns(*m->kernels[0], a, n + 3, 1e-4);
  }
}

TEST(CtaRowsDiff, UserCombineKeepsMemberOrder) {
  auto m = parse(firstLastRows());
  ASSERT_TRUE(m);
  for (int64_t n : kLengths) {
    std::vector<ArgSpec> a = {ArgSpec::view(ScalarKind::F32, {3}),
                              ArgSpec::view(ScalarKind::F32, {3}),
                              ArgSpec::view(ScalarKind::F32, {3, n})};
    compareRuns(*m->kernels[0], a, n + 9, 0);
  }
}

TEST(CtaRowsDiff, ArgReductionsWithTiesAndNaNs) {
  struct Case {
    const char *rules;
    const char *type;
    ScalarKind kind;
    bool nan;
  } cases[] = {
      {"which = \"max\", tie = \"first\", nan = \"propagate\"", "f32",
       ScalarKind::F32, true},
      {"which = \"min\", tie = \"last\", nan = \"ignore\"", "f64",
       ScalarKind::F64, true},
      {"which = \"max\", tie = \"last\", nan = \"propagate\"", "f32",
       ScalarKind::F32, false},
  };
  for (const Case &c : cases) {
    auto m = parse(argFrom(c.rules, c.type));
    ASSERT_TRUE(m);
    for (int64_t n : kLengths) {
      ArgSpec x = ArgSpec::view(c.kind, {3, n});
      x.gen = specials(c.kind, c.nan);
      std::vector<ArgSpec> a = {ArgSpec::view(c.kind, {3}),
                                ArgSpec::view(ScalarKind::I64, {3}), x,
                                ArgSpec::i64(n > 1 ? 1 : 0)};
      compareRuns(*m->kernels[0], a, n + 5, 0);
    }
  }
}

TEST(CtaRowsDiff, DroppedStagingBarrierIsASharedMemoryRace) {
  auto m = parse(softmaxFrom());
  ASSERT_TRUE(m);
  PipelineResult r = runPipeline(*m->kernels[0], withRowOps());
  ASSERT_TRUE(r.ok());
  // The staging copy ends with a barrier (the last op of the `if` that
  // stages); without it a thread reads an element another thread writes.
  phys::Op *stagingIf = nullptr;
  phys::walkMutable(*r.program->body, [&](phys::Op &o) {
    if (stagingIf || o.opcode != phys::Opcode::If)
      return;
    auto &ops = o.regions[0]->block.ops;
    if (ops.size() >= 2 && ops[ops.size() - 2]->opcode == phys::Opcode::Barrier &&
        ops.front()->opcode == phys::Opcode::Barrier)
      stagingIf = &o;
  });
  ASSERT_TRUE(stagingIf);
  auto &ops = stagingIf->regions[0]->block.ops;
  ops.erase(ops.end() - 2);
  std::vector<ArgSpec> a = {ArgSpec::view(ScalarKind::F32, {2, 300}),
                            ArgSpec::view(ScalarKind::F32, {2, 300}),
                            ArgSpec::i64(0)};
  Memory mem = makeMemory(a, 3);
  interp::PhysRunResult pr = interp::runProgram(*r.program, test::bind(a, mem));
  ASSERT_FALSE(pr.ok);
  EXPECT_NE(pr.error.find("shared-memory race on buffer rows_stage_in"),
            std::string::npos)
      << pr.error;
}

TEST(CtaRowsDiff, BufferSizedPerLaunchRoundTripsAndIsChecked) {
  auto m = parse(softmaxFrom());
  ASSERT_TRUE(m);
  PipelineResult r = runPipeline(*m->kernels[0], withRowOps());
  ASSERT_TRUE(r.ok());
  phys::Program &p = *r.program;
  ASSERT_GE(p.sharedBytesExpr, 0);
  const phys::Buffer *staged = nullptr;
  for (const phys::Buffer &b : p.buffers)
    if (b.sizeExpr >= 0)
      staged = &b;
  ASSERT_TRUE(staged);
  EXPECT_EQ(staged->name, "rows_stage_in");
  EXPECT_GE(staged->sharedOffsetExpr, 0);
  // The staged row follows the static scratch.
  for (const phys::Buffer &b : p.buffers)
    if (b.scope == phys::BufferScope::CTAShared && b.sizeExpr < 0)
      EXPECT_LE(b.sharedOffset + b.size * 4, p.sharedBytes);
  std::string text = phys::programToString(p);
  EXPECT_NE(text.find("dynamic e"), std::string::npos);
  EXPECT_NE(text.find("rows_stage_in: cta_shared f32 size e"), std::string::npos);
  std::vector<std::unique_ptr<phys::Program>> parsed;
  std::string err;
  ASSERT_TRUE(phys::parsePrograms(text, "roundtrip", parsed, err)) << err;
  ASSERT_EQ(parsed.size(), 1u);
  std::vector<std::string> errors;
  EXPECT_TRUE(phys::verifyProgram(*parsed[0], nullptr, errors))
      << (errors.empty() ? "" : errors[0]);
  EXPECT_EQ(phys::programToString(*parsed[0]), text);
  // The launch sizes it: 0 elements when the rows do not fit, the row's
  // length otherwise (the interpreter's and the wrapper's value).
  std::vector<ArgSpec> small = {ArgSpec::view(ScalarKind::F32, {2, 10}),
                                ArgSpec::view(ScalarKind::F32, {2, 10}),
                                ArgSpec::i64(0)};
  std::vector<ArgSpec> large = {ArgSpec::view(ScalarKind::F32, {2, 40000}),
                                ArgSpec::view(ScalarKind::F32, {2, 40000}),
                                ArgSpec::i64(0)};
  for (auto *specs : {&small, &large}) {
    Memory mem = makeMemory(*specs, 1);
    std::optional<interp::Scalar> n = interp::evalLaunchExpr(
        p, staged->sizeExpr, test::bind(*specs, mem), err);
    ASSERT_TRUE(n) << err;
    EXPECT_EQ(n->i, specs == &small ? 10 : 0);
  }
  auto broken = [&](const std::function<void(phys::Program &)> &edit,
                    const std::string &want) {
    std::vector<std::unique_ptr<phys::Program>> copy;
    ASSERT_TRUE(phys::parsePrograms(text, "broken", copy, err)) << err;
    edit(*copy[0]);
    std::vector<std::string> errs;
    EXPECT_FALSE(phys::verifyProgram(*copy[0], nullptr, errs));
    bool found = false;
    for (const std::string &e : errs)
      found |= e.find(want) != std::string::npos;
    EXPECT_TRUE(found) << want << " not in " << (errs.empty() ? "" : errs[0]);
  };
  const unsigned id = staged->id;
  broken([&](phys::Program &q) { q.sharedBytesExpr = -1; },
         "[shared] cta_shared buffer " + std::to_string(id) +
             " (rows_stage_in) is sized per launch, but the program has no "
             "dynamic shared bytes");
  broken(
      [&](phys::Program &q) {
        // A bool expression (the "fits" flag) is no size.
        for (unsigned e = 0; e < q.exprs.size(); ++e)
          if (q.exprs[e].type == ScalarKind::Bool)
            q.buffers[id].sizeExpr = static_cast<int>(e);
      },
      "is sized per launch: it needs i64 launch expressions");
  broken([&](phys::Program &q) { q.buffers[id].sharedOffset = 64; },
         "is sized per launch: it needs i64 launch expressions");
  // Placed over the static buffers (the multi-group layout bug: a second
  // segment's static buffers laid out after the first one's dynamic row).
  broken(
      [&](phys::Program &q) {
        q.buffers[id].sharedOffsetExpr = static_cast<int>(q.constExpr(16));
      },
      "is sized per launch at offset 16, inside the");
}

TEST(CtaRowsDiff, InTheDefaultPipeline) {
  // The default pipeline writes programs without register rows as ops
  // (cpu mode runs their serial twin); register-row programs stay annotated.
  auto m = parse(welfordRows());
  ASSERT_TRUE(m);
  PipelineResult r = runPipeline(*m->kernels[0]);
  ASSERT_TRUE(r.ok());
  // Rows of a runtime length: teams (region-teams) for short rows, and
  // cta-rows in the launch-time alternative for long ones.
  ASSERT_TRUE(r.program->alternative);
  EXPECT_GE(r.program->alternativeWhen, 0);
  const phys::Program &longRows = *r.program->alternative;
  // Few long rows: the long-row alternative's own alternative splits each
  // row over a group of CTAs, and asks for none itself.
  ASSERT_TRUE(longRows.alternative);
  EXPECT_TRUE(longRows.alternativeKind ==
              phys::Program::AlternativeKind::SplitRows);
  EXPECT_TRUE(longRows.alternative->splitRows);
  EXPECT_FALSE(longRows.alternative->alternative);
  EXPECT_TRUE(explicitForm(longRows));
  bool dist = false;
  phys::walk(*longRows.body,
             [&](const phys::Op &o) { dist |= o.attr("dist") != nullptr; });
  EXPECT_FALSE(dist);
  EXPECT_TRUE(longRows.serialTwin) << "cpu mode's serial form";
  EXPECT_TRUE(r.program->serialTwin) << "cpu mode's serial form";
  auto soft = loadKernel("softmax.kir");
  ASSERT_TRUE(soft);
  PipelineResult s = runPipeline(*soft->kernels[0]);
  ASSERT_TRUE(s.ok());
  EXPECT_GT(s.program->regMaxK, 0);
  EXPECT_FALSE(explicitForm(*s.program));
}

namespace {

/// softmaxFrom's row group, then two groups that are not row kernels: y =
/// 3 x + y over a 1-D view (spread over the threads of its programs and
/// widened) and sums[i] = c(i, 0) + c(i, 1) + i (spread); and a second row
/// group, welford-free: the row sums of c.
std::string rowsAndOthers() {
  std::string s = softmaxFrom();
  s.replace(s.find("@softmax_from"), 13, "@rows_and_others");
  s.replace(s.find("%2 b: i64)"), 10,
            "%2 b: i64, %100 y: view<i32, 1> rw, %101 x: view<const i32, 1> r, "
            "%102 s: view<i64, 1> w, %103 c: view<const i32, 2> r, "
            "%104 t: view<i64, 1> w)");
  s.replace(s.rfind("  return\n"), 9,
            "  %200 = extent %100 {dim = 0} : i64 loc(7:3)\n"
            "  parallel_for %200 loc(7:3) {\n"
            "  ^(%201: i64):\n"
            "    %202 = constant {value = 3} : i32 loc(7:40)\n"
            "    %203 = load %101, %201 : i32 loc(7:41)\n"
            "    %204 = mul %202, %203 : i32 loc(7:42)\n"
            "    %205 = load %100, %201 : i32 loc(7:43)\n"
            "    %206 = add %204, %205 : i32 loc(7:44)\n"
            "    store %100, %206, %201 loc(7:45)\n"
            "    yield\n"
            "  }\n"
            "  %210 = extent %103 {dim = 0} : i64 loc(8:3)\n"
            "  parallel_for %210 loc(8:3) {\n"
            "  ^(%211: i64):\n"
            "    %212 = constant {value = 0} : i64 loc(8:40)\n"
            "    %213 = constant {value = 1} : i64 loc(8:40)\n"
            "    %214 = load %103, %211, %212 : i32 loc(8:41)\n"
            "    %215 = load %103, %211, %213 : i32 loc(8:42)\n"
            "    %216 = add %214, %215 : i32 loc(8:43)\n"
            "    %217 = cast %216 : i64 loc(8:43)\n"
            "    %218 = add %217, %211 : i64 loc(8:43)\n"
            "    store %102, %218, %211 loc(8:44)\n"
            "    yield\n"
            "  }\n"
            "  parallel_for %210 loc(9:3) {\n"
            "  ^(%221: i64):\n"
            "    %222 = extent %103 {dim = 1} : i64 loc(9:20)\n"
            "    %223 = constant {value = 0} : i64 loc(9:20)\n"
            "    %224 = reduce %223, %222, %223 {combiner = \"plus\", reassociate = true} : i64 loc(9:15) {\n"
            "    ^(%225: i64):\n"
            "      %226 = load %103, %221, %225 : i32 loc(9:60)\n"
            "      %227 = cast %226 : i64 loc(9:60)\n"
            "      yield %227\n"
            "    } {\n"
            "    ^(%228: i64, %229: i64):\n"
            "      %230 = add %228, %229 : i64\n"
            "      yield %230\n"
            "    }\n"
            "    store %104, %224, %221 loc(9:13)\n"
            "    yield\n"
            "  }\n"
            "  return\n");
  return s;
}

} // namespace

namespace {

/// The split-row alternative's program of `k` (PipelineOptions::splitRows,
/// as the pipeline builds it for a long-row program).
std::unique_ptr<phys::Program> splitProgram(const kir::Kernel &k) {
  PipelineOptions o = withRowOps();
  o.splitRows = true;
  PipelineResult r = runPipeline(k, o);
  EXPECT_TRUE(r.ok()) << (r.internalErrors.empty() ? "" : r.internalErrors[0]);
  return r.ok() ? std::move(r.program) : nullptr;
}

} // namespace

TEST(CtaRowsDiff, SplitRowsRunEachRowOnAGroupOfCtas) {
  // The split form: one team segment of width 1 (rows x parts programs,
  // the parts a launch expression of sm_count), 1024-thread CTAs, nothing
  // staged, every phase barrier a group barrier, no alternative of its own.
  // The interpreter (like cpu mode) has one multiprocessor, so each row
  // gets one CTA there: it checks the decoding, the leader stores, the
  // group barriers of one CTA and the one-CTA reduction path against the
  // KIR interpreter; the GPU runs groups of several (test/exec/split_rows).
  for (const std::string &text :
       {softmaxFrom(), welfordRows(), firstLastRows(),
        argFrom("which = \"max\", tie = \"first\", nan = \"ignore\"", "f32")}) {
    auto m = parse(text);
    ASSERT_TRUE(m);
    std::unique_ptr<phys::Program> p = splitProgram(*m->kernels[0]);
    ASSERT_TRUE(p);
    EXPECT_TRUE(explicitForm(*p)) << phys::programToString(*p);
    ASSERT_EQ(p->segments.size(), 1u);
    EXPECT_TRUE(p->segments[0].team);
    EXPECT_EQ(p->segments[0].spread, 1);
    EXPECT_EQ(p->ctaThreads, 1024);
    EXPECT_FALSE(p->alternative);
    bool sms = false;
    for (const phys::LaunchExpr &e : p->exprs)
      sms |= e.kind == phys::LaunchExpr::Kind::SmCount;
    EXPECT_TRUE(sms) << "the parts depend on the multiprocessors";
    unsigned group = 0, other = 0;
    phys::walk(*p->body, [&](const phys::Op &o) {
      if (o.opcode != phys::Opcode::Barrier)
        return;
      (o.strAttr("scope") == "group" ? group : other) += 1;
    });
    EXPECT_GT(group, 0u) << m->kernels[0]->name;
    const std::string &name = m->kernels[0]->name;
    for (int64_t n : {int64_t(0), int64_t(1), int64_t(257), int64_t(1031)}) {
      std::vector<ArgSpec> a;
      if (name == "softmax_from")
        a = {ArgSpec::view(ScalarKind::F32, {3, n}),
             ArgSpec::view(ScalarKind::F32, {3, n}), ArgSpec::i64(n ? 1 : 0)};
      else if (name == "welford_rows")
        a = {ArgSpec::view(ScalarKind::F32, {2}),
             ArgSpec::view(ScalarKind::F32, {2}),
             ArgSpec::view(ScalarKind::I64, {2}),
             ArgSpec::view(ScalarKind::F32, {2, n})};
      else if (name == "first_last")
        a = {ArgSpec::view(ScalarKind::F32, {3}),
             ArgSpec::view(ScalarKind::F32, {3}),
             ArgSpec::view(ScalarKind::F32, {3, n})};
      else {
        ArgSpec x = ArgSpec::view(ScalarKind::F32, {2, n});
        x.gen = specials(ScalarKind::F32, true);
        a = {ArgSpec::view(ScalarKind::F32, {2}),
             ArgSpec::view(ScalarKind::I64, {2}), x, ArgSpec::i64(0)};
      }
      compareProgram(*p, *m->kernels[0], a, n + 17, 1e-4);
    }
  }
}

TEST(CtaRowsDiff, RowGroupsNextToOtherGroups) {
  // Two row groups take a CTA per instance; the pointwise groups keep one
  // instance per thread, spread over the 256 threads of their programs (the
  // 1-D one also widened), in the one launch. That is the long-row
  // alternative: group 3 (only a reduction per row, of a runtime length)
  // runs on lane teams in the program itself.
  auto m = parse(rowsAndOthers());
  ASSERT_TRUE(m);
  PipelineResult r = runPipeline(*m->kernels[0]);
  ASSERT_TRUE(r.ok()) << (r.internalErrors.empty() ? "" : r.internalErrors[0]);
  ASSERT_EQ(r.program->segments.size(), 4u);
  EXPECT_TRUE(r.program->segments[3].lanes);
  ASSERT_TRUE(r.program->alternative);
  const phys::Program &p = *r.program->alternative;
  ASSERT_EQ(p.segments.size(), 4u);
  EXPECT_EQ(p.scope, phys::ExecScope::CTA);
  EXPECT_EQ(p.segments[0].spread, 0);
  EXPECT_EQ(p.segments[1].spread, 256);
  EXPECT_EQ(p.segments[2].spread, 256);
  EXPECT_EQ(p.segments[3].spread, 0);
  EXPECT_TRUE(explicitForm(p)) << phys::programToString(p);
  bool widened = false;
  phys::walk(*p.body, [&](const phys::Op &o) {
    widened |= o.opcode == phys::Opcode::VectorLoad;
  });
  EXPECT_TRUE(widened);
  // Each row group has its own buffers.
  unsigned warp = 0;
  for (const phys::Buffer &b : p.buffers)
    warp += b.name.rfind("rows_warp", 0) == 0;
  EXPECT_GE(warp, 2u);
  // The staged row (sized per launch) lies behind every static buffer,
  // also those of the row group lowered after it.
  for (const phys::Buffer &b : p.buffers)
    if (b.sizeExpr >= 0) {
      ASSERT_GE(b.sharedOffsetExpr, 0);
      const phys::LaunchExpr &at = p.exprs[b.sharedOffsetExpr];
      ASSERT_EQ(at.kind, phys::LaunchExpr::Kind::Const);
      EXPECT_GE(at.value, p.sharedBytes);
    }
  const int64_t shapes[][4] = {
      {0, 0, 0, 0}, {1, 1, 1, 1}, {3, 257, 1000, 5}, {2, 31, 1, 300},
      {5, 1031, 4099, 2}};
  for (const auto &sh : shapes) {
    std::vector<ArgSpec> a = {
        ArgSpec::view(ScalarKind::F32, {sh[0], sh[1]}),
        ArgSpec::view(ScalarKind::F32, {sh[0], sh[1]}),
        ArgSpec::i64(sh[1] > 1 ? 1 : 0),
        ArgSpec::view(ScalarKind::I32, {sh[2]}),
        ArgSpec::view(ScalarKind::I32, {sh[2]}),
        ArgSpec::view(ScalarKind::I64, {sh[3]}),
        ArgSpec::view(ScalarKind::I32, {sh[3], std::max<int64_t>(sh[1], 2)}),
        ArgSpec::view(ScalarKind::I64, {sh[3]})};
    compareRuns(*m->kernels[0], a, sh[0] * 31 + sh[2], 1e-5);
    compareProgram(*r.program, *m->kernels[0], a, sh[0] * 31 + sh[2], 1e-5);
  }
}

namespace {

/// softmaxFrom over the last axis of rank-3 views: the instance is (b, r)
/// and its row in(b, r, :) (staged: the distributed ops start at column b0,
/// so no register rows).
std::string softmaxFrom3() {
  std::string s = softmaxFrom();
  auto all = [&](const std::string &from, const std::string &to) {
    for (size_t at = s.find(from); at != std::string::npos;
         at = s.find(from, at + to.size()))
      s.replace(at, from.size(), to);
  };
  all("@softmax_from", "@softmax_from3");
  all("view<f32, 2>", "view<f32, 3>");
  all("view<const f32, 2>", "view<const f32, 3>");
  all("  %3 = extent %1 {dim = 0} : i64 loc(2:3)\n  parallel_for %3 loc(2:3) {\n  ^(%4: i64):\n",
      "  %3 = extent %1 {dim = 0} : i64 loc(2:3)\n  %90 = extent %1 {dim = 1} : i64 loc(2:3)\n"
      "  parallel_for %3, %90 loc(2:3) {\n  ^(%91: i64, %4: i64):\n");
  all("{dim = 1} : i64 loc(3:5)", "{dim = 2} : i64 loc(3:5)");
  all("load %1, %4,", "load %1, %91, %4,");
  all("store %0, %31, %4,", "store %0, %31, %91, %4,");
  return s;
}

} // namespace

TEST(CtaRowsDiff, RowsOfRank3ViewsAreStaged) {
  // The row of instance (b, r) is in(b, r, :): staged (its start is
  // b * stride(0) + r * stride(1)) and read back by the three passes.
  auto m = parse(softmaxFrom3());
  ASSERT_TRUE(m);
  PipelineResult r = runPipeline(*m->kernels[0], withRowOps());
  ASSERT_TRUE(r.ok()) << (r.internalErrors.empty() ? "" : r.internalErrors[0]);
  bool staged = false;
  for (const phys::Buffer &b : r.program->buffers)
    staged |= b.name == "rows_stage_in";
  EXPECT_TRUE(staged) << phys::programToString(*r.program);
  for (int64_t n : {int64_t(0), int64_t(1), int64_t(257), int64_t(1031)})
    for (int64_t b : {int64_t(0), int64_t(1)}) {
      if (b > n)
        continue;
      std::vector<ArgSpec> a = {ArgSpec::view(ScalarKind::F32, {2, 3, n}),
                                ArgSpec::view(ScalarKind::F32, {2, 3, n}),
                                ArgSpec::i64(b)};
      compareRuns(*m->kernels[0], a, n * 3 + b, 1e-5);
    }
}
