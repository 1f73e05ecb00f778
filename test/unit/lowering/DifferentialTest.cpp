//===- DifferentialTest.cpp - construct(k) == reference on random inputs --===//
//
// One test per kernel of test/lit/construction/: the C++ serial reference,
// the KIR interpreter and the physical interpreter (program order and
// shuffled with race detection) must agree bit for bit, for sizes 0, 1, odd
// and large-ish.
//
//===----------------------------------------------------------------------===//

#include "DiffHarness.h"

using namespace intent;
using namespace intent::test;
using kir::ScalarKind;

namespace {

const ScalarKind F32 = ScalarKind::F32;
const std::vector<int64_t> Sizes1D = {0, 1, 7, 33, 1000};
const std::vector<std::pair<int64_t, int64_t>> Sizes2D = {
    {0, 5}, {5, 0}, {1, 1}, {3, 7}, {31, 17}, {33, 70}};

/// Programs of a 2-D pointwise segment after the tile pass: tiles of TY x TX
/// instances, TX = 32 or the smallest power of two >= a shorter row, TY =
/// 1024 / TX (docs/passes.md §9).
int64_t tiles(int64_t r, int64_t c) {
  int64_t tx = 1;
  while (tx < 32 && c > tx)
    tx *= 2;
  int64_t ty = 1024 / tx;
  return ((r + ty - 1) / ty) * ((c + tx - 1) / tx);
}

TEST(Differential, Saxpy) {
  auto m = loadKernel("saxpy.kir");
  for (int64_t n : Sizes1D) {
    std::vector<ArgSpec> a = {ArgSpec::view(F32, {n}), ArgSpec::view(F32, {n}),
                              ArgSpec::f32(1.5f)};
    auto ref = [&](Memory &mem) {
      float *y = mem.as<float>(0), *x = mem.as<float>(1);
      for (int64_t i = 0; i < n; ++i)
        y[i] = 1.5f * x[i] + y[i];
    };
    DiffOutcome o = runDifferential(*m->kernels[0], a, ref, 100 + n);
    // Widened (docs/passes.md §6): one program per chunk of 4 elements.
    EXPECT_EQ(o.total, (n + 3) / 4);
  }
}

TEST(Differential, Nested2DFlattened) {
  auto m = loadKernel("nested_2d.kir");
  for (auto [r, c] : Sizes2D) {
    std::vector<ArgSpec> a = {ArgSpec::view(F32, {r, c}),
                              ArgSpec::view(F32, {r, c}), ArgSpec::f32(-0.25f)};
    auto ref = [&](Memory &mem) {
      float *out = mem.as<float>(0), *in = mem.as<float>(1);
      for (int64_t i = 0; i < r; ++i)
        for (int64_t j = 0; j < c; ++j)
          out[i * c + j] = in[i * c + j] * -0.25f;
    };
    DiffOutcome o = runDifferential(*m->kernels[0], a, ref, 7 * r + c);
    EXPECT_EQ(o.total, tiles(r, c)) << "one program per tile of (i, j)";
  }
}

TEST(Differential, TwoGroupsDifferentExtentsAndRanks) {
  auto m = loadKernel("two_groups.kir");
  for (int64_t n : {0, 1, 9, 100})
    for (auto [r, c] : Sizes2D) {
      std::vector<ArgSpec> a = {ArgSpec::view(F32, {n}),
                                ArgSpec::view(F32, {r, c}),
                                ArgSpec::view(F32, {n})};
      auto ref = [&](Memory &mem) {
        float *y = mem.as<float>(0), *z = mem.as<float>(1), *x = mem.as<float>(2);
        for (int64_t i = 0; i < n; ++i)
          y[i] = x[i] + 1.0f;
        for (int64_t i = 0; i < r; ++i)
          for (int64_t j = 0; j < c; ++j)
            z[i * c + j] = static_cast<float>(i * 10 + j);
      };
      DiffOutcome o = runDifferential(*m->kernels[0], a, ref, n * 31 + r + c);
      ASSERT_EQ(o.segmentLengths.size(), 2u);
      // Group 1 is tiled (a cta program of 1024 threads); group 0 is
      // pointwise: spread over those threads and widened, one instance per
      // chunk of 4.
      EXPECT_EQ(o.segmentLengths[0], ((n + 3) / 4 + 1023) / 1024);
      EXPECT_EQ(o.segmentLengths[1], tiles(r, c));
      EXPECT_EQ(o.total, ((n + 3) / 4 + 1023) / 1024 + tiles(r, c));
    }
}

TEST(Differential, PhasesFusedOverTheLargerExtent) {
  // tmp[i] = 2 x[i] for i < |x|, then out[j] = tmp[j] for j < |out|: one
  // parallel group over max(|x|, |out|), each phase guarded; where |out| >
  // |x| the second phase reads tmp's values from before the launch.
  auto m = loadKernel("fused_extents.kir");
  for (int64_t nx : {0, 1, 7, 100})
    for (int64_t no : {0, 1, 7, 100}) {
      int64_t nt = std::max(nx, no);
      std::vector<ArgSpec> a = {ArgSpec::view(F32, {nt}),
                                ArgSpec::view(F32, {no}),
                                ArgSpec::view(F32, {nx})};
      auto ref = [&](Memory &mem) {
        float *tmp = mem.as<float>(0), *out = mem.as<float>(1),
              *x = mem.as<float>(2);
        for (int64_t i = 0; i < nx; ++i)
          tmp[i] = x[i] * 2.0f;
        for (int64_t j = 0; j < no; ++j)
          out[j] = tmp[j];
      };
      DiffOutcome o = runDifferential(*m->kernels[0], a, ref, nx * 7 + no);
      ASSERT_EQ(o.segmentLengths.size(), 1u);
      EXPECT_EQ(o.segmentLengths[0], nt) << "parallel over max(|x|, |out|)";
    }
}

TEST(Differential, ZeroLengthSegmentLeavesOtherGroupIntact) {
  auto m = loadKernel("two_groups.kir");
  std::vector<ArgSpec> a = {ArgSpec::view(F32, {0}), ArgSpec::view(F32, {4, 3}),
                            ArgSpec::view(F32, {0})};
  auto ref = [&](Memory &mem) {
    float *z = mem.as<float>(1);
    for (int64_t i = 0; i < 4; ++i)
      for (int64_t j = 0; j < 3; ++j)
        z[i * 3 + j] = static_cast<float>(i * 10 + j);
  };
  DiffOutcome o = runDifferential(*m->kernels[0], a, ref, 5);
  ASSERT_EQ(o.segmentLengths.size(), 2u);
  EXPECT_EQ(o.segmentLengths[0], 0);
  EXPECT_EQ(o.total, 1) << "the 4 x 3 group is one tile";
}

TEST(Differential, OrderedLoopWithBreak) {
  auto m = loadKernel("ordered_break.kir");
  for (int64_t n : Sizes1D)
    for (float t : {-10.0f, 0.5f, 3.9f, 10.0f}) {
      std::vector<ArgSpec> a = {ArgSpec::view(ScalarKind::I64, {n + 1}),
                                ArgSpec::view(F32, {n}), ArgSpec::f32(t)};
      auto ref = [&](Memory &mem) {
        int64_t *out = mem.as<int64_t>(0);
        float *x = mem.as<float>(1);
        int64_t i = 0;
        for (; i < n; ++i) {
          if (x[i] > t)
            break;
          out[i] = i;
        }
        out[0] = i;
      };
      DiffOutcome o = runDifferential(*m->kernels[0], a, ref, n + 3);
      EXPECT_EQ(o.total, 1) << "top-level loop: one ordered instance";
    }
}

TEST(Differential, WhileWithCarriedValues) {
  auto m = loadKernel("while_carried.kir");
  for (int64_t n : Sizes1D) {
    ArgSpec x = ArgSpec::view(ScalarKind::I64, {n});
    x.gen = [](std::mt19937_64 &rng) {
      return interp::Scalar::ofInt(ScalarKind::I64,
                                   std::uniform_int_distribution<int64_t>(1, 5000)(rng));
    };
    std::vector<ArgSpec> a = {ArgSpec::view(ScalarKind::I32, {n}), x};
    auto ref = [&](Memory &mem) {
      int32_t *steps = mem.as<int32_t>(0);
      int64_t *xs = mem.as<int64_t>(1);
      for (int64_t i = 0; i < n; ++i) {
        int64_t v = xs[i];
        int32_t c = 0;
        while (v > 1) {
          v = v % 2 == 0 ? v / 2 : v * 3 + 1;
          ++c;
        }
        steps[i] = c;
      }
    };
    runDifferential(*m->kernels[0], a, ref, 9 + n);
  }
}

TEST(Differential, ConservativeMerge) {
  auto m = loadKernel("conservative_merge.kir");
  for (int64_t n : Sizes1D) {
    std::vector<ArgSpec> a = {ArgSpec::view(F32, {n + 1}), ArgSpec::view(F32, {n}),
                              ArgSpec::view(F32, {n + 1})};
    auto ref = [&](Memory &mem) {
      float *y = mem.as<float>(0), *z = mem.as<float>(1), *x = mem.as<float>(2);
      for (int64_t i = 0; i < n + 1; ++i)
        y[i] = x[i] * 2.0f;
      for (int64_t i = 0; i < n; ++i)
        z[i] = y[i + 1] + y[i];
    };
    DiffOutcome o = runDifferential(*m->kernels[0], a, ref, 40 + n);
    EXPECT_EQ(o.total, 1) << "merged into one ordered instance";
  }
}

TEST(Differential, FusedSameInstance) {
  auto m = loadKernel("fused.kir");
  for (int64_t n : Sizes1D) {
    std::vector<ArgSpec> a = {ArgSpec::view(F32, {n}), ArgSpec::view(F32, {n}),
                              ArgSpec::view(F32, {n})};
    auto ref = [&](Memory &mem) {
      float *y = mem.as<float>(0), *z = mem.as<float>(1), *x = mem.as<float>(2);
      for (int64_t i = 0; i < n; ++i)
        y[i] = x[i] * 2.0f;
      for (int64_t i = 0; i < n; ++i)
        z[i] = y[i] + 1.0f;
    };
    DiffOutcome o = runDifferential(*m->kernels[0], a, ref, 50 + n);
    EXPECT_EQ(o.total, n) << "fused: one program per i";
  }
}

TEST(Differential, DataDependentExtent) {
  auto m = loadKernel("data_dependent.kir");
  // The one instance runs on as many programs as the launch can know
  // without reading memory (a cooperative grid: a constant count).
  int64_t total = -1;
  for (int64_t n : Sizes1D)
    for (int64_t cnt : {int64_t(0), n / 2, n}) {
      ArgSpec len = ArgSpec::view(ScalarKind::I64, {1});
      len.gen = [cnt](std::mt19937_64 &) {
        return interp::Scalar::ofInt(ScalarKind::I64, cnt);
      };
      std::vector<ArgSpec> a = {ArgSpec::view(F32, {n}), len};
      auto ref = [&](Memory &mem) {
        float *y = mem.as<float>(0);
        for (int64_t i = 0; i < cnt; ++i)
          y[i] = static_cast<float>(i);
      };
      DiffOutcome o = runDifferential(*m->kernels[0], a, ref, 60 + n);
      if (total < 0)
        total = o.total;
      EXPECT_EQ(o.total, total)
          << "a data-dependent extent never sizes the launch";
    }
}

TEST(Differential, SubViewsRowSliceTranspose) {
  auto m = loadKernel("subviews.kir");
  for (auto [r, c] : Sizes2D) {
    // out is r x c; in is c x (r + 1); out(i, j) = in(j, i + 1).
    std::vector<ArgSpec> a = {ArgSpec::view(F32, {r, c}),
                              ArgSpec::view(F32, {c, r + 1})};
    auto ref = [&](Memory &mem) {
      float *out = mem.as<float>(0), *in = mem.as<float>(1);
      for (int64_t i = 0; i < r; ++i)
        for (int64_t j = 0; j < c; ++j)
          out[i * c + j] = in[j * (r + 1) + i + 1];
    };
    DiffOutcome o = runDifferential(*m->kernels[0], a, ref, 70 + r + c);
    EXPECT_EQ(o.total, tiles(r, c));
  }
}

TEST(Differential, IfElseWithResults) {
  auto m = loadKernel("if_results.kir");
  for (int64_t n : Sizes1D) {
    std::vector<ArgSpec> a = {ArgSpec::view(F32, {n}), ArgSpec::view(F32, {n})};
    auto ref = [&](Memory &mem) {
      float *y = mem.as<float>(0), *x = mem.as<float>(1);
      for (int64_t i = 0; i < n; ++i)
        y[i] = x[i] > 0.0f ? x[i] * 2.0f : -x[i];
    };
    runDifferential(*m->kernels[0], a, ref, 80 + n);
  }
}

TEST(Differential, ReshapeAndBroadcast) {
  auto m = loadKernel("reshape_broadcast.kir");
  for (auto [r, c] : Sizes2D)
    for (int64_t half : {0, 1, 5, 64}) {
      std::vector<ArgSpec> a = {ArgSpec::view(F32, {r, c}), ArgSpec::view(F32, {c}),
                                ArgSpec::view(F32, {2 * half})};
      auto ref = [&](Memory &mem) {
        float *out = mem.as<float>(0), *b = mem.as<float>(1),
              *flat = mem.as<float>(2);
        for (int64_t i = 0; i < r; ++i)
          for (int64_t j = 0; j < c; ++j)
            out[i * c + j] = b[j];
        for (int64_t i = 0; i < half; ++i)
          for (int64_t j = 0; j < 2; ++j)
            flat[i * 2 + j] = static_cast<float>(i);
      };
      DiffOutcome o = runDifferential(*m->kernels[0], a, ref, 90 + r + half);
      ASSERT_EQ(o.segmentLengths.size(), 2u);
      EXPECT_EQ(o.segmentLengths[0], tiles(r, c));
      EXPECT_EQ(o.segmentLengths[1], 1) << "reshape write is not provably unique";
    }
}

TEST(Differential, NestedNonLaunchVisibleStaysOrdered) {
  auto m = loadKernel("nested_ordered.kir");
  for (int64_t n : {0, 1, 6, 40}) {
    std::vector<ArgSpec> a = {ArgSpec::view(F32, {n, n})};
    auto ref = [&](Memory &mem) {
      float *out = mem.as<float>(0);
      for (int64_t i = 0; i < n; ++i)
        for (int64_t j = 0; j < i + 1; ++j)
          out[i * n + j] = static_cast<float>(i + j);
    };
    DiffOutcome o = runDifferential(*m->kernels[0], a, ref, 110 + n);
    EXPECT_EQ(o.total, n) << "one instance per row, columns traversed inside";
  }
}

TEST(Differential, SerialStoreBesideParallelGroup) {
  auto m = loadKernel("mixed_serial.kir");
  for (int64_t n : {1, 2, 17, 500}) {
    std::vector<ArgSpec> a = {ArgSpec::view(F32, {n}), ArgSpec::view(F32, {1}),
                              ArgSpec::view(F32, {n})};
    auto ref = [&](Memory &mem) {
      float *y = mem.as<float>(0), *s = mem.as<float>(1), *x = mem.as<float>(2);
      s[0] = x[0];
      for (int64_t i = 0; i < n; ++i)
        y[i] = x[i];
    };
    DiffOutcome o = runDifferential(*m->kernels[0], a, ref, 120 + n);
    // The serial group's one program, then the parallel copy widened into
    // one program per chunk of 4 elements (docs/passes.md §6).
    EXPECT_EQ(o.total, 1 + (n + 3) / 4);
  }
}

TEST(Differential, InPlaceStencilSerialized) {
  auto m = loadKernel("inplace_stencil.kir");
  for (int64_t n : Sizes1D) {
    std::vector<ArgSpec> a = {ArgSpec::view(F32, {n})};
    auto ref = [&](Memory &mem) {
      float *y = mem.as<float>(0);
      for (int64_t i = 0; i + 1 < n; ++i)
        y[i] = y[i + 1] + y[i];
    };
    runDifferential(*m->kernels[0], a, ref, 130 + n);
  }
}

} // namespace
