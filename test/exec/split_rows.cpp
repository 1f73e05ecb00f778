// Execution test: few long rows (issue 17, item 3: "rows of 10^6 must not
// get one CTA"). When a row kernel's rows fill at most half the GPU's
// multiprocessors and a row has work for two 1024-thread CTAs, the launch
// takes the split-row alternative (docs/passes.md §3): each row runs on a
// group of CTAs, its reductions combined across them in part order after a
// group barrier, its parallel fors strided over all their threads. On the
// GPU the test checks that such launches run more programs than rows; cpu
// mode (one multiprocessor) runs the one-CTA-per-row form, the same kernels
// and checks. Kernels: softmax (two reductions and a parallel for), row
// sums of a runtime length (region-teams, its long-row alternative, then
// this one), first argmax, a user combine over a struct (min, max, count,
// sum: exact, so member order is checked), rows updated in place from their
// own sum, layer norm with weight and bias, and sums over the last axis of
// a rank-3 view. Shapes: 1 to 16 rows of 0 to 300001 members, and many
// short rows (never split).
#include "../../examples/support.hpp"

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <vector>

/// A user combine's accumulator: the smallest and largest member, how many
/// and their sum.
struct Stats {
  std::int32_t lo, hi;
  std::int64_t count, sum;
};

namespace kernels {
using intent::index;
using intent::parallel_for;
using intent::reduce;
using intent::view;
namespace ops = intent::ops;

[[intent::kernel]] void softmax_rows(view<float, 2> out,
                                     view<const float, 2> in) {
  parallel_for(in.extent(0), [&](index r) {
    float m = reduce(in.extent(1), -INFINITY, ops::max{},
                     [&](index c) { return in(r, c); });
    float s = reduce(in.extent(1), 0.0f, ops::plus{},
                     [&](index c) { return std::exp(in(r, c) - m); });
    parallel_for(in.extent(1),
                 [&](index c) { out(r, c) = std::exp(in(r, c) - m) / s; });
  });
}

[[intent::kernel]] void row_sums(view<std::int64_t, 1> out,
                                 view<const std::int64_t, 2> a) {
  parallel_for(a.extent(0), [&](index i) {
    out[i] = reduce(a.extent(1), std::int64_t(0), ops::plus{},
                    [&](index j) { return a(i, j); });
  });
}

/// A load of the instance's own (the row's bias) before the row
/// reduction: every thread of the row's CTAs makes it (fuzz seed 99
/// program 26 failed the verifier in the split form).
[[intent::kernel]] void offset_sums(view<std::int64_t, 1> out,
                                    view<const std::int64_t, 2> a,
                                    view<const std::int64_t, 1> bias) {
  parallel_for(a.extent(0), [&](index i) {
    std::int64_t b = bias[i];
    out[i] = b + reduce(a.extent(1), std::int64_t(0), ops::plus{},
                        [&](index j) { return a(i, j) - 1; });
  });
}

[[intent::kernel]] void row_argmax(view<std::int64_t, 1> at,
                                   view<const std::int32_t, 2> a) {
  parallel_for(a.extent(0), [&](index i) {
    at[i] = intent::argmax(a.extent(1), [&](index j) { return a(i, j); }).pos;
  });
}

[[intent::kernel]] void row_stats(view<std::int64_t, 2> out,
                                  view<const std::int32_t, 2> a) {
  parallel_for(a.extent(0), [&](index i) {
    Stats s = reduce(
        a.extent(1), Stats{INT32_MAX, INT32_MIN, 0, 0},
        [](Stats x, Stats y) {
          return Stats{x.lo < y.lo ? x.lo : y.lo, x.hi > y.hi ? x.hi : y.hi,
                       x.count + y.count, x.sum + y.sum};
        },
        [&](index j) {
          std::int32_t v = a(i, j);
          return Stats{v, v, 1, v};
        });
    out(i, 0) = s.lo;
    out(i, 1) = s.hi;
    out(i, 2) = s.count;
    out(i, 3) = s.sum;
  });
}

/// x(r, c) = 4 x(r, c) - sum of row r: every part of the row must be read
/// before any is written.
[[intent::kernel]] void center_in_place(view<std::int64_t, 2> x) {
  parallel_for(x.extent(0), [&](index r) {
    std::int64_t s = reduce(x.extent(1), std::int64_t(0), ops::plus{},
                            [&](index c) { return x(r, c); });
    parallel_for(x.extent(1), [&](index c) { x(r, c) = 4 * x(r, c) - s; });
  });
}

[[intent::kernel]] void layer_norm(view<float, 2> y, view<const float, 2> x,
                                   view<const float, 1> w,
                                   view<const float, 1> b) {
  parallel_for(x.extent(0), [&](index r) {
    const index n = x.extent(1);
    float mean = reduce(n, 0.0f, ops::plus{},
                        [&](index c) { return x(r, c); }) /
                 static_cast<float>(n);
    float var = reduce(n, 0.0f, ops::plus{}, [&](index c) {
                  float d = x(r, c) - mean;
                  return d * d;
                }) /
                static_cast<float>(n);
    float inv = 1.0f / std::sqrt(var + 1e-5f);
    parallel_for(n, [&](index c) {
      y(r, c) = (x(r, c) - mean) * inv * w[c] + b[c];
    });
  });
}

[[intent::kernel]] void batch_sums(view<std::int64_t, 2> out,
                                   view<const std::int64_t, 3> a) {
  parallel_for(a.extent(0), a.extent(1), [&](index b, index r) {
    out(b, r) = reduce(a.extent(2), std::int64_t(0), ops::plus{},
                       [&](index c) { return a(b, r, c); });
  });
}
} // namespace kernels

using support::programsSince;

static long Bad = 0;

static void expect(bool Ok, const char *What, long Rows, long Cols) {
  if (!Ok) {
    std::printf("MISMATCH %s %ldx%ld\n", What, Rows, Cols);
    ++Bad;
  }
}

/// Whether the launch that ran `Programs` programs for `Rows` rows of
/// `Cols` members must have split them: on the GPU, when the rows fill at
/// most half the multiprocessors and a row has two 1024-thread CTAs' share
/// (16 members per thread) of its widest phase.
static void expectSplit(long Programs, long Rows, long Cols, const char *What) {
#if EXAMPLE_HAS_RUNTIME
  if (intent::rt::mode() != intent::rt::device_mode::gpu || Programs < 0)
    return;
  const long Sms = intent::rt::sm_count();
  const bool Split = Rows >= 1 && 2 * Rows <= Sms && Cols > 16 * 1024;
  if (Split && Programs <= Rows) {
    std::printf("NOT SPLIT %s %ldx%ld: %ld programs\n", What, Rows, Cols,
                Programs);
    ++Bad;
  }
#else
  (void)Programs, (void)Rows, (void)Cols, (void)What;
#endif
}

static void run(long R, long C) {
  std::mt19937 Rng(static_cast<unsigned>(R * 1000003 + C));
  const long N = R * C;

  // softmax
  {
    std::vector<float> HX = support::randomFloats(N + 1, Rng, -8.0f, 8.0f);
    mem::array<float> X(HX), Y(std::vector<float>(N + 1, -1.0f));
    programsSince();
    kernels::softmax_rows(intent::view<float, 2>(Y.data(), {R, C}),
                          intent::view<const float, 2>(X.data(), {R, C}));
    expectSplit(programsSince(), R, C, "softmax");
    std::vector<float> G = Y.to_vector(), W(N + 1, -1.0f);
    for (long r = 0; r < R; ++r) {
      double m = -INFINITY, s = 0;
      for (long c = 0; c < C; ++c)
        m = std::fmax(m, HX[r * C + c]);
      for (long c = 0; c < C; ++c)
        s += std::exp(double(HX[r * C + c]) - m);
      for (long c = 0; c < C; ++c)
        W[r * C + c] = static_cast<float>(std::exp(double(HX[r * C + c]) - m) / s);
    }
    // The serial body sums up to 300001 floats one after another.
    expect(support::closeMismatches(G, W, 5e-3, 1e-9) == 0, "softmax", R, C);
  }

  // integer row sums, argmax, user-combine stats, in-place centering
  {
    std::vector<std::int64_t> HA(N + 1);
    std::vector<std::int32_t> HI(N + 1);
    std::uniform_int_distribution<int> D(-1000000, 1000000);
    for (long k = 0; k < N; ++k) {
      HA[k] = D(Rng) * std::int64_t(4099);
      HI[k] = D(Rng) % 5000; // repeated values: the first argmax counts
    }
    mem::array<std::int64_t> A(HA), S(std::vector<std::int64_t>(R + 1, -3)),
        At(std::vector<std::int64_t>(R + 1, -3)),
        St(std::vector<std::int64_t>(4 * R + 1, -3)), X(HA);
    mem::array<std::int32_t> I(HI);
    programsSince();
    kernels::row_sums(intent::view<std::int64_t, 1>(S.data(), {R}),
                      intent::view<const std::int64_t, 2>(A.data(), {R, C}));
    expectSplit(programsSince(), R, C, "row_sums");
    {
      std::vector<std::int64_t> HB(R + 1);
      for (long r = 0; r <= R; ++r)
        HB[r] = r * 7 - 5;
      mem::array<std::int64_t> O(std::vector<std::int64_t>(R + 1, -3)), B(HB);
      kernels::offset_sums(intent::view<std::int64_t, 1>(O.data(), {R}),
                           intent::view<const std::int64_t, 2>(A.data(), {R, C}),
                           intent::view<const std::int64_t, 1>(B.data(), {R}));
      expectSplit(programsSince(), R, C, "offset_sums");
      std::vector<std::int64_t> G = O.to_vector();
      for (long r = 0; r < R; ++r) {
        std::int64_t s = HB[r];
        for (long c = 0; c < C; ++c)
          s += HA[r * C + c] - 1;
        expect(G[r] == s, "offset_sums", R, C);
      }
      expect(G[R] == -3, "offset_sums past the end", R, C);
    }
    kernels::row_argmax(intent::view<std::int64_t, 1>(At.data(), {R}),
                        intent::view<const std::int32_t, 2>(I.data(), {R, C}));
    expectSplit(programsSince(), R, C, "row_argmax");
    kernels::row_stats(intent::view<std::int64_t, 2>(St.data(), {R, 4}),
                       intent::view<const std::int32_t, 2>(I.data(), {R, C}));
    expectSplit(programsSince(), R, C, "row_stats");
    kernels::center_in_place(intent::view<std::int64_t, 2>(X.data(), {R, C}));
    expectSplit(programsSince(), R, C, "center_in_place");
    std::vector<std::int64_t> GS = S.to_vector(), GA = At.to_vector(),
                              GT = St.to_vector(), GX = X.to_vector();
    for (long r = 0; r < R; ++r) {
      std::int64_t s = 0, cnt = 0, isum = 0;
      std::int32_t lo = INT32_MAX, hi = INT32_MIN;
      long best = C ? 0 : -1;
      for (long c = 0; c < C; ++c) {
        s += HA[r * C + c];
        std::int32_t v = HI[r * C + c];
        lo = v < lo ? v : lo;
        hi = v > hi ? v : hi;
        ++cnt;
        isum += v;
        if (v > HI[r * C + best])
          best = c;
      }
      expect(GS[r] == s, "row_sums", R, C);
      expect(C == 0 || GA[r] == best, "row_argmax", R, C);
      expect(GT[4 * r] == lo && GT[4 * r + 1] == hi && GT[4 * r + 2] == cnt &&
                 GT[4 * r + 3] == isum,
             "row_stats", R, C);
      for (long c = 0; c < C; ++c)
        if (GX[r * C + c] != 4 * HA[r * C + c] - s) {
          expect(false, "center_in_place", R, C);
          break;
        }
    }
    expect(GS[R] == -3 && GA[R] == -3 && GT[4 * R] == -3 && GX[N] == HA[N],
           "past the end", R, C);
  }

  // layer norm with weight and bias
  {
    std::vector<float> HX = support::randomFloats(N + 1, Rng, -3.0f, 5.0f),
                       HW = support::randomFloats(C + 1, Rng, 0.5f, 1.5f),
                       HB = support::randomFloats(C + 1, Rng, -1.0f, 1.0f);
    mem::array<float> X(HX), Wt(HW), B(HB), Y(std::vector<float>(N + 1, -1.0f));
    programsSince();
    kernels::layer_norm(intent::view<float, 2>(Y.data(), {R, C}),
                        intent::view<const float, 2>(X.data(), {R, C}),
                        intent::view<const float, 1>(Wt.data(), {C}),
                        intent::view<const float, 1>(B.data(), {C}));
    expectSplit(programsSince(), R, C, "layer_norm");
    std::vector<float> G = Y.to_vector(), W(N + 1, -1.0f);
    for (long r = 0; r < R; ++r) {
      double m = 0, v = 0;
      for (long c = 0; c < C; ++c)
        m += HX[r * C + c];
      m /= double(C);
      for (long c = 0; c < C; ++c)
        v += (HX[r * C + c] - m) * (HX[r * C + c] - m);
      v /= double(C);
      for (long c = 0; c < C; ++c)
        W[r * C + c] = static_cast<float>((HX[r * C + c] - m) /
                                              std::sqrt(v + 1e-5) * HW[c] +
                                          HB[c]);
    }
    expect(support::closeMismatches(G, W, 2e-3, 2e-3) == 0, "layer_norm", R, C);
  }

  // sums over the last axis of a rank-3 view: 2 x R rows
  {
    std::vector<std::int64_t> HA(2 * N + 1);
    for (long k = 0; k < 2 * N; ++k)
      HA[k] = (k * 7919) % 100003 - 50000;
    mem::array<std::int64_t> A(HA), O(std::vector<std::int64_t>(2 * R + 1, -3));
    programsSince();
    kernels::batch_sums(intent::view<std::int64_t, 2>(O.data(), {2, R}),
                        intent::view<const std::int64_t, 3>(A.data(), {2, R, C}));
    expectSplit(programsSince(), 2 * R, C, "batch_sums");
    std::vector<std::int64_t> G = O.to_vector();
    for (long q = 0; q < 2 * R; ++q) {
      std::int64_t s = 0;
      for (long c = 0; c < C; ++c)
        s += HA[q * C + c];
      expect(G[q] == s, "batch_sums", R, C);
    }
    expect(G[2 * R] == -3, "batch_sums past the end", R, C);
  }
}

int main() {
  const long Shapes[][2] = {{1, 0},      {1, 1},      {3, 1000},
                            {1, 300001}, {2, 131072}, {5, 100003},
                            {16, 40000}, {7, 33000},  {300, 2000}};
  for (const auto &S : Shapes)
    run(S[0], S[1]);
  if (Bad)
    return 1;
  std::printf("all ok\n");
  return 0;
}
