// saxpy: one group, one output; every size from empty to a million runs as
// exactly one launch and matches a serial loop. Program count: one per
// element for the hand-written phase-1 kernels in gen/, min(ceil(n / 4),
// 2^18) where the plugin's widen pass gave each program chunks of 4
// (docs/passes.md §6); any other count fails.
#include <intent/array.hpp>
#include <intent/intent.hpp>

#include "check.hpp"

#include <algorithm>
#include <cstdint>

using namespace intent;

/// The program count a launch over N elements ran, if it is one of the two
/// legal ones (else N, so that expectOneLaunch reports the mismatch).
static std::uint64_t legalPrograms(const check::counters &Before, index N) {
  std::uint64_t Ran = check::now().Programs - Before.Programs;
  std::uint64_t Widened = std::min<std::uint64_t>((N + 3) / 4, 1u << 18);
  return Ran == Widened ? Widened : static_cast<std::uint64_t>(N);
}

[[intent::kernel]] void saxpy(view<float, 1> y, view<const float, 1> x, float a) {
  parallel_for(y.extent(0), [&](index i) { y[i] = a * x[i] + y[i]; });
}

int main() {
  check::suite S("saxpy");
  for (index N : {0, 1, 2, 7, 1023, 1025, 100003, (1 << 20) + 3}) {
    std::vector<float> X = S.floats(N), Y = S.floats(N), Want(N);
    for (index I = 0; I < N; ++I)
      Want[I] = 2.5f * X[I] + Y[I];
    array<float> DX(X), DY(Y);
    check::counters Before = check::now();
    saxpy(DY.view(), DX.view(), 2.5f);
    std::string What = "n=" + std::to_string(N);
    S.expectOneLaunch(Before, legalPrograms(Before, N), What);
    // The GPU may contract a*x+y into one fma: allow an ulp or two.
    S.expectNear(DY.to_vector(), Want, 1e-6, What);
    S.expectNear(DX.to_vector(), X, 0.0, What + " (x unchanged)");
  }
  // Views into part of an array: a strided sub-view updates only its elements.
  {
    std::vector<float> X = S.floats(9), Y = S.floats(9), Want = Y;
    for (index I = 0; I < 9; I += 2)
      Want[I] = -1.0f * X[I] + Y[I];
    array<float> DX(X), DY(Y);
    view<float, 1> Even(DY.data(), {5}, {2});
    view<const float, 1> XEven(DX.data(), {5}, {2});
    check::counters Before = check::now();
    saxpy(Even, XEven, -1.0f);
    S.expectOneLaunch(Before, legalPrograms(Before, 5), "strided");
    S.expectNear(DY.to_vector(), Want, 1e-6, "strided");
  }
  return S.finish();
}
