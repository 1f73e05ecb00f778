// Execution test: intent::ordered(op) folds strictly left to right. Per row
// of x: an ordered float sum (ops::plus), an ordered user combine
// (a*b + 1 wrapped around a running value, not associative), an ordered
// inclusive scan with a std::pair state, and an ordered region_fold and
// region_scan over ragged offsets. Every result must equal the serial
// left-to-right loop BIT FOR BIT (the comparison is exact), on random inputs
// of several shapes including empty rows and regions.
#include "../../examples/support.hpp"

#include <utility>

namespace kernels {
using intent::index;
using intent::ordered;
using intent::parallel_for;
using intent::reduce;
using intent::view;

[[intent::kernel]] void ordered_rows(view<float, 1> sum, view<float, 1> poly,
                                     view<float, 2> run,
                                     view<const float, 2> x) {
  parallel_for(x.extent(0), [&](index r) {
    sum[r] = reduce(x.extent(1), 0.0f, ordered(intent::ops::plus{}),
                    [&](index c) { return x(r, c); });
    // Horner-like: acc*0.5 + v, not associative.
    poly[r] = reduce(
        x.extent(1), 1.0f,
        ordered([](float a, float b) { return a * 0.5f + b; }),
        [&](index c) { return x(r, c); });
    intent::scan(
        x.extent(1), std::make_pair(0.0f, 0.0f),
        ordered([](std::pair<float, float> a, std::pair<float, float> b) {
          return std::make_pair(a.first + b.first,
                                a.second * 0.25f + b.second);
        }),
        [&](index c) { return std::make_pair(x(r, c), x(r, c)); },
        [&](index c, std::pair<float, float> p) {
          run(r, c) = p.first - p.second;
        });
  });
}

[[intent::kernel]] void ordered_regions(view<float, 1> tot,
                                        view<float, 1> pre,
                                        view<const int, 1> offsets,
                                        view<const float, 1> v) {
  intent::region_fold(
      offsets, 0.0f, ordered(intent::ops::plus{}),
      [&](index k) { return v[k]; }, [&](index r, float t) { tot[r] = t; });
  intent::region_scan(
      offsets, 2.0f, ordered([](float a, float b) { return a * 0.5f + b; }),
      [&](index k) { return v[k]; }, [&](index k, float p) { pre[k] = p; },
      intent::scan_kind::exclusive, intent::direction::reverse);
}

} // namespace kernels

static bool runRows(support::shape S, std::mt19937 &Rng) {
  const intent::index Rows = S.n0, Cols = S.n1;
  std::vector<float> HX = support::randomFloats(Rows * Cols, Rng, -1e3f, 1e3f);
  std::vector<float> WSum(Rows), WPoly(Rows), WRun(Rows * Cols);
  for (intent::index R = 0; R < Rows; ++R) {
    float Sum = 0.0f, Poly = 1.0f, A = 0.0f, B = 0.0f;
    for (intent::index C = 0; C < Cols; ++C) {
      float V = HX[R * Cols + C];
      Sum = Sum + V;
      Poly = Poly * 0.5f + V;
      A = A + V;
      B = B * 0.25f + V;
      WRun[R * Cols + C] = A - B;
    }
    WSum[R] = Sum;
    WPoly[R] = Poly;
  }
  mem::array<float> X(HX), Sum(Rows), Poly(Rows),
      Run(std::vector<float>(Rows * Cols, NAN));
  kernels::ordered_rows(Sum.view(), Poly.view(), Run.view(Rows, Cols),
                        X.view(Rows, Cols));
  long Bad = support::exactMismatches(Sum.to_vector(), WSum) +
             support::exactMismatches(Poly.to_vector(), WPoly) +
             support::exactMismatches(Run.to_vector(), WRun);
  std::printf("ordered_rows rows=%lld cols=%lld: %s (mismatches %ld)\n",
              static_cast<long long>(Rows), static_cast<long long>(Cols),
              Bad == 0 ? "ok" : "FAIL", Bad);
  return Bad == 0;
}

static bool runRegions(support::shape S, std::mt19937 &Rng) {
  const intent::index Regions = S.n0;
  std::vector<int> HOff = support::randomOffsets(Regions, Rng, S.n1, 4);
  intent::index N = HOff.back();
  std::vector<float> HV = support::randomFloats(N, Rng, -1e3f, 1e3f);
  std::vector<float> WTot(Regions), WPre(N);
  for (intent::index R = 0; R < Regions; ++R) {
    float T = 0.0f, P = 2.0f;
    for (int K = HOff[R]; K < HOff[R + 1]; ++K)
      T = T + HV[K];
    for (int K = HOff[R + 1] - 1; K >= HOff[R]; --K) {
      WPre[K] = P;
      P = P * 0.5f + HV[K];
    }
    WTot[R] = T;
  }
  mem::array<int> Off(HOff);
  mem::array<float> V(HV), Tot(Regions), Pre(std::vector<float>(N, NAN));
  kernels::ordered_regions(Tot.view(), Pre.view(), Off.view(), V.view());
  long Bad = support::exactMismatches(Tot.to_vector(), WTot) +
             support::exactMismatches(Pre.to_vector(), WPre);
  std::printf("ordered_regions regions=%lld max=%lld: %s (mismatches %ld)\n",
              static_cast<long long>(Regions), static_cast<long long>(S.n1),
              Bad == 0 ? "ok" : "FAIL", Bad);
  return Bad == 0;
}

int main(int argc, char **argv) {
  int Rc = support::runShapes(argc, argv, 2,
                              {{0, 0}, {3, 0}, {1, 1}, {7, 13}, {1, 4096},
                               {1000, 1}, {513, 257}},
                              runRows);
  int Rc2 = support::runShapes(argc, argv, 2,
                               {{0, 4}, {1, 1}, {5, 3}, {300, 40}, {2000, 300}},
                               runRegions);
  return Rc || Rc2;
}
