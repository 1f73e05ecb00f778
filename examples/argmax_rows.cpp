// argmax_rows: the largest element of every row and its column, twice in one
// kernel -- with NaN propagating (a NaN wins; among NaN the first) and with
// NaN ignored (all-NaN rows give -inf and -1) -- both with ties resolved to
// the first column. The inputs are full of ties, NaN, +-inf and -0.0 next to
// +0.0 (equal, so a tie: the first one's sign must be reported). Arg-reduce
// is exact: values are compared bit for bit and positions exactly with a
// serial reference written without the header; the call must be ONE launch.
//
//   intentc examples/argmax_rows.cpp -o argmax_rows && ./argmax_rows
//   ./argmax_rows 5 3      # one size: 5 rows, 3 columns
//
// It is also plain C++ (the header's serial semantics):
//   g++ -std=c++17 -Iinclude examples/argmax_rows.cpp
#include "support.hpp"

namespace kernels {
using intent::argmax;
using intent::index;
using intent::nan_policy;
using intent::parallel_for;
using intent::tie;
using intent::view;

[[intent::kernel]] void argmax_rows(view<float, 1> prop_value,
                                    view<index, 1> prop_pos,
                                    view<float, 1> skip_value,
                                    view<index, 1> skip_pos,
                                    view<const float, 2> x) {
  parallel_for(x.extent(0), [&](index r) {
    auto p = argmax(x.extent(1), [&](index c) { return x(r, c); }, tie::first,
                    nan_policy::propagate);
    prop_value[r] = p.value;
    prop_pos[r] = p.pos;
    auto q = argmax(x.extent(1), [&](index c) { return x(r, c); }, tie::first,
                    nan_policy::ignore);
    skip_value[r] = q.value;
    skip_pos[r] = q.pos;
  });
}

} // namespace kernels

/// The serial reference of one row, independent of the header: the first
/// position of the largest value (-0.0 == +0.0), NaN winning (Propagate) or
/// skipped; -inf and -1 when nothing is considered.
static void referenceRow(const float *X, intent::index Cols, bool Propagate,
                         float &Value, intent::index &Pos) {
  Value = -INFINITY;
  Pos = -1;
  for (intent::index C = 0; C < Cols; ++C) {
    if (std::isnan(X[C])) {
      if (Propagate) {
        Value = X[C];
        Pos = C;
        return;
      }
      continue;
    }
    if (Pos < 0 || X[C] > Value) {
      Value = X[C];
      Pos = C;
    }
  }
}

/// A row of a random kind: a mix of special values, all one value (ties),
/// all NaN, or plain random values without NaN.
static void fillRow(float *X, intent::index Cols, std::mt19937 &Rng) {
  static const float Specials[] = {NAN,   INFINITY, -INFINITY, 0.0f, -0.0f,
                                   1.0f,  -1.0f,    2.5f,      2.5f, -7.0f};
  const int NumSpecials = sizeof(Specials) / sizeof(Specials[0]);
  std::uniform_int_distribution<int> Pick(0, NumSpecials - 1);
  std::uniform_real_distribution<float> Plain(-3.0f, 3.0f);
  switch (Rng() % 6) {
  case 0: { // all one value, e.g. all -0.0 or all -inf
    float V = Specials[Pick(Rng)];
    for (intent::index C = 0; C < Cols; ++C)
      X[C] = V;
    break;
  }
  case 1: // signed zeros only: a tie whose first sign must win
    for (intent::index C = 0; C < Cols; ++C)
      X[C] = Rng() % 2 ? 0.0f : -0.0f;
    break;
  case 2: // plain values, no NaN
    for (intent::index C = 0; C < Cols; ++C)
      X[C] = Plain(Rng);
    break;
  default: // special values, mostly
    for (intent::index C = 0; C < Cols; ++C)
      X[C] = Rng() % 4 ? Specials[Pick(Rng)] : Plain(Rng);
    break;
  }
}

/// Runs the kernel on a random Rows x Cols matrix; true when it matches.
static bool runSize(support::shape S, std::mt19937 &Rng) {
  const intent::index Rows = S.n0, Cols = S.n1;
  std::vector<float> HX(Rows * Cols);
  for (intent::index R = 0; R < Rows; ++R)
    fillRow(&HX[R * Cols], Cols, Rng);

  std::vector<float> WantPV(Rows), WantSV(Rows);
  std::vector<intent::index> WantPP(Rows), WantSP(Rows);
  for (intent::index R = 0; R < Rows; ++R) {
    referenceRow(&HX[R * Cols], Cols, true, WantPV[R], WantPP[R]);
    referenceRow(&HX[R * Cols], Cols, false, WantSV[R], WantSP[R]);
  }

  mem::array<float> X(HX), PV(Rows), SV(Rows);
  mem::array<intent::index> PP(Rows), SP(Rows);
  unsigned long long Before = support::launches();
  kernels::argmax_rows(PV.view(), PP.view(), SV.view(), SP.view(),
                       X.view(Rows, Cols));
  unsigned long long Calls = support::launches() - Before;
  long BadP = support::exactMismatches(PV.to_vector(), WantPV) +
              support::exactMismatches(PP.to_vector(), WantPP);
  long BadS = support::exactMismatches(SV.to_vector(), WantSV) +
              support::exactMismatches(SP.to_vector(), WantSP);
  bool Ok = support::oneLaunch(Calls) && BadP == 0 && BadS == 0;
  std::printf("argmax_rows rows=%lld cols=%lld: %s (launches %llu, "
              "mismatches: propagate %ld, ignore %ld)\n",
              static_cast<long long>(Rows), static_cast<long long>(Cols),
              Ok ? "ok" : "FAIL", Calls, BadP, BadS);
  return Ok;
}

int main(int argc, char **argv) {
  return support::runShapes(argc, argv, 2,
                            {{0, 0}, {0, 5}, {3, 0}, {1, 1}, {64, 1}, {7, 13},
                             {1, 4096}, {513, 257}, {20000, 33},
                             // every register variant and the fallback
                             {3, 31}, {4, 129}, {3, 300}, {2, 513}, {9, 1024}, {3, 1025},
                             {2, 2049}, {2, 8193}, {2, 32768}, {2, 40000},
                             // CTAs with several rows, also of 1024
                             // threads (n > 16384)
                             {40, 1024}, {20, 2048}, {16, 17000}},
                            runSize);
}
