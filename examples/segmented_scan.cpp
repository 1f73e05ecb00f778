// segmented_scan: a segmented inclusive prefix sum over ragged batches,
// written as a region_scan over the batch offsets: for every segment s and
// member k in [offsets[s], offsets[s+1]),
//   y[k] = x[offsets[s]] + ... + x[k],
// restarting at each segment boundary. Segments are data-dependent regions of
// the element axis: lengths vary, many are empty (they emit nothing), one may
// be long. Integer sums are exact in any association, so y is compared
// exactly with a serial computation; the call must be ONE launch.
//
//   intentc examples/segmented_scan.cpp -o segmented_scan && ./segmented_scan
//   ./segmented_scan 5 3      # one size: 5 segments of at most 3 elements
//
// It is also plain C++ (the header's serial semantics):
//   g++ -std=c++17 -Iinclude examples/segmented_scan.cpp
#include "support.hpp"

namespace kernels {
using intent::index;
using intent::region_scan;
using intent::view;
namespace ops = intent::ops;

[[intent::kernel]] void segmented_prefix_sum(view<int, 1> y,
                                             view<const int, 1> offsets,
                                             view<const int, 1> x) {
  region_scan(offsets, 0, ops::plus{}, [&](index k) { return x[k]; },
              [&](index k, int p) { y[k] = p; }, intent::scan_kind::inclusive);
}

} // namespace kernels

/// Runs the kernel on Segs random segments of at most MaxLen elements;
/// true when it matches.
static bool runSize(support::shape S, std::mt19937 &Rng) {
  const intent::index Segs = S.n0, MaxLen = S.n1;
  // About one segment in three is empty.
  std::vector<int> HOffsets =
      support::randomOffsets(Segs, Rng, static_cast<int>(MaxLen), 3);
  const intent::index N = HOffsets.back();
  std::vector<int> HX = support::randomInts(N, Rng, -1000, 1000);

  std::vector<int> Want(N);
  for (intent::index Seg = 0; Seg < Segs; ++Seg) {
    int Sum = 0;
    for (int K = HOffsets[Seg]; K < HOffsets[Seg + 1]; ++K)
      Want[K] = Sum += HX[K];
  }

  // y starts as a value no prefix takes, so a missed element is a mismatch.
  mem::array<int> Offsets(HOffsets), X(HX), Y(std::vector<int>(N, 0x7eadbeef));
  unsigned long long Before = support::launches();
  kernels::segmented_prefix_sum(Y.view(), Offsets.view(), X.view());
  unsigned long long Calls = support::launches() - Before;
  long Bad = support::exactMismatches(Y.to_vector(), Want);
  bool Ok = support::oneLaunch(Calls) && Bad == 0;
  std::printf("segmented_scan segments=%lld elements=%lld: %s (launches %llu, "
              "mismatches %ld)\n",
              static_cast<long long>(Segs), static_cast<long long>(N),
              Ok ? "ok" : "FAIL", Calls, Bad);
  return Ok;
}

int main(int argc, char **argv) {
  return support::runShapes(argc, argv, 2,
                            {{0, 0}, {1, 0}, {1, 1}, {7, 5}, {2, 100003},
                             {1000, 0}, {513, 40}, {100003, 17}},
                            runSize);
}
