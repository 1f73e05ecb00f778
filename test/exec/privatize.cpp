// Execution test: histograms and other atomic scatters with a copy per CTA
// in shared memory (issue 18, item 5; the privatize-atomics pass,
// docs/passes.md §11). Each kernel is written the way a user writes it:
// intent::histogram; atomic_add of float weights; per-bin min and max;
// 2-D bins (class x bucket); a histogram next to a plain store of every
// sample's bin; a 2-D domain (pixels of an image); a bin function that
// divides (the prefetched instances are clamped, so no instance divides by
// a value the original did not); bins too many for shared memory (global
// atomics) and more bins than samples; two histograms in one kernel.
// Integer counts and min/max are exact; float sums are compared with a
// tolerance (their order is not defined). Sizes 0, 1, odd, a CTA's edge
// +-1 and large.
#include "../../examples/support.hpp"

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <vector>

namespace kernels {
using intent::index;
using intent::parallel_for;
using intent::view;

/// counts[b] += #{i : bucket(x[i]) == b}, bucket = floor(x * scale).
[[intent::kernel]] void count_u32(view<std::uint32_t, 1> counts,
                                  view<const float, 1> x, float scale) {
  intent::histogram(counts, x.extent(0), [&](index i) {
    return static_cast<index>(std::floor(x[i] * scale));
  });
}

/// sums[b] += w[i] for the samples of bin b (a weighted histogram).
[[intent::kernel]] void weighted(view<float, 1> sums, view<double, 1> sq,
                                 view<const int, 1> bin,
                                 view<const float, 1> w) {
  parallel_for(bin.extent(0), [&](index i) {
    int b = bin[i];
    if (b >= 0 && b < sums.extent(0)) {
      intent::atomic_add(sums[b], w[i]);
      intent::atomic_add(sq[b], double(w[i]) * w[i]);
    }
  });
}

/// lo[b] = min, hi[b] = max of the keys of bin b (integers and floats).
[[intent::kernel]] void extremes(view<std::int64_t, 1> lo,
                                 view<std::int64_t, 1> hi, view<float, 1> fhi,
                                 view<const int, 1> bin,
                                 view<const std::int64_t, 1> key) {
  parallel_for(bin.extent(0), [&](index i) {
    index b = bin[i];
    intent::atomic_min(lo[b], key[i]);
    intent::atomic_max(hi[b], key[i]);
    intent::atomic_max(fhi[b], static_cast<float>(key[i]) * 0.5f);
  });
}

/// counts(c, b): samples of class c in bucket b; assigned[i] = the bucket.
[[intent::kernel]] void classes(view<int, 2> counts, view<int, 1> assigned,
                                view<const int, 1> cls,
                                view<const float, 1> x) {
  parallel_for(x.extent(0), [&](index i) {
    index b = static_cast<index>(x[i] * counts.extent(1));
    if (b >= counts.extent(1))
      b = counts.extent(1) - 1;
    assigned[i] = static_cast<int>(b);
    intent::atomic_add(counts(cls[i], b), 1);
  });
}

/// An image's intensity histogram over a 2-D domain of pixels.
[[intent::kernel]] void image(view<int, 1> counts,
                              view<const std::uint8_t, 2> img) {
  parallel_for(img.extent(0), img.extent(1), [&](index r, index c) {
    intent::atomic_add(counts[img(r, c) / 4], 1);
  });
}

/// Bin key[i] / div[i] (div is never 0 where a sample exists).
[[intent::kernel]] void divided(view<std::int64_t, 1> counts,
                                view<const int, 1> key,
                                view<const int, 1> div) {
  parallel_for(key.extent(0), [&](index i) {
    int q = key[i] / div[i];
    intent::atomic_add(counts[q], std::int64_t(1));
  });
}

/// Two histograms of the same samples, in two groups.
[[intent::kernel]] void two(view<int, 1> fine, view<int, 1> coarse,
                            view<const int, 1> s) {
  intent::histogram(fine, s.extent(0), [&](index i) { return s[i]; });
  intent::histogram(coarse, s.extent(0), [&](index i) { return s[i] / 8; });
}

} // namespace kernels

using support::expect;

static std::vector<int> ints(long N, std::mt19937 &Rng, int Lo, int Hi) {
  return support::randomInts(N, Rng, Lo, Hi);
}

static void run(long N, long Bins, std::mt19937 &Rng) {
  // count_u32: samples in [-1, Bins + 1) so some fall outside.
  {
    std::vector<float> X = support::randomFloats(N, Rng, -1.0f, Bins + 1.0f);
    mem::array<float> DX(X);
    mem::array<std::uint32_t> C(std::vector<std::uint32_t>(Bins + 1, 5));
    kernels::count_u32(intent::view<std::uint32_t, 1>(C.data(), {Bins}),
                       intent::view<const float, 1>(DX.data(), {N}), 1.0f);
    std::vector<std::uint32_t> Want(Bins + 1, 5);
    for (float V : X) {
      long B = static_cast<long>(std::floor(V * 1.0f));
      if (B >= 0 && B < Bins)
        ++Want[B];
    }
    expect(C.to_vector() == Want, "count_u32", N);
  }
  // weighted
  {
    std::vector<int> Bin = ints(N, Rng, -2, static_cast<int>(Bins) + 1);
    std::vector<float> W = support::randomFloats(N, Rng, -1.0f, 1.0f);
    mem::array<int> DB(Bin);
    mem::array<float> DW(W), S(std::vector<float>(Bins, 0.5f));
    mem::array<double> Q(std::vector<double>(Bins, 0.0));
    kernels::weighted(intent::view<float, 1>(S.data(), {Bins}),
                      intent::view<double, 1>(Q.data(), {Bins}),
                      intent::view<const int, 1>(DB.data(), {N}),
                      intent::view<const float, 1>(DW.data(), {N}));
    std::vector<double> WS(Bins, 0.5), WQ(Bins, 0.0), Abs(Bins, 0.5);
    for (long I = 0; I < N; ++I)
      if (Bin[I] >= 0 && Bin[I] < Bins) {
        WS[Bin[I]] += W[I];
        Abs[Bin[I]] += std::fabs(W[I]);
        WQ[Bin[I]] += double(W[I]) * W[I];
      }
    std::vector<float> GS = S.to_vector();
    std::vector<double> GQ = Q.to_vector();
    for (long B = 0; B < Bins; ++B) {
      expect(std::fabs(GS[B] - WS[B]) <= 1e-5 * Abs[B] + 1e-6, "weighted sum", N);
      expect(std::fabs(GQ[B] - WQ[B]) <= 1e-12 * (WQ[B] + 1), "weighted squares", N);
    }
  }
  // extremes
  {
    std::vector<int> Bin = ints(N, Rng, 0, static_cast<int>(Bins) - 1);
    std::vector<int> K32 = ints(N, Rng, -1000000, 1000000);
    std::vector<std::int64_t> Key(K32.begin(), K32.end());
    for (std::int64_t &K : Key)
      K *= 4099;
    const std::int64_t Big = std::numeric_limits<std::int64_t>::max();
    mem::array<int> DB(Bin);
    mem::array<std::int64_t> DK(Key), Lo(std::vector<std::int64_t>(Bins, Big)),
        Hi(std::vector<std::int64_t>(Bins, -Big));
    mem::array<float> FH(std::vector<float>(Bins, -1e30f));
    kernels::extremes(intent::view<std::int64_t, 1>(Lo.data(), {Bins}),
                      intent::view<std::int64_t, 1>(Hi.data(), {Bins}),
                      intent::view<float, 1>(FH.data(), {Bins}),
                      intent::view<const int, 1>(DB.data(), {N}),
                      intent::view<const std::int64_t, 1>(DK.data(), {N}));
    std::vector<std::int64_t> WL(Bins, Big), WH(Bins, -Big);
    std::vector<float> WF(Bins, -1e30f);
    for (long I = 0; I < N; ++I) {
      WL[Bin[I]] = std::min(WL[Bin[I]], Key[I]);
      WH[Bin[I]] = std::max(WH[Bin[I]], Key[I]);
      WF[Bin[I]] = std::max(WF[Bin[I]], static_cast<float>(Key[I]) * 0.5f);
    }
    expect(Lo.to_vector() == WL, "extremes min", N);
    expect(Hi.to_vector() == WH, "extremes max", N);
    expect(FH.to_vector() == WF, "extremes float max", N);
  }
  // classes: 3 classes x Bins buckets, and the plain store of each bucket
  {
    std::vector<int> Cls = ints(N, Rng, 0, 2);
    std::vector<float> X = support::randomFloats(N, Rng, 0.0f, 1.0f);
    mem::array<int> DC(Cls), C(std::vector<int>(3 * Bins + 1, 0)),
        A(std::vector<int>(N + 1, -1));
    mem::array<float> DX(X);
    kernels::classes(intent::view<int, 2>(C.data(), {3, Bins}),
                     intent::view<int, 1>(A.data(), {N}),
                     intent::view<const int, 1>(DC.data(), {N}),
                     intent::view<const float, 1>(DX.data(), {N}));
    std::vector<int> WC(3 * Bins + 1, 0), WA(N + 1, -1);
    for (long I = 0; I < N; ++I) {
      long B = static_cast<long>(X[I] * Bins);
      if (B >= Bins)
        B = Bins - 1;
      WA[I] = static_cast<int>(B);
      ++WC[Cls[I] * Bins + B];
    }
    expect(C.to_vector() == WC, "classes counts", N);
    expect(A.to_vector() == WA, "classes assigned", N);
  }
  // image: N rows of 37 pixels, 64 bins
  {
    const long W = 37;
    std::vector<int> Px = ints(N * W, Rng, 0, 255);
    std::vector<std::uint8_t> P(Px.begin(), Px.end());
    mem::array<std::uint8_t> DP(P);
    mem::array<int> C(std::vector<int>(64, 1));
    kernels::image(intent::view<int, 1>(C.data(), {64}),
                   intent::view<const std::uint8_t, 2>(DP.data(), {N, W}));
    std::vector<int> Want(64, 1);
    for (std::uint8_t V : P)
      ++Want[V / 4];
    expect(C.to_vector() == Want, "image", N);
  }
  // divided
  {
    std::vector<int> Div = ints(N, Rng, 1, 9);
    std::vector<int> Key(N);
    std::vector<int> Q = ints(N, Rng, 0, static_cast<int>(Bins) - 1);
    for (long I = 0; I < N; ++I)
      Key[I] = Q[I] * Div[I] + static_cast<int>(Rng() % Div[I]);
    mem::array<int> DK(Key), DD(Div);
    mem::array<std::int64_t> C(std::vector<std::int64_t>(Bins, 0));
    kernels::divided(intent::view<std::int64_t, 1>(C.data(), {Bins}),
                     intent::view<const int, 1>(DK.data(), {N}),
                     intent::view<const int, 1>(DD.data(), {N}));
    std::vector<std::int64_t> Want(Bins, 0);
    for (long I = 0; I < N; ++I)
      ++Want[Key[I] / Div[I]];
    expect(C.to_vector() == Want, "divided", N);
  }
  // two
  {
    std::vector<int> S = ints(N, Rng, -3, static_cast<int>(Bins) + 3);
    mem::array<int> DS(S), F(std::vector<int>(Bins, 0)),
        C(std::vector<int>(Bins / 8 + 1, 0));
    kernels::two(intent::view<int, 1>(F.data(), {Bins}),
                 intent::view<int, 1>(C.data(), {Bins / 8 + 1}),
                 intent::view<const int, 1>(DS.data(), {N}));
    std::vector<int> WF(Bins, 0), WC(Bins / 8 + 1, 0);
    for (int V : S) {
      if (V >= 0 && V < Bins)
        ++WF[V];
      int Q = V / 8;
      if (Q >= 0 && Q <= Bins / 8)
        ++WC[Q];
    }
    expect(F.to_vector() == WF, "two fine", N);
    expect(C.to_vector() == WC, "two coarse", N);
  }
}

int main() {
  std::mt19937 Rng(18);
  // (samples, bins): empty, one, odd, a CTA's edge, more bins than
  // samples, bins beyond 48 KiB of shared memory (global atomics), large.
  const long Cases[][2] = {{0, 16},    {1, 16},     {1023, 256}, {1024, 7},
                           {1025, 31}, {50, 1000},  {4097, 13000},
                           {300001, 256}, {200003, 2048}};
  for (const auto &C : Cases)
    run(C[0], C[1], Rng);
  if (support::mismatches())
    return 1;
  std::printf("privatize: ok\n");
  return 0;
}
