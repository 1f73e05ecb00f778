//===- PrivatizeTest.cpp - privatize-atomics against the KIR interpreter ---===//
//
// Histograms and atomic scatters mapped by privatize-atomics
// (test/lit/emit/privatize.kir): the physical interpreter runs each CTA as
// fibers (real barriers, shared memory, the race check) in forward and
// shuffled program order, and the views must equal the KIR interpreter's
// and a serial C++ reference exactly (integer counts; float weights that
// are small integers, whose sums are exact). Sample counts 0, 1, a CTA's
// edge, several programs; more bins than samples (the copies are not used:
// every update takes the global atomic). Kernels that must keep their
// global atomics stay thread programs.
//
//===----------------------------------------------------------------------===//

#include "DiffHarness.h"

#include "Physical/IR.h"

using namespace intent;
using namespace intent::test;
using kir::ScalarKind;

namespace {

std::unique_ptr<kir::Module> privatizeModule() { return litModule("emit", "privatize.kir"); }

ArgSpec intsIn(ScalarKind k, int64_t n, int64_t lo, int64_t hi) {
  ArgSpec a = ArgSpec::view(k, {n});
  a.gen = [k, lo, hi](std::mt19937_64 &rng) {
    int64_t v = lo + static_cast<int64_t>(rng() % static_cast<uint64_t>(hi - lo + 1));
    return kir::Type::scalar(k).isFloat()
               ? interp::Scalar::ofFloat(k, static_cast<double>(v))
               : interp::Scalar::ofInt(k, v);
  };
  return a;
}

ArgSpec zeros(ScalarKind k, std::vector<int64_t> ext) {
  ArgSpec a = ArgSpec::view(k, std::move(ext));
  a.gen = [k](std::mt19937_64 &) {
    return kir::Type::scalar(k).isFloat() ? interp::Scalar::ofFloat(k, 0.0)
                                          : interp::Scalar::ofInt(k, 0);
  };
  return a;
}

const int64_t Samples[] = {0, 1, 255, 256, 257, 1025, 4099};

bool privatized(const kir::Kernel &k) {
  PipelineResult r = runPipeline(k, {});
  if (!r.ok())
    return false;
  bool copy = false;
  for (const phys::Buffer &b : r.program->buffers)
    copy |= b.privatizes >= 0;
  return r.program->scope == phys::ExecScope::CTA && copy;
}

} // namespace

TEST(Privatize, MapsScattersAndLeavesOrderedOnesAlone) {
  auto m = privatizeModule();
  for (const char *k : {"count_u32", "weighted", "classes", "image"})
    EXPECT_TRUE(privatized(kernelNamed(*m, k))) << k;
  for (const char *k : {"tickets", "ordered_counts", "mixed"})
    EXPECT_FALSE(privatized(kernelNamed(*m, k))) << k;
}

TEST(Privatize, HistogramCountsExactly) {
  auto m = privatizeModule();
  for (int64_t n : Samples)
    for (int64_t bins : {16, 5000}) {
      // Samples scaled by 1: bins floor(x), some below 0 and past the end.
      ArgSpec x = intsIn(ScalarKind::F32, n, -2, bins + 1);
      std::vector<ArgSpec> a = {zeros(ScalarKind::U32, {bins}), x,
                                ArgSpec::f32(1.0f)};
      auto ref = [n, bins](Memory &mem) {
        uint32_t *c = mem.as<uint32_t>(0);
        const float *xs = mem.as<float>(1);
        for (int64_t i = 0; i < n; ++i) {
          int64_t b = static_cast<int64_t>(std::floor(xs[i]));
          if (b >= 0 && b < bins)
            ++c[b];
        }
      };
      DiffOutcome d = runDifferential(kernelNamed(*m, "count_u32"), a, ref, n + bins);
      // One CTA per 1024 samples, at most 8 per multiprocessor (the
      // interpreter counts one).
      EXPECT_EQ(d.total, std::min<int64_t>((n + 1023) / 1024, 8)) << n;
    }
}

TEST(Privatize, WeightedSumsOfTwoViews) {
  auto m = privatizeModule();
  for (int64_t n : Samples) {
    const int64_t bins = 37;
    std::vector<ArgSpec> a = {zeros(ScalarKind::F32, {bins}),
                              zeros(ScalarKind::F64, {bins}),
                              intsIn(ScalarKind::I32, n, -3, bins + 2),
                              intsIn(ScalarKind::F32, n, -4, 4)};
    auto ref = [n, bins](Memory &mem) {
      float *s = mem.as<float>(0);
      double *q = mem.as<double>(1);
      const int32_t *b = mem.as<int32_t>(2);
      const float *w = mem.as<float>(3);
      for (int64_t i = 0; i < n; ++i)
        if (b[i] >= 0 && b[i] < bins) {
          s[b[i]] += w[i];
          q[b[i]] += double(w[i]) * w[i];
        }
    };
    runDifferential(kernelNamed(*m, "weighted"), a, ref, 3 * n + 1);
  }
}

TEST(Privatize, VectorChunksMatchTheirFallbacks) {
  // A one-dimensional group whose instances load their samples at their
  // own coordinate reads them in chunks of 16 bytes (vector loads, the
  // rest of each instance once per lane); the N mod W instances left, a
  // misaligned view and the bounds-checked launch take one instance per
  // chunk. Each equals the KIR interpreter exactly. Swapping two lanes of
  // every vector load changes the weighted sums exactly when the vector
  // path ran (with aligned views), never with misaligned ones.
  auto m = privatizeModule();
  for (int64_t n : {int64_t(4), int64_t(257), int64_t(1025), int64_t(4099)}) {
    const int64_t bins = 37;
    struct Case {
      const char *name;
      std::vector<ArgSpec> args;
    };
    std::vector<Case> cases = {
        {"count_u32", {zeros(ScalarKind::U32, {bins}),
                       intsIn(ScalarKind::F32, n, -2, bins + 1), ArgSpec::f32(1.0f)}},
        {"weighted", {zeros(ScalarKind::F32, {bins}), zeros(ScalarKind::F64, {bins}),
                      intsIn(ScalarKind::I32, n, -3, bins + 2),
                      intsIn(ScalarKind::F32, n, -4, 4)}}};
    for (const Case &c : cases) {
      const kir::Kernel &k = kernelNamed(*m, c.name);
      Memory init = makeMemory(c.args, n + 17), want = init;
      ASSERT_TRUE(interp::runKernel(k, bind(c.args, want)).ok);
      auto same = [&](const Memory &got) { return sameViews(c.args, got, want); };
      for (int mutated = 0; mutated < 2; ++mutated) {
        PipelineResult r = runPipeline(k, {});
        ASSERT_TRUE(r.ok()) << c.name;
        int vectors = 0;
        phys::walkMutable(*r.program->body, [&](phys::Op &o) {
          if (o.opcode != phys::Opcode::VectorLoad)
            return;
          ++vectors;
          if (mutated) {
            std::swap(o.results[0], o.results[1]);
            o.results[0]->resultNo = 0;
            o.results[1]->resultNo = 1;
          }
        });
        EXPECT_GT(vectors, 0) << c.name;
        for (int variant = 0; variant < 3; ++variant) {
          interp::PhysRunOptions opts;
          opts.misalignedViews = variant == 1;
          opts.checkedLaunch = variant == 2;
          Memory mem = init;
          interp::PhysRunResult pr = interp::runProgram(*r.program, bind(c.args, mem), opts);
          ASSERT_TRUE(pr.ok) << c.name << " variant " << variant << ": " << pr.error;
          // (A histogram of swapped samples is the same histogram.)
          const bool changed = mutated && variant == 0 && std::string(c.name) == "weighted";
          EXPECT_EQ(same(mem), !changed)
              << c.name << " n " << n << " variant " << variant << " mutated " << mutated;
        }
      }
    }
  }
}

TEST(Privatize, TwoDimensionalBinsNextToAPlainStore) {
  auto m = privatizeModule();
  for (int64_t n : Samples) {
    const int64_t buckets = 11;
    ArgSpec x = ArgSpec::view(ScalarKind::F32, {n});
    x.gen = [](std::mt19937_64 &rng) {
      return interp::Scalar::ofFloat(ScalarKind::F32,
                                     static_cast<double>(rng() % 1000) / 1000.0);
    };
    std::vector<ArgSpec> a = {zeros(ScalarKind::I32, {3, buckets}),
                              zeros(ScalarKind::I32, {n}),
                              intsIn(ScalarKind::I32, n, 0, 2), x};
    auto ref = [n, buckets](Memory &mem) {
      int32_t *c = mem.as<int32_t>(0);
      int32_t *as = mem.as<int32_t>(1);
      const int32_t *cls = mem.as<int32_t>(2);
      const float *xs = mem.as<float>(3);
      for (int64_t i = 0; i < n; ++i) {
        int64_t b = static_cast<int64_t>(xs[i] * static_cast<float>(buckets));
        if (b >= buckets)
          b = buckets - 1;
        as[i] = static_cast<int32_t>(b);
        ++c[cls[i] * buckets + b];
      }
    };
    runDifferential(kernelNamed(*m, "classes"), a, ref, 5 * n + 2);
  }
}

TEST(Privatize, ImageOverATwoDimensionalDomain) {
  auto m = privatizeModule();
  for (int64_t rows : {0, 1, 7, 40})
    for (int64_t cols : {1, 33}) {
      std::vector<ArgSpec> a = {zeros(ScalarKind::I32, {64}),
                                ArgSpec::view(ScalarKind::U8, {rows, cols})};
      a[1].gen = [](std::mt19937_64 &rng) {
        return interp::Scalar::ofInt(ScalarKind::U8, static_cast<int64_t>(rng() % 256));
      };
      auto ref = [rows, cols](Memory &mem) {
        int32_t *c = mem.as<int32_t>(0);
        const uint8_t *px = mem.as<uint8_t>(1);
        for (int64_t i = 0; i < rows * cols; ++i)
          ++c[px[i] / 4];
      };
      runDifferential(kernelNamed(*m, "image"), a, ref, rows * 100 + cols);
    }
}

TEST(Privatize, ADroppedBarrierIsARace) {
  // Without the barrier between the zeroing and the updates (or between
  // the updates and the merge), threads touch a copy's element in one
  // interval: the interpreter reports the shared-memory race.
  auto m = privatizeModule();
  for (int drop : {0, 1}) {
    PipelineResult r = runPipeline(kernelNamed(*m, "count_u32"), {});
    ASSERT_TRUE(r.ok());
    ASSERT_TRUE(eraseNthOp(*r.program, drop,
                           [](const phys::Block &blk, size_t i) {
                             return blk.ops[i]->opcode == phys::Opcode::Barrier;
                           }));
    const int64_t n = 3000, bins = 4;
    std::vector<ArgSpec> a = {zeros(ScalarKind::U32, {bins}),
                              intsIn(ScalarKind::F32, n, 0, bins - 1),
                              ArgSpec::f32(1.0f)};
    Memory mem = makeMemory(a, 5);
    interp::PhysRunResult pr = interp::runProgram(*r.program, intent::test::bind(a, mem));
    EXPECT_FALSE(pr.ok) << "barrier " << drop;
    EXPECT_NE(pr.error.find("race"), std::string::npos) << pr.error;
  }
}
