// Execution test: warp-aggregated atomics (issue 18, item 5; the
// aggregate-atomics pass, docs/passes.md §14). Global atomics whose lanes
// may update one element, written the way users write them: a histogram of
// more bins than shared memory holds with a few hot bins (privatize-atomics'
// global fallback), and a thread program (a ticket counter keeps the group
// out of privatize-atomics) that takes tickets `idx[i] = atomic_add(n[0],
// 1)` next to per-key double sums, int64 counts and float minima and maxima
// of keys skewed onto a few hot ones, and row totals over a 2-D domain
// (`atomic_add(tot[r], x(r, c))`). Counts, integer-valued double sums and
// extremes are exact; tickets must be a permutation of 0 .. count - 1.
// Sizes 0, 1, a warp's edge +-1, odd and large.
#include "../../examples/support.hpp"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <vector>

namespace kernels {
using intent::index;
using intent::parallel_for;
using intent::view;

/// bins[key[i]] += 1 for keys inside the bins.
[[intent::kernel]] void hot_counts(view<int, 1> bins, view<const int, 1> key) {
  parallel_for(key.extent(0), [&](index i) {
    int k = key[i];
    if (k >= 0 && k < bins.extent(0))
      intent::atomic_add(bins[k], 1);
  });
}

/// Samples with w > 0 take a ticket (their position in a compacted list);
/// every sample updates its key's sum, count, minimum and maximum.
[[intent::kernel]] void tickets_and_keys(view<int, 1> n, view<int, 1> idx,
                                         view<double, 1> sum,
                                         view<std::int64_t, 1> count,
                                         view<float, 1> lo, view<float, 1> hi,
                                         view<const int, 1> key,
                                         view<const float, 1> w) {
  parallel_for(key.extent(0), [&](index i) {
    float v = w[i];
    idx[i] = v > 0 ? intent::atomic_add(n[0], 1) : -1;
    int k = key[i];
    intent::atomic_add(sum[k], static_cast<double>(v));
    intent::atomic_add(count[k], std::int64_t{3});
    intent::atomic_min(lo[k], v);
    intent::atomic_max(hi[k], v);
  });
}

/// tot[r] += x(r, c) over a 2-D domain.
[[intent::kernel]] void row_totals(view<double, 1> tot, view<const double, 2> x) {
  parallel_for(x.extent(0), x.extent(1), [&](index r, index c) {
    intent::atomic_add(tot[r], x(r, c));
  });
}

} // namespace kernels

namespace {
using support::expect;

/// Keys in [0, keys): 3 of 4 samples on 3 hot keys, the rest uniform.
std::vector<int> skewed(long n, int keys, std::mt19937 &rng) {
  std::vector<int> k(n);
  for (int &v : k)
    v = rng() % 4 ? static_cast<int>(rng() % 3) * (keys / 3)
                  : static_cast<int>(rng() % keys);
  return k;
}

void run(long N, std::mt19937 &Rng) {
  // hot_counts: 70000 bins (beyond 48 KiB of copies: global atomics), and
  // some keys outside.
  {
    const long Bins = 70000;
    std::vector<int> Key = skewed(N, static_cast<int>(Bins) + 5, Rng);
    mem::array<int> DK(Key), B(std::vector<int>(Bins, 2));
    kernels::hot_counts(intent::view<int, 1>(B.data(), {Bins}),
                        intent::view<const int, 1>(DK.data(), {N}));
    std::vector<int> Want(Bins, 2);
    for (int K : Key)
      if (K >= 0 && K < Bins)
        ++Want[K];
    expect(B.to_vector() == Want, "hot_counts", N);
  }
  // tickets_and_keys: 1000 keys.
  {
    const long Keys = 1000;
    std::vector<int> Key = skewed(N, static_cast<int>(Keys), Rng);
    std::vector<float> W(N);
    for (float &V : W)
      V = static_cast<float>(static_cast<int>(Rng() % 201) - 100);
    const float Inf = std::numeric_limits<float>::infinity();
    mem::array<int> DK(Key), Cnt(std::vector<int>(1, 0)),
        Idx(std::vector<int>(N, -7));
    mem::array<float> DW(W), Lo(std::vector<float>(Keys, Inf)),
        Hi(std::vector<float>(Keys, -Inf));
    mem::array<double> Sum(std::vector<double>(Keys, 0.0));
    mem::array<std::int64_t> Count(std::vector<std::int64_t>(Keys, 1));
    kernels::tickets_and_keys(
        intent::view<int, 1>(Cnt.data(), {1}), intent::view<int, 1>(Idx.data(), {N}),
        intent::view<double, 1>(Sum.data(), {Keys}),
        intent::view<std::int64_t, 1>(Count.data(), {Keys}),
        intent::view<float, 1>(Lo.data(), {Keys}),
        intent::view<float, 1>(Hi.data(), {Keys}),
        intent::view<const int, 1>(DK.data(), {N}),
        intent::view<const float, 1>(DW.data(), {N}));
    std::vector<double> WS(Keys, 0.0);
    std::vector<std::int64_t> WC(Keys, 1);
    std::vector<float> WL(Keys, Inf), WH(Keys, -Inf);
    long Taken = 0;
    for (long I = 0; I < N; ++I) {
      Taken += W[I] > 0;
      WS[Key[I]] += W[I];
      WC[Key[I]] += 3;
      WL[Key[I]] = std::min(WL[Key[I]], W[I]);
      WH[Key[I]] = std::max(WH[Key[I]], W[I]);
    }
    expect(Cnt.to_vector()[0] == Taken, "ticket count", N);
    std::vector<int> GI = Idx.to_vector(), Got;
    bool Marks = true;
    for (long I = 0; I < N; ++I) {
      if (W[I] > 0)
        Got.push_back(GI[I]);
      else
        Marks &= GI[I] == -1;
    }
    std::sort(Got.begin(), Got.end());
    bool Perm = true;
    for (size_t K = 0; K < Got.size(); ++K)
      Perm &= Got[K] == static_cast<int>(K);
    expect(Marks, "untaken tickets", N);
    expect(Perm, "tickets are a permutation", N);
    expect(Sum.to_vector() == WS, "key sums", N);
    expect(Count.to_vector() == WC, "key counts", N);
    expect(Lo.to_vector() == WL, "key minima", N);
    expect(Hi.to_vector() == WH, "key maxima", N);
  }
  // row_totals: N / 50 + 1 rows of 50 (a row spans two warps).
  {
    const long Rows = N / 50 + 1, Cols = 50;
    std::vector<double> X(Rows * Cols);
    for (double &V : X)
      V = static_cast<double>(static_cast<int>(Rng() % 17) - 8);
    mem::array<double> DX(X), T(std::vector<double>(Rows, 0.25));
    kernels::row_totals(intent::view<double, 1>(T.data(), {Rows}),
                        intent::view<const double, 2>(DX.data(), {Rows, Cols}));
    std::vector<double> Want(Rows, 0.25);
    for (long R = 0; R < Rows; ++R)
      for (long C = 0; C < Cols; ++C)
        Want[R] += X[R * Cols + C];
    expect(T.to_vector() == Want, "row totals", N);
  }
}

} // namespace

int main() {
  std::mt19937 Rng(21);
  for (long N : {0L, 1L, 31L, 32L, 33L, 1025L, 300001L})
    run(N, Rng);
  if (support::mismatches())
    return 1;
  std::printf("aggregate: ok\n");
  return 0;
}
