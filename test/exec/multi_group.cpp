// Execution test: kernels of several independent groups, one launch each,
// where one group is a row kernel (top-level reductions over a row) and the
// others are not. cta-rows gives the row groups a CTA per row; the other
// groups keep one instance per thread, spread over the threads of their own
// programs (widen still chunks a pointwise one). Also a whole-array
// reduction (and an arg-reduction) next to pointwise groups: grid-reduce
// splits the single instance over many CTAs, the last one storing the
// result, and spreads the other groups. Integer data checks the
// results exactly; the row softmax in float with a tolerance. Sizes: empty,
// 1, odd, a CTA's edge and large, and groups of very different sizes.
#if __has_include(<intent/runtime.hpp>)
#include <intent/runtime.hpp>
#define TEST_HAS_RUNTIME 1
#else
#include <intent/intent.hpp>
#define TEST_HAS_RUNTIME 0
#endif

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <random>
#include <vector>

namespace kernels {
using intent::index;
using intent::parallel_for;
using intent::view;

/// Row sums of a, and y = 3 x + y over an unrelated vector.
[[intent::kernel]] void rowsum_axpy(view<std::int64_t, 1> sums,
                                    view<const std::int32_t, 2> a,
                                    view<std::int32_t, 1> y,
                                    view<const std::int32_t, 1> x) {
  parallel_for(a.extent(0), [&](index i) {
    sums[i] = intent::reduce(a.extent(1), std::int64_t(0), intent::ops::plus{},
                             [&](index j) { return std::int64_t(a(i, j)); });
  });
  parallel_for(y.extent(0), [&](index k) { y[k] = 3 * x[k] + y[k]; });
}

/// Two independent matrix-vector products (mvt/bicg style, both along rows)
/// and an argmax per row of a third matrix.
[[intent::kernel]] void two_mv(view<std::int64_t, 1> p, view<std::int64_t, 1> q,
                               view<const std::int32_t, 2> a,
                               view<const std::int32_t, 1> u,
                               view<const std::int32_t, 2> b,
                               view<const std::int32_t, 1> v) {
  parallel_for(a.extent(0), [&](index i) {
    p[i] = intent::reduce(a.extent(1), std::int64_t(0), intent::ops::plus{},
                          [&](index j) {
      return std::int64_t(a(i, j)) * u[j];
    });
  });
  parallel_for(b.extent(0), [&](index i) {
    q[i] = intent::reduce(b.extent(1), std::int64_t(0), intent::ops::plus{},
                          [&](index j) {
      return std::int64_t(b(i, j)) * v[j];
    });
  });
}

/// A row softmax next to an elementwise scaling of a 2-D array and a row
/// maximum with its first position.
[[intent::kernel]] void softmax_scale(view<float, 2> out,
                                      view<const float, 2> in,
                                      view<std::int32_t, 2> m, std::int32_t s,
                                      view<std::int64_t, 1> where,
                                      view<const std::int32_t, 2> c) {
  parallel_for(in.extent(0), [&](index r) {
    float mx = intent::reduce(in.extent(1), -INFINITY, intent::ops::max{},
                              [&](index j) { return in(r, j); });
    float sum = intent::reduce(in.extent(1), 0.0f, intent::ops::plus{},
                               [&](index j) { return expf(in(r, j) - mx); });
    parallel_for(in.extent(1), [&](index j) {
      out(r, j) = expf(in(r, j) - mx) / sum;
    });
  });
  parallel_for(m.extent(0), m.extent(1),
               [&](index i, index j) { m(i, j) = m(i, j) * s - 1; });
  parallel_for(c.extent(0), [&](index r) {
    where[r] =
        intent::argmax(c.extent(1), [&](index j) { return c(r, j); }).pos;
  });
}

/// y = a x + y next to the sum of another vector and a 2-D update.
[[intent::kernel]] void axpy_sum(view<std::int32_t, 1> y,
                                 view<const std::int32_t, 1> x, std::int32_t a,
                                 view<std::int64_t, 1> total,
                                 view<const std::int32_t, 1> z,
                                 view<std::int32_t, 2> m) {
  parallel_for(y.extent(0), [&](index i) { y[i] = a * x[i] + y[i]; });
  total[0] = intent::reduce(z.extent(0), std::int64_t(0), intent::ops::plus{},
                            [&](index i) { return std::int64_t(z[i]) * 3; });
  parallel_for(m.extent(0), m.extent(1),
               [&](index i, index j) { m(i, j) = m(i, j) - i + j; });
}

/// The first maximum of z (value and position) next to a pointwise update.
[[intent::kernel]] void argmax_scale(view<std::int64_t, 1> best,
                                     view<const std::int32_t, 1> z,
                                     view<std::int32_t, 1> y) {
  parallel_for(y.extent(0), [&](index i) { y[i] = 2 * y[i] + 1; });
  auto r = intent::argmax(z.extent(0), [&](index i) { return z[i]; });
  best[0] = r.pos;
  best[1] = r.value;
}

} // namespace kernels

namespace mem {
#if TEST_HAS_RUNTIME
template <class T> using array = intent::array<T>;
#else
/// Host memory standing in for intent::array without the runtime.
template <class T> class array {
public:
  explicit array(const std::vector<T> &V) : Data(V) {}
  T *data() const { return Data.data(); }
  std::vector<T> to_vector() const { return Data; }

private:
  mutable std::vector<T> Data;
};
#endif
} // namespace mem

template <class T> static std::vector<T> pad(std::vector<T> V) {
  if (V.empty())
    V.push_back(T());
  return V;
}

template <class T>
static long mismatches(const std::vector<T> &Got, const std::vector<T> &Want) {
  long Bad = 0;
  for (std::size_t I = 0; I < Want.size(); ++I)
    Bad += Got[I] != Want[I];
  return Bad;
}

static std::vector<std::int32_t> random(std::size_t N, std::mt19937 &Rng) {
  std::uniform_int_distribution<std::int32_t> Dist(-1000, 1000);
  std::vector<std::int32_t> V(N);
  for (std::int32_t &E : V)
    E = Dist(Rng);
  return V;
}

using index_t = intent::index;

static bool rowsumAxpy(index_t R, index_t C, index_t N, std::mt19937 &Rng) {
  std::vector<std::int32_t> HA = random(R * C, Rng), HX = random(N, Rng),
                            HY = random(N, Rng);
  std::vector<std::int64_t> HS(R, 7);
  std::vector<std::int64_t> WantS(R, 0);
  std::vector<std::int32_t> WantY = HY;
  for (index_t I = 0; I < R; ++I)
    for (index_t J = 0; J < C; ++J)
      WantS[I] += HA[I * C + J];
  for (index_t K = 0; K < N; ++K)
    WantY[K] = 3 * HX[K] + HY[K];
  mem::array<std::int64_t> DS(pad(HS));
  mem::array<std::int32_t> DA(pad(HA)), DX(pad(HX)), DY(pad(HY));
  kernels::rowsum_axpy(intent::view<std::int64_t, 1>(DS.data(), {R}),
                       intent::view<const std::int32_t, 2>(DA.data(), {R, C}),
                       intent::view<std::int32_t, 1>(DY.data(), {N}),
                       intent::view<const std::int32_t, 1>(DX.data(), {N}));
  long Bad = mismatches(DS.to_vector(), WantS) + mismatches(DY.to_vector(), WantY);
  std::printf("rowsum_axpy %lldx%lld n=%lld: %s (%ld mismatches)\n",
              static_cast<long long>(R), static_cast<long long>(C),
              static_cast<long long>(N), Bad ? "FAIL" : "ok", Bad);
  return Bad == 0;
}

static bool twoMv(index_t R1, index_t C1, index_t R2, index_t C2,
                  std::mt19937 &Rng) {
  std::vector<std::int32_t> HA = random(R1 * C1, Rng), HU = random(C1, Rng),
                            HB = random(R2 * C2, Rng), HV = random(C2, Rng);
  std::vector<std::int64_t> HP(R1, 1), HQ(R2, 2), WantP(R1, 0), WantQ(R2, 0);
  for (index_t I = 0; I < R1; ++I)
    for (index_t J = 0; J < C1; ++J)
      WantP[I] += std::int64_t(HA[I * C1 + J]) * HU[J];
  for (index_t I = 0; I < R2; ++I)
    for (index_t J = 0; J < C2; ++J)
      WantQ[I] += std::int64_t(HB[I * C2 + J]) * HV[J];
  mem::array<std::int64_t> DP(pad(HP)), DQ(pad(HQ));
  mem::array<std::int32_t> DA(pad(HA)), DU(pad(HU)), DB(pad(HB)), DV(pad(HV));
  kernels::two_mv(intent::view<std::int64_t, 1>(DP.data(), {R1}),
                  intent::view<std::int64_t, 1>(DQ.data(), {R2}),
                  intent::view<const std::int32_t, 2>(DA.data(), {R1, C1}),
                  intent::view<const std::int32_t, 1>(DU.data(), {C1}),
                  intent::view<const std::int32_t, 2>(DB.data(), {R2, C2}),
                  intent::view<const std::int32_t, 1>(DV.data(), {C2}));
  long Bad = mismatches(DP.to_vector(), WantP) + mismatches(DQ.to_vector(), WantQ);
  std::printf("two_mv %lldx%lld %lldx%lld: %s (%ld mismatches)\n",
              static_cast<long long>(R1), static_cast<long long>(C1),
              static_cast<long long>(R2), static_cast<long long>(C2),
              Bad ? "FAIL" : "ok", Bad);
  return Bad == 0;
}

static bool softmaxScale(index_t R, index_t C, index_t MR, index_t MC,
                         index_t CR, index_t CC, std::mt19937 &Rng) {
  std::uniform_real_distribution<float> F(-4.0f, 4.0f);
  std::vector<float> HIn(R * C), HOut(R * C, -1.0f), WantOut(R * C);
  for (float &V : HIn)
    V = F(Rng);
  std::vector<std::int32_t> HM = random(MR * MC, Rng), HC = random(CR * CC, Rng);
  // Ties: a few repeated maxima, so the first position matters.
  for (std::size_t I = 0; I + 3 < HC.size(); I += 5)
    HC[I + 3] = HC[I];
  std::vector<std::int64_t> HW(CR, -5), WantW(CR);
  std::vector<std::int32_t> WantM = HM;
  for (index_t I = 0; I < R; ++I) {
    float Mx = -INFINITY, Sum = 0.0f;
    for (index_t J = 0; J < C; ++J)
      Mx = std::fmax(Mx, HIn[I * C + J]);
    for (index_t J = 0; J < C; ++J)
      Sum += std::exp(HIn[I * C + J] - Mx);
    for (index_t J = 0; J < C; ++J)
      WantOut[I * C + J] = std::exp(HIn[I * C + J] - Mx) / Sum;
  }
  for (auto &E : WantM)
    E = E * 3 - 1;
  for (index_t I = 0; I < CR; ++I) {
    index_t Best = CC ? 0 : -1;
    for (index_t J = 1; J < CC; ++J)
      if (HC[I * CC + J] > HC[I * CC + Best])
        Best = J;
    WantW[I] = Best;
  }
  mem::array<float> DOut(pad(HOut)), DIn(pad(HIn));
  mem::array<std::int32_t> DM(pad(HM)), DC(pad(HC));
  mem::array<std::int64_t> DW(pad(HW));
  kernels::softmax_scale(intent::view<float, 2>(DOut.data(), {R, C}),
                         intent::view<const float, 2>(DIn.data(), {R, C}),
                         intent::view<std::int32_t, 2>(DM.data(), {MR, MC}), 3,
                         intent::view<std::int64_t, 1>(DW.data(), {CR}),
                         intent::view<const std::int32_t, 2>(DC.data(), {CR, CC}));
  std::vector<float> GotOut = DOut.to_vector();
  long Bad = mismatches(DM.to_vector(), WantM) + mismatches(DW.to_vector(), WantW);
  for (std::size_t I = 0; I < WantOut.size(); ++I)
    Bad += !(std::fabs(GotOut[I] - WantOut[I]) <= 1e-5f + 1e-4f * WantOut[I]);
  std::printf("softmax_scale %lldx%lld m=%lldx%lld c=%lldx%lld: %s (%ld "
              "mismatches)\n",
              static_cast<long long>(R), static_cast<long long>(C),
              static_cast<long long>(MR), static_cast<long long>(MC),
              static_cast<long long>(CR), static_cast<long long>(CC),
              Bad ? "FAIL" : "ok", Bad);
  return Bad == 0;
}

static bool gridNextToOthers(index_t N, index_t Z, index_t MR, index_t MC,
                             std::mt19937 &Rng) {
  std::vector<std::int32_t> HX = random(N, Rng), HY = random(N, Rng),
                            HZ = random(Z, Rng), HM = random(MR * MC, Rng);
  // Ties: the first maximum counts.
  for (std::size_t I = 0; I + 7 < HZ.size(); I += 11)
    HZ[I + 7] = HZ[I];
  std::vector<std::int32_t> WantY = HY, WantM = HM, WantY2 = HY;
  std::int64_t WantT = 0;
  for (index_t I = 0; I < N; ++I) {
    WantY[I] = 5 * HX[I] + HY[I];
    WantY2[I] = 2 * HY[I] + 1;
  }
  for (index_t I = 0; I < Z; ++I)
    WantT += std::int64_t(HZ[I]) * 3;
  for (index_t I = 0; I < MR; ++I)
    for (index_t J = 0; J < MC; ++J)
      WantM[I * MC + J] = HM[I * MC + J] - I + J;
  index_t Best = Z ? 0 : -1;
  for (index_t I = 1; I < Z; ++I)
    if (HZ[I] > HZ[Best])
      Best = I;
  mem::array<std::int32_t> DX(pad(HX)), DY(pad(HY)), DZ(pad(HZ)), DM(pad(HM)),
      DY2(pad(HY));
  mem::array<std::int64_t> DT(std::vector<std::int64_t>{-1}),
      DB(std::vector<std::int64_t>{-1, -1});
  kernels::axpy_sum(intent::view<std::int32_t, 1>(DY.data(), {N}),
                    intent::view<const std::int32_t, 1>(DX.data(), {N}), 5,
                    intent::view<std::int64_t, 1>(DT.data(), {1}),
                    intent::view<const std::int32_t, 1>(DZ.data(), {Z}),
                    intent::view<std::int32_t, 2>(DM.data(), {MR, MC}));
  kernels::argmax_scale(intent::view<std::int64_t, 1>(DB.data(), {2}),
                        intent::view<const std::int32_t, 1>(DZ.data(), {Z}),
                        intent::view<std::int32_t, 1>(DY2.data(), {N}));
  std::vector<std::int64_t> GB = DB.to_vector();
  long Bad = mismatches(DY.to_vector(), WantY) + mismatches(DM.to_vector(), WantM) +
             mismatches(DY2.to_vector(), WantY2) + (DT.to_vector()[0] != WantT) +
             (GB[0] != Best) + (Z > 0 && GB[1] != HZ[Best]);
  std::printf("grid_next_to_others n=%lld z=%lld m=%lldx%lld: %s (%ld mismatches)\n",
              static_cast<long long>(N), static_cast<long long>(Z),
              static_cast<long long>(MR), static_cast<long long>(MC),
              Bad ? "FAIL" : "ok", Bad);
  return Bad == 0;
}

int main() {
  std::mt19937 Rng(11);
  bool Ok = true;
  const index_t Gr[][4] = {{0, 0, 0, 0},       {1, 1, 1, 1},
                           {5, 4097, 3, 33},   {1000, 1, 0, 7},
                           {3, 1048577, 65, 129}, {300001, 2000003, 2, 5}};
  for (const auto &S : Gr)
    Ok = gridNextToOthers(S[0], S[1], S[2], S[3], Rng) && Ok;
  const index_t Rs[][3] = {{0, 0, 0},   {1, 1, 1},      {0, 5, 9},
                           {3, 0, 0},   {7, 3, 1000},   {257, 255, 1},
                           {5, 4099, 7}, {1000, 33, 300001}};
  for (const auto &S : Rs)
    Ok = rowsumAxpy(S[0], S[1], S[2], Rng) && Ok;
  const index_t Mv[][4] = {{0, 0, 0, 0},   {1, 1, 0, 3},    {2, 7, 9, 1},
                           {65, 129, 3, 5000}, {300, 300, 301, 299}};
  for (const auto &S : Mv)
    Ok = twoMv(S[0], S[1], S[2], S[3], Rng) && Ok;
  const index_t Sm[][6] = {{0, 0, 0, 0, 0, 0},     {1, 1, 1, 1, 1, 1},
                           {3, 5, 7, 9, 2, 300},   {129, 257, 0, 4, 5, 1},
                           {17, 1025, 513, 3, 1, 1}, {2, 8000, 1000, 700, 33, 33}};
  for (const auto &S : Sm)
    Ok = softmaxScale(S[0], S[1], S[2], S[3], S[4], S[5], Rng) && Ok;
  return Ok ? 0 : 1;
}
