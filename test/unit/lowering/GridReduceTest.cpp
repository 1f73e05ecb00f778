//===- GridReduceTest.cpp - The grid-reduce pass and its [coop] checks -----===//
//
// Kernels of test/lit/emit/grid_reduce.kir: the pass applies (or says why
// not) and writes the reduction with cooperative primitives; the physical
// interpreter runs the cooperative program (CTAs of threads, barriers,
// shuffles, the workspace atomics; programs in shuffled order) and matches
// the KIR interpreter and the header semantics exactly for integer
// reductions and arg-reductions, over sizes spanning several programs; and
// one broken program per grid-reduce [coop] verifier check.
//
//===----------------------------------------------------------------------===//

#include "VerifierHarness.h"

#include "Passes/Passes.h"
#include "Physical/Coop.h"
#include "Physical/Dispatch.h"
#include "Physical/Structured.h"
#include "RefSemantics.h"

#include <limits>

using namespace intent;
using namespace intent::test;
using kir::ScalarKind;

namespace {

/// Whether `p` has a buffer named `name` (grid-reduce's grid_partials,
/// cta-rows-ops' phase_workspace).
bool hasBuffer(const phys::Program &p, const std::string &name) {
  for (const phys::Buffer &b : p.buffers)
    if (b.name == name)
      return true;
  return false;
}


constexpr ScalarKind F32 = ScalarKind::F32, F64 = ScalarKind::F64,
                     I64 = ScalarKind::I64, I32 = ScalarKind::I32;


std::unique_ptr<kir::Module> gridModule() {
  std::string err;
  auto m = kir::parseModule(readFile(litFile("emit", "grid_reduce.kir")),
                            "grid_reduce.kir", err);
  EXPECT_TRUE(m) << err;
  return m;
}

const kir::Kernel &named(const kir::Module &m, const std::string &n) {
  for (const auto &k : m.kernels)
    if (k->name == n)
      return *k;
  ADD_FAILURE() << "no kernel " << n;
  return *m.kernels[0];
}

Built buildGrid(const std::string &kernel) {
  return build(readFile(litFile("emit", "grid_reduce.kir")), kernel);
}

/// Sizes: empty, one, one program's worth, several programs.
const std::vector<int64_t> Sizes = {0, 1, 5, 4095, 4097, 9000, 17000};

std::function<interp::Scalar(std::mt19937_64 &)> specials(ScalarKind k,
                                                          bool nan) {
  return [k, nan](std::mt19937_64 &rng) {
    static const double pool[] = {1.0, -1.0, 0.0, -0.0, 2.5, 2.5, -2.5,
                                  std::numeric_limits<double>::infinity(),
                                  -std::numeric_limits<double>::infinity(),
                                  std::numeric_limits<double>::quiet_NaN()};
    return interp::Scalar::ofFloat(k, pool[rng() % (nan ? 10 : 9)]);
  };
}

} // namespace

TEST(GridReduce, AppliesToSingleInstanceReductions) {
  for (const char *k : {"sum_f32", "sum_i64", "argmax_first",
                        "argmin_last_ignore", "max_i32"}) {
    Built b = buildGrid(k);
    ASSERT_TRUE(b.program);
    EXPECT_EQ(b.program->scope, phys::ExecScope::CTA) << k;
    EXPECT_EQ(b.program->ctaThreads, passes::kCtaThreads) << k;
    // The one instance runs on a program count min(..., M), through
    // explicit primitives: no construct is left for the emitter to expand.
    EXPECT_NE(b.program->exprToString(b.program->segments[0].length), "1") << k;
    EXPECT_TRUE(findOp(*b.program, phys::Opcode::Barrier)) << k;
    EXPECT_TRUE(findOp(*b.program, phys::Opcode::Shuffle)) << k;
    EXPECT_TRUE(findOp(*b.program, phys::Opcode::Atomic)) << k;
    bool reduction = false;
    phys::walk(*b.program->body, [&](const phys::Op &op) {
      reduction |= op.opcode == phys::Opcode::Reduce ||
                   op.opcode == phys::Opcode::ArgReduce;
    });
    EXPECT_FALSE(reduction) << k;
  }
  // The f32 sum streams 4-wide vectors; the i64 sum 2-wide.
  Built f = buildGrid("sum_f32");
  EXPECT_EQ(findOp(*f.program, phys::Opcode::VectorLoad)->intAttr("width"), 4);
  Built i = buildGrid("sum_i64");
  EXPECT_EQ(findOp(*i.program, phys::Opcode::VectorLoad)->intAttr("width"), 2);
  // Two top-level reductions: not applied, with a remark saying why (the
  // single instance then runs on a cooperative grid: cta-rows-ops).
  auto m = gridModule();
  PipelineResult r = runPipeline(named(*m, "two_sums"));
  ASSERT_TRUE(r.ok());
  EXPECT_FALSE(hasBuffer(*r.program, "grid_partials"));
  EXPECT_TRUE(hasBuffer(*r.program, "phase_workspace"));
  EXPECT_EQ(r.program->ctaThreads, passes::kPhaseThreads);
  bool said = false;
  for (const phys::Remark &rm : r.remarks)
    said |= rm.text.find("grid-reduce: not applied: the instance computes "
                         "several top-level reductions") != std::string::npos;
  EXPECT_TRUE(said);
  // And the option turns the pass off.
  PipelineOptions off;
  off.physicalPasses = false;
  PipelineResult o = runPipeline(named(*m, "sum_f32"), off);
  ASSERT_TRUE(o.ok());
  EXPECT_EQ(o.program->scope, phys::ExecScope::Thread);
}

TEST(GridReduce, ReportsWhatItCannotSplitToTheSink) {
  // The pass sees only the program and a sink. Two top-level sums cannot be
  // split: a remark says why, and the first reduction is lost parallelism
  // for the user, unless the sink already holds a finding for its group
  // (construction's, in the pipeline).
  auto m = gridModule();
  PipelineOptions off;
  off.physicalPasses = false;
  for (bool alreadyReported : {false, true}) {
    PipelineResult r = runPipeline(named(*m, "two_sums"), off);
    ASSERT_TRUE(r.ok());
    ASSERT_TRUE(r.serializations.empty());
    std::vector<phys::Remark> remarks;
    std::vector<phys::Serialization> lost;
    if (alreadyReported) {
      lost.emplace_back();
      lost.back().group = 0;
      lost.back().cause = "construction's";
    }
    phys::RemarkSink sink(remarks, lost);
    passes::gridReduce(*r.program, sink);
    EXPECT_EQ(r.program->scope, phys::ExecScope::Thread);
    ASSERT_EQ(remarks.size(), 1u);
    EXPECT_EQ(remarks[0].text, "grid-reduce: not applied: the instance "
                               "computes several top-level reductions");
    ASSERT_EQ(lost.size(), 1u);
    if (alreadyReported) {
      EXPECT_EQ(lost[0].cause, "construction's");
      continue;
    }
    EXPECT_EQ(lost[0].group, 0);
    EXPECT_EQ(lost[0].loc.line, 51u);
    EXPECT_EQ(lost[0].loc.col, 12u);
    EXPECT_NE(lost[0].cause.find("the reduce runs in one program instance"),
              std::string::npos)
        << lost[0].cause;
    EXPECT_NE(lost[0].fix.find("compute one reduction per kernel"),
              std::string::npos)
        << lost[0].fix;
  }
}

TEST(GridReduce, NotAppliedToNonCommutativeOrUnorderedCombines) {
  // reduce_range.kir: two reductions (one with reassociate = false inside);
  // a user combine (Welford in mean_var.kir). grid-reduce leaves both (no
  // workspace tickets); their single instance runs on a cooperative grid
  // (cta-rows, cta-rows-ops).
  for (const char *f : {"reduce_range.kir", "mean_var.kir"}) {
    Built b = buildFile(f);
    EXPECT_FALSE(hasBuffer(*b.program, "grid_partials")) << f;
    EXPECT_TRUE(hasBuffer(*b.program, "phase_workspace")) << f;
    EXPECT_EQ(b.program->ctaThreads, passes::kPhaseThreads) << f;
  }
}

TEST(GridReduce, AppliesPerGroupNextToPlainParallelGroups) {
  // A pointwise group and a first argmax of another vector in one kernel:
  // the single instance is split over programs (the last CTA stores), the
  // pointwise group keeps one instance per thread, spread over the threads
  // of its own programs; the same results as the KIR interpreter and the
  // serial semantics, in forward and shuffled program order.
  const std::string text =
      "kernel @argmax_scale (%0 best: view<i64, 1> w, %1 z: view<const i32, 1> r, %2 y: view<i32, 1> rw) {\n"
      "  %3 = extent %2 {dim = 0} : i64\n"
      "  parallel_for %3 {\n"
      "  ^(%4: i64):\n"
      "    %5 = constant {value = 2} : i32\n"
      "    %6 = load %2, %4 : i32\n"
      "    %7 = mul %5, %6 : i32\n"
      "    %8 = constant {value = 1} : i32\n"
      "    %9 = add %7, %8 : i32\n"
      "    store %2, %9, %4\n"
      "    yield\n"
      "  }\n"
      "  %10 = extent %1 {dim = 0} : i64\n"
      "  %11 = constant {value = 0} : i64\n"
      "  %12, %13 = argreduce %11, %10 {which = \"max\", tie = \"first\", nan = \"propagate\"} : i32, i64 {\n"
      "  ^(%14: i64):\n"
      "    %15 = load %1, %14 : i32\n"
      "    yield %15\n"
      "  }\n"
      "  %16 = constant {value = 0} : i64\n"
      "  store %0, %13, %16\n"
      "  %17 = cast %12 : i64\n"
      "  %18 = constant {value = 1} : i64\n"
      "  store %0, %17, %18\n"
      "  return\n"
      "}\n";
  std::string err;
  auto m = kir::parseModule(text, "argmax_scale", err);
  ASSERT_TRUE(m) << err;
  PipelineResult r = runPipeline(*m->kernels[0]);
  ASSERT_TRUE(r.ok());
  ASSERT_EQ(r.program->segments.size(), 2u);
  EXPECT_EQ(r.program->scope, phys::ExecScope::CTA);
  EXPECT_TRUE(hasBuffer(*r.program, "grid_partials"));
  EXPECT_EQ(r.program->segments[0].spread, passes::kCtaThreads);
  EXPECT_TRUE(r.program->segments[1].ordered);
  EXPECT_NE(r.program->exprToString(r.program->segments[1].length), "1");
  for (int64_t n : {int64_t(0), int64_t(1), int64_t(300), int64_t(9000)})
    for (int64_t z : Sizes) {
      ArgSpec zs = ArgSpec::view(I32, {z});
      zs.gen = [](std::mt19937_64 &rng) {
        return interp::Scalar::ofInt(I32, static_cast<int64_t>(rng() % 41) - 20);
      };
      std::vector<ArgSpec> a = {ArgSpec::view(ScalarKind::I64, {2}), zs,
                                ArgSpec::view(I32, {n})};
      auto ref = [n, z](Memory &mem) {
        const int32_t *zv = mem.as<int32_t>(1);
        int32_t *y = mem.as<int32_t>(2);
        for (int64_t i = 0; i < n; ++i)
          y[i] = 2 * y[i] + 1;
        int64_t best = z ? 0 : -1;
        for (int64_t i = 1; i < z; ++i)
          if (zv[i] > zv[best])
            best = i;
        mem.as<int64_t>(0)[0] = best;
        // An empty argmax's value is the identity: the smallest i32.
        mem.as<int64_t>(0)[1] =
            z ? zv[best] : std::numeric_limits<int32_t>::min();
      };
      DiffOutcome d = runDifferential(*m->kernels[0], a, ref, n * 31 + z);
      ASSERT_EQ(d.segmentLengths.size(), 2u);
      // The reduction's programs: 4096 members each (256 threads x 4 x 4
      // steps), at least one.
      EXPECT_EQ(d.segmentLengths[1], std::max<int64_t>((z + 4095) / 4096, 1))
          << z;
    }
}

TEST(GridReduce, IntegerSumsAcrossPrograms) {
  auto m = gridModule();
  for (int64_t n : Sizes) {
    ArgSpec x = ArgSpec::view(I64, {n});
    x.gen = [](std::mt19937_64 &rng) {
      return interp::Scalar::ofInt(I64, static_cast<int64_t>(rng() % 2001) - 1000);
    };
    std::vector<ArgSpec> a = {ArgSpec::view(I64, {1}), x, ArgSpec::i64(-3)};
    auto ref = [n](Memory &mem) {
      const int64_t *xs = mem.as<int64_t>(1);
      int64_t s = -3;
      for (int64_t k = 0; k < n; ++k)
        s += xs[k] + xs[k] * xs[k];
      mem.as<int64_t>(0)[0] = s * 7;
    };
    DiffOutcome d = runDifferential(named(*m, "sum_i64"), a, ref, n + 1);
    // 2048 members per program (256 threads x 2 x 4 steps).
    EXPECT_EQ(d.total, std::max<int64_t>((n + 2047) / 2048, 1)) << n;
  }
}

TEST(GridReduce, IntegerMaxAcrossPrograms) {
  auto m = gridModule();
  for (int64_t n : Sizes) {
    ArgSpec x = ArgSpec::view(I32, {n});
    x.gen = [](std::mt19937_64 &rng) {
      return interp::Scalar::ofInt(I32, static_cast<int32_t>(rng()));
    };
    std::vector<ArgSpec> a = {ArgSpec::view(I32, {1}), x};
    auto ref = [n](Memory &mem) {
      const int32_t *xs = mem.as<int32_t>(1);
      int32_t s = std::numeric_limits<int32_t>::min();
      for (int64_t k = 0; k < n; ++k)
        s = std::max(s, xs[k]);
      mem.as<int32_t>(0)[0] = s;
    };
    runDifferential(named(*m, "max_i32"), a, ref, n + 2);
  }
}

TEST(GridReduce, ArgmaxTiesAndNaNAcrossPrograms) {
  auto m = gridModule();
  for (int64_t n : Sizes)
    for (bool nan : {false, true}) {
      ArgSpec x = ArgSpec::view(F32, {n});
      x.gen = specials(F32, nan);
      std::vector<ArgSpec> a = {ArgSpec::view(F32, {1}), ArgSpec::view(I64, {1}), x};
      auto ref = [n](Memory &mem) {
        const float *xs = mem.as<float>(2);
        auto res = ref::argReduce<float>(
            /*isMax=*/true, 0, n, [&](int64_t j) { return xs[j]; },
            /*tieLast=*/false, /*ignoreNaN=*/false);
        mem.as<float>(0)[0] = res.value;
        mem.as<int64_t>(1)[0] = res.pos;
      };
      runDifferential(named(*m, "argmax_first"), a, ref, n * 2 + nan);
    }
}

TEST(GridReduce, ArgminLastIgnoreOverSubRange) {
  auto m = gridModule();
  for (int64_t n : Sizes)
    for (auto [b, e] : std::vector<std::pair<int64_t, int64_t>>{
             {0, n}, {n / 3, n - n / 5}, {n, n / 2}}) {
      ArgSpec x = ArgSpec::view(F64, {n});
      x.gen = specials(F64, true);
      std::vector<ArgSpec> a = {ArgSpec::view(F64, {1}), ArgSpec::view(I64, {1}), x,
                                ArgSpec::i64(b), ArgSpec::i64(e)};
      auto ref = [b = b, e = e](Memory &mem) {
        const double *xs = mem.as<double>(2);
        auto res = ref::argReduce<double>(
            /*isMax=*/false, b, e, [&](int64_t j) { return xs[j]; },
            /*tieLast=*/true, /*ignoreNaN=*/true);
        mem.as<double>(0)[0] = res.value;
        mem.as<int64_t>(1)[0] = res.pos;
      };
      runDifferential(named(*m, "argmin_last_ignore"), a, ref, n + b);
    }
}

//===----------------------------------------------------------------------===//
// [coop] and the cooperative [scope] / [segments] checks: one broken
// program each.
//===----------------------------------------------------------------------===//

namespace {
/// The grid reduction's kept-zero workspace record.
phys::Buffer &partials(Built &b) {
  for (phys::Buffer &buf : b.program->buffers)
    if (buf.keptZero)
      return buf;
  ADD_FAILURE() << "no kept-zero workspace";
  return b.program->buffers.back();
}
} // namespace

TEST(CoopVerifier, ScopeNeedsThreadsPerCta) {
  Built b = buildGrid("sum_f32");
  b.program->ctaThreads = 100;
  expectError(b, "[scope]", "multiple of 32");
}

TEST(CoopVerifier, ThreadScopeFixesNoCta) {
  Built b = build(readFile(litFile("construction", "phases.kir")),
                  "last_wins");
  ASSERT_EQ(b.program->scope, phys::ExecScope::Thread);
  b.program->ctaThreads = 256;
  expectError(b, "[scope]", "exec scope 'thread' fixes no CTA size");
}

TEST(CoopVerifier, SplitSegmentNeedsCtaScope) {
  Built b = buildGrid("sum_f32");
  b.program->scope = phys::ExecScope::Thread;
  b.program->ctaThreads = 0;
  b.program->sharedBytes = 0;
  expectError(b, "[coop]", "runs its one instance on several programs, which "
                           "needs exec scope cta");
  expectError(b, "[segments]", "an ordered segment has no extents and length 1");
}

TEST(CoopVerifier, SplitProgramCountBounded) {
  Built b = buildGrid("sum_f32");
  phys::resizeSegment(*b.program, 0, b.program->constExpr(3));
  expectError(b, "[coop]", "its program count must be min(..., C) with C >= 1");
}

TEST(CoopVerifier, SplitSegmentCooperatesThroughTheWorkspace) {
  Built b = buildGrid("argmax_first");
  partials(b).size = 600; // argmax: up to 660 programs
  expectError(b, "[coop]", "kept-zero invocation workspace of at least 1 + 660 "
                           "words");
}

TEST(CoopVerifier, KeptZeroIsAZeroFilledWorkspace) {
  Built b = buildGrid("sum_f32");
  partials(b).init = phys::InitMode::FirstWrite;
  expectError(b, "[coop]", "is kept zero but is not an invocation workspace "
                           "with init value 0");
}

TEST(CoopVerifier, KeptZeroIsTouchedByAtomicsOnly) {
  Built b = buildGrid("sum_f32");
  partials(b).ownership = phys::Ownership::InstanceUnique;
  expectError(b, "[coop]", "ownership must be atomic");
}

TEST(CoopVerifier, ShuffleTypes) {
  // An i16 accumulator cannot be exchanged by a warp shuffle: the pass
  // declines, and forced (gate off) it writes shuffles the verifier rejects.
  const char *text = R"(
kernel @sum_i16 (%0 out: view<i16, 1> w, %1 x: view<const i16, 1> r) loc(1:1) {
  %2 = constant {value = 0} : i64 loc(2:3)
  %3 = extent %1 {dim = 0} : i64 loc(2:3)
  %4 = constant {value = 0} : i16 loc(2:3)
  %5 = reduce %2, %3, %4 {combiner = "plus", reassociate = true} : i16 loc(2:12) {
  ^(%6: i64):
    %7 = load %1, %6 : i16 loc(2:40)
    yield %7
  } {
  ^(%8: i16, %9: i16):
    %10 = add %8, %9 : i16
    yield %10
  }
  store %0, %5, %2 loc(3:3)
  return
}
)";
  Built b = build(text);
  EXPECT_EQ(b.program->scope, phys::ExecScope::Thread); // the pass declined
  std::string what;
  EXPECT_EQ(passes::applyGridReduce(*b.program, what, /*gate=*/false), "");
  expectError(b, "[types]", "shuffle");
}
