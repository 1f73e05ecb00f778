//===- StructuredDiffTest.cpp - Structured ops: construct(k) == reference --===//
//
// Differential tests of reduce, scan, argreduce, region_fold and region_scan
// (test/lit/construction/*.kir): a serial C++ reference (the header's
// semantics, RefSemantics.h), the KIR interpreter and the physical
// program (in order and shuffled with race detection) on random inputs of
// sizes 0, 1, odd and large, with ties, NaN, +-inf and -0.0 where they
// matter. Integer results and arg-reductions are compared bit for bit; float
// results of reassociable folds within a tolerance against the reference
// (the two interpreters always agree bit for bit).
//
//===----------------------------------------------------------------------===//

#include "DiffHarness.h"

#include "RefSemantics.h"

#include <cmath>
#include <limits>

using namespace intent;
using namespace intent::test;
using kir::ScalarKind;

namespace {

const ScalarKind F32 = ScalarKind::F32;
const ScalarKind F64 = ScalarKind::F64;
const ScalarKind I32 = ScalarKind::I32;
const ScalarKind I64 = ScalarKind::I64;
const std::vector<std::pair<int64_t, int64_t>> Sizes2D = {
    {0, 5}, {5, 0}, {1, 1}, {3, 7}, {31, 17}, {4, 300}};
const DiffOptions Reassociable{1e-5};

const kir::Kernel &kernelNamed(const kir::Module &m, const std::string &name) {
  for (const auto &k : m.kernels)
    if (k->name == name)
      return *k;
  ADD_FAILURE() << "no kernel @" << name;
  return *m.kernels[0];
}

/// Floats drawn from a small set full of ties, signed zeros, infinities and
/// (with `nan`) NaN.
std::function<interp::Scalar(std::mt19937_64 &)> specialFloats(ScalarKind k,
                                                               bool nan) {
  return [k, nan](std::mt19937_64 &rng) {
    static const double pool[] = {
        1.0, -1.0, 0.0, -0.0, 2.5, 2.5, -2.5,
        std::numeric_limits<double>::infinity(),
        -std::numeric_limits<double>::infinity(),
        std::numeric_limits<double>::quiet_NaN()};
    unsigned n = nan ? 10 : 9;
    return interp::Scalar::ofFloat(k, pool[rng() % n]);
  };
}

using ref::index;

/// Row-major element (i, j) of a rank-2 argument with `cols` columns.
template <class T> T &at(Memory &m, unsigned arg, index cols, index i, index j) {
  return m.as<T>(arg)[i * cols + j];
}

//===----------------------------------------------------------------------===//
// Row softmax and layernorm: shared producers, several outputs.
//===----------------------------------------------------------------------===//

TEST(StructuredDiff, RowSoftmax) {
  auto m = loadKernel("softmax.kir");
  for (auto [r, c] : Sizes2D)
    for (bool special : {false, true}) {
      ArgSpec in = ArgSpec::view(F32, {r, c});
      if (special)
        in.gen = specialFloats(F32, /*nan=*/true);
      std::vector<ArgSpec> a = {ArgSpec::view(F32, {r, c}), in};
      auto ref = [&, r = r, c = c](Memory &mem) {
        auto x = [&](index i, index j) { return at<float>(mem, 1, c, i, j); };
        for (index i = 0; i < r; ++i) {
          float mx = ref::reduce(0, c, -INFINITY, ref::opsMax<float>,
                                 [&](index j) { return x(i, j); });
          float s = ref::reduce(0, c, 0.0f, std::plus<float>(), [&](index j) {
            return std::exp(x(i, j) - mx);
          });
          for (index j = 0; j < c; ++j)
            at<float>(mem, 0, c, i, j) = std::exp(x(i, j) - mx) / s;
        }
      };
      DiffOutcome o = runDifferential(*m->kernels[0], a, ref,
                                      r * 100 + c + special, Reassociable);
      EXPECT_EQ(o.total, r) << "one instance per row";
    }
}

TEST(StructuredDiff, LayernormMeanVarianceAndNormalizedRows) {
  auto m = loadKernel("layernorm.kir");
  for (auto [r, c] : Sizes2D) {
    std::vector<ArgSpec> a = {ArgSpec::view(F32, {r, c}), ArgSpec::view(F32, {r}),
                              ArgSpec::view(F32, {r}), ArgSpec::view(F32, {r, c}),
                              ArgSpec::f32(1e-5f)};
    auto ref = [&, r = r, c = c](Memory &mem) {
      auto x = [&](index i, index j) { return at<float>(mem, 3, c, i, j); };
      for (index i = 0; i < r; ++i) {
        float n = static_cast<float>(c);
        float mu = ref::reduce(0, c, 0.0f, std::plus<float>(),
                               [&](index j) { return x(i, j); }) /
                   n;
        float v = ref::reduce(0, c, 0.0f, std::plus<float>(), [&](index j) {
                    float d = x(i, j) - mu;
                    return d * d;
                  }) /
                  n;
        mem.as<float>(1)[i] = mu;
        mem.as<float>(2)[i] = v;
        float sd = std::sqrt(v + 1e-5f);
        for (index j = 0; j < c; ++j)
          at<float>(mem, 0, c, i, j) = (x(i, j) - mu) / sd;
      }
    };
    DiffOutcome o = runDifferential(*m->kernels[0], a, ref, r * 7 + c, Reassociable);
    EXPECT_EQ(o.total, r);
  }
}

//===----------------------------------------------------------------------===//
// Region fold / region scan.
//===----------------------------------------------------------------------===//

TEST(StructuredDiff, CsrSpmv) {
  auto m = loadKernel("csr_spmv.kir");
  for (int64_t rows : {-1, 0, 1, 7, 100}) {
    // rows == -1: an empty rowptr view (no regions at all).
    std::vector<int64_t> off =
        rows < 0 ? std::vector<int64_t>{} : randomOffsets(rows, 9, rows + 5);
    int64_t nnz = off.empty() ? 0 : off.back();
    int64_t cols = 13;
    int64_t nrows = std::max<int64_t>(rows, 0);
    ArgSpec col = ArgSpec::view(I32, {nnz});
    col.gen = [cols](std::mt19937_64 &rng) {
      return interp::Scalar::ofInt(I32, rng() % cols);
    };
    ArgSpec rowptr = off.empty() ? ArgSpec::view(I64, {0}) : fixedView(I64, off);
    std::vector<ArgSpec> a = {ArgSpec::view(F32, {nrows}), rowptr,
                              ArgSpec::view(F32, {nnz}), col,
                              ArgSpec::view(F32, {cols})};
    auto ref = [&](Memory &mem) {
      const float *val = mem.as<float>(2), *x = mem.as<float>(4);
      const int32_t *cl = mem.as<int32_t>(3);
      ref::regionFold(mem.as<int64_t>(1), static_cast<index>(off.size()), 0.0f,
                      std::plus<float>(),
                      [&](index, index k) { return val[k] * x[cl[k]]; },
                      [&](index r, float s) { mem.as<float>(0)[r] = s; });
    };
    DiffOutcome o = runDifferential(*m->kernels[0], a, ref, rows + 11, Reassociable);
    // region-teams: regions of fewer than 16 members on average take one
    // thread each, 256 per program.
    EXPECT_EQ(o.total, (nrows + 255) / 256) << "256 regions (rows) per CTA";
  }
}

TEST(StructuredDiff, SegmentedPrefixSumIsBitExact) {
  auto m = loadKernel("segmented_scan.kir");
  const kir::Kernel &k = kernelNamed(*m, "segscan");
  for (int64_t rows : {0, 1, 7, 64}) {
    std::vector<int64_t> off = randomOffsets(rows, 40, rows * 3 + 1);
    int64_t n = off.back();
    std::vector<int32_t> off32(off.begin(), off.end());
    ArgSpec x = ArgSpec::view(I32, {n});
    x.gen = [](std::mt19937_64 &rng) {
      // Large values so that the sums wrap around.
      return interp::Scalar::ofInt(I32, static_cast<int32_t>(rng()));
    };
    std::vector<ArgSpec> a = {ArgSpec::view(I32, {n}), x, fixedView(I32, off32)};
    auto ref = [&](Memory &mem) {
      const int32_t *xs = mem.as<int32_t>(1);
      ref::regionScan(
          mem.as<int32_t>(2), static_cast<index>(off.size()), int32_t(0),
          [](int32_t p, int32_t q) {
            return static_cast<int32_t>(static_cast<uint32_t>(p) +
                                        static_cast<uint32_t>(q));
          },
          [&](index, index j) { return xs[j]; },
          [&](index, index j, int32_t p) { mem.as<int32_t>(0)[j] = p; });
    };
    DiffOutcome o = runDifferential(k, a, ref, rows + 1);
    EXPECT_EQ(o.total, rows);
  }
}

TEST(StructuredDiff, SegmentedExclusiveReverseScanWithUserCombine) {
  auto m = loadKernel("segmented_scan.kir");
  const kir::Kernel &k = kernelNamed(*m, "segscan_rev");
  for (int64_t rows : {0, 1, 5, 33}) {
    std::vector<int64_t> off = randomOffsets(rows, 12, rows + 77);
    int64_t n = off.back();
    std::vector<ArgSpec> a = {ArgSpec::view(F32, {n}), ArgSpec::view(F32, {n}),
                              fixedView(I64, off), ArgSpec::f32(0.5f)};
    auto ref = [&](Memory &mem) {
      const float *xs = mem.as<float>(1);
      ref::regionScan(
          mem.as<int64_t>(2), static_cast<index>(off.size()), 0.5f,
          [](float p, float q) { return p * q + q; },
          [&](index r, index j) { return xs[j] + static_cast<float>(r); },
          [&](index, index j, float p) { mem.as<float>(0)[j] = p; },
          /*exclusive=*/true, /*reverse=*/true);
    };
    // Not reassociable: bit for bit.
    runDifferential(k, a, ref, rows + 2);
  }
}

TEST(StructuredDiff, RegionFoldSerializedAndBatched) {
  auto m = loadKernel("region_fold_ordered.kir");
  for (int64_t rows : {0, 1, 9, 50}) {
    std::vector<int64_t> off = randomOffsets(rows, 6, rows + 3);
    int64_t n = off.back();
    index extent = static_cast<index>(off.size());
    {
      std::vector<ArgSpec> a = {ArgSpec::view(F32, {1}), fixedView(I64, off),
                                ArgSpec::view(F32, {n})};
      auto ref = [&](Memory &mem) {
        const float *xs = mem.as<float>(2);
        float *y = mem.as<float>(0);
        ref::regionFold(mem.as<int64_t>(1), extent, 0.0f, std::plus<float>(),
                        [&](index, index j) { return xs[j]; },
                        [&](index, float s) { y[0] = y[0] + s; });
      };
      DiffOutcome o = runDifferential(kernelNamed(*m, "total"), a, ref, rows);
      EXPECT_EQ(o.total, 1) << "a conflicting store region serializes";
    }
    for (int64_t batches : {0, 3}) {
      std::vector<ArgSpec> a = {ArgSpec::view(F32, {batches, rows}),
                                fixedView(I64, off),
                                ArgSpec::view(F32, {batches, n})};
      auto ref = [&](Memory &mem) {
        for (index b = 0; b < batches; ++b)
          ref::regionFold(
              mem.as<int64_t>(1), extent, 0.0f, std::plus<float>(),
              [&](index, index j) { return at<float>(mem, 2, n, b, j); },
              [&](index r, float s) { at<float>(mem, 0, rows, b, r) = s; });
      };
      DiffOutcome o =
          runDifferential(kernelNamed(*m, "batched"), a, ref, rows + batches);
      EXPECT_EQ(o.total, batches);
    }
  }
}

//===----------------------------------------------------------------------===//
// Arg-reduce: ties, NaN, +-inf, -0.0.
//===----------------------------------------------------------------------===//

TEST(StructuredDiff, ArgmaxRowsWithNaNTiesAndSignedZeros) {
  auto m = loadKernel("argmax_rows.kir");
  for (auto [r, c] : Sizes2D)
    for (bool nan : {false, true}) {
      ArgSpec x = ArgSpec::view(F32, {r, c});
      x.gen = specialFloats(F32, nan);
      std::vector<ArgSpec> a = {ArgSpec::view(F32, {r}), ArgSpec::view(I64, {r}), x};
      auto ref = [&, r = r, c = c](Memory &mem) {
        for (index i = 0; i < r; ++i) {
          auto res = ref::argReduce<float>(
              /*isMax=*/true, 0, c,
              [&](index j) { return at<float>(mem, 2, c, i, j); },
              /*tieLast=*/false, /*ignoreNaN=*/false);
          mem.as<float>(0)[i] = res.value;
          mem.as<int64_t>(1)[i] = res.pos;
        }
      };
      runDifferential(kernelNamed(*m, "argmax_rows"), a, ref, r * 13 + c + nan);
    }
}

TEST(StructuredDiff, ArgminLastIgnoreOverRuntimeRange) {
  auto m = loadKernel("argmax_rows.kir");
  for (int64_t n : {0, 1, 8, 257})
    for (auto [b, e] : std::vector<std::pair<int64_t, int64_t>>{
             {0, n}, {n / 2, n}, {n, n / 2}, {0, 0}}) {
      ArgSpec x = ArgSpec::view(F64, {n});
      x.gen = specialFloats(F64, true);
      std::vector<ArgSpec> a = {ArgSpec::view(F64, {1}), ArgSpec::view(I64, {1}), x,
                                ArgSpec::i64(b), ArgSpec::i64(e)};
      auto ref = [&, b = b, e = e](Memory &mem) {
        const double *xs = mem.as<double>(2);
        auto res = ref::argReduce<double>(
            /*isMax=*/false, b, e, [&](index j) { return xs[j]; },
            /*tieLast=*/true, /*ignoreNaN=*/true);
        mem.as<double>(0)[0] = res.value;
        mem.as<int64_t>(1)[0] = res.pos;
      };
      runDifferential(kernelNamed(*m, "argmin_last_ignore"), a, ref, n + b);
    }
}

TEST(StructuredDiff, ArgmaxIntegersTieLast) {
  auto m = loadKernel("argmax_rows.kir");
  for (auto [r, c] : Sizes2D) {
    ArgSpec x = ArgSpec::view(I32, {r, c});
    x.gen = [](std::mt19937_64 &rng) {
      static const int32_t pool[] = {3, -7, 3, std::numeric_limits<int32_t>::min(),
                                     std::numeric_limits<int32_t>::max(), 0};
      return interp::Scalar::ofInt(I32, pool[rng() % 6]);
    };
    std::vector<ArgSpec> a = {ArgSpec::view(I64, {r}), x};
    auto ref = [&, r = r, c = c](Memory &mem) {
      for (index i = 0; i < r; ++i)
        mem.as<int64_t>(0)[i] =
            ref::argReduce<int32_t>(
                /*isMax=*/true, 0, c,
                [&](index j) { return at<int32_t>(mem, 1, c, i, j); },
                /*tieLast=*/true, /*ignoreNaN=*/false)
                .pos;
    };
    runDifferential(kernelNamed(*m, "argmax_int"), a, ref, r + c);
  }
}

//===----------------------------------------------------------------------===//
// Scans and reductions with several components; mixed groups.
//===----------------------------------------------------------------------===//

TEST(StructuredDiff, LinearRecurrenceScanWithPairState) {
  auto m = loadKernel("linear_recurrence.kir");
  for (auto [r, c] : Sizes2D) {
    ArgSpec av = ArgSpec::view(F32, {r, c});
    av.gen = [](std::mt19937_64 &rng) {
      return interp::Scalar::ofFloat(
          F32, std::uniform_real_distribution<double>(-1, 1)(rng));
    };
    std::vector<ArgSpec> a = {ArgSpec::view(F32, {r, c}), av,
                              ArgSpec::view(F32, {r, c}), ArgSpec::view(F32, {r})};
    auto ref = [&, r = r, c = c](Memory &mem) {
      struct AB {
        float a, b;
      };
      const float *h0 = mem.as<float>(3);
      for (index i = 0; i < r; ++i)
        ref::scan(
            0, c, AB{1.0f, 0.0f},
            [](AB p, AB q) { return AB{p.a * q.a, q.a * p.b + q.b}; },
            [&](index t) {
              return AB{at<float>(mem, 1, c, i, t), at<float>(mem, 2, c, i, t)};
            },
            [&](index t, const AB &p) {
              at<float>(mem, 0, c, i, t) = p.a * h0[i] + p.b;
            });
    };
    // Construction's mapping: a thread per row (scan-teams, which gives a
    // row a team and regroups the float combines, is ScanTeamsTest's).
    DiffOptions serial = Reassociable;
    serial.pipeline.disabledPasses = {"scan-teams"};
    DiffOutcome o = runDifferential(*m->kernels[0], a, ref, r * 3 + c, serial);
    EXPECT_EQ(o.total, r) << "batch rows are the workset";
  }
}

TEST(StructuredDiff, MeanAndVarianceInOneLaunch) {
  auto m = loadKernel("mean_var.kir");
  for (int64_t n : {0, 1, 7, 33, 1000}) {
    std::vector<ArgSpec> a = {ArgSpec::view(F32, {2}), ArgSpec::view(F32, {n})};
    auto ref = [&](Memory &mem) {
      const float *x = mem.as<float>(1);
      struct W {
        int64_t n;
        float mean, m2;
      };
      W w = ref::reduce(
          0, n, W{0, 0.0f, 0.0f},
          [](W p, W q) {
            int64_t cnt = p.n + q.n;
            if (cnt == 0)
              return W{cnt, p.mean, p.m2};
            float d = q.mean - p.mean;
            float qn = static_cast<float>(q.n), tn = static_cast<float>(cnt);
            float mean = p.mean + d * qn / tn;
            float m2 = p.m2 + q.m2 + d * d * static_cast<float>(p.n) * qn / tn;
            return W{cnt, mean, m2};
          },
          [&](index k) { return W{1, x[k], 0.0f}; });
      mem.as<float>(0)[0] = w.mean;
      mem.as<float>(0)[1] = w.m2 / static_cast<float>(w.n);
    };
    // One thread folds the members in order (cta-rows would regroup the
    // float Welford merges over a CTA: CtaPhasesTest covers that form with
    // exact data).
    DiffOptions serial = Reassociable;
    serial.pipeline.disabledPasses = {"cta-rows"};
    DiffOutcome o = runDifferential(*m->kernels[0], a, ref, n, serial);
    EXPECT_EQ(o.total, 1) << "a reduce stored once: one instance";
  }
}

int64_t wrapAdd(int64_t p, int64_t q) {
  return static_cast<int64_t>(static_cast<uint64_t>(p) + static_cast<uint64_t>(q));
}

TEST(StructuredDiff, ReduceOverRuntimeRangeAndNestedReduce) {
  auto m = loadKernel("reduce_range.kir");
  for (auto [r, c] : Sizes2D)
    for (auto [b, e] : std::vector<std::pair<int64_t, int64_t>>{
             {0, r * c}, {r * c / 3, r * c}, {r * c, 0}}) {
      ArgSpec mv = ArgSpec::view(I64, {r, c});
      mv.gen = [](std::mt19937_64 &rng) {
        return interp::Scalar::ofInt(I64, static_cast<int64_t>(rng()));
      };
      std::vector<ArgSpec> a = {ArgSpec::view(I64, {2}), mv, ArgSpec::i64(b),
                                ArgSpec::i64(e)};
      auto ref = [&, r = r, c = c, b = b, e = e](Memory &mem) {
        auto mm = [&](index i, index j) { return at<int64_t>(mem, 1, c, i, j); };
        mem.as<int64_t>(0)[0] = ref::reduce(
            b, e, int64_t(0), wrapAdd, [&](index k) { return mm(k / c, k % c); });
        mem.as<int64_t>(0)[1] = ref::reduce(
            0, r, int64_t(0), [](int64_t p, int64_t q) { return p ^ q; },
            [&](index i) {
              return ref::reduce(
                  0, c, int64_t(1),
                  [](int64_t p, int64_t q) {
                    return static_cast<int64_t>(static_cast<uint64_t>(p) *
                                                static_cast<uint64_t>(q));
                  },
                  [&](index j) { return mm(i, j); });
            });
      };
      DiffOutcome o = runDifferential(*m->kernels[0], a, ref, r + c + b);
      EXPECT_EQ(o.total, 1);
    }
}

TEST(StructuredDiff, MixedScanReducePointwiseGroupsInOneLaunch) {
  auto m = loadKernel("mixed_groups.kir");
  for (int64_t n : {0, 1, 9, 200})
    for (auto [r, c] : Sizes2D) {
      ArgSpec x = ArgSpec::view(I64, {n});
      x.gen = [](std::mt19937_64 &rng) {
        return interp::Scalar::ofInt(I64, static_cast<int64_t>(rng()));
      };
      ArgSpec mv = ArgSpec::view(I32, {r, c});
      mv.gen = [](std::mt19937_64 &rng) {
        return interp::Scalar::ofInt(I32, static_cast<int32_t>(rng()));
      };
      int64_t nz = n + 3;
      std::vector<ArgSpec> a = {ArgSpec::view(I64, {n}), x, ArgSpec::view(I32, {r}),
                                mv, ArgSpec::view(F32, {nz}), ArgSpec::view(F32, {nz})};
      auto ref = [&, r = r, c = c](Memory &mem) {
        const int64_t *xs = mem.as<int64_t>(1);
        ref::scan(
            0, n, int64_t(0), wrapAdd, [&](index k) { return xs[k]; },
            [&](index k, int64_t s) { mem.as<int64_t>(0)[k] = s; },
            /*exclusive=*/true);
        for (index i = 0; i < r; ++i)
          mem.as<int32_t>(2)[i] = ref::reduce(
              0, c, std::numeric_limits<int32_t>::min(),
              [](int32_t u, int32_t v) { return u < v ? v : u; },
              [&](index j) { return at<int32_t>(mem, 3, c, i, j); });
        for (index i = 0; i < nz; ++i)
          mem.as<float>(5)[i] = mem.as<float>(4)[i] * 2.0f;
      };
      DiffOutcome o = runDifferential(*m->kernels[0], a, ref, n * 5 + r + c);
      ASSERT_EQ(o.segmentLengths.size(), 3u);
      EXPECT_EQ(o.segmentLengths[0], 1) << "the scan group is one instance";
      // region-teams gives the row group (rows of c < 16 members at launch)
      // one thread per row, 256 rows per program; the others keep one
      // instance per thread, 256 per program.
      EXPECT_EQ(o.segmentLengths[1], (r + 255) / 256)
          << "the reduce group: teams of one thread";
      EXPECT_EQ(o.segmentLengths[2], ((nz + 3) / 4 + 255) / 256)
          << "the pointwise group, widened into chunks of 4 elements, 256 "
             "chunks per program";
    }
}

} // namespace
