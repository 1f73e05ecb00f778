// local_buffers: intent::buffer<T, N> in each of its physical scopes (seed
// 000 §5), checked against a serial computation on random inputs:
//
//  * window_stats: a per-instance window `buffer<float, 8> win` (program-
//    private, uninitialized: every element is written before it is read)
//    feeds a sliding-window sum and maximum; inside the ordered loop over
//    the window a filled `buffer<float, 2> step(1.0f)` is iteration-private
//    and refilled on every iteration (the kernel doubles step[0] each time,
//    so a fill that ran once per instance would be caught);
//  * staged: two kernel-level buffers (a staged copy and a zero-filled
//    counter) written by one parallel_for and read by the next: every
//    instance touches only its own element, so they become slices of the
//    invocation workspace (the hidden ABI argument the runtime allocates and
//    zero-fills per launch) and the two parallel_fors fuse into one group;
//  * histogram16: a kernel-level `buffer<int, 16> bins(0)` updated at a
//    data-dependent position by every instance: without atomics the
//    instances that share it are merged into one ordered instance (the
//    compiler's remark says so), then copied to an external view.
//
//   intentc examples/local_buffers.cpp -o local_buffers && ./local_buffers
//   ./local_buffers 1000       # one size
//
// It is also plain C++ (the header's serial semantics):
//   g++ -std=c++17 -Iinclude examples/local_buffers.cpp
#include "support.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

namespace kernels {
using intent::buffer;
using intent::index;
using intent::parallel_for;
using intent::view;

/// Capacity of the staged kernel's workspace buffers (n <= kStage).
constexpr index kStage = 1 << 16;

[[intent::kernel]] void window_stats(view<float, 1> sum, view<float, 1> peak,
                                     view<const float, 1> x) {
  index n = x.extent(0);
  parallel_for(n, [&](index i) {
    buffer<float, 8> win; // program-private, first write below
    for (index k = 0; k < win.size(); ++k)
      win[k] = i + k < n ? x[i + k] : 0.0f;
    float s = 0.0f;
    float p = win[0];
    for (index k = 0; k < win.size(); ++k) {
      buffer<float, 2> step(1.0f); // iteration-private, refilled each time
      step[0] *= 2.0f;
      step[1] = win[k] * step[0];
      s += step[1];
      p = std::fmax(p, win[k]);
    }
    sum[i] = s;
    peak[i] = p;
  });
}

[[intent::kernel]] void staged(view<float, 1> y, view<const float, 1> x) {
  buffer<float, kStage> stage; // invocation workspace, first write
  buffer<int, kStage> hits(0); // invocation workspace, zero-filled
  parallel_for(x.extent(0), [&](index i) {
    stage[i] = x[i] * 2.0f;
    hits[i] += 1;
  });
  parallel_for(x.extent(0), [&](index i) {
    y[i] = stage[i] + static_cast<float>(hits[i]);
  });
}

[[intent::kernel]] void histogram16(view<int, 1> counts,
                                    view<const int, 1> keys) {
  buffer<int, 16> bins(0); // shared with a data-dependent index: merged
  parallel_for(keys.extent(0), [&](index i) { bins[keys[i] & 15] += 1; });
  parallel_for(counts.extent(0), [&](index b) { counts[b] = bins[b & 15]; });
}

} // namespace kernels

static bool runSize(support::shape S, std::mt19937 &Rng) {
  using intent::index;
  const index N = S.n0;
  std::vector<float> HX = support::randomFloats(N, Rng, -4.0f, 4.0f);
  std::vector<int> HK = support::randomInts(N, Rng, 0, 1000);

  // Serial reference.
  std::vector<float> WantSum(N), WantPeak(N), WantY(N);
  for (index I = 0; I < N; ++I) {
    float Win[8];
    for (index K = 0; K < 8; ++K)
      Win[K] = I + K < N ? HX[I + K] : 0.0f;
    float Sum = 0.0f, Peak = Win[0];
    for (index K = 0; K < 8; ++K) {
      Sum += Win[K] * 2.0f;
      Peak = std::fmax(Peak, Win[K]);
    }
    WantSum[I] = Sum;
    WantPeak[I] = Peak;
    WantY[I] = HX[I] * 2.0f + 1.0f;
  }
  std::vector<int> WantCounts(16, 0);
  for (index I = 0; I < N; ++I)
    ++WantCounts[HK[I] & 15];

  mem::array<float> X(HX), Sum(N), Peak(N), Y(N);
  mem::array<int> Keys(HK), Counts(16);
  unsigned long long L0 = support::launches();
  kernels::window_stats(Sum.view(), Peak.view(), X.view());
  unsigned long long L1 = support::launches();
  bool Staged = N <= kernels::kStage;
  if (Staged)
    kernels::staged(Y.view(), X.view());
  unsigned long long L2 = support::launches();
  kernels::histogram16(Counts.view(), Keys.view());
  unsigned long long L3 = support::launches();

  long BadSum = support::closeMismatches(Sum.to_vector(), WantSum, 1e-6, 1e-6);
  long BadPeak = support::exactMismatches(Peak.to_vector(), WantPeak);
  long BadY = Staged ? support::exactMismatches(Y.to_vector(), WantY) : 0;
  long BadCounts = support::exactMismatches(Counts.to_vector(), WantCounts);
  bool Ok = support::oneLaunch(L1 - L0) &&
            (!Staged || support::oneLaunch(L2 - L1)) &&
            support::oneLaunch(L3 - L2) && BadSum == 0 && BadPeak == 0 &&
            BadY == 0 && BadCounts == 0;
  std::printf("local_buffers n=%lld: %s (mismatches: sum %ld, peak %ld, "
              "staged %ld, histogram %ld)\n",
              static_cast<long long>(N), Ok ? "ok" : "FAIL", BadSum, BadPeak,
              BadY, BadCounts);
  return Ok;
}

int main(int argc, char **argv) {
  return support::runShapes(argc, argv, 1,
                            {{0, 0}, {1, 0}, {7, 0}, {1000, 0}, {65536, 0},
                             {200003, 0}},
                            runSize);
}
