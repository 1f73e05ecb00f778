// Execution test: reductions along an outer axis (col-reduce): column sums,
// A^T x, a column maximum with an epilogue reading side vectors, a sum over
// the middle axis of a rank-3 tensor, and an order-sensitive user combine
// (the first nonzero element down each column: associative, not
// commutative), next to a row group in one kernel. The members are split
// over several CTAs per 32 columns when the columns are few (the last CTA
// folds the others' partials from the workspace), so rows from 0 to 100000
// and columns from 0 to 70000 exercise both forms. Integer data: exact.
#if __has_include(<intent/runtime.hpp>)
#include <intent/runtime.hpp>
#define TEST_HAS_RUNTIME 1
#else
#include <intent/intent.hpp>
#define TEST_HAS_RUNTIME 0
#endif

#include <cstdint>
#include <cstdio>
#include <random>
#include <utility>
#include <vector>

namespace kernels {
using intent::index;
using intent::parallel_for;
using intent::reduce;
using intent::view;
namespace ops = intent::ops;

/// sums[j] = sum_i a(i, j); aty[j] = sum_i a(i, j) * y[i].
[[intent::kernel]] void colsums(view<std::int64_t, 1> sums,
                                view<std::int64_t, 1> aty,
                                view<const std::int32_t, 2> a,
                                view<const std::int32_t, 1> y) {
  parallel_for(a.extent(1), [&](index j) {
    sums[j] = reduce(a.extent(0), std::int64_t(0), ops::plus{},
                     [&](index i) { return std::int64_t(a(i, j)); });
  });
  parallel_for(a.extent(1), [&](index j) {
    aty[j] = reduce(a.extent(0), std::int64_t(0), ops::plus{}, [&](index i) {
      return std::int64_t(a(i, j)) * y[i];
    });
  });
}

/// out[j] = 2 max_i a(i, j) + bias[j] (INT32_MIN + ... when no rows), and
/// the row sums of the same matrix in the same kernel.
[[intent::kernel]] void colmax_rows(view<std::int64_t, 1> out,
                                    view<std::int64_t, 1> rows,
                                    view<const std::int32_t, 2> a,
                                    view<const std::int64_t, 1> bias) {
  parallel_for(a.extent(1), [&](index j) {
    std::int32_t m = reduce(a.extent(0), std::int32_t(INT32_MIN), ops::max{},
                            [&](index i) { return a(i, j); });
    out[j] = 2 * std::int64_t(m) + bias[j];
  });
  parallel_for(a.extent(0), [&](index i) {
    rows[i] = reduce(a.extent(1), std::int64_t(0), ops::plus{},
                     [&](index j) { return std::int64_t(a(i, j)); });
  });
}

/// s(b, j) = sum_i x(b, i, j): the middle axis of a rank-3 tensor.
[[intent::kernel]] void sum_axis1(view<std::int64_t, 2> s,
                                  view<const std::int32_t, 3> x) {
  parallel_for(x.extent(0), x.extent(2), [&](index b, index j) {
    s(b, j) = reduce(x.extent(1), std::int64_t(0), ops::plus{},
                     [&](index i) { return std::int64_t(x(b, i, j)); });
  });
}

/// first[j] = the first nonzero a(i, j) down column j (0 if none).
[[intent::kernel]] void first_nonzero(view<std::int32_t, 1> first,
                                      view<const std::int32_t, 2> a) {
  parallel_for(a.extent(1), [&](index j) {
    first[j] = reduce(
        a.extent(0), std::int32_t(0),
        [](std::int32_t p, std::int32_t q) { return p != 0 ? p : q; },
        [&](index i) { return a(i, j); });
  });
}

/// pos[j] = the first row of column j's largest element; low[j] = the last
/// row of its smallest (ties are frequent: few distinct values).
[[intent::kernel]] void col_arg(view<index, 1> pos, view<index, 1> low,
                                view<const std::int32_t, 2> a) {
  parallel_for(a.extent(1), [&](index j) {
    pos[j] = intent::argmax(a.extent(0), [&](index i) { return a(i, j); },
                            intent::tie::first)
                 .pos;
    low[j] = intent::argmin(a.extent(0), [&](index i) { return a(i, j); },
                            intent::tie::last)
                 .pos;
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

static std::vector<std::int32_t> random(std::size_t N, std::mt19937 &Rng,
                                        int Lo = -1000, int Hi = 1000) {
  std::uniform_int_distribution<std::int32_t> Dist(Lo, Hi);
  std::vector<std::int32_t> V(N);
  for (std::int32_t &E : V)
    E = Dist(Rng);
  return V;
}

static bool run2D(index_t R, index_t C, std::mt19937 &Rng) {
  std::vector<std::int32_t> A = random(R * C, Rng), Y = random(R, Rng);
  std::vector<std::int64_t> Bias(C);
  for (index_t J = 0; J < C; ++J)
    Bias[J] = J * 3 - 7;
  // Mostly zeros for first_nonzero: the first nonzero is deep in a column.
  std::vector<std::int32_t> Z = random(R * C, Rng, -30, 30);
  for (std::int32_t &E : Z)
    E = (E > 27 || E < -27) ? E : 0;
  std::vector<std::int64_t> WantS(C, 0), WantT(C, 0), WantM(C), WantRows(R, 0);
  std::vector<std::int32_t> WantF(C, 0);
  for (index_t J = 0; J < C; ++J) {
    std::int32_t M = INT32_MIN;
    for (index_t I = 0; I < R; ++I) {
      std::int32_t V = A[I * C + J];
      WantS[J] += V;
      WantT[J] += std::int64_t(V) * Y[I];
      M = V > M ? V : M;
      if (WantF[J] == 0)
        WantF[J] = Z[I * C + J];
    }
    WantM[J] = 2 * std::int64_t(M) + Bias[J];
  }
  for (index_t I = 0; I < R; ++I)
    for (index_t J = 0; J < C; ++J)
      WantRows[I] += A[I * C + J];
  mem::array<std::int32_t> DA(pad(A)), DY(pad(Y)), DZ(pad(Z));
  mem::array<std::int64_t> DS(pad(std::vector<std::int64_t>(C, 5))),
      DT(pad(std::vector<std::int64_t>(C, 5))),
      DM(pad(std::vector<std::int64_t>(C, 5))),
      DRows(pad(std::vector<std::int64_t>(R, 5))), DB(pad(Bias));
  mem::array<std::int32_t> DF(pad(std::vector<std::int32_t>(C, 5)));
  intent::view<const std::int32_t, 2> VA(DA.data(), {R, C});
  kernels::colsums(intent::view<std::int64_t, 1>(DS.data(), {C}),
                   intent::view<std::int64_t, 1>(DT.data(), {C}), VA,
                   intent::view<const std::int32_t, 1>(DY.data(), {R}));
  kernels::colmax_rows(intent::view<std::int64_t, 1>(DM.data(), {C}),
                       intent::view<std::int64_t, 1>(DRows.data(), {R}), VA,
                       intent::view<const std::int64_t, 1>(DB.data(), {C}));
  kernels::first_nonzero(intent::view<std::int32_t, 1>(DF.data(), {C}),
                         intent::view<const std::int32_t, 2>(DZ.data(), {R, C}));
  // Arg-reductions down the columns, over few distinct values (ties).
  std::vector<std::int32_t> T = random(R * C, Rng, -3, 3);
  std::vector<index_t> WantP(C, -1), WantL(C, -1);
  for (index_t J = 0; J < C; ++J)
    for (index_t I = 0; I < R; ++I) {
      std::int32_t V = T[I * C + J];
      if (WantP[J] < 0 || V > T[WantP[J] * C + J])
        WantP[J] = I;
      if (WantL[J] < 0 || V <= T[WantL[J] * C + J])
        WantL[J] = I;
    }
  mem::array<std::int32_t> DTie(pad(T));
  mem::array<index_t> DP(pad(std::vector<index_t>(C, 7))),
      DL(pad(std::vector<index_t>(C, 7)));
  kernels::col_arg(intent::view<index_t, 1>(DP.data(), {C}),
                   intent::view<index_t, 1>(DL.data(), {C}),
                   intent::view<const std::int32_t, 2>(DTie.data(), {R, C}));
  long Bad = mismatches(DP.to_vector(), WantP) + mismatches(DL.to_vector(), WantL) +
             mismatches(DS.to_vector(), WantS) + mismatches(DT.to_vector(), WantT) +
             mismatches(DM.to_vector(), WantM) +
             mismatches(DRows.to_vector(), WantRows) +
             mismatches(DF.to_vector(), WantF);
  std::printf("columns %lldx%lld: %s (%ld mismatches)\n",
              static_cast<long long>(R), static_cast<long long>(C),
              Bad ? "FAIL" : "ok", Bad);
  return Bad == 0;
}

static bool run3D(index_t B, index_t R, index_t C, std::mt19937 &Rng) {
  std::vector<std::int32_t> X = random(B * R * C, Rng);
  std::vector<std::int64_t> Want(B * C, 0);
  for (index_t Bi = 0; Bi < B; ++Bi)
    for (index_t I = 0; I < R; ++I)
      for (index_t J = 0; J < C; ++J)
        Want[Bi * C + J] += X[(Bi * R + I) * C + J];
  mem::array<std::int32_t> DX(pad(X));
  mem::array<std::int64_t> DS(pad(std::vector<std::int64_t>(B * C, 9)));
  kernels::sum_axis1(intent::view<std::int64_t, 2>(DS.data(), {B, C}),
                     intent::view<const std::int32_t, 3>(DX.data(), {B, R, C}));
  long Bad = mismatches(DS.to_vector(), Want);
  std::printf("sum_axis1 %lldx%lldx%lld: %s (%ld mismatches)\n",
              static_cast<long long>(B), static_cast<long long>(R),
              static_cast<long long>(C), Bad ? "FAIL" : "ok", Bad);
  return Bad == 0;
}

int main() {
  std::mt19937 Rng(31);
  bool Ok = true;
  const index_t Shapes[][2] = {{0, 0},    {0, 5},     {5, 0},    {1, 1},
                               {7, 31},   {300, 33},  {257, 64}, {5000, 3},
                               {100000, 40}, {33, 70000}, {2000, 1000}};
  for (const auto &S : Shapes)
    Ok = run2D(S[0], S[1], Rng) && Ok;
  const index_t S3[][3] = {{0, 4, 4}, {2, 0, 5}, {1, 1, 1}, {3, 100, 37},
                           {2, 4000, 65}, {5, 7, 3000}};
  for (const auto &S : S3)
    Ok = run3D(S[0], S[1], S[2], Rng) && Ok;
  return Ok ? 0 : 1;
}
