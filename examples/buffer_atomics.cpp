// buffer_atomics: intent::atomic_* on the elements of local buffers
// (intent::buffer<T, N>), checked against a serial computation on random
// inputs:
//
//  * private_stats: each instance counts the keys of its window in a private
//    `buffer<int, 4> h(0)` with atomic_add, then atomic_max / atomic_min /
//    atomic_exch / atomic_cas on the same buffer. Nothing else touches a
//    private buffer, so the atomic-scopes pass picks the narrowest legal
//    scope, the instance itself (a plain read-modify-write; the remark says
//    so);
//  * tickets: a kernel-level `buffer<int, 2> next(0)` shared by all the
//    instances of one parallel_for through atomics only (atomic_add, and a
//    CAS loop): it stays an invocation workspace zero-filled by the runtime,
//    the instances are not merged and the atomics get scope gpu. The ticket
//    values depend on the order the instances ran in; each column of tickets
//    must be a permutation of 0 .. n-1;
//  * histogram256: a kernel-level `buffer<int, 256> bins(0)` filled by
//    atomic_add from one parallel_for and copied out by a later one. The
//    copy must see every atomic, and one launch has no grid-wide ordering
//    between two groups, so the compiler merges the instances that share the
//    buffer into one ordered instance rather than read the bins too early.
//    This serialization is real, so the build warns about it
//    (-Wintent-serialization: "the read of bins(b & 255) depends on the
//    atomic update of bins(keys(i) & 255) over another domain ... split the
//    kernel"); two kernels would keep both parallel_fors parallel.
//
//   intentc examples/buffer_atomics.cpp -o buffer_atomics && ./buffer_atomics
//   ./buffer_atomics 1000      # one size
//
// It is also plain C++ (the header's serial semantics):
//   g++ -std=c++17 -Iinclude examples/buffer_atomics.cpp
#include "support.hpp"

#include <algorithm>
#include <cstdio>
#include <vector>

namespace kernels {
using intent::buffer;
using intent::index;
using intent::parallel_for;
using intent::view;

[[intent::kernel]] void private_stats(view<int, 2> out,
                                      view<const int, 1> keys) {
  index n = keys.extent(0);
  parallel_for(n, [&](index i) {
    buffer<int, 4> h(0); // private to the instance
    for (index k = 0; k < 8; ++k) {
      int key = i + k < n ? keys[i + k] : keys[i];
      intent::atomic_add(h[key & 3], 1);
    }
    intent::atomic_max(h[3], keys[i]);
    intent::atomic_min(h[2], -keys[i]);
    int old = intent::atomic_exch(h[1], 7);
    intent::cas_result<int> r = intent::atomic_cas(h[0], old, 99);
    for (index c = 0; c < 4; ++c)
      out(i, c) = h[c];
    out(i, 4) = old * 10 + (r.success ? 1 : 0);
  });
}

[[intent::kernel]] void tickets(view<int, 2> slot, view<const int, 1> keys) {
  buffer<int, 2> next(0); // invocation workspace, shared through atomics
  parallel_for(keys.extent(0), [&](index i) {
    slot(i, 0) = intent::atomic_add(next[0], 1);
    int expected = 0;
    while (true) {
      intent::cas_result<int> r =
          intent::atomic_cas(next[1], expected, expected + 1);
      if (r.success)
        break;
      expected = r.old;
    }
    slot(i, 1) = expected;
  });
}

[[intent::kernel]] void histogram256(view<int, 1> counts,
                                     view<const int, 1> keys) {
  buffer<int, 256> bins(0);
  parallel_for(keys.extent(0),
               [&](index i) { intent::atomic_add(bins[keys[i] & 255], 1); });
  parallel_for(counts.extent(0), [&](index b) { counts[b] = bins[b & 255]; });
}

} // namespace kernels

/// True when column c of the n x 2 row-major `v` is a permutation of 0..n-1.
static bool isPermutation(const std::vector<int> &v, intent::index n, int c) {
  std::vector<char> seen(n, 0);
  for (intent::index i = 0; i < n; ++i) {
    int t = v[i * 2 + c];
    if (t < 0 || t >= n || seen[t])
      return false;
    seen[t] = 1;
  }
  return true;
}

static bool runSize(support::shape S, std::mt19937 &Rng) {
  using intent::index;
  const index N = S.n0;
  std::vector<int> HK = support::randomInts(N, Rng, 0, 100000);

  // Serial reference.
  std::vector<int> WantOut(N * 5), WantCounts(256, 0);
  for (index I = 0; I < N; ++I) {
    int H[4] = {0, 0, 0, 0};
    for (index K = 0; K < 8; ++K)
      ++H[(I + K < N ? HK[I + K] : HK[I]) & 3];
    H[3] = std::max(H[3], HK[I]);
    H[2] = std::min(H[2], -HK[I]);
    int Old = H[1];
    H[1] = 7;
    bool Hit = H[0] == Old;
    if (Hit)
      H[0] = 99;
    for (int C = 0; C < 4; ++C)
      WantOut[I * 5 + C] = H[C];
    WantOut[I * 5 + 4] = Old * 10 + (Hit ? 1 : 0);
    ++WantCounts[HK[I] & 255];
  }

  mem::array<int> Keys(HK), Out(N * 5), Slot(N * 2), Counts(256);
  unsigned long long L0 = support::launches();
  kernels::private_stats(Out.view(N, 5), Keys.view());
  unsigned long long L1 = support::launches();
  kernels::tickets(Slot.view(N, 2), Keys.view());
  unsigned long long L2 = support::launches();
  kernels::histogram256(Counts.view(), Keys.view());
  unsigned long long L3 = support::launches();

  long BadOut = support::exactMismatches(Out.to_vector(), WantOut);
  std::vector<int> Slots = Slot.to_vector();
  bool TicketsOk = isPermutation(Slots, N, 0) && isPermutation(Slots, N, 1);
  long BadCounts = support::exactMismatches(Counts.to_vector(), WantCounts);
  bool Ok = support::oneLaunch(L1 - L0) && support::oneLaunch(L2 - L1) &&
            support::oneLaunch(L3 - L2) && BadOut == 0 && TicketsOk &&
            BadCounts == 0;
  std::printf("buffer_atomics n=%lld: %s (mismatches: private %ld, tickets "
              "%s, histogram %ld)\n",
              static_cast<long long>(N), Ok ? "ok" : "FAIL", BadOut,
              TicketsOk ? "ok" : "FAIL", BadCounts);
  return Ok;
}

int main(int argc, char **argv) {
  return support::runShapes(argc, argv, 1,
                            {{0, 0}, {1, 0}, {7, 0}, {1000, 0}, {65536, 0},
                             {100003, 0}},
                            runSize);
}
