// histogram: intent::histogram, the scatter-reduction that counts samples per
// bin and drops samples whose bin is out of range (negative or too large).
// The compiler runs one instance per sample, each doing one atomic add on its
// bin, in ONE launch. Three kernels: int32 counts of integer samples over
// [0, n); a template over the count type (uint32, int64, uint64) whose bins
// come from floor(x[i] * scale) over a sub-range [lo, hi) of the samples; and
// two histograms of the same samples with different bin counts in one
// kernel. Counts are integers, so they must match a serial count exactly,
// whatever order the samples were counted in; inputs are random, with
// n = 0, 1, odd and large, and with out-of-range bins.
//
//   intentc examples/histogram.cpp -o histogram && ./histogram
//   ./histogram 1000 16     # one size: 1000 samples, 16 bins
//
// It is also plain C++ (the header's serial semantics):
//   g++ -std=c++17 -Iinclude examples/histogram.cpp
#include "support.hpp"

#include <cmath>
#include <cstdint>

namespace kernels {
using intent::index;
using intent::view;

/// counts[b] += number of i in [0, n) with samples[i] == b.
[[intent::kernel]] void count_ints(view<int, 1> counts,
                                   view<const int, 1> samples) {
  intent::histogram(counts, samples.extent(0),
                    [&](index i) { return samples[i]; });
}

/// counts[b] += number of i in [lo, hi) with floor(x[i] * scale) == b.
template <class C>
[[intent::kernel]] void count_scaled(view<C, 1> counts, view<const float, 1> x,
                                     index lo, index hi, float scale) {
  intent::histogram(counts, intent::range{lo, hi}, [&](index i) {
    return static_cast<index>(std::floor(x[i] * scale));
  });
}

/// Two histograms of one sample set: fine (every bin) and coarse (bin / 4).
[[intent::kernel]] void count_two(view<std::int64_t, 1> fine,
                                  view<unsigned, 1> coarse,
                                  view<const int, 1> samples) {
  index n = samples.extent(0);
  intent::histogram(fine, n, [&](index i) { return samples[i]; });
  intent::histogram(coarse, n, [&](index i) {
    int s = samples[i];
    return s < 0 ? -1 : s / 4;
  });
}

} // namespace kernels

/// The serial count: Want[b] += 1 for every sample bin b in [0, Bins).
template <class C>
static std::vector<C> reference(const std::vector<intent::index> &SampleBins,
                                intent::index Bins) {
  std::vector<C> Want(static_cast<std::size_t>(Bins), C(0));
  for (intent::index B : SampleBins)
    if (B >= 0 && B < Bins)
      Want[B] += C(1);
  return Want;
}

static bool report(const char *What, intent::index N, intent::index Bins,
                   unsigned long long Calls, long Bad) {
  bool Ok = support::oneLaunch(Calls) && Bad == 0;
  std::printf("histogram %-22s n=%lld bins=%lld: %s (launches %llu, "
              "mismatches %ld)\n",
              What, static_cast<long long>(N), static_cast<long long>(Bins),
              Ok ? "ok" : "FAIL", Calls, Bad);
  return Ok;
}

template <class C>
static bool runScaled(const char *What, intent::index N, intent::index Bins,
                      std::mt19937 &Rng) {
  // Samples fall in about [-2, Bins + 2): some bins are out of range.
  std::vector<float> HX =
      support::randomFloats(N, Rng, -2.0f, static_cast<float>(Bins) + 2.0f);
  const float Scale = 1.0f;
  intent::index Lo = N / 5, Hi = N - N / 7;
  std::vector<intent::index> SampleBins;
  for (intent::index I = Lo; I < Hi; ++I)
    SampleBins.push_back(
        static_cast<intent::index>(std::floor(HX[I] * Scale)));
  std::vector<C> Want = reference<C>(SampleBins, Bins);
  mem::array<float> X(HX);
  mem::array<C> Counts(std::vector<C>(static_cast<std::size_t>(Bins), C(0)));
  unsigned long long Before = support::launches();
  kernels::count_scaled<C>(Counts.view(), X.view(), Lo, Hi, Scale);
  unsigned long long Calls = support::launches() - Before;
  return report(What, N, Bins, Calls,
                support::exactMismatches(Counts.to_vector(), Want));
}

static bool runSize(support::shape S, std::mt19937 &Rng) {
  const intent::index N = S.n0, Bins = S.n1;
  const int MaxBin = static_cast<int>(Bins) + 3;
  std::vector<int> HS = support::randomInts(N, Rng, -3, MaxBin);
  std::vector<intent::index> SampleBins(HS.begin(), HS.end());
  bool Ok = true;

  {
    std::vector<int> Want = reference<int>(SampleBins, Bins);
    mem::array<int> S(HS);
    mem::array<int> Counts(std::vector<int>(static_cast<std::size_t>(Bins), 0));
    unsigned long long Before = support::launches();
    kernels::count_ints(Counts.view(), S.view());
    unsigned long long Calls = support::launches() - Before;
    Ok = report("int32 counts", N, Bins, Calls,
                support::exactMismatches(Counts.to_vector(), Want)) &&
         Ok;
  }
  Ok = runScaled<unsigned>("uint32 counts, range", N, Bins, Rng) && Ok;
  Ok = runScaled<std::int64_t>("int64 counts, range", N, Bins, Rng) && Ok;
  Ok = runScaled<std::uint64_t>("uint64 counts, range", N, Bins, Rng) &&
       Ok;
  {
    const intent::index Coarse = (Bins + 3) / 4;
    std::vector<intent::index> CoarseBins;
    for (int V : HS)
      CoarseBins.push_back(V < 0 ? -1 : V / 4);
    std::vector<std::int64_t> WantFine = reference<std::int64_t>(SampleBins, Bins);
    std::vector<unsigned> WantCoarse = reference<unsigned>(CoarseBins, Coarse);
    mem::array<int> S(HS);
    mem::array<std::int64_t> Fine(
        std::vector<std::int64_t>(static_cast<std::size_t>(Bins), 0));
    mem::array<unsigned> CoarseCounts(
        std::vector<unsigned>(static_cast<std::size_t>(Coarse), 0u));
    unsigned long long Before = support::launches();
    kernels::count_two(Fine.view(), CoarseCounts.view(), S.view());
    unsigned long long Calls = support::launches() - Before;
    Ok = report("fine + coarse", N, Bins, Calls,
                support::exactMismatches(Fine.to_vector(), WantFine) +
                    support::exactMismatches(CoarseCounts.to_vector(),
                                             WantCoarse)) &&
         Ok;
  }
  return Ok;
}

int main(int argc, char **argv) {
  return support::runShapes(argc, argv, 2,
                            {{0, 8}, {1, 1}, {1, 5}, {37, 7}, {1000, 1},
                             {4097, 16}, {100003, 256}, {250000, 3}},
                            runSize);
}
