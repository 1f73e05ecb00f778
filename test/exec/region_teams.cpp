// Execution test: region folds over CSR-style offsets mapped by
// region-teams (a team of 2^S consecutive threads per region, S chosen at
// launch from the average region length): row sums in f32 (tolerance) and
// i64 (exact), a sparse matrix-vector product with a gather, a value that
// takes the region index, and an order-sensitive user combine (the first
// nonzero member: associative, not commutative), for regions of every
// average length from empty to 10^5 members (one thread, teams inside a
// warp, a warp, teams of several warps) and skewed lengths (one long region
// among short ones). Offsets of int and int64. Row reductions of a constant
// length below 256 (3, 48 and 200 members: the norm of every 3-vector, a
// dot product with a side vector, a row maximum) take the same teams, and
// so do arg-reductions over short rows (argmax over 10 class scores, the
// last minimum of 60 elements, with many ties). Tiny rows with a parallel
// for after the reduction (normalizing 3-vectors in place) keep one thread
// per point. Rows of a runtime length (a.extent(1): sums of integers, an
// argmax with ties, a user combine) take teams sized at launch below 256
// members and the launch-time alternative (cta-rows) from 256 on: lengths
// 0 .. 3000 hit both.
#if __has_include(<intent/runtime.hpp>)
#include <intent/runtime.hpp>
#define TEST_HAS_RUNTIME 1
#else
#include <intent/intent.hpp>
#define TEST_HAS_RUNTIME 0
#endif

#include <climits>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <random>
#include <vector>

namespace kernels {
using intent::index;
using intent::region_fold;
using intent::view;
namespace ops = intent::ops;

/// y[r] = sum of x over region r (f32).
[[intent::kernel]] void row_sums(view<float, 1> y, view<const int, 1> offsets,
                                 view<const float, 1> x) {
  region_fold(offsets, 0.0f, ops::plus{}, [&](index k) { return x[k]; },
              [&](index r, float s) { y[r] = s; });
}

/// y[r] = sum_k a[k] * v[col[k]] (exact in i64), and w[r] = (r + 1) * the
/// region's sum of a: the value takes the region index.
[[intent::kernel]] void spmv(view<std::int64_t, 1> y, view<std::int64_t, 1> w,
                             view<const std::int64_t, 1> offsets,
                             view<const std::int32_t, 1> a,
                             view<const std::int32_t, 1> col,
                             view<const std::int32_t, 1> v) {
  region_fold(offsets, std::int64_t(0), ops::plus{},
              [&](index k) { return std::int64_t(a[k]) * v[col[k]]; },
              [&](index r, std::int64_t s) { y[r] = s; });
  region_fold(offsets, std::int64_t(0), ops::plus{},
              [&](index r, index k) { return std::int64_t(a[k]) * (r + 1); },
              [&](index r, std::int64_t s) { w[r] = s; });
}

/// first[r] = the first nonzero member of region r (0 if none).
[[intent::kernel]] void first_nonzero(view<std::int32_t, 1> first,
                                      view<const int, 1> offsets,
                                      view<const std::int32_t, 1> z) {
  region_fold(
      offsets, std::int32_t(0),
      [](std::int32_t p, std::int32_t q) { return p != 0 ? p : q; },
      [&](index k) { return z[k]; },
      [&](index r, std::int32_t s) { first[r] = s; });
}

/// Rows of a constant length below 256 (cta-rows would give each a CTA):
/// the norm of every 3-vector, the dot product of 48-element rows with a
/// side vector plus a bias, and the largest element of 200-element rows
/// (teams of 1, 4 and 16 threads).
[[intent::kernel]] void short_rows(view<float, 1> norm, view<const float, 2> p,
                                   view<std::int64_t, 1> dot,
                                   view<const std::int32_t, 2> a,
                                   view<const std::int32_t, 1> w,
                                   view<std::int32_t, 1> top,
                                   view<const std::int32_t, 2> b) {
  intent::parallel_for(p.extent(0), [&](index i) {
    float s = intent::reduce(3, 0.0f, ops::plus{},
                             [&](index j) { return p(i, j) * p(i, j); });
    norm[i] = std::sqrt(s);
  });
  intent::parallel_for(a.extent(0), [&](index i) {
    std::int64_t d = intent::reduce(48, std::int64_t(0), ops::plus{}, [&](index j) {
      return std::int64_t(a(i, j)) * w[j];
    });
    dot[i] = d + 3 * i;
  });
  intent::parallel_for(b.extent(0), [&](index i) {
    top[i] = intent::reduce(200, std::int32_t(INT32_MIN), ops::max{},
                            [&](index j) { return b(i, j); });
  });
}

/// Every 3-vector scaled to unit length in place (a reduction, then a
/// parallel_for over the same 3 members reading and writing the view):
/// tiny rows keep one thread per point.
[[intent::kernel]] void normalize(view<float, 2> p) {
  intent::parallel_for(p.extent(0), [&](index i) {
    float n = std::sqrt(intent::reduce(3, 0.0f, ops::plus{},
                                       [&](index j) { return p(i, j) * p(i, j); }));
    intent::parallel_for(3, [&](index j) { p(i, j) = p(i, j) / n; });
  });
}

/// The predicted class of every sample (argmax over 10 scores, first of
/// ties) and the last position of every 60-element row's minimum.
[[intent::kernel]] void predictions(view<index, 1> cls, view<const float, 2> s,
                                    view<index, 1> low,
                                    view<const std::int32_t, 2> b) {
  intent::parallel_for(s.extent(0), [&](index i) {
    cls[i] = intent::argmax(10, [&](index j) { return s(i, j); },
                            intent::tie::first)
                 .pos;
  });
  intent::parallel_for(b.extent(0), [&](index i) {
    low[i] = intent::argmin(60, [&](index j) { return b(i, j); },
                            intent::tie::last)
                 .pos;
  });
}

/// Per row of a runtime length: the sum (integer-valued floats: exact),
/// the first position of the maximum, and the last nonzero (a user combine
/// that keeps order).
[[intent::kernel]] void runtime_rows(view<float, 1> sum, view<index, 1> top,
                                     view<std::int32_t, 1> last,
                                     view<const float, 2> a,
                                     view<const std::int32_t, 2> b) {
  intent::parallel_for(a.extent(0), [&](index i) {
    sum[i] = intent::reduce(a.extent(1), 0.0f, ops::plus{},
                            [&](index j) { return a(i, j); });
  });
  intent::parallel_for(a.extent(0), [&](index i) {
    top[i] = intent::argmax(a.extent(1), [&](index j) { return a(i, j); },
                            intent::tie::first)
                 .pos;
  });
  intent::parallel_for(b.extent(0), [&](index i) {
    last[i] = intent::reduce(
        b.extent(1), std::int32_t(0),
        [](std::int32_t x, std::int32_t y) { return y != 0 ? y : x; },
        [&](index j) { return b(i, j); });
  });
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

using index_t = intent::index;

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

/// Offsets of `Rows` regions of about `Avg` members (uniform in [0, 2 Avg]);
/// with `Skew`, region Rows / 2 gets 50 Avg members more.
static std::vector<index_t> offsets(index_t Rows, index_t Avg, bool Skew,
                                    std::mt19937 &Rng) {
  std::uniform_int_distribution<index_t> Len(0, 2 * Avg);
  std::vector<index_t> Off{0};
  for (index_t R = 0; R < Rows; ++R)
    Off.push_back(Off.back() + Len(Rng) + (Skew && R == Rows / 2 ? 50 * Avg : 0));
  return Off;
}

static bool run(index_t Rows, index_t Avg, bool Skew, std::mt19937 &Rng) {
  std::vector<index_t> Off = offsets(Rows, Avg, Skew, Rng);
  const index_t N = Off.back(), Cols = 37;
  std::vector<int> Off32(Off.begin(), Off.end());
  std::vector<std::int64_t> Off64(Off.begin(), Off.end());
  std::uniform_int_distribution<std::int32_t> Val(-1000, 1000), Col(0, Cols - 1),
      Sparse(-30, 30);
  std::uniform_real_distribution<float> F(-1.0f, 1.0f);
  std::vector<float> X(N);
  std::vector<std::int32_t> A(N), C(N), V(Cols), Z(N);
  for (index_t K = 0; K < N; ++K) {
    X[K] = F(Rng);
    A[K] = Val(Rng);
    C[K] = Col(Rng);
    std::int32_t S = Sparse(Rng);
    Z[K] = (S > 28 || S < -28) ? S : 0; // the first nonzero lies deep
  }
  for (std::int32_t &E : V)
    E = Val(Rng);

  std::vector<double> WantX(Rows, 0.0), AbsX(Rows, 0.0);
  std::vector<std::int64_t> WantY(Rows, 0), WantW(Rows, 0);
  std::vector<std::int32_t> WantF(Rows, 0);
  for (index_t R = 0; R < Rows; ++R)
    for (index_t K = Off[R]; K < Off[R + 1]; ++K) {
      WantX[R] += X[K];
      AbsX[R] += std::fabs(X[K]);
      WantY[R] += std::int64_t(A[K]) * V[C[K]];
      WantW[R] += std::int64_t(A[K]) * (R + 1);
      if (WantF[R] == 0)
        WantF[R] = Z[K];
    }

  mem::array<int> DOff32(Off32);
  mem::array<std::int64_t> DOff64(Off64);
  mem::array<float> DX(pad(X)), DSx(pad(std::vector<float>(Rows, 7.0f)));
  mem::array<std::int32_t> DA(pad(A)), DC(pad(C)), DV(V), DZ(pad(Z)),
      DF(pad(std::vector<std::int32_t>(Rows, 7)));
  mem::array<std::int64_t> DY(pad(std::vector<std::int64_t>(Rows, 7))),
      DW(pad(std::vector<std::int64_t>(Rows, 7)));
  intent::view<const int, 1> VOff32(DOff32.data(), {Rows + 1});
  kernels::row_sums(intent::view<float, 1>(DSx.data(), {Rows}), VOff32,
                    intent::view<const float, 1>(DX.data(), {N}));
  kernels::spmv(intent::view<std::int64_t, 1>(DY.data(), {Rows}),
                intent::view<std::int64_t, 1>(DW.data(), {Rows}),
                intent::view<const std::int64_t, 1>(DOff64.data(), {Rows + 1}),
                intent::view<const std::int32_t, 1>(DA.data(), {N}),
                intent::view<const std::int32_t, 1>(DC.data(), {N}),
                intent::view<const std::int32_t, 1>(DV.data(), {Cols}));
  kernels::first_nonzero(intent::view<std::int32_t, 1>(DF.data(), {Rows}),
                         VOff32, intent::view<const std::int32_t, 1>(DZ.data(), {N}));

  std::vector<float> GotX = DSx.to_vector();
  long BadX = 0, BadY = mismatches(DY.to_vector(), WantY),
       BadW = mismatches(DW.to_vector(), WantW),
       BadF = mismatches(DF.to_vector(), WantF);
  for (index_t R = 0; R < Rows; ++R)
    BadX += std::fabs(GotX[R] - WantX[R]) > 1e-5 * (AbsX[R] + 1.0);
  const long Bad = BadX + BadY + BadW + BadF;
  std::printf("regions %lld, average %lld%s: %s (mismatches: sums %ld, spmv "
              "%ld, by region %ld, first nonzero %ld)\n",
              static_cast<long long>(Rows), static_cast<long long>(Avg),
              Skew ? ", skewed" : "", Bad ? "FAIL" : "ok", BadX, BadY, BadW,
              BadF);
  return Bad == 0;
}

static bool runShortRows(index_t N, std::mt19937 &Rng) {
  std::uniform_real_distribution<float> F(-2.0f, 2.0f);
  std::uniform_int_distribution<std::int32_t> Val(-1000, 1000);
  std::vector<float> P(N * 3);
  std::vector<std::int32_t> A(N * 48), W(48), B(N * 200);
  for (float &E : P)
    E = F(Rng);
  for (std::int32_t &E : A)
    E = Val(Rng);
  for (std::int32_t &E : W)
    E = Val(Rng);
  for (std::int32_t &E : B)
    E = Val(Rng);
  std::vector<double> WantN(N);
  std::vector<std::int64_t> WantD(N);
  std::vector<std::int32_t> WantT(N);
  for (index_t I = 0; I < N; ++I) {
    double S = 0;
    for (int J = 0; J < 3; ++J)
      S += double(P[I * 3 + J]) * P[I * 3 + J];
    WantN[I] = std::sqrt(S);
    std::int64_t D = 0;
    for (int J = 0; J < 48; ++J)
      D += std::int64_t(A[I * 48 + J]) * W[J];
    WantD[I] = D + 3 * I;
    std::int32_t M = INT32_MIN;
    for (int J = 0; J < 200; ++J)
      M = B[I * 200 + J] > M ? B[I * 200 + J] : M;
    WantT[I] = M;
  }
  mem::array<float> DP(pad(P)), DN(pad(std::vector<float>(N, 7.0f)));
  mem::array<std::int32_t> DA(pad(A)), DW(W), DB(pad(B)),
      DT(pad(std::vector<std::int32_t>(N, 7)));
  mem::array<std::int64_t> DD(pad(std::vector<std::int64_t>(N, 7)));
  kernels::short_rows(intent::view<float, 1>(DN.data(), {N}),
                      intent::view<const float, 2>(DP.data(), {N, 3}),
                      intent::view<std::int64_t, 1>(DD.data(), {N}),
                      intent::view<const std::int32_t, 2>(DA.data(), {N, 48}),
                      intent::view<const std::int32_t, 1>(DW.data(), {48}),
                      intent::view<std::int32_t, 1>(DT.data(), {N}),
                      intent::view<const std::int32_t, 2>(DB.data(), {N, 200}));
  std::vector<float> GotN = DN.to_vector();
  long BadN = 0, BadD = mismatches(DD.to_vector(), WantD),
       BadT = mismatches(DT.to_vector(), WantT);
  for (index_t I = 0; I < N; ++I)
    BadN += std::fabs(GotN[I] - WantN[I]) > 1e-5 * (WantN[I] + 1.0);
  std::printf("short rows %lld: %s (mismatches: norms %ld, dots %ld, max %ld)\n",
              static_cast<long long>(N), BadN + BadD + BadT ? "FAIL" : "ok",
              BadN, BadD, BadT);
  return BadN + BadD + BadT == 0;
}

static bool runNormalize(index_t N, std::mt19937 &Rng) {
  std::uniform_real_distribution<float> F(0.5f, 2.0f);
  std::vector<float> P(N * 3);
  for (float &E : P)
    E = F(Rng);
  std::vector<double> Want(N * 3);
  for (index_t I = 0; I < N; ++I) {
    double S = 0;
    for (int J = 0; J < 3; ++J)
      S += double(P[I * 3 + J]) * P[I * 3 + J];
    for (int J = 0; J < 3; ++J)
      Want[I * 3 + J] = P[I * 3 + J] / std::sqrt(S);
  }
  mem::array<float> DP(pad(P));
  kernels::normalize(intent::view<float, 2>(DP.data(), {N, 3}));
  std::vector<float> Got = DP.to_vector();
  long Bad = 0;
  for (index_t I = 0; I < N * 3; ++I)
    Bad += std::fabs(Got[I] - Want[I]) > 1e-5;
  std::printf("normalize %lld: %s (%ld mismatches)\n", static_cast<long long>(N),
              Bad ? "FAIL" : "ok", Bad);
  return Bad == 0;
}

static bool runPredictions(index_t N, std::mt19937 &Rng) {
  // Few distinct values: ties are frequent.
  std::uniform_int_distribution<int> Few(-3, 3);
  std::vector<float> S(N * 10);
  std::vector<std::int32_t> B(N * 60);
  for (float &E : S)
    E = static_cast<float>(Few(Rng));
  for (std::int32_t &E : B)
    E = Few(Rng);
  std::vector<index_t> WantC(N), WantL(N);
  for (index_t I = 0; I < N; ++I) {
    index_t C = 0, L = 0;
    for (index_t J = 1; J < 10; ++J)
      C = S[I * 10 + J] > S[I * 10 + C] ? J : C;
    for (index_t J = 1; J < 60; ++J)
      L = B[I * 60 + J] <= B[I * 60 + L] ? J : L;
    WantC[I] = C;
    WantL[I] = L;
  }
  mem::array<float> DS(pad(S));
  mem::array<std::int32_t> DB(pad(B));
  mem::array<index_t> DC(pad(std::vector<index_t>(N, 77))),
      DL(pad(std::vector<index_t>(N, 77)));
  kernels::predictions(intent::view<index_t, 1>(DC.data(), {N}),
                       intent::view<const float, 2>(DS.data(), {N, 10}),
                       intent::view<index_t, 1>(DL.data(), {N}),
                       intent::view<const std::int32_t, 2>(DB.data(), {N, 60}));
  long BadC = mismatches(DC.to_vector(), WantC),
       BadL = mismatches(DL.to_vector(), WantL);
  std::printf("predictions %lld: %s (mismatches: argmax %ld, argmin %ld)\n",
              static_cast<long long>(N), BadC + BadL ? "FAIL" : "ok", BadC,
              BadL);
  return BadC + BadL == 0;
}

static bool runRuntimeRows(index_t Rows, index_t Cols, std::mt19937 &Rng) {
  std::uniform_int_distribution<int> Few(-3, 3);
  std::vector<float> A(Rows * Cols);
  std::vector<std::int32_t> B(Rows * Cols);
  for (float &E : A)
    E = static_cast<float>(Few(Rng));
  for (std::int32_t &E : B)
    E = Few(Rng) * (Few(Rng) > 1);
  std::vector<float> WantS(Rows);
  std::vector<index_t> WantT(Rows);
  std::vector<std::int32_t> WantL(Rows);
  for (index_t I = 0; I < Rows; ++I) {
    float S = 0;
    index_t T = Cols ? 0 : -1;
    std::int32_t L = 0;
    for (index_t J = 0; J < Cols; ++J) {
      S += A[I * Cols + J];
      T = A[I * Cols + J] > A[I * Cols + T] ? J : T;
      L = B[I * Cols + J] != 0 ? B[I * Cols + J] : L;
    }
    WantS[I] = S;
    WantT[I] = T;
    WantL[I] = L;
  }
  mem::array<float> DA(pad(A)), DS(pad(std::vector<float>(Rows, 77)));
  mem::array<std::int32_t> DB(pad(B)), DL(pad(std::vector<std::int32_t>(Rows, 77)));
  mem::array<index_t> DT(pad(std::vector<index_t>(Rows, 77)));
  kernels::runtime_rows(intent::view<float, 1>(DS.data(), {Rows}),
                        intent::view<index_t, 1>(DT.data(), {Rows}),
                        intent::view<std::int32_t, 1>(DL.data(), {Rows}),
                        intent::view<const float, 2>(DA.data(), {Rows, Cols}),
                        intent::view<const std::int32_t, 2>(DB.data(), {Rows, Cols}));
  std::vector<float> GotS = DS.to_vector();
  std::vector<index_t> GotT = DT.to_vector();
  std::vector<std::int32_t> GotL = DL.to_vector();
  GotS.resize(Rows);
  GotT.resize(Rows);
  GotL.resize(Rows);
  long Bad = mismatches(GotS, WantS) + mismatches(GotT, WantT) +
             mismatches(GotL, WantL);
  std::printf("runtime_rows %lld x %lld: %s (mismatches %ld)\n",
              static_cast<long long>(Rows), static_cast<long long>(Cols),
              Bad ? "FAIL" : "ok", Bad);
  return Bad == 0;
}

int main() {
  std::mt19937 Rng(41);
  bool Ok = true;
  const index_t Shapes[][2] = {{0, 4},    {1, 0},    {1, 1},    {3, 2},
                               {1001, 3}, {5000, 4}, {777, 20}, {3000, 64},
                               {257, 130}, {300, 700}, {65, 4096}, {3, 100000}};
  for (const auto &S : Shapes)
    Ok = run(S[0], S[1], false, Rng) && Ok;
  Ok = run(2000, 6, true, Rng) && Ok;
  Ok = run(100, 300, true, Rng) && Ok;
  for (index_t N : {0, 1, 255, 257, 20000})
    Ok = runShortRows(N, Rng) && Ok;
  for (index_t N : {0, 1, 33, 1000, 100000})
    Ok = runPredictions(N, Rng) && Ok;
  for (index_t N : {0, 1, 1000, 100001})
    Ok = runNormalize(N, Rng) && Ok;
  const index_t RowShapes[][2] = {{0, 5},    {3, 0},     {1, 1},     {2000, 3},
                                  {777, 16}, {1000, 100}, {300, 255}, {300, 256},
                                  {100, 257}, {40, 3000}, {5, 70000}};
  for (const auto &S : RowShapes)
    Ok = runRuntimeRows(S[0], S[1], Rng) && Ok;
  return Ok ? 0 : 1;
}
