// Tests scan: kinds, directions, emit order, ranges, linear recurrences.

#include "intent/intent.hpp"
#include "test_util.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

namespace {
using namespace intent;
using intent::index; // <strings.h>, pulled in by gtest, declares ::index().

/// Runs scan over [0, N) and returns the emitted prefixes by position,
/// checking that every position is emitted exactly once.
std::vector<int> scanInts(const std::vector<int> &X, int Init, scan_kind Kind,
                          direction Dir) {
  index N = static_cast<index>(X.size());
  std::vector<int> Out(X.size(), -12345);
  std::vector<int> Emits(X.size(), 0);
  scan(
      N, Init, ops::plus{}, [&](index K) { return X[K]; },
      [&](index K, int P) {
        Out[K] = P;
        ++Emits[K];
      },
      Kind, Dir);
  for (index K = 0; K < N; ++K)
    EXPECT_EQ(Emits[K], 1) << "k = " << K;
  return Out;
}

TEST(Scan, InclusiveForwardMatchesLoop) {
  for (index N : intent_test::sizes()) {
    std::vector<int> X = intent_test::randomInts(N, 21, -100, 100);
    std::vector<int> Expected(X.size());
    int Acc = 3;
    for (index K = 0; K < N; ++K)
      Expected[K] = Acc += X[K];
    EXPECT_EQ(scanInts(X, 3, scan_kind::inclusive, direction::forward),
              Expected)
        << "N = " << N;
  }
}

TEST(Scan, ExclusiveForwardStartsWithInit) {
  for (index N : intent_test::sizes()) {
    std::vector<int> X = intent_test::randomInts(N, 22, -100, 100);
    std::vector<int> Expected(X.size());
    int Acc = 7;
    for (index K = 0; K < N; ++K) {
      Expected[K] = Acc;
      Acc += X[K];
    }
    EXPECT_EQ(scanInts(X, 7, scan_kind::exclusive, direction::forward),
              Expected)
        << "N = " << N;
  }
}

TEST(Scan, InclusiveReverseIsASuffixSum) {
  for (index N : intent_test::sizes()) {
    std::vector<int> X = intent_test::randomInts(N, 23, -100, 100);
    std::vector<int> Expected(X.size());
    int Acc = 0;
    for (index K = N - 1; K >= 0; --K)
      Expected[K] = Acc += X[K];
    EXPECT_EQ(scanInts(X, 0, scan_kind::inclusive, direction::reverse),
              Expected)
        << "N = " << N;
  }
}

TEST(Scan, ExclusiveReverseExcludesTheElement) {
  for (index N : intent_test::sizes()) {
    std::vector<int> X = intent_test::randomInts(N, 24, -100, 100);
    std::vector<int> Expected(X.size());
    int Acc = -5;
    for (index K = N - 1; K >= 0; --K) {
      Expected[K] = Acc;
      Acc += X[K];
    }
    EXPECT_EQ(scanInts(X, -5, scan_kind::exclusive, direction::reverse),
              Expected)
        << "N = " << N;
  }
}

TEST(Scan, EmitOrderFollowsTheDirection) {
  std::vector<index> Forward, Reverse;
  scan(
      range{3, 8}, 0, ops::plus{}, [](index) { return 1; },
      [&](index K, int) { Forward.push_back(K); });
  scan(
      range{3, 8}, 0, ops::plus{}, [](index) { return 1; },
      [&](index K, int) { Reverse.push_back(K); }, scan_kind::inclusive,
      direction::reverse);
  EXPECT_EQ(Forward, (std::vector<index>{3, 4, 5, 6, 7}));
  EXPECT_EQ(Reverse, (std::vector<index>{7, 6, 5, 4, 3}));
}

TEST(Scan, EmptyEmitsNothing) {
  int Calls = 0;
  for (scan_kind Kind : {scan_kind::inclusive, scan_kind::exclusive})
    for (direction Dir : {direction::forward, direction::reverse}) {
      scan(
          0, 1.0f, ops::plus{}, [](index) { return 1.0f; },
          [&](index, float) { ++Calls; }, Kind, Dir);
      scan(
          range{4, 4}, 1.0f, ops::plus{}, [](index) { return 1.0f; },
          [&](index, float) { ++Calls; }, Kind, Dir);
    }
  EXPECT_EQ(Calls, 0);
}

TEST(Scan, RangeEmitsAbsolutePositions) {
  std::vector<float> X = intent_test::randomFloats(40, 25);
  std::vector<float> Out(40, 0.0f);
  scan(
      range{10, 30}, 0.0f, ops::plus{}, [&](index K) { return X[K]; },
      [&](index K, float P) { Out[K] = P; });
  float Acc = 0.0f;
  for (index K = 0; K < 40; ++K) {
    if (K < 10 || K >= 30) {
      EXPECT_EQ(Out[K], 0.0f);
      continue;
    }
    Acc += X[K];
    EXPECT_EQ(Out[K], Acc);
  }
}

TEST(Scan, RunningMax) {
  std::vector<float> X = intent_test::randomFloats(500, 26);
  std::vector<float> Out(500);
  scan(
      500, -INFINITY, ops::max{}, [&](index K) { return X[K]; },
      [&](index K, float P) { Out[K] = P; });
  float M = -INFINITY;
  for (index K = 0; K < 500; ++K) {
    M = std::max(M, X[K]);
    EXPECT_EQ(Out[K], M);
  }
}

/// The map h -> A h + B. Composition (first F, then G) is associative, so a
/// linear recurrence is a scan over these maps.
struct Affine {
  double A, B;
};
Affine thenApply(Affine F, Affine G) { return {G.A * F.A, G.A * F.B + G.B}; }

TEST(Scan, AffineCompositionIsAssociative) {
  std::vector<double> R = intent_test::randomDoubles(600, 27);
  for (int I = 0; I < 600; I += 6) {
    Affine F{R[I], R[I + 1]}, G{R[I + 2], R[I + 3]}, H{R[I + 4], R[I + 5]};
    Affine L = thenApply(thenApply(F, G), H),
           Rt = thenApply(F, thenApply(G, H));
    EXPECT_NEAR(L.A, Rt.A, 1e-14);
    EXPECT_NEAR(L.B, Rt.B, 1e-14);
  }
}

TEST(Scan, LinearRecurrenceAsPairScan) {
  // h_k = a_k h_{k-1} + b_k with h_{-1} = H0; each prefix map applied to H0.
  for (index N : intent_test::sizes()) {
    std::vector<double> As = intent_test::randomDoubles(N, 28, -1.0, 1.0);
    std::vector<double> Bs = intent_test::randomDoubles(N, 29);
    const double H0 = 0.75;
    std::vector<double> H(As.size());
    scan(
        N, Affine{1.0, 0.0}, thenApply,
        [&](index K) {
          return Affine{As[K], Bs[K]};
        },
        [&](index K, Affine P) { H[K] = P.A * H0 + P.B; });
    double Expected = H0;
    for (index K = 0; K < N; ++K) {
      Expected = As[K] * Expected + Bs[K];
      ASSERT_NEAR(H[K], Expected, 1e-12) << "N = " << N << ", k = " << K;
    }
  }
}

TEST(Scan, LinearRecurrenceWithStateInInit) {
  // The constant map to H0 as init: the prefix's B is h_k directly.
  std::vector<double> As = intent_test::randomDoubles(257, 30);
  std::vector<double> Bs = intent_test::randomDoubles(257, 31);
  std::vector<double> H(257);
  scan(
      257, Affine{0.0, -2.0}, thenApply,
      [&](index K) {
        return Affine{As[K], Bs[K]};
      },
      [&](index K, Affine P) { H[K] = P.B; });
  double Expected = -2.0;
  for (index K = 0; K < 257; ++K) {
    Expected = As[K] * Expected + Bs[K];
    EXPECT_NEAR(H[K], Expected, 1e-12);
  }
}

TEST(Scan, ReverseLinearRecurrence) {
  // Backward recurrence g_k = a_k g_{k+1} + b_k with g_N = 1, exclusive and
  // inclusive: the exclusive prefix at k is g_{k+1}.
  const index N = 99;
  std::vector<double> As = intent_test::randomDoubles(N, 32);
  std::vector<double> Bs = intent_test::randomDoubles(N, 33);
  std::vector<double> Inc(N), Exc(N);
  auto Value = [&](index K) { return Affine{As[K], Bs[K]}; };
  scan(
      N, Affine{0.0, 1.0}, thenApply, Value,
      [&](index K, Affine P) { Inc[K] = P.B; }, scan_kind::inclusive,
      direction::reverse);
  scan(
      N, Affine{0.0, 1.0}, thenApply, Value,
      [&](index K, Affine P) { Exc[K] = P.B; }, scan_kind::exclusive,
      direction::reverse);
  double G = 1.0;
  for (index K = N - 1; K >= 0; --K) {
    EXPECT_NEAR(Exc[K], G, 1e-12);
    G = As[K] * G + Bs[K];
    EXPECT_NEAR(Inc[K], G, 1e-12);
  }
}

} // namespace
