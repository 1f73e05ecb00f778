// Execution test: N-D pointwise kernels the tile pass maps (tiles of
// T / 32 x 32 instances per CTA; transposed accesses through a shared
// tile): a 2-D transpose written as out(j, i) = a(i, j), a transposed load
// next to a direct one, a rank-3 permutation (b, i, j) -> (b, j, i), a
// full reversal of a rank-3 tensor (i, j, k) -> (k, j, i) whose tile runs
// along dimensions (0, 2), a 5-point stencil with guarded neighbours, and a
// 2-D pointwise kernel with a bias vector written as nested parallel_fors.
// Views contiguous and with padded rows; shapes empty, 1, a tile's edge
// +-1 and odd. Every element is compared with a serial reference (copies
// exactly), and elements outside the written ones must stay untouched.
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
#include <array>
#include <vector>

namespace kernels {
using intent::index;
using intent::parallel_for;
using intent::view;

[[intent::kernel]] void transpose2(view<float, 2> out, view<const float, 2> a) {
  parallel_for(a.extent(0), a.extent(1),
               [&](index i, index j) { out(j, i) = a(i, j); });
}

[[intent::kernel]] void tload(view<double, 2> out, view<const double, 2> a,
                              view<const double, 2> b) {
  parallel_for(out.extent(0), out.extent(1),
               [&](index i, index j) { out(i, j) = 2.0 * a(j, i) + b(i, j); });
}

[[intent::kernel]] void permute3(view<std::int32_t, 3> out,
                                 view<const std::int32_t, 3> x) {
  parallel_for(x.extent(0), x.extent(1), x.extent(2),
               [&](index b, index i, index j) { out(b, j, i) = x(b, i, j) + 1; });
}

[[intent::kernel]] void reverse3(view<float, 3> out, view<const float, 3> x) {
  parallel_for(x.extent(0), x.extent(1), x.extent(2),
               [&](index i, index j, index k) { out(k, j, i) = x(i, j, k); });
}

[[intent::kernel]] void stencil5(view<float, 2> out, view<const float, 2> a,
                                 float w) {
  const index n = a.extent(0), m = a.extent(1);
  parallel_for(n, m, [&](index i, index j) {
    float s = a(i, j);
    if (i > 0)
      s += a(i - 1, j);
    if (i + 1 < n)
      s += a(i + 1, j);
    if (j > 0)
      s += a(i, j - 1);
    if (j + 1 < m)
      s += a(i, j + 1);
    out(i, j) = w * s;
  });
}

// Forward differences along dimension 1 of a rank-3 array two rows longer
// than the domain: a thread's instances share rows, some past the domain.
[[intent::kernel]] void diff3(view<std::int32_t, 3> out,
                              view<const std::int32_t, 3> a) {
  parallel_for(out.extent(0), out.extent(1), out.extent(2),
               [&](index b, index i, index j) {
                 out(b, i, j) = a(b, i + 2, j) - a(b, i, j) * a(b, i + 1, j);
               });
}

[[intent::kernel]] void bias2(view<float, 2> out, view<const float, 2> a,
                              view<const float, 1> bias) {
  parallel_for(a.extent(0), [&](index i) {
    parallel_for(a.extent(1), [&](index j) { out(i, j) = a(i, j) - bias[j]; });
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

/// A row-major rank-R layout whose rows (last dimension) are `Pad`
/// elements longer than the extent, every `Step`-th element used (Step > 1:
/// the last dimension is not contiguous, so the kernels take their generic
/// form instead of the dense variant).
template <int R> struct Layout {
  index_t E[R];
  index_t Pad;
  index_t Step = 1;
  index_t stride(int D) const {
    index_t S = Step;
    for (int K = R - 1; K > D; --K)
      S *= K == R - 1 ? E[K] + Pad : E[K];
    return S;
  }
  index_t size() const { return E[0] * stride(0); }
  std::array<index_t, R> strides() const {
    std::array<index_t, R> S;
    for (int D = 0; D < R; ++D)
      S[D] = stride(D);
    return S;
  }
};

static long Failures = 0;

static void report(const char *What, const char *Shape, long Bad) {
  std::printf("%s %s: %s (%ld mismatches)\n", What, Shape, Bad ? "FAIL" : "ok",
              Bad);
  Failures += Bad != 0;
}

static bool close(double Got, double Want, double Tol) {
  return std::fabs(Got - Want) <= Tol * (1.0 + std::fabs(Want));
}

static void run2(index_t N, index_t M, index_t Pad, index_t Step,
                 std::mt19937 &Rng) {
  char Shape[80];
  std::snprintf(Shape, sizeof Shape, "%lldx%lld pad %lld step %lld",
                (long long)N, (long long)M, (long long)Pad, (long long)Step);
  std::uniform_real_distribution<float> F(-4.0f, 4.0f);
  Layout<2> A{{N, M}, Pad, Step}, T{{M, N}, Pad, Step};
  std::vector<float> HA(A.size()), HT(T.size(), -7.0f), HS(A.size(), -7.0f),
      HBi(M), HO(A.size(), -7.0f);
  for (float &V : HA)
    V = F(Rng);
  for (float &V : HBi)
    V = F(Rng);
  mem::array<float> DA(pad(HA)), DT(pad(HT)), DS(pad(HS)), DBi(pad(HBi)),
      DO(pad(HO));
  auto V2 = [](float *P, const Layout<2> &L) {
    return intent::view<float, 2>(P, {L.E[0], L.E[1]}, L.strides());
  };
  auto C2 = [](const float *P, const Layout<2> &L) {
    return intent::view<const float, 2>(P, {L.E[0], L.E[1]}, L.strides());
  };
  kernels::transpose2(V2(DT.data(), T), C2(DA.data(), A));
  kernels::stencil5(V2(DS.data(), A), C2(DA.data(), A), 0.2f);
  kernels::bias2(V2(DO.data(), A), C2(DA.data(), A),
                 intent::view<const float, 1>(DBi.data(), {M}));
  std::vector<float> GT = DT.to_vector(), GS = DS.to_vector(),
                     GO = DO.to_vector();
  long BadT = 0, BadS = 0, BadO = 0;
  std::vector<char> WrittenA(A.size()), WrittenT(T.size());
  for (index_t I = 0; I < N; ++I)
    for (index_t J = 0; J < M; ++J) {
      index_t X = I * A.stride(0) + J * A.stride(1),
              Y = J * T.stride(0) + I * T.stride(1);
      WrittenA[X] = WrittenT[Y] = 1;
      BadT += GT[Y] != HA[X];
      float S = HA[X];
      if (I > 0)
        S += HA[X - A.stride(0)];
      if (I + 1 < N)
        S += HA[X + A.stride(0)];
      if (J > 0)
        S += HA[X - A.stride(1)];
      if (J + 1 < M)
        S += HA[X + A.stride(1)];
      BadS += !close(GS[X], 0.2f * S, 1e-5);
      BadO += GO[X] != HA[X] - HBi[J];
    }
  for (index_t X = 0; X < A.size(); ++X)
    if (!WrittenA[X]) {
      BadS += GS[X] != -7.0f;
      BadO += GO[X] != -7.0f;
    }
  for (index_t X = 0; X < T.size(); ++X)
    BadT += !WrittenT[X] && GT[X] != -7.0f;
  report("transpose2", Shape, BadT);
  report("stencil5", Shape, BadS);
  report("bias2", Shape, BadO);

  // A transposed load next to a direct one, in double.
  std::uniform_real_distribution<double> D(-4.0, 4.0);
  Layout<2> DA2{{M, N}, Pad, Step}, DB2{{N, M}, Pad, Step};
  std::vector<double> HX(DA2.size()), HY(DB2.size()), HZ(DB2.size(), -7.0);
  for (double &V : HX)
    V = D(Rng);
  for (double &V : HY)
    V = D(Rng);
  mem::array<double> DX(pad(HX)), DY(pad(HY)), DZ(pad(HZ));
  kernels::tload(
      intent::view<double, 2>(DZ.data(), {N, M}, DB2.strides()),
      intent::view<const double, 2>(DX.data(), {M, N}, DA2.strides()),
      intent::view<const double, 2>(DY.data(), {N, M}, DB2.strides()));
  std::vector<double> GZ = DZ.to_vector();
  long BadL = 0;
  std::vector<char> WrittenZ(DB2.size());
  for (index_t I = 0; I < N; ++I)
    for (index_t J = 0; J < M; ++J) {
      index_t Z = I * DB2.stride(0) + J * DB2.stride(1);
      WrittenZ[Z] = 1;
      BadL += GZ[Z] != 2.0 * HX[J * DA2.stride(0) + I * DA2.stride(1)] + HY[Z];
    }
  for (index_t Z = 0; Z < DB2.size(); ++Z)
    BadL += !WrittenZ[Z] && GZ[Z] != -7.0;
  report("tload", Shape, BadL);
}

static void run3(index_t B, index_t N, index_t M, index_t Pad, index_t Step,
                 std::mt19937 &Rng) {
  char Shape[96];
  std::snprintf(Shape, sizeof Shape, "%lldx%lldx%lld pad %lld step %lld",
                (long long)B, (long long)N, (long long)M, (long long)Pad,
                (long long)Step);
  std::uniform_int_distribution<std::int32_t> I32(-1000000, 1000000);
  Layout<3> X{{B, N, M}, Pad, Step}, P{{B, M, N}, Pad, Step},
      R{{M, N, B}, Pad, Step};
  std::vector<std::int32_t> HX(X.size()), HP(P.size(), -7);
  for (std::int32_t &V : HX)
    V = I32(Rng);
  std::vector<float> HF(X.size()), HR(R.size(), -7.0f);
  for (index_t K = 0; K < X.size(); ++K)
    HF[K] = static_cast<float>(HX[K]) * 0.5f;
  mem::array<std::int32_t> DX(pad(HX)), DP(pad(HP));
  mem::array<float> DF(pad(HF)), DR(pad(HR));
  kernels::permute3(
      intent::view<std::int32_t, 3>(DP.data(), {B, M, N}, P.strides()),
      intent::view<const std::int32_t, 3>(DX.data(), {B, N, M}, X.strides()));
  kernels::reverse3(
      intent::view<float, 3>(DR.data(), {M, N, B}, R.strides()),
      intent::view<const float, 3>(DF.data(), {B, N, M}, X.strides()));
  std::vector<std::int32_t> GP = DP.to_vector();
  std::vector<float> GR = DR.to_vector();
  long BadP = 0, BadR = 0;
  std::vector<char> WP(P.size()), WR(R.size());
  for (index_t Bi = 0; Bi < B; ++Bi)
    for (index_t I = 0; I < N; ++I)
      for (index_t J = 0; J < M; ++J) {
        index_t Src = Bi * X.stride(0) + I * X.stride(1) + J * X.stride(2);
        index_t Dp = Bi * P.stride(0) + J * P.stride(1) + I * P.stride(2);
        index_t Dr = J * R.stride(0) + I * R.stride(1) + Bi * R.stride(2);
        WP[Dp] = WR[Dr] = 1;
        BadP += GP[Dp] != HX[Src] + 1;
        BadR += GR[Dr] != HF[Src];
      }
  for (index_t K = 0; K < P.size(); ++K)
    BadP += !WP[K] && GP[K] != -7;
  for (index_t K = 0; K < R.size(); ++K)
    BadR += !WR[K] && GR[K] != -7.0f;
  report("permute3", Shape, BadP);
  report("reverse3", Shape, BadR);

  // diff3: a is (B, N + 2, M), out (B, N, M), small values (no overflow).
  Layout<3> DAl{{B, N + 2, M}, Pad, Step}, DOl{{B, N, M}, Pad, Step};
  std::uniform_int_distribution<std::int32_t> Small(-1000, 1000);
  std::vector<std::int32_t> HDa(DAl.size()), HDo(DOl.size(), -7);
  for (std::int32_t &V : HDa)
    V = Small(Rng);
  mem::array<std::int32_t> DDa(pad(HDa)), DDo(pad(HDo));
  kernels::diff3(
      intent::view<std::int32_t, 3>(DDo.data(), {B, N, M}, DOl.strides()),
      intent::view<const std::int32_t, 3>(DDa.data(), {B, N + 2, M},
                                          DAl.strides()));
  std::vector<std::int32_t> GDo = DDo.to_vector();
  long BadD = 0;
  std::vector<char> WD(DOl.size());
  for (index_t Bi = 0; Bi < B; ++Bi)
    for (index_t I = 0; I < N; ++I)
      for (index_t J = 0; J < M; ++J) {
        auto At = [&](index_t R) {
          return HDa[Bi * DAl.stride(0) + R * DAl.stride(1) + J * DAl.stride(2)];
        };
        index_t O = Bi * DOl.stride(0) + I * DOl.stride(1) + J * DOl.stride(2);
        WD[O] = 1;
        BadD += GDo[O] != At(I + 2) - At(I) * At(I + 1);
      }
  for (index_t K = 0; K < DOl.size(); ++K)
    BadD += !WD[K] && GDo[K] != -7;
  report("diff3", Shape, BadD);
}

int main() {
  std::mt19937 Rng(11);
  // {rows, cols, pad, step}: step 2 and 3 make the last dimension strided.
  const index_t Shapes2[][4] = {{0, 0, 0, 1},    {0, 5, 0, 1},    {5, 0, 1, 1},
                                {1, 1, 0, 1},    {1, 33, 0, 1},   {33, 1, 2, 1},
                                {31, 32, 0, 1},  {32, 33, 1, 1},  {65, 97, 3, 1},
                                {257, 1025, 0, 1}, {1000, 3, 1, 1}, {3, 1000, 0, 1},
                                {65, 97, 1, 2},  {257, 33, 0, 3}, {1, 40, 0, 2}};
  for (const auto &S : Shapes2)
    run2(S[0], S[1], S[2], S[3], Rng);
  const index_t Shapes3[][5] = {{0, 3, 3, 0, 1},  {1, 1, 1, 0, 1},
                                {2, 33, 31, 1, 1}, {3, 64, 65, 0, 1},
                                {5, 7, 300, 2, 1}, {40, 9, 33, 0, 1},
                                {3, 64, 65, 0, 2}, {5, 7, 40, 1, 3}};
  for (const auto &S : Shapes3)
    run3(S[0], S[1], S[2], S[3], S[4], Rng);
  std::printf("%s\n", Failures ? "FAIL" : "all ok");
  return Failures ? 1 : 0;
}
