// Execution test: std::tuple / std::pair accumulators. Per row r of x:
//  - a Welford fold with a std::tuple<float, float, std::int64_t> accumulator
//    {mean, m2, count} (make_tuple init, std::get in the combine, structured
//    binding of the result), giving mean[r] and var[r] = m2 / count;
//  - a std::pair<float, float> {min, max} fold written with
//    std::pair<float,float>{...}, .first/.second and a pair-typed local in
//    the combine, giving lo[r] and hi[r];
//  - a std::pair<int, float> {count of positives, their sum} fold with a
//    std::tuple-free make_pair init, read through .first/.second;
//  - a region_fold over ragged row offsets with a pair {sum, sum of squares}
//    and a region_scan whose emit reads .first of a pair prefix.
// Checked against a serial computation (double) on several shapes,
// including empty and single-element rows.
#include "../../examples/support.hpp"

#include <cstdint>
#include <tuple>
#include <utility>

namespace kernels {
using intent::index;
using intent::parallel_for;
using intent::reduce;
using intent::view;

using Wf = std::tuple<float, float, std::int64_t>;

/// The Welford summary of the concatenation of A and B (Chan et al.).
inline Wf mergeWf(const Wf &A, const Wf &B) {
  std::int64_t N = std::get<2>(A) + std::get<2>(B);
  if (N == 0)
    return A;
  float D = std::get<0>(B) - std::get<0>(A);
  float NA = static_cast<float>(std::get<2>(A));
  float NB = static_cast<float>(std::get<2>(B));
  float NF = static_cast<float>(N);
  return std::make_tuple(std::get<0>(A) + D * NB / NF,
                         std::get<1>(A) + std::get<1>(B) + D * D * NA * NB / NF,
                         N);
}

[[intent::kernel]] void pair_rows(view<float, 1> mean, view<float, 1> var,
                                  view<float, 1> lo, view<float, 1> hi,
                                  view<int, 1> npos, view<float, 1> spos,
                                  view<const float, 2> x) {
  parallel_for(x.extent(0), [&](index r) {
    auto [m, m2, n] = reduce(
        x.extent(1), std::make_tuple(0.0f, 0.0f, std::int64_t{0}),
        [](const Wf &a, const Wf &b) { return mergeWf(a, b); },
        [&](index c) { return Wf(x(r, c), 0.0f, 1); });
    mean[r] = m;
    var[r] = n > 0 ? m2 / static_cast<float>(n) : 0.0f;

    std::pair<float, float> mm = reduce(
        x.extent(1), std::pair<float, float>{INFINITY, -INFINITY},
        [](std::pair<float, float> a, std::pair<float, float> b) {
          std::pair<float, float> out = a;
          if (b.first < out.first)
            out.first = b.first;
          if (b.second > out.second)
            out.second = b.second;
          return out;
        },
        [&](index c) { return std::make_pair(x(r, c), x(r, c)); });
    lo[r] = mm.first;
    hi[r] = mm.second;

    auto pos = reduce(
        x.extent(1), std::make_pair(0, 0.0f),
        [](auto a, auto b) {
          return std::pair<int, float>(a.first + b.first, a.second + b.second);
        },
        [&](index c) {
          float v = x(r, c);
          return v > 0.0f ? std::make_pair(1, v) : std::make_pair(0, 0.0f);
        });
    npos[r] = pos.first;
    spos[r] = std::get<1>(pos);
  });
}

[[intent::kernel]] void pair_regions(view<float, 1> sum, view<float, 1> sq,
                                     view<float, 1> prefix,
                                     view<const int, 1> offsets,
                                     view<const float, 1> v) {
  using P = std::pair<float, float>;
  intent::region_fold(
      offsets, P{0.0f, 0.0f},
      [](const P &a, const P &b) {
        return P{a.first + b.first, a.second + b.second};
      },
      [&](index k) { return P{v[k], v[k] * v[k]}; },
      [&](index r, const P &t) {
        sum[r] = t.first;
        sq[r] = t.second;
      });
  intent::region_scan(
      offsets, P{0.0f, 0.0f},
      [](const P &a, const P &b) {
        return P{a.first + b.first, a.second + b.second};
      },
      [&](index k) { return std::make_pair(v[k], 1.0f); },
      [&](index k, const P &p) { prefix[k] = p.first / p.second; });
}

} // namespace kernels

static bool runRows(support::shape S, std::mt19937 &Rng) {
  const intent::index Rows = S.n0, Cols = S.n1;
  std::vector<float> HX = support::randomFloats(Rows * Cols, Rng, -3.0f, 5.0f);
  std::vector<float> WMean(Rows), WVar(Rows), WLo(Rows), WHi(Rows), WSpos(Rows),
      SMean(Rows), SVar(Rows), SSpos(Rows);
  std::vector<int> WNpos(Rows);
  for (intent::index R = 0; R < Rows; ++R) {
    const float *X = &HX[R * Cols];
    double Mean = 0, Abs = 0, Var = 0, Sp = 0;
    float Lo = INFINITY, Hi = -INFINITY;
    int Np = 0;
    for (intent::index C = 0; C < Cols; ++C) {
      Mean += X[C];
      Abs += std::fabs(X[C]);
      Lo = std::min(Lo, X[C]);
      Hi = std::max(Hi, X[C]);
      if (X[C] > 0.0f) {
        ++Np;
        Sp += X[C];
      }
    }
    Mean = Cols ? Mean / static_cast<double>(Cols) : 0.0;
    Abs = Cols ? Abs / static_cast<double>(Cols) : 0.0;
    for (intent::index C = 0; C < Cols; ++C)
      Var += (X[C] - Mean) * (X[C] - Mean);
    Var = Cols ? Var / static_cast<double>(Cols) : 0.0;
    WMean[R] = static_cast<float>(Mean);
    WVar[R] = static_cast<float>(Var);
    SMean[R] = static_cast<float>(Abs);
    SVar[R] = static_cast<float>(Var + Abs * Abs);
    WLo[R] = Lo;
    WHi[R] = Hi;
    WNpos[R] = Np;
    WSpos[R] = static_cast<float>(Sp);
    SSpos[R] = static_cast<float>(Sp * Cols + 1.0);
  }
  mem::array<float> X(HX), Mean(Rows), Var(Rows), Lo(Rows), Hi(Rows),
      Spos(Rows);
  mem::array<int> Npos(Rows);
  kernels::pair_rows(Mean.view(), Var.view(), Lo.view(), Hi.view(), Npos.view(),
                     Spos.view(), X.view(Rows, Cols));
  long Bad = support::closeMismatches(Mean.to_vector(), WMean, 1e-5, 0.0, &SMean) +
             support::closeMismatches(Var.to_vector(), WVar, 1e-4, 0.0, &SVar) +
             support::exactMismatches(Lo.to_vector(), WLo) +
             support::exactMismatches(Hi.to_vector(), WHi) +
             support::exactMismatches(Npos.to_vector(), WNpos) +
             support::closeMismatches(Spos.to_vector(), WSpos, 1e-6, 0.0, &SSpos);
  std::printf("pair_rows rows=%lld cols=%lld: %s (mismatches %ld)\n",
              static_cast<long long>(Rows), static_cast<long long>(Cols),
              Bad == 0 ? "ok" : "FAIL", Bad);
  return Bad == 0;
}

static bool runRegions(support::shape S, std::mt19937 &Rng) {
  const intent::index Regions = S.n0;
  std::vector<int> HOff = support::randomOffsets(Regions, Rng, S.n1, 0);
  intent::index N = HOff.back();
  std::vector<float> HV = support::randomFloats(N, Rng, -1.0f, 1.0f);
  std::vector<float> WSum(Regions), WSq(Regions), WPre(N), Scale(N);
  std::vector<float> SSum(Regions), SSq(Regions);
  for (intent::index R = 0; R < Regions; ++R) {
    double Sum = 0, Sq = 0, Abs = 0;
    for (int K = HOff[R]; K < HOff[R + 1]; ++K) {
      Sum += HV[K];
      Sq += double(HV[K]) * HV[K];
      Abs += std::fabs(HV[K]);
      WPre[K] = static_cast<float>(Sum / (K - HOff[R] + 1));
      Scale[K] = static_cast<float>(Abs / (K - HOff[R] + 1) + 1e-3);
    }
    WSum[R] = static_cast<float>(Sum);
    WSq[R] = static_cast<float>(Sq);
    SSum[R] = static_cast<float>(Abs + 1.0);
    SSq[R] = static_cast<float>(Sq + 1.0);
  }
  mem::array<int> Off(HOff);
  mem::array<float> V(HV), Sum(Regions), Sq(Regions),
      Pre(std::vector<float>(N, NAN));
  kernels::pair_regions(Sum.view(), Sq.view(), Pre.view(), Off.view(), V.view());
  long Bad = support::closeMismatches(Sum.to_vector(), WSum, 1e-5, 0.0, &SSum) +
             support::closeMismatches(Sq.to_vector(), WSq, 1e-5, 0.0, &SSq) +
             support::closeMismatches(Pre.to_vector(), WPre, 1e-4, 0.0, &Scale);
  std::printf("pair_regions regions=%lld max=%lld: %s (mismatches %ld)\n",
              static_cast<long long>(Regions), static_cast<long long>(S.n1),
              Bad == 0 ? "ok" : "FAIL", Bad);
  return Bad == 0;
}

int main(int argc, char **argv) {
  int Rc = support::runShapes(argc, argv, 2,
                              {{0, 0}, {0, 5}, {3, 0}, {1, 1}, {7, 13},
                               {1, 4096}, {1000, 1}, {513, 257}},
                              runRows);
  int Rc2 = support::runShapes(argc, argv, 2,
                               {{0, 4}, {1, 1}, {5, 3}, {300, 40}, {4000, 9}},
                               runRegions);
  return Rc || Rc2;
}
