// Execution test: the first-order linear recurrence
//   h(r, t) = a(r, t) * h(r, t-1) + b(r, t),   h(r, -1) = h0[r]
// as an inclusive scan whose state is a std::pair<float, float> (A, B): the
// affine map h -> A*h + B composed so far, combined as
// (l.first * r.first, r.first * l.second + r.second), identity (1, 0). The
// emit applies the prefix through a structured binding. A second kernel runs
// the same recurrence per ragged segment with region_scan (the three-argument
// emit applies the per-region incoming state h0[r]) and stores each
// segment's final map with region_fold (std::make_pair values, std::get in
// the store). Checked against a serial computation within 1e-5 of the
// magnitude recurrence, on several shapes including empty ones.
#include "../../examples/support.hpp"

#include <utility>

namespace kernels {
using intent::index;
using intent::parallel_for;
using intent::scan;
using intent::view;

using Map = std::pair<float, float>;

inline Map compose(const Map &l, const Map &r) {
  return {l.first * r.first, r.first * l.second + r.second};
}

[[intent::kernel]] void pair_recurrence(view<float, 2> h, view<const float, 2> a,
                                        view<const float, 2> b,
                                        view<const float, 1> h0) {
  parallel_for(a.extent(0), [&](index r) {
    scan(
        a.extent(1), std::make_pair(1.0f, 0.0f),
        [](const Map &l, const Map &rt) { return compose(l, rt); },
        [&](index t) { return Map(a(r, t), b(r, t)); },
        [&](index t, const Map &p) {
          auto [ma, mb] = p;
          h(r, t) = ma * h0[r] + mb;
        });
  });
}

[[intent::kernel]] void pair_segments(view<float, 1> h, view<float, 1> fa,
                                      view<float, 1> fb,
                                      view<const int, 1> offsets,
                                      view<const float, 1> a,
                                      view<const float, 1> b,
                                      view<const float, 1> h0) {
  intent::region_scan(
      offsets, Map{1.0f, 0.0f},
      [](const Map &l, const Map &rt) { return compose(l, rt); },
      [&](index k) { return std::make_pair(a[k], b[k]); },
      [&](index r, index k, const Map &p) {
        h[k] = p.first * h0[r] + p.second;
      });
  intent::region_fold(
      offsets, Map{1.0f, 0.0f},
      [](const Map &l, const Map &rt) { return compose(l, rt); },
      [&](index k) { return std::make_pair(a[k], b[k]); },
      [&](index r, Map m) {
        fa[r] = std::get<0>(m);
        fb[r] = std::get<1>(m);
      });
}

} // namespace kernels

static bool runRows(support::shape S, std::mt19937 &Rng) {
  const intent::index Seqs = S.n0, Steps = S.n1;
  std::vector<float> HA = support::randomFloats(Seqs * Steps, Rng, -0.99f, 0.99f);
  std::vector<float> HB = support::randomFloats(Seqs * Steps, Rng, -1.0f, 1.0f);
  std::vector<float> HH0 = support::randomFloats(Seqs, Rng, -5.0f, 5.0f);
  std::vector<float> Want(Seqs * Steps), Scale(Seqs * Steps);
  for (intent::index R = 0; R < Seqs; ++R) {
    float H = HH0[R], Mag = std::fabs(HH0[R]);
    for (intent::index T = 0; T < Steps; ++T) {
      intent::index I = R * Steps + T;
      H = HA[I] * H + HB[I];
      Mag = std::fabs(HA[I]) * Mag + std::fabs(HB[I]);
      Want[I] = H;
      Scale[I] = Mag;
    }
  }
  mem::array<float> A(HA), B(HB), H0(HH0),
      H(std::vector<float>(Seqs * Steps, NAN));
  kernels::pair_recurrence(H.view(Seqs, Steps), A.view(Seqs, Steps),
                           B.view(Seqs, Steps), H0.view());
  long Bad = support::closeMismatches(H.to_vector(), Want, 1e-5, 0.0, &Scale);
  std::printf("pair_recurrence sequences=%lld steps=%lld: %s (mismatches %ld)\n",
              static_cast<long long>(Seqs), static_cast<long long>(Steps),
              Bad == 0 ? "ok" : "FAIL", Bad);
  return Bad == 0;
}

static bool runSegments(support::shape S, std::mt19937 &Rng) {
  const intent::index Regions = S.n0;
  std::vector<int> HOff = support::randomOffsets(Regions, Rng, S.n1, 5);
  intent::index N = HOff.back();
  std::vector<float> HA = support::randomFloats(N, Rng, -0.99f, 0.99f);
  std::vector<float> HB = support::randomFloats(N, Rng, -1.0f, 1.0f);
  std::vector<float> HH0 = support::randomFloats(Regions, Rng, -5.0f, 5.0f);
  std::vector<float> Want(N), Scale(N), WA(Regions), WB(Regions), SA(Regions),
      SB(Regions);
  for (intent::index R = 0; R < Regions; ++R) {
    float H = HH0[R], Mag = std::fabs(HH0[R]);
    float MA = 1.0f, MB = 0.0f, AA = 1.0f, AB = 0.0f;
    for (int K = HOff[R]; K < HOff[R + 1]; ++K) {
      H = HA[K] * H + HB[K];
      Mag = std::fabs(HA[K]) * Mag + std::fabs(HB[K]);
      Want[K] = H;
      Scale[K] = Mag;
      MB = HA[K] * MB + HB[K];
      MA = MA * HA[K];
      AB = std::fabs(HA[K]) * AB + std::fabs(HB[K]);
      AA = AA * std::fabs(HA[K]);
    }
    WA[R] = MA;
    WB[R] = MB;
    SA[R] = AA + 1e-30f;
    SB[R] = AB;
  }
  mem::array<int> Off(HOff);
  mem::array<float> A(HA), B(HB), H0(HH0), H(std::vector<float>(N, NAN)),
      FA(Regions), FB(Regions);
  kernels::pair_segments(H.view(), FA.view(), FB.view(), Off.view(), A.view(),
                         B.view(), H0.view());
  long Bad = support::closeMismatches(H.to_vector(), Want, 1e-5, 0.0, &Scale) +
             support::closeMismatches(FA.to_vector(), WA, 1e-5, 0.0, &SA) +
             support::closeMismatches(FB.to_vector(), WB, 1e-5, 0.0, &SB);
  std::printf("pair_segments regions=%lld max=%lld: %s (mismatches %ld)\n",
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
                               {{0, 4}, {1, 1}, {5, 3}, {300, 40}, {2000, 600}},
                               runSegments);
  return Rc || Rc2;
}
