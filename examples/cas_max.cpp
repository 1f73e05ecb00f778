// cas_max: lock-free updates built on atomics, each kernel ONE launch whose
// instances update shared elements concurrently.
//
//  * row_max: the float maximum of every row of a matrix through a
//    compare-and-swap loop (intent::atomic_cas, cas_result{old, success}):
//    one instance per element, no plain read of the maximum -- the loop
//    starts from a guess and learns the current value from failed CASes.
//    The maximum of a set does not depend on the order, so it must match a
//    serial maximum exactly.
//  * bucket_lists: a linked list per bucket pushed with intent::atomic_exch
//    (next[i] = exchange(head[bucket[i]], i)); each list must hold exactly
//    the samples of its bucket (in some order), end with -1, and nothing
//    else.
//  * tickets: intent::atomic_add's old value as a ticket (every instance
//    gets a distinct one: a permutation of [0, n)), plus atomic_min /
//    atomic_max of int64 keys and an atomic float sum. Integers and min/max
//    must match exactly; the float sum is order-dependent (atomics add in
//    any order), so it is compared with a tolerance.
//
//   intentc examples/cas_max.cpp -o cas_max && ./cas_max
//   ./cas_max 100 33      # one size: 100 rows (samples), 33 columns (buckets)
//
// It is also plain C++ (the header's serial semantics):
//   g++ -std=c++17 -Iinclude examples/cas_max.cpp
#include "support.hpp"

#include <algorithm>
#include <cstdint>

namespace kernels {
using intent::index;
using intent::parallel_for;
using intent::view;

/// best[r] = max(best[r], max_c x(r, c)); best starts at -inf.
[[intent::kernel]] void row_max(view<float, 1> best, view<const float, 2> x) {
  parallel_for(x.extent(0), x.extent(1), [&](index r, index c) {
    float v = x(r, c);
    float expected = -INFINITY;
    while (v > expected) {
      intent::cas_result<float> got =
          intent::atomic_cas(best[r], expected, v, intent::memory_order::relaxed);
      if (got.success)
        break;
      expected = got.old;
    }
  });
}

/// Pushes every sample i onto the list of its bucket; head starts at -1.
[[intent::kernel]] void bucket_lists(view<int, 1> head, view<int, 1> next,
                                     view<const int, 1> bucket) {
  parallel_for(bucket.extent(0), [&](index i) {
    next[i] = intent::atomic_exch(head[bucket[i]], static_cast<int>(i),
                                  intent::memory_order::acq_rel);
  });
}

/// ticket[i]: a distinct number in [0, n); lo/hi: min/max of keys; sum: the
/// float sum of values (stats[0] counts, through a sub-view).
[[intent::kernel]] void tickets(view<std::uint32_t, 1> stats,
                                view<std::uint32_t, 1> ticket,
                                view<std::int64_t, 1> lohi,
                                view<double, 1> sum,
                                view<const std::int64_t, 1> keys,
                                view<const float, 1> values) {
  parallel_for(keys.extent(0), [&](index i) {
    auto counter = stats.slice(0, intent::range{0, 1});
    ticket[i] = intent::atomic_add(counter[0], 1u, intent::memory_order::seq_cst);
    intent::atomic_min(lohi(0), keys[i]);
    intent::atomic_max(lohi[1], keys[i]);
    intent::atomic_add(sum[0], static_cast<double>(values[i]));
  });
}

} // namespace kernels

static bool runSize(support::shape S, std::mt19937 &Rng) {
  const intent::index Rows = S.n0, Cols = S.n1;
  bool Ok = true;

  // row_max: values without NaN and without zeros (so no -0.0/+0.0 tie
  // whose winner would depend on the order).
  {
    std::vector<float> HX = support::randomFloats(Rows * Cols, Rng, -100.0f, 100.0f);
    for (float &V : HX)
      if (V == 0.0f)
        V = 1.0f;
    std::vector<float> Want(Rows, -INFINITY);
    for (intent::index R = 0; R < Rows; ++R)
      for (intent::index C = 0; C < Cols; ++C)
        Want[R] = std::max(Want[R], HX[R * Cols + C]);
    mem::array<float> X(HX), Best(std::vector<float>(Rows, -INFINITY));
    unsigned long long Before = support::launches();
    kernels::row_max(Best.view(), X.view(Rows, Cols));
    unsigned long long Calls = support::launches() - Before;
    long Bad = support::exactMismatches(Best.to_vector(), Want);
    bool Good = support::oneLaunch(Calls) && Bad == 0;
    std::printf("cas_max row_max rows=%lld cols=%lld: %s (launches %llu, "
                "mismatches %ld)\n",
                static_cast<long long>(Rows), static_cast<long long>(Cols),
                Good ? "ok" : "FAIL", Calls, Bad);
    Ok = Good && Ok;
  }

  // bucket_lists: Rows samples in max(Cols, 1) buckets.
  {
    const intent::index N = Rows, Buckets = std::max<intent::index>(Cols, 1);
    std::vector<int> HB = support::randomInts(N, Rng, 0, static_cast<int>(Buckets) - 1);
    mem::array<int> B(HB), Head(std::vector<int>(Buckets, -1)),
        Next(std::vector<int>(N, -2));
    unsigned long long Before = support::launches();
    kernels::bucket_lists(Head.view(), Next.view(), B.view());
    unsigned long long Calls = support::launches() - Before;
    std::vector<int> H = Head.to_vector(), Nx = Next.to_vector();
    long Bad = 0;
    std::vector<int> Seen(N, 0);
    for (intent::index K = 0; K < Buckets; ++K)
      for (int I = H[K], Steps = 0; I != -1; I = Nx[I], ++Steps) {
        if (I < 0 || I >= N || Steps > N || HB[I] != K || Seen[I]++) {
          ++Bad;
          break;
        }
      }
    for (intent::index I = 0; I < N; ++I)
      Bad += Seen[I] != 1;
    bool Good = support::oneLaunch(Calls) && Bad == 0;
    std::printf("cas_max bucket_lists n=%lld buckets=%lld: %s (launches %llu, "
                "bad entries %ld)\n",
                static_cast<long long>(N), static_cast<long long>(Buckets),
                Good ? "ok" : "FAIL", Calls, Bad);
    Ok = Good && Ok;
  }

  // tickets, min/max, float sum.
  {
    const intent::index N = Rows * std::max<intent::index>(Cols, 1);
    std::vector<int> K32 = support::randomInts(N, Rng, -1000000, 1000000);
    std::vector<std::int64_t> HK(K32.begin(), K32.end());
    for (std::int64_t &K : HK)
      K *= 4097; // beyond 32 bits
    std::vector<float> HV = support::randomFloats(N, Rng, 0.0f, 1.0f);
    std::int64_t WantLo = INT64_MAX, WantHi = INT64_MIN;
    double WantSum = 0, Scale = 0;
    for (intent::index I = 0; I < N; ++I) {
      WantLo = std::min(WantLo, HK[I]);
      WantHi = std::max(WantHi, HK[I]);
      WantSum += HV[I];
      Scale += std::fabs(HV[I]);
    }
    mem::array<std::uint32_t> Stats(std::vector<std::uint32_t>{0u, 7u}),
        Ticket(std::vector<std::uint32_t>(N, 0u));
    mem::array<std::int64_t> LoHi(std::vector<std::int64_t>{INT64_MAX, INT64_MIN});
    mem::array<double> Sum(std::vector<double>{0.0});
    mem::array<std::int64_t> Keys(HK);
    mem::array<float> Values(HV);
    unsigned long long Before = support::launches();
    kernels::tickets(Stats.view(), Ticket.view(), LoHi.view(), Sum.view(),
                     Keys.view(), Values.view());
    unsigned long long Calls = support::launches() - Before;
    std::vector<std::uint32_t> T = Ticket.to_vector();
    std::sort(T.begin(), T.end());
    long Bad = 0;
    for (intent::index I = 0; I < N; ++I)
      Bad += T[I] != static_cast<std::uint32_t>(I);
    std::vector<std::uint32_t> St = Stats.to_vector();
    Bad += St[0] != static_cast<std::uint32_t>(N) || St[1] != 7u;
    std::vector<std::int64_t> LH = LoHi.to_vector();
    Bad += LH[0] != WantLo || LH[1] != WantHi;
    double GotSum = Sum.to_vector()[0];
    bool SumOk = std::fabs(GotSum - WantSum) <= 1e-9 * Scale + 1e-9;
    bool Good = support::oneLaunch(Calls) && Bad == 0 && SumOk;
    std::printf("cas_max tickets n=%lld: %s (launches %llu, bad %ld, sum %.17g "
                "vs %.17g)\n",
                static_cast<long long>(N), Good ? "ok" : "FAIL", Calls, Bad,
                GotSum, WantSum);
    Ok = Good && Ok;
  }
  return Ok;
}

int main(int argc, char **argv) {
  return support::runShapes(argc, argv, 2,
                            {{0, 0}, {0, 5}, {3, 0}, {1, 1}, {7, 13},
                             {64, 1}, {1, 4096}, {513, 257}, {2000, 3}},
                            runSize);
}
