// ordered_break: ordered control inside parallel iteration. Each row runs an
// ordered loop with `continue` and `break` and carries a running sum across
// iterations; each element runs a `while` loop whose trip count depends on
// the data. The iterations of a parallel_for are independent instances; the
// loops inside stay ordered. Results are checked exactly against a serial
// computation on random inputs of several sizes (the floats are multiples of
// 1/4, so every partial sum is exact).
//
//   intentc examples/ordered_break.cpp -o ordered_break && ./ordered_break
//   ./ordered_break 5 3    # one shape: 5 rows, 3 columns (15 start values)
//
// It is also plain C++ (the header's serial semantics):
//   g++ -std=c++17 -Iinclude examples/ordered_break.cpp
#include "support.hpp"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <vector>

namespace kernels {
using intent::index;
using intent::parallel_for;
using intent::view;

/// For each row r: pos[r] is the first column at which the running sum of
/// the row's non-negative entries exceeds limit (negative entries are
/// skipped), or -1 when it never does; reached[r] is the running sum there
/// (the whole sum when it never exceeds).
[[intent::kernel]] void first_crossing(view<index, 1> pos,
                                       view<float, 1> reached,
                                       view<const float, 2> in, float limit) {
  parallel_for(in.extent(0), [&](index r) {
    float sum = 0.0f;
    index found = -1;
    for (index c = 0; c < in.extent(1); ++c) {
      float v = in(r, c);
      if (v < 0.0f)
        continue;
      sum += v;
      if (sum > limit) {
        found = c;
        break;
      }
    }
    pos[r] = found;
    reached[r] = sum;
  });
}

/// steps[i] is the number of Collatz steps from start[i] down to 1, at most
/// cap (0 for a start of 0 or 1). The while loop carries the value and the
/// count.
[[intent::kernel]] void collatz_steps(view<int, 1> steps,
                                      view<const std::int64_t, 1> start,
                                      int cap) {
  parallel_for(start.extent(0), [&](index i) {
    std::int64_t v = start[i];
    int k = 0;
    while (v > 1 && k < cap) {
      if (v % 2 == 0)
        v = v / 2;
      else
        v = 3 * v + 1;
      ++k;
    }
    steps[i] = k;
  });
}

} // namespace kernels

/// first_crossing on a random Rows x Cols matrix; true when it matches.
static bool runCrossing(intent::index Rows, intent::index Cols,
                        std::mt19937 &Rng) {
  // Multiples of 1/4 in [-2, 5]: about 70% non-negative, averaging 2.5, so
  // a limit of 1.75 per column is crossed in some rows and not in others.
  std::uniform_int_distribution<int> Quarters(-8, 20);
  std::vector<float> HIn(Rows * Cols);
  for (float &V : HIn)
    V = static_cast<float>(Quarters(Rng)) * 0.25f;
  const float Limit = 1.75f * static_cast<float>(Cols);

  std::vector<intent::index> WantPos(Rows);
  std::vector<float> WantSum(Rows);
  for (intent::index R = 0; R < Rows; ++R) {
    float Sum = 0.0f;
    intent::index Found = -1;
    for (intent::index C = 0; C < Cols && Found < 0; ++C) {
      float V = HIn[R * Cols + C];
      if (V >= 0.0f) {
        Sum += V;
        if (Sum > Limit)
          Found = C;
      }
    }
    WantPos[R] = Found;
    WantSum[R] = Sum;
  }

  mem::array<float> In(HIn), Reached(Rows);
  mem::array<intent::index> Pos(Rows);
  kernels::first_crossing(Pos.view(), Reached.view(), In.view(Rows, Cols),
                          Limit);
  std::vector<intent::index> GotPos = Pos.to_vector();
  std::vector<float> GotSum = Reached.to_vector();
  long Bad = 0, Crossed = 0;
  for (intent::index R = 0; R < Rows; ++R) {
    Bad += GotPos[R] != WantPos[R] || GotSum[R] != WantSum[R];
    Crossed += WantPos[R] >= 0;
  }
  std::printf("ordered_break first_crossing %lldx%lld: %s (%ld rows crossed, "
              "%ld mismatches)\n",
              static_cast<long long>(Rows), static_cast<long long>(Cols),
              Bad ? "FAIL" : "ok", Crossed, Bad);
  return Bad == 0;
}

/// collatz_steps on N random start values; true when it matches.
static bool runCollatz(intent::index N, std::mt19937 &Rng) {
  std::uniform_int_distribution<std::int64_t> Start(0, 1000000);
  std::vector<std::int64_t> HStart(N);
  for (std::int64_t &V : HStart)
    V = Start(Rng);
  // Below 10^6 the longest trajectory takes 524 steps: the cap binds for a
  // few values.
  const int Cap = 300;
  std::vector<int> Want(N);
  for (intent::index I = 0; I < N; ++I) {
    std::int64_t V = HStart[I];
    int K = 0;
    for (; V > 1 && K < Cap; ++K)
      V = V % 2 == 0 ? V / 2 : 3 * V + 1;
    Want[I] = K;
  }

  mem::array<std::int64_t> Starts(HStart);
  mem::array<int> Steps(N);
  kernels::collatz_steps(Steps.view(), Starts.view(), Cap);
  std::vector<int> Got = Steps.to_vector();
  long Bad = 0;
  for (intent::index I = 0; I < N; ++I)
    Bad += Got[I] != Want[I];
  std::printf("ordered_break collatz_steps n=%lld: %s (%ld mismatches)\n",
              static_cast<long long>(N), Bad ? "FAIL" : "ok", Bad);
  return Bad == 0;
}

int main(int argc, char **argv) {
  std::mt19937 Rng(99);
  if (argc == 3) {
    intent::index Rows = std::atol(argv[1]), Cols = std::atol(argv[2]);
    bool Ok = runCrossing(Rows, Cols, Rng);
    return runCollatz(Rows * Cols, Rng) && Ok ? 0 : 1;
  }
  const intent::index Shapes[][2] = {{0, 0},  {1, 1},    {0, 3},    {4, 0},
                                     {7, 13}, {1000, 1}, {3, 1001}, {2049, 129}};
  bool Ok = true;
  for (const auto &S : Shapes) {
    Ok = runCrossing(S[0], S[1], Rng) && Ok;
    Ok = runCollatz(S[0] * S[1], Rng) && Ok;
  }
  return Ok ? 0 : 1;
}
