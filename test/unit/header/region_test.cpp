// Tests region_fold/region_scan: CSR SpMV, segmented scans, empty regions.

#include "intent/intent.hpp"
#include "test_util.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <utility>
#include <vector>

namespace {
using namespace intent;
using intent::index; // <strings.h>, pulled in by gtest, declares ::index().

/// A random CSR matrix with some empty rows.
struct Csr {
  index Rows, Cols;
  std::vector<int> RowPtr, Col;
  std::vector<float> Val;
};

Csr randomCsr(index Rows, index Cols, std::uint32_t Seed) {
  Csr A{Rows, Cols, intent_test::randomOffsets(Rows, Seed, 12), {}, {}};
  index Nnz = A.RowPtr.back();
  A.Col = intent_test::randomInts(Nnz, Seed + 1, 0, static_cast<int>(Cols - 1));
  A.Val = intent_test::randomFloats(Nnz, Seed + 2);
  return A;
}

/// y = A x as in a kernel body.
void spmv(view<float, 1> Y, view<const int, 1> RowPtr, view<const int, 1> Col,
          view<const float, 1> Val, view<const float, 1> X) {
  region_fold(
      RowPtr, 0.0f, ops::plus{}, [&](index K) { return Val[K] * X[Col[K]]; },
      [&](index R, float S) { Y[R] = S; });
}

TEST(RegionFold, CsrSpmvMatchesLoop) {
  for (index Rows : intent_test::sizes()) {
    if (Rows > 5000)
      continue;
    Csr A = randomCsr(Rows, 37, 101 + static_cast<std::uint32_t>(Rows));
    std::vector<float> X = intent_test::randomFloats(A.Cols, 102);
    std::vector<float> Y(static_cast<std::size_t>(Rows), -7.0f);
    spmv(intent_test::viewOf(Y), intent_test::viewOf(std::as_const(A.RowPtr)),
         intent_test::viewOf(std::as_const(A.Col)),
         intent_test::viewOf(std::as_const(A.Val)),
         intent_test::viewOf(std::as_const(X)));
    for (index R = 0; R < Rows; ++R) {
      float Sum = 0.0f;
      for (int K = A.RowPtr[R]; K < A.RowPtr[R + 1]; ++K)
        Sum += A.Val[K] * X[A.Col[K]];
      EXPECT_EQ(Y[R], Sum) << "row " << R << " of " << Rows;
    }
  }
}

TEST(RegionFold, EmptyRegionsStoreInit) {
  std::vector<int> Offsets = {0, 0, 3, 3, 3, 5, 5};
  std::vector<int> X = {1, 2, 3, 4, 5};
  std::vector<int> Out(6, -1);
  region_fold(
      intent_test::viewOf(Offsets), 100, ops::plus{},
      [&](index K) { return X[K]; }, [&](index R, int S) { Out[R] = S; });
  EXPECT_EQ(Out, (std::vector<int>{100, 106, 100, 100, 109, 100}));
}

TEST(RegionFold, NoRegionsStoreNothing) {
  int Calls = 0;
  std::vector<int> One = {4};
  region_fold(
      intent_test::viewOf(One), 0, ops::plus{}, [](index) { return 1; },
      [&](index, int) { ++Calls; });
  region_fold(
      view<const int, 1>(), 0, ops::plus{}, [](index) { return 1; },
      [&](index, int) { ++Calls; });
  EXPECT_EQ(Calls, 0);
}

TEST(RegionFold, EveryRegionStoredOnceInOrder) {
  std::vector<int> Offsets = intent_test::randomOffsets(300, 103, 5);
  std::vector<index> Stored;
  region_fold(
      intent_test::viewOf(Offsets), 0, ops::plus{}, [](index) { return 1; },
      [&](index R, int Count) {
        Stored.push_back(R);
        EXPECT_EQ(Count, Offsets[R + 1] - Offsets[R]);
      });
  ASSERT_EQ(Stored.size(), 300u);
  for (index R = 0; R < 300; ++R)
    EXPECT_EQ(Stored[R], R);
}

TEST(RegionFold, MaxPerRaggedSegment) {
  std::vector<int> Offsets = intent_test::randomOffsets(200, 104, 20);
  std::vector<float> X = intent_test::randomFloats(Offsets.back(), 105);
  std::vector<float> Out(200);
  region_fold(
      intent_test::viewOf(Offsets), -INFINITY, ops::max{},
      [&](index K) { return X[K]; }, [&](index R, float M) { Out[R] = M; });
  for (index R = 0; R < 200; ++R) {
    float M = -INFINITY;
    for (int K = Offsets[R]; K < Offsets[R + 1]; ++K)
      M = std::max(M, X[K]);
    EXPECT_EQ(Out[R], M);
  }
}

TEST(RegionFold, ValueMayTakeTheRegion) {
  // Ragged batches with a per-batch scale: sum_k scale[r] * x[k].
  std::vector<int> Offsets = intent_test::randomOffsets(50, 106, 9);
  std::vector<double> X = intent_test::randomDoubles(Offsets.back(), 107);
  std::vector<double> Scale = intent_test::randomDoubles(50, 108);
  std::vector<double> Out(50);
  region_fold(
      intent_test::viewOf(Offsets), 0.0, ops::plus{},
      [&](index R, index K) { return Scale[R] * X[K]; },
      [&](index R, double S) { Out[R] = S; });
  for (index R = 0; R < 50; ++R) {
    double S = 0.0;
    for (int K = Offsets[R]; K < Offsets[R + 1]; ++K)
      S += Scale[R] * X[K];
    EXPECT_EQ(Out[R], S);
  }
}

TEST(RegionFold, SlicedOffsetsNumberRegionsFromZero) {
  std::vector<std::int64_t> Offsets = {0, 2, 5, 9, 14};
  std::vector<index> Regions;
  std::vector<int> Sums;
  region_fold(
      intent_test::viewOf(Offsets).slice(0, range{1, 4}), 0, ops::plus{},
      [](index K) { return static_cast<int>(K); },
      [&](index R, int S) {
        Regions.push_back(R);
        Sums.push_back(S);
      });
  // Regions 1 and 2 of the full set: members [2, 5) and [5, 9).
  EXPECT_EQ(Regions, (std::vector<index>{0, 1}));
  EXPECT_EQ(Sums, (std::vector<int>{2 + 3 + 4, 5 + 6 + 7 + 8}));
}

TEST(RegionFold, WelfordPerRegion) {
  struct Welford {
    double Count, Mean, M2;
  };
  auto Combine = [](Welford A, Welford B) {
    double N = A.Count + B.Count;
    if (N == 0)
      return A;
    double D = B.Mean - A.Mean;
    return Welford{N, A.Mean + D * B.Count / N,
                   A.M2 + B.M2 + D * D * A.Count * B.Count / N};
  };
  std::vector<int> Offsets = intent_test::randomOffsets(40, 109, 30);
  std::vector<double> X = intent_test::randomDoubles(Offsets.back(), 110, 5, 6);
  std::vector<Welford> Out(40);
  region_fold(
      intent_test::viewOf(Offsets), Welford{0, 0, 0}, Combine,
      [&](index K) {
        return Welford{1, X[K], 0};
      },
      [&](index R, Welford W) { Out[R] = W; });
  for (index R = 0; R < 40; ++R) {
    int B = Offsets[R], E = Offsets[R + 1];
    double Mean = 0, M2 = 0;
    for (int K = B; K < E; ++K)
      Mean += X[K];
    Mean = E > B ? Mean / (E - B) : 0;
    for (int K = B; K < E; ++K)
      M2 += (X[K] - Mean) * (X[K] - Mean);
    EXPECT_EQ(Out[R].Count, E - B);
    EXPECT_NEAR(Out[R].Mean, Mean, 1e-12);
    EXPECT_NEAR(Out[R].M2, M2, 1e-10);
  }
}

/// Runs region_scan with ops::plus over int data, returning the emitted
/// prefixes by position and checking each member is emitted exactly once.
std::vector<int> segmentedScan(const std::vector<int> &Offsets,
                               const std::vector<int> &X, int Init,
                               scan_kind Kind, direction Dir) {
  std::vector<int> Out(X.size(), -12345), Emits(X.size(), 0);
  region_scan(
      intent_test::viewOf(Offsets), Init, ops::plus{},
      [&](index K) { return X[K]; },
      [&](index K, int P) {
        Out[K] = P;
        ++Emits[K];
      },
      Kind, Dir);
  for (int K = Offsets.front(); K < Offsets.back(); ++K)
    EXPECT_EQ(Emits[K], 1) << "k = " << K;
  return Out;
}

/// The same scan written as loops over the regions.
std::vector<int> referenceSegmentedScan(const std::vector<int> &Offsets,
                                        const std::vector<int> &X, int Init,
                                        scan_kind Kind, direction Dir) {
  std::vector<int> Out(X.size(), -12345);
  for (std::size_t R = 0; R + 1 < Offsets.size(); ++R) {
    int Acc = Init;
    int B = Offsets[R], E = Offsets[R + 1];
    for (int Step = 0; Step < E - B; ++Step) {
      int K = Dir == direction::forward ? B + Step : E - 1 - Step;
      if (Kind == scan_kind::exclusive)
        Out[K] = Acc;
      Acc += X[K];
      if (Kind == scan_kind::inclusive)
        Out[K] = Acc;
    }
  }
  return Out;
}

TEST(RegionScan, SegmentedScansMatchLoops) {
  for (index N : intent_test::sizes()) {
    if (N > 5000)
      continue;
    std::vector<int> Offsets =
        intent_test::randomOffsets(N, 111 + static_cast<std::uint32_t>(N), 10);
    std::vector<int> X = intent_test::randomInts(Offsets.back(), 112, -50, 50);
    for (scan_kind Kind : {scan_kind::inclusive, scan_kind::exclusive})
      for (direction Dir : {direction::forward, direction::reverse})
        EXPECT_EQ(segmentedScan(Offsets, X, 3, Kind, Dir),
                  referenceSegmentedScan(Offsets, X, 3, Kind, Dir))
            << "N = " << N << " kind " << int(Kind) << " dir " << int(Dir);
  }
}

TEST(RegionScan, SegmentedInclusivePrefixSumReadsNaturally) {
  std::vector<int> Offsets = {0, 3, 3, 5, 6};
  std::vector<float> X = {1, 2, 3, 10, 20, 100};
  std::vector<float> Y(6);
  view<float, 1> YV = intent_test::viewOf(Y);
  view<const float, 1> XV = intent_test::viewOf(std::as_const(X));
  region_scan(
      intent_test::viewOf(Offsets), 0.0f, ops::plus{},
      [&](index K) { return XV[K]; }, [&](index K, float P) { YV[K] = P; });
  EXPECT_EQ(Y, (std::vector<float>{1, 3, 6, 10, 30, 100}));
}

TEST(RegionScan, ExclusiveRestartsFromInitAtEachRegion) {
  std::vector<int> Offsets = {0, 2, 5};
  std::vector<int> X = {1, 2, 3, 4, 5};
  EXPECT_EQ(
      segmentedScan(Offsets, X, 0, scan_kind::exclusive, direction::forward),
      (std::vector<int>{0, 1, 0, 3, 7}));
  EXPECT_EQ(
      segmentedScan(Offsets, X, 0, scan_kind::exclusive, direction::reverse),
      (std::vector<int>{2, 0, 9, 5, 0}));
}

TEST(RegionScan, EmptyRegionsEmitNothing) {
  std::vector<int> Offsets = {2, 2, 2, 4, 4};
  std::vector<index> Emitted;
  region_scan(
      intent_test::viewOf(Offsets), 0, ops::plus{}, [](index) { return 1; },
      [&](index K, int) { Emitted.push_back(K); });
  EXPECT_EQ(Emitted, (std::vector<index>{2, 3})); // members start at offsets[0]
  std::vector<int> AllEmpty = {0, 0, 0};
  int Calls = 0;
  region_scan(
      intent_test::viewOf(AllEmpty), 0, ops::plus{}, [](index) { return 1; },
      [&](index, int) { ++Calls; });
  region_scan(
      view<int, 1>(), 0, ops::plus{}, [](index) { return 1; },
      [&](index, int) { ++Calls; });
  EXPECT_EQ(Calls, 0);
}

TEST(RegionScan, EmitMayTakeTheRegion) {
  std::vector<int> Offsets = {0, 2, 2, 5};
  std::vector<index> Regions, Members;
  region_scan(
      intent_test::viewOf(Offsets), 0, ops::plus{}, [](index) { return 1; },
      [&](index R, index K, int P) {
        Regions.push_back(R);
        Members.push_back(K);
        EXPECT_EQ(P, K - Offsets[R] + 1);
      });
  EXPECT_EQ(Regions, (std::vector<index>{0, 0, 2, 2, 2}));
  EXPECT_EQ(Members, (std::vector<index>{0, 1, 2, 3, 4}));
}

/// The map h -> A h + B, composed left to right.
struct Affine {
  double A, B;
};

TEST(RegionScan, LinearRecurrencePerRegionWithIncomingState) {
  // h_k = a_k h_{k-1} + b_k within each region, starting from H0[r]: scan the
  // maps, then apply each prefix to the region's incoming state in Emit.
  std::vector<int> Offsets = intent_test::randomOffsets(60, 113, 15);
  index Total = Offsets.back();
  std::vector<double> As = intent_test::randomDoubles(Total, 114);
  std::vector<double> Bs = intent_test::randomDoubles(Total, 115);
  std::vector<double> H0 = intent_test::randomDoubles(60, 116);
  std::vector<double> H(static_cast<std::size_t>(Total));
  auto Then = [](Affine F, Affine G) {
    return Affine{G.A * F.A, G.A * F.B + G.B};
  };
  region_scan(
      intent_test::viewOf(Offsets), Affine{1.0, 0.0}, Then,
      [&](index K) {
        return Affine{As[K], Bs[K]};
      },
      [&](index R, index K, Affine P) { H[K] = P.A * H0[R] + P.B; });
  for (index R = 0; R < 60; ++R) {
    double Expected = H0[R];
    for (int K = Offsets[R]; K < Offsets[R + 1]; ++K) {
      Expected = As[K] * Expected + Bs[K];
      EXPECT_NEAR(H[K], Expected, 1e-12);
    }
  }
}

TEST(RegionScan, ValueMayTakeTheRegion) {
  std::vector<int> Offsets = {0, 3, 4};
  std::vector<int> Out(4);
  region_scan(
      intent_test::viewOf(Offsets), 0, ops::plus{},
      [](index R, index K) { return static_cast<int>(10 * R + K); },
      [&](index K, int P) { Out[K] = P; });
  EXPECT_EQ(Out, (std::vector<int>{0, 1, 3, 13}));
}

} // namespace
