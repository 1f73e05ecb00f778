// csr_spmv: sparse matrix-vector product y = A x with A in CSR form
// (rowptr, col, val), written as a region_fold over the row pointer:
// y[r] = sum_{k in [rowptr[r], rowptr[r+1])} val[k] * x[col[k]]. The rows
// are data-dependent regions of the nonzero axis -- many are empty (and
// store 0, the identity), lengths vary -- so the kernel never uses a row
// length as a launch extent. The sum may be reassociated: y is checked
// against a serial computation within 1e-5 of sum |val * x|; the call must
// be ONE launch.
//
//   intentc examples/csr_spmv.cpp -o csr_spmv && ./csr_spmv
//   ./csr_spmv 5 3      # one size: 5 rows, at most 3 nonzeros per row
//
// It is also plain C++ (the header's serial semantics):
//   g++ -std=c++17 -Iinclude examples/csr_spmv.cpp
#include "support.hpp"

namespace kernels {
using intent::index;
using intent::region_fold;
using intent::view;
namespace ops = intent::ops;

[[intent::kernel]] void spmv(view<float, 1> y, view<const int, 1> rowptr,
                             view<const int, 1> col, view<const float, 1> val,
                             view<const float, 1> x) {
  region_fold(rowptr, 0.0f, ops::plus{},
              [&](index k) { return val[k] * x[col[k]]; },
              [&](index r, float s) { y[r] = s; });
}

} // namespace kernels

/// Runs the kernel on a random Rows x (Rows + 3) CSR matrix with up to
/// MaxRow nonzeros per row; true when it matches.
static bool runSize(support::shape S, std::mt19937 &Rng) {
  const intent::index Rows = S.n0, MaxRow = S.n1, Cols = Rows + 3;
  // Every fourth row (about) is empty.
  std::vector<int> HRowPtr =
      support::randomOffsets(Rows, Rng, static_cast<int>(MaxRow), 4);
  const intent::index Nnz = HRowPtr.back();
  std::vector<int> HCol =
      support::randomInts(Nnz, Rng, 0, static_cast<int>(Cols) - 1);
  std::vector<float> HVal = support::randomFloats(Nnz, Rng, -1.0f, 1.0f);
  std::vector<float> HX = support::randomFloats(Cols, Rng, -2.0f, 2.0f);

  std::vector<float> Want(Rows), Scale(Rows);
  for (intent::index R = 0; R < Rows; ++R) {
    float Sum = 0.0f, Mag = 0.0f;
    for (int K = HRowPtr[R]; K < HRowPtr[R + 1]; ++K) {
      Sum += HVal[K] * HX[HCol[K]];
      Mag += std::fabs(HVal[K] * HX[HCol[K]]);
    }
    Want[R] = Sum;
    Scale[R] = Mag;
  }

  mem::array<int> RowPtr(HRowPtr), Col(HCol);
  // y starts as NaN, so that a row the kernel does not store is a mismatch.
  mem::array<float> Val(HVal), X(HX), Y(std::vector<float>(Rows, NAN));
  unsigned long long Before = support::launches();
  kernels::spmv(Y.view(), RowPtr.view(), Col.view(), Val.view(), X.view());
  unsigned long long Calls = support::launches() - Before;
  std::vector<float> Got = Y.to_vector();
  long Bad = support::closeMismatches(Got, Want, 1e-5, 0.0, &Scale);
  long Empty = 0;
  for (intent::index R = 0; R < Rows; ++R)
    if (HRowPtr[R] == HRowPtr[R + 1]) {
      ++Empty;
      if (!(Got[R] == 0.0f))
        ++Bad;
    }
  bool Ok = support::oneLaunch(Calls) && Bad == 0;
  std::printf("csr_spmv rows=%lld nnz=%lld (empty rows %ld): %s (launches "
              "%llu, mismatches %ld)\n",
              static_cast<long long>(Rows), static_cast<long long>(Nnz), Empty,
              Ok ? "ok" : "FAIL", Calls, Bad);
  return Ok;
}

int main(int argc, char **argv) {
  return support::runShapes(argc, argv, 2,
                            {{0, 0}, {1, 0}, {1, 1}, {7, 5}, {1, 5000},
                             {1000, 0}, {513, 40}, {100003, 9}},
                            runSize);
}
