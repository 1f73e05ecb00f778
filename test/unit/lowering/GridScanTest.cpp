//===- GridScanTest.cpp - grid-scan against the KIR interpreter -----------===//
//
// Device-wide scans mapped by grid-scan (test/lit/emit/grid_scan.kir): the
// physical interpreter runs the one-pass program (a CTA per tile, tiles
// taken by ticket; CTAs run one at a time here, as in cpu mode), with real
// barriers, shuffles, shared memory and the race check, in forward and
// shuffled order; the views must equal the KIR
// interpreter's and a serial C++ reference bit for bit (integers, a user
// combine that is not commutative, exact double sums). Sizes 0, 1, a
// tile's edge +-1, several tiles. A dropped barrier is a reported race.
//
//===----------------------------------------------------------------------===//

#include "DiffHarness.h"

#include "Physical/IR.h"

using namespace intent;
using namespace intent::test;
using kir::ScalarKind;

namespace {

std::unique_ptr<kir::Module> scanModule() { return litModule("emit", "grid_scan.kir"); }

ArgSpec ints(ScalarKind k, int64_t n, int64_t lo, int64_t hi) {
  ArgSpec a = ArgSpec::view(k, {n});
  a.gen = [k, lo, hi](std::mt19937_64 &rng) {
    int64_t v = lo + static_cast<int64_t>(rng() % static_cast<uint64_t>(hi - lo + 1));
    return kir::Type::scalar(k).isFloat()
               ? interp::Scalar::ofFloat(k, static_cast<double>(v) / 8.0)
               : interp::Scalar::ofInt(k, v);
  };
  return a;
}

const int64_t Sizes[] = {0, 1, 2047, 2048, 2049, 5000};

// The kernels' inputs and serial references (shared by the tests below).
using Reference = std::function<void(Memory &)>;

/// prefix_i64: y[k] = 5 + x[0] + ... + x[k] (i32 in, i64 out).
std::vector<ArgSpec> prefixI64Args(int64_t n) {
  return {ArgSpec::view(ScalarKind::I64, {n}), ints(ScalarKind::I32, n, -1000, 1000)};
}
Reference prefixI64Ref(int64_t n) {
  return [n](Memory &mem) {
    int64_t *y = mem.as<int64_t>(0);
    const int32_t *x = mem.as<int32_t>(1);
    int64_t s = 5;
    for (int64_t k = 0; k < n; ++k)
      y[k] = s += x[k];
  };
}

/// exclusive_i32: y[k] = x[0] + ... + x[k - 1].
std::vector<ArgSpec> exclusiveI32Args(int64_t n) {
  return {ArgSpec::view(ScalarKind::I32, {n}), ints(ScalarKind::I32, n, -1000, 1000)};
}
Reference exclusiveI32Ref(int64_t n) {
  return [n](Memory &mem) {
    int32_t *y = mem.as<int32_t>(0);
    const int32_t *x = mem.as<int32_t>(1);
    int32_t s = 0;
    for (int64_t k = 0; k < n; ++k) {
      y[k] = s;
      s += x[k];
    }
  };
}

/// compose: h[k] = the affine maps 0..k composed, applied to 1 (mod 2^32).
std::vector<ArgSpec> composeArgs(int64_t n) {
  return {ArgSpec::view(ScalarKind::U32, {n}), ints(ScalarKind::U32, n, 0, 0xffff),
          ints(ScalarKind::U32, n, 0, 0xffff)};
}
Reference composeRef(int64_t n) {
  return [n](Memory &mem) {
    uint32_t *h = mem.as<uint32_t>(0);
    const uint32_t *as = mem.as<uint32_t>(1), *bs = mem.as<uint32_t>(2);
    uint32_t pa = 1, pb = 0;
    for (int64_t k = 0; k < n; ++k) {
      pb = as[k] * pb + bs[k];
      pa = pa * as[k];
      h[k] = pa + pb;
    }
  };
}

/// compact: the x > 0 in order at the front of out, their count in
/// count[0] (an i64 count: the flag shares its status word, above bit 62).
std::vector<ArgSpec> compactArgs(int64_t n) {
  return {ArgSpec::view(ScalarKind::F32, {n}), ArgSpec::view(ScalarKind::I64, {1}),
          ints(ScalarKind::F32, n, -800, 800)};
}
Reference compactRef(int64_t n) {
  return [n](Memory &mem) {
    float *out = mem.as<float>(0);
    int64_t *count = mem.as<int64_t>(1);
    const float *x = mem.as<float>(2);
    int64_t c = 0;
    for (int64_t k = 0; k < n; ++k)
      if (x[k] > 0.0f)
        out[c++] = x[k];
    if (n > 0)
      count[0] = c;
  };
}

/// A rows x cols f32 matrix of eighths of integers (exact sums).
ArgSpec matrixOf(int64_t rows, int64_t cols) {
  ArgSpec a = ints(ScalarKind::F32, rows * cols, -800, 800);
  a.extents = {rows, cols};
  return a;
}

/// Interleaved pairs (a, b): a in {-1, 0, 1}, b an integer in [-50, 50].
ArgSpec pairsOf(int64_t n) {
  ArgSpec a = ArgSpec::view(ScalarKind::F32, {2 * n});
  auto next = std::make_shared<int64_t>(0);
  a.gen = [next](std::mt19937_64 &rng) {
    const bool isA = (*next)++ % 2 == 0;
    const int64_t v = isA ? static_cast<int64_t>(rng() % 3) - 1
                          : static_cast<int64_t>(rng() % 101) - 50;
    return interp::Scalar::ofFloat(ScalarKind::F32, static_cast<double>(v));
  };
  return a;
}

bool mapped(const kir::Kernel &k) {
  PipelineResult r = runPipeline(k, {});
  return r.ok() && r.program->scope == phys::ExecScope::CTA;
}

} // namespace

TEST(GridScan, MapsReassociableScansOnly) {
  auto m = scanModule();
  for (const char *k : {"prefix_i64", "exclusive_i32", "prefix_f32",
                        "running_max", "compose", "count_sum",
                        "compose_reverse", "compact", "recurrence_pairs",
                        "evens", "shifted", "row_prefix", "row_zero"})
    EXPECT_TRUE(mapped(kernelNamed(*m, k))) << k;
  for (const char *k : {"ordered_prefix", "in_place"})
    EXPECT_FALSE(mapped(kernelNamed(*m, k))) << k;
}

TEST(GridScan, InclusiveAndExclusiveIntegerSums) {
  auto m = scanModule();
  for (int64_t n : Sizes) {
    runDifferential(kernelNamed(*m, "prefix_i64"), prefixI64Args(n),
                    prefixI64Ref(n), n + 1);
    runDifferential(kernelNamed(*m, "exclusive_i32"), exclusiveI32Args(n),
                    exclusiveI32Ref(n), n + 2);
  }
}

TEST(GridScan, CompactionWithAPackedCount) {
  auto m = scanModule();
  for (int64_t n : Sizes)
    runDifferential(kernelNamed(*m, "compact"), compactArgs(n), compactRef(n),
                    n + 6);
}

TEST(GridScan, UserCombineKeepsMemberOrder) {
  auto m = scanModule();
  for (int64_t n : Sizes)
    runDifferential(kernelNamed(*m, "compose"), composeArgs(n), composeRef(n),
                    n + 3);
}

TEST(GridScan, StructStateAndRunningMaxOverASubRange) {
  auto m = scanModule();
  for (int64_t n : Sizes) {
    std::vector<ArgSpec> a = {ArgSpec::view(ScalarKind::I64, {n}),
                              ArgSpec::view(ScalarKind::F64, {n}),
                              ints(ScalarKind::F64, n, -800, 800)};
    auto ref = [n](Memory &mem) {
      int64_t *c = mem.as<int64_t>(0);
      double *s = mem.as<double>(1);
      const double *x = mem.as<double>(2);
      int64_t cnt = 0;
      double sum = 0;
      for (int64_t k = 0; k < n; ++k) {
        c[k] = cnt += x[k] > 0;
        s[k] = sum += x[k];
      }
    };
    runDifferential(kernelNamed(*m, "count_sum"), a, ref, n + 4);
    const int64_t lo = n / 3;
    std::vector<ArgSpec> b = {ArgSpec::view(ScalarKind::F32, {n - lo}),
                              ints(ScalarKind::F32, n, -800, 800),
                              ArgSpec::i64(lo), ArgSpec::i64(n)};
    auto refMax = [n, lo](Memory &mem) {
      float *y = mem.as<float>(0);
      const float *x = mem.as<float>(1);
      float best = -1e30f;
      for (int64_t k = lo; k < n; ++k)
        y[k - lo] = best = std::max(best, x[k] * 2.0f);
    };
    runDifferential(kernelNamed(*m, "running_max"), b, refMax, n + 5);
  }
}

TEST(GridScan, ADroppedBarrierIsARace) {
  // Each CTA barrier that follows stores to a shared buffer (the tile's
  // values, the states written back; the ticket, the trees' partials and
  // the exclusive prefix are stored inside an `if`) is dropped in turn:
  // the interpreter reports the shared-memory race (or the read of an
  // element not yet written).
  auto m = scanModule();
  int tried = 0;
  for (int drop = 0;; ++drop) {
    PipelineResult r = runPipeline(kernelNamed(*m, "prefix_i64"), {});
    ASSERT_TRUE(r.ok());
    const bool dropped = eraseNthOp(
        *r.program, drop, [](const phys::Block &blk, size_t i) {
          const phys::Op &o = *blk.ops[i];
          return o.opcode == phys::Opcode::Barrier &&
                 o.strAttr("scope") == "cta" && i > 0 &&
                 blk.ops[i - 1]->opcode == phys::Opcode::Store;
        });
    if (!dropped)
      break;
    ++tried;
    std::vector<ArgSpec> a = {ArgSpec::view(ScalarKind::I64, {3000}),
                              ints(ScalarKind::I32, 3000, -9, 9)};
    Memory mem = makeMemory(a, 7);
    interp::PhysRunResult pr =
        interp::runProgram(*r.program, intent::test::bind(a, mem));
    EXPECT_FALSE(pr.ok) << "barrier " << drop;
  }
  EXPECT_EQ(tried, 2); // the tile's values, the states
}

TEST(GridScan, LookBackOverAggregatesAlone) {
  // The CTAs run one at a time here, so every look-back finds its
  // predecessor's inclusive prefix in its first window. With the inclusive
  // prefixes never published (the last status write dropped: the packed
  // word, or the unpacked flag after its values), each tile must combine
  // every aggregate before it, window by window of 32, down to the init:
  // 70 tiles take three windows, and the result is still exact (the
  // unpacked i64 sums of prefix_i64, the packed i32 sums of exclusive_i32,
  // the non-commutative u32 pairs of compose, unpacked, and compact's i64
  // count packed above bit 62).
  auto m = scanModule();
  const int64_t n = 70 * 2048 + 3;
  auto dropPrefix = [](phys::Program &p) {
    int exch = 0;
    phys::walk(*p.body, [&](const phys::Op &o) {
      exch += o.opcode == phys::Opcode::Atomic && o.strAttr("kind") == "exch";
    });
    return eraseNthOp(p, exch - 1, [](const phys::Block &blk, size_t i) {
      return blk.ops[i]->opcode == phys::Opcode::Atomic &&
             blk.ops[i]->strAttr("kind") == "exch";
    });
  };
  auto run = [&](const char *name, const std::vector<ArgSpec> &a,
                 const Reference &ref, unsigned outputs) {
    PipelineResult r = runPipeline(kernelNamed(*m, name), {});
    ASSERT_TRUE(r.ok()) << name;
    ASSERT_TRUE(dropPrefix(*r.program)) << name;
    Memory mem = makeMemory(a, 11), want = makeMemory(a, 11);
    interp::PhysRunResult pr =
        interp::runProgram(*r.program, intent::test::bind(a, mem));
    ASSERT_TRUE(pr.ok) << name << ": " << pr.error;
    ref(want);
    for (unsigned v = 0; v < outputs; ++v)
      EXPECT_TRUE(mem.views[v] == want.views[v]) << name << " view " << v;
  };
  run("prefix_i64", prefixI64Args(n), prefixI64Ref(n), 1);
  run("exclusive_i32", exclusiveI32Args(n), exclusiveI32Ref(n), 1);
  run("compose", composeArgs(n), composeRef(n), 1);
  run("compact", compactArgs(n), compactRef(n), 2);
}

TEST(GridScan, VectorTilesMatchTheirFallbacks) {
  // A full tile whose value loads are unit-stride and aligned reads them
  // with vector loads straight into registers (8 members per thread); a
  // partial tile, a misaligned view, a sub-range that starts off the
  // vector and the bounds-checked launch go through the shared tile. Each
  // must equal the KIR interpreter bit for bit: forward and reverse
  // (compose_reverse, an exclusive suffix composition), 4- and 8-byte
  // elements (count_sum reads f64 pairs), records of two fields read as
  // vectors (recurrence_pairs) or, one field only, not (evens). The emit
  // of a full aligned
  // tile stores from registers as vectors when it only stores at the
  // member.
  auto m = scanModule();
  struct Case {
    const char *name;
    std::vector<ArgSpec> args;
  };
  uint64_t seed = 40;
  for (int64_t n : {int64_t(4096), int64_t(2 * 2048 + 7)}) {
    std::vector<Case> cases = {
        {"prefix_i64", prefixI64Args(n)},
        {"compose", composeArgs(n)},
        {"compose_reverse", composeArgs(n)},
        {"compact", compactArgs(n)},
        // Records of two fields: vector loads of x[2k], x[2k + 1] (a in
        // {-1, 0, 1}, b integers: every float result exact); one field
        // of each pair only: scalar loads.
        {"recurrence_pairs", {ArgSpec::view(ScalarKind::F32, {n}), pairsOf(n)}},
        {"evens", {ArgSpec::view(ScalarKind::F64, {n}),
                   ints(ScalarKind::F64, 2 * n, -800, 800)}},
        // Members [1, n], loads and stores at k - 1: vectors from element 0.
        {"shifted", {ArgSpec::view(ScalarKind::I32, {n}),
                     ints(ScalarKind::I32, n, -1000, 1000)}},
        // Row 1 of a 3 x n matrix: vectors when its start (n floats in) is
        // aligned (n = 4096), else scalar (n = 4103).
        {"row_prefix", {ArgSpec::view(ScalarKind::F32, {3, n}),
                        matrixOf(3, n), ArgSpec::i64(1)}},
        // Row 0 of a 2 x n matrix, the 0 a constant of the emit.
        {"row_zero", {ArgSpec::view(ScalarKind::F32, {2, n}),
                      ints(ScalarKind::F32, n, -800, 800)}},
        {"count_sum",
         {ArgSpec::view(ScalarKind::I64, {n}), ArgSpec::view(ScalarKind::F64, {n}),
          ints(ScalarKind::F64, n, -800, 800)}}};
    for (int64_t lo : {int64_t(4), int64_t(3)})
      cases.push_back({"running_max",
                       {ArgSpec::view(ScalarKind::F32, {n - lo}),
                        ints(ScalarKind::F32, n, -800, 800), ArgSpec::i64(lo),
                        ArgSpec::i64(n)}});
    for (const Case &c : cases) {
      ++seed;
      const kir::Kernel &k = kernelNamed(*m, c.name);
      PipelineResult r = runPipeline(k, {});
      ASSERT_TRUE(r.ok()) << c.name;
      int vectors = 0;
      phys::walk(*r.program->body, [&](const phys::Op &o) {
        vectors += o.opcode == phys::Opcode::VectorLoad ||
                   o.opcode == phys::Opcode::VectorStore;
      });
      EXPECT_GT(vectors, 0) << c.name;
      Memory init = makeMemory(c.args, seed), want = init;
      interp::KIRRunResult kr = interp::runKernel(k, intent::test::bind(c.args, want));
      ASSERT_TRUE(kr.ok) << kr.error;
      auto same = [&](const Memory &got) { return sameViews(c.args, got, want); };
      for (int variant = 0; variant < 3; ++variant) {
        interp::PhysRunOptions opts;
        opts.misalignedViews = variant == 1;
        opts.checkedLaunch = variant == 2;
        Memory mem = init;
        interp::PhysRunResult pr =
            interp::runProgram(*r.program, intent::test::bind(c.args, mem), opts);
        ASSERT_TRUE(pr.ok) << c.name << " variant " << variant << ": " << pr.error;
        EXPECT_TRUE(same(mem)) << c.name << " n " << n << " variant " << variant;
      }
      // The thread slots start at begin + 8t (reverse: end - 8 - 8t):
      // running_max's loads from 3 and a reverse scan of 4103 members are
      // never aligned to their 4-element vectors; running_max's stores at
      // k - lo always are (element 0 of y), whatever lo; compact scatters
      // (its emit goes through the tile).
      const std::string name = c.name;
      const bool reverseOff = (name == "compose_reverse" && (n - 8) % 4 != 0) ||
                              (name == "row_prefix" && n % 4 != 0);
      const bool loadsAligned =
          !reverseOff && (name != "running_max" || c.args[2].scalar.i % 4 == 0);
      const bool storesAligned = !reverseOff;
      const bool storesVectors = name != "compact";
      const bool loadsVectors = name != "evens";
      // Swapping two lanes of every vector load (of every vector store)
      // changes the aligned run exactly when that path ran, never the
      // misaligned one.
      for (int mutation = 0; mutation < 2; ++mutation) {
        PipelineResult mr = runPipeline(k, {});
        ASSERT_TRUE(mr.ok());
        phys::walkMutable(*mr.program->body, [&](phys::Op &o) {
          if (mutation == 0 && o.opcode == phys::Opcode::VectorLoad) {
            std::swap(o.results[0], o.results[1]);
            o.results[0]->resultNo = 0;
            o.results[1]->resultNo = 1;
          }
          if (mutation == 1 && o.opcode == phys::Opcode::VectorStore)
            std::swap(o.operands[1], o.operands[2]);
        });
        for (int variant = 0; variant < 2; ++variant) {
          interp::PhysRunOptions opts;
          opts.misalignedViews = variant == 1;
          Memory mem = init;
          interp::PhysRunResult pr =
              interp::runProgram(*mr.program, intent::test::bind(c.args, mem), opts);
          const bool ran = variant == 0 &&
                           (mutation == 0 ? loadsAligned && loadsVectors
                                          : storesAligned && storesVectors);
          // (A failed run is a detection too: compact's swapped flags make
          // two members scatter to one position, a reported race.)
          if (!pr.ok) {
            EXPECT_TRUE(ran) << c.name << " mutation " << mutation << ", variant "
                             << variant << ": " << pr.error;
            continue;
          }
          // (A running maximum is flat over most neighbouring members:
          // swapping two of its stored lanes rarely shows.)
          if (ran && mutation == 1 && name == "running_max")
            continue;
          EXPECT_EQ(same(mem), !ran) << c.name << " mutation " << mutation
                                     << ", n " << n << " variant " << variant;
        }
      }
    }
  }
}

TEST(GridScan, TheStatusWorkspaceIsChecked) {
  // [coop]: the chained split needs a per-launch zeroed, atomic-only
  // workspace of a ticket word plus a word per program; [buffer-instance]:
  // a workspace sized per launch is the last slice.
  auto m = scanModule();
  auto broken = [&](const std::function<void(phys::Program &)> &mutate,
                    const std::string &tag, const std::string &text) {
    PipelineResult r = runPipeline(kernelNamed(*m, "prefix_i64"), {});
    ASSERT_TRUE(r.ok());
    mutate(*r.program);
    std::vector<std::string> errs;
    EXPECT_FALSE(phys::verifyProgram(*r.program, &kernelNamed(*m, "prefix_i64"), errs));
    bool found = false;
    std::string all;
    for (const std::string &e : errs) {
      found |= e.rfind(tag, 0) == 0 && e.find(text) != std::string::npos;
      all += "\n  " + e;
    }
    EXPECT_TRUE(found) << "expected " << tag << " ... " << text << ", got:" << all;
  };
  auto status = [](phys::Program &p) -> phys::Buffer & {
    for (phys::Buffer &b : p.buffers)
      if (b.sizeExpr >= 0 && b.scope == phys::BufferScope::InvocationWorkspace)
        return b;
    ADD_FAILURE() << "no launch-sized workspace";
    return p.buffers.back();
  };
  broken([&](phys::Program &p) { status(p).init = phys::InitMode::FirstWrite; },
         "[coop]", "program count must be min(");
  broken([&](phys::Program &p) {
    phys::Buffer &b = status(p);
    b.sizeExpr = static_cast<int>(p.segments[0].length); // no ticket word
  }, "[coop]", "program count must be min(");
  broken([&](phys::Program &p) {
    phys::Buffer extra = status(p);
    extra.id = p.buffers.size();
    extra.sizeExpr = -1;
    extra.size = 4;
    extra.workspaceOffset = 4096;
    extra.name = "after";
    p.buffers.push_back(extra);
  }, "[buffer-instance]", "sized per launch must be the last one");
  broken([&](phys::Program &p) { status(p).size = 8; }, "[buffer-instance]",
         "needs an i64 launch expression");
  // [scope]: the occupancy ask fits a multiprocessor (2048 threads).
  broken([&](phys::Program &p) { p.minCtasPerSm = 9; }, "[scope]",
         "min_ctas 9 needs a cta program");
}
