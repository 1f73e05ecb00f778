// Execution test: dependent phases in one kernel (a parallel_for whose
// results a later reduction or parallel_for over another instance's
// elements reads). Construction runs the phases in one ordered instance;
// cta-rows runs that instance on one CTA of 1024 threads with CTA barriers
// between the phases that share memory (docs/passes.md §3). Also: rows
// that update the view they reduce (x(r, c) = 4 x(r, c) - sum of the row),
// a whole-array reduction with a user combine over a struct accumulator
// (min, max, count) next to a phase, and a float normalization (exp, sum,
// divide) checked with a tolerance. Integer results are exact. Sizes from
// 0 to 10^6 (a CTA's size +- 1 included). Each call must be one launch.
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

/// What a user combine folds: the smallest and largest value and how many.
struct Range {
  std::int32_t lo, hi;
  std::int64_t count;
};

inline Range merge(const Range &A, const Range &B) {
  return {A.lo < B.lo ? A.lo : B.lo, A.hi > B.hi ? A.hi : B.hi,
          A.count + B.count};
}

namespace kernels {
using intent::index;
using intent::parallel_for;
using intent::reduce;
using intent::view;
namespace ops = intent::ops;

/// tmp[i] = x[i]^2 - 3i; s = sum(tmp); y[i] = 5 tmp[n - 1 - i] + s.
[[intent::kernel]] void sum_then_use(view<std::int64_t, 1> y,
                                     view<std::int64_t, 1> tmp,
                                     view<const std::int32_t, 1> x) {
  parallel_for(x.extent(0), [&](index i) {
    tmp[i] = std::int64_t(x[i]) * x[i] - 3 * i;
  });
  std::int64_t s = reduce(tmp.extent(0), std::int64_t(0), ops::plus{},
                          [&](index i) { return tmp[i]; });
  parallel_for(y.extent(0), [&](index i) {
    y[i] = tmp[tmp.extent(0) - 1 - i] * 5 + s;
  });
}

/// d[i] = (x[i] - c)^2; best = (first argmin of d, its value);
/// y[i] = d[i] - best[1] + best[0].
[[intent::kernel]] void nearest_then_shift(view<std::int64_t, 1> d,
                                           view<std::int64_t, 1> best,
                                           view<std::int64_t, 1> y,
                                           view<const std::int32_t, 1> x,
                                           std::int64_t c) {
  parallel_for(x.extent(0), [&](index i) {
    std::int64_t e = x[i] - c;
    d[i] = e * e;
  });
  auto b = intent::argmin(d.extent(0), [&](index i) { return d[i]; },
                          intent::tie::first);
  best[0] = b.pos;
  best[1] = b.value;
  parallel_for(y.extent(0), [&](index i) { y[i] = d[i] - best[1] + best[0]; });
}

/// a = 3x + 1 (R x C), then b(i, j) = a(j, i) - a(j, 0) (C x R).
[[intent::kernel]] void transpose_phases(view<std::int32_t, 2> a,
                                         view<std::int32_t, 2> b,
                                         view<const std::int32_t, 2> x) {
  parallel_for(x.extent(0), x.extent(1),
               [&](index i, index j) { a(i, j) = x(i, j) * 3 + 1; });
  parallel_for(b.extent(0), b.extent(1),
               [&](index i, index j) { b(i, j) = a(j, i) - a(j, 0); });
}

/// In place: x(r, c) = 4 x(r, c) - sum_c x(r, c).
[[intent::kernel]] void center_rows(view<std::int64_t, 2> x) {
  parallel_for(x.extent(0), [&](index r) {
    std::int64_t s = reduce(x.extent(1), std::int64_t(0), ops::plus{},
                            [&](index c) { return x(r, c); });
    parallel_for(x.extent(1), [&](index c) { x(r, c) = x(r, c) * 4 - s; });
  });
}

/// q[i] = x[i] / 2; out = (min, max, count of q); y[i] = q[i] - min.
[[intent::kernel]] void range_then_shift(view<std::int64_t, 1> out,
                                         view<std::int32_t, 1> q,
                                         view<std::int32_t, 1> y,
                                         view<const std::int32_t, 1> x) {
  parallel_for(x.extent(0), [&](index i) { q[i] = x[i] / 2; });
  Range r = reduce(
      q.extent(0), Range{INT32_MAX, INT32_MIN, 0},
      [](const Range &a, const Range &b) { return merge(a, b); },
      [&](index i) { return Range{q[i], q[i], 1}; });
  out[0] = r.lo;
  out[1] = r.hi;
  out[2] = r.count;
  parallel_for(y.extent(0), [&](index i) { y[i] = q[i] - r.lo; });
}

/// d[i] = (7 x[i]) mod 16, then hist[d[idx[j]]] += 1 for every j (a
/// gather of what the first phase wrote, counted with atomics by the
/// second phase's threads of every CTA).
[[intent::kernel]] void bucket_then_count(view<std::int32_t, 1> d,
                                          view<std::int32_t, 1> hist,
                                          view<const std::int32_t, 1> x,
                                          view<const std::int32_t, 1> idx) {
  parallel_for(x.extent(0), [&](index i) {
    std::int32_t v = (x[i] * 7) % 16;
    d[i] = v < 0 ? v + 16 : v;
  });
  parallel_for(idx.extent(0),
               [&](index j) { intent::atomic_add(hist[d[idx[j]]], 1); });
}

/// e = exp(x - 1); y = e / sum(e) (reversed).
[[intent::kernel]] void normalize(view<float, 1> y, view<float, 1> e,
                                  view<const float, 1> x) {
  parallel_for(x.extent(0), [&](index i) { e[i] = expf(x[i] - 1.0f); });
  float s = reduce(e.extent(0), 0.0f, ops::plus{},
                   [&](index i) { return e[i]; });
  parallel_for(y.extent(0),
               [&](index i) { y[i] = e[e.extent(0) - 1 - i] / s; });
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

template <class T> static std::vector<T> padded(const std::vector<T> &V) {
  return V.empty() ? std::vector<T>(1) : V;
}

template <class T>
static long mismatches(const std::vector<T> &Got, const std::vector<T> &Want) {
  long Bad = 0;
  for (std::size_t I = 0; I < Want.size(); ++I)
    Bad += Got[I] != Want[I];
  return Bad;
}

static bool report(const char *What, index_t N, long Bad) {
  std::printf("%s n=%lld: %s (%ld mismatches)\n", What,
              static_cast<long long>(N), Bad ? "FAIL" : "ok", Bad);
  return Bad == 0;
}

static std::vector<std::int32_t> randomInts(index_t N, int Lo, int Hi,
                                            std::mt19937 &Rng) {
  std::uniform_int_distribution<std::int32_t> Dist(Lo, Hi);
  std::vector<std::int32_t> V(N);
  for (std::int32_t &E : V)
    E = Dist(Rng);
  return V;
}

static bool runSum(index_t N, std::mt19937 &Rng) {
  std::vector<std::int32_t> HX = randomInts(N, -1000, 1000, Rng);
  std::vector<std::int64_t> Tmp(N), Want(N);
  std::int64_t S = 0;
  for (index_t I = 0; I < N; ++I) {
    Tmp[I] = std::int64_t(HX[I]) * HX[I] - 3 * I;
    S += Tmp[I];
  }
  for (index_t I = 0; I < N; ++I)
    Want[I] = Tmp[N - 1 - I] * 5 + S;
  mem::array<std::int32_t> DX(padded(HX));
  mem::array<std::int64_t> DY(padded(std::vector<std::int64_t>(N, -7))),
      DT(padded(std::vector<std::int64_t>(N, -7)));
  kernels::sum_then_use(intent::view<std::int64_t, 1>(DY.data(), {N}),
                        intent::view<std::int64_t, 1>(DT.data(), {N}),
                        intent::view<const std::int32_t, 1>(DX.data(), {N}));
  std::vector<std::int64_t> GY = DY.to_vector(), GT = DT.to_vector();
  GY.resize(N);
  GT.resize(N);
  return report("sum_then_use", N, mismatches(GY, Want) + mismatches(GT, Tmp));
}

static bool runNearest(index_t N, std::mt19937 &Rng) {
  std::vector<std::int32_t> HX = randomInts(N, -50, 50, Rng);
  const std::int64_t C = 7;
  std::vector<std::int64_t> D(N), Want(N);
  std::int64_t Pos = -1, Val = INT64_MAX;
  for (index_t I = 0; I < N; ++I) {
    D[I] = (HX[I] - C) * (HX[I] - C);
    if (D[I] < Val)
      Val = D[I], Pos = I;
  }
  for (index_t I = 0; I < N; ++I)
    Want[I] = D[I] - Val + Pos;
  mem::array<std::int32_t> DX(padded(HX));
  mem::array<std::int64_t> DD(padded(std::vector<std::int64_t>(N, 3))),
      DB(std::vector<std::int64_t>(2, 3)),
      DY(padded(std::vector<std::int64_t>(N, 3)));
  kernels::nearest_then_shift(
      intent::view<std::int64_t, 1>(DD.data(), {N}),
      intent::view<std::int64_t, 1>(DB.data(), {2}),
      intent::view<std::int64_t, 1>(DY.data(), {N}),
      intent::view<const std::int32_t, 1>(DX.data(), {N}), C);
  std::vector<std::int64_t> GD = DD.to_vector(), GY = DY.to_vector(),
                            GB = DB.to_vector();
  GD.resize(N);
  GY.resize(N);
  long Bad = mismatches(GD, D) + mismatches(GY, Want) + (GB[0] != Pos) +
             (GB[1] != Val);
  return report("nearest_then_shift", N, Bad);
}

static bool runTranspose(index_t R, index_t C, std::mt19937 &Rng) {
  std::vector<std::int32_t> HX = randomInts(R * C, -1000, 1000, Rng);
  std::vector<std::int32_t> A(R * C), B(C * R);
  for (index_t I = 0; I < R * C; ++I)
    A[I] = HX[I] * 3 + 1;
  for (index_t I = 0; I < C; ++I)
    for (index_t J = 0; J < R; ++J)
      B[I * R + J] = A[J * C + I] - A[J * C];
  mem::array<std::int32_t> DX(padded(HX)),
      DA(padded(std::vector<std::int32_t>(R * C))),
      DB(padded(std::vector<std::int32_t>(C * R)));
  kernels::transpose_phases(
      intent::view<std::int32_t, 2>(DA.data(), {R, C}),
      intent::view<std::int32_t, 2>(DB.data(), {C, R}),
      intent::view<const std::int32_t, 2>(DX.data(), {R, C}));
  std::vector<std::int32_t> GA = DA.to_vector(), GB = DB.to_vector();
  GA.resize(R * C);
  GB.resize(C * R);
  return report("transpose_phases", R * C, mismatches(GA, A) + mismatches(GB, B));
}

static bool runCenter(index_t R, index_t C, std::mt19937 &Rng) {
  std::vector<std::int32_t> H = randomInts(R * C, -1000, 1000, Rng);
  std::vector<std::int64_t> X(H.begin(), H.end()), Want = X;
  for (index_t I = 0; I < R; ++I) {
    std::int64_t S = 0;
    for (index_t J = 0; J < C; ++J)
      S += X[I * C + J];
    for (index_t J = 0; J < C; ++J)
      Want[I * C + J] = X[I * C + J] * 4 - S;
  }
  mem::array<std::int64_t> DX(padded(X));
  kernels::center_rows(intent::view<std::int64_t, 2>(DX.data(), {R, C}));
  std::vector<std::int64_t> G = DX.to_vector();
  G.resize(R * C);
  return report("center_rows", R * C, mismatches(G, Want));
}

static bool runRange(index_t N, std::mt19937 &Rng) {
  std::vector<std::int32_t> HX = randomInts(N, -100000, 100000, Rng);
  std::vector<std::int32_t> Q(N), Want(N);
  Range R{INT32_MAX, INT32_MIN, 0};
  for (index_t I = 0; I < N; ++I) {
    Q[I] = HX[I] / 2;
    R = merge(R, Range{Q[I], Q[I], 1});
  }
  for (index_t I = 0; I < N; ++I)
    Want[I] = Q[I] - R.lo;
  mem::array<std::int32_t> DX(padded(HX)),
      DQ(padded(std::vector<std::int32_t>(N))),
      DY(padded(std::vector<std::int32_t>(N)));
  mem::array<std::int64_t> DO(std::vector<std::int64_t>(3));
  kernels::range_then_shift(intent::view<std::int64_t, 1>(DO.data(), {3}),
                            intent::view<std::int32_t, 1>(DQ.data(), {N}),
                            intent::view<std::int32_t, 1>(DY.data(), {N}),
                            intent::view<const std::int32_t, 1>(DX.data(), {N}));
  std::vector<std::int32_t> GQ = DQ.to_vector(), GY = DY.to_vector();
  std::vector<std::int64_t> GO = DO.to_vector();
  GQ.resize(N);
  GY.resize(N);
  long Bad = mismatches(GQ, Q) + mismatches(GY, Want) + (GO[0] != R.lo) +
             (GO[1] != R.hi) + (GO[2] != R.count);
  return report("range_then_shift", N, Bad);
}

static bool runBuckets(index_t N, std::mt19937 &Rng) {
  std::vector<std::int32_t> HX = randomInts(N, -100000, 100000, Rng);
  const index_t M = N ? 2 * N + 3 : 0;
  std::vector<std::int32_t> Idx = N ? randomInts(M, 0, int(N - 1), Rng)
                                    : std::vector<std::int32_t>();
  std::vector<std::int32_t> D(N), Hist(16, 0);
  for (index_t I = 0; I < N; ++I) {
    std::int32_t V = (HX[I] * 7) % 16;
    D[I] = V < 0 ? V + 16 : V;
  }
  for (index_t J = 0; J < M; ++J)
    ++Hist[D[Idx[J]]];
  mem::array<std::int32_t> DX(padded(HX)), DI(padded(Idx)),
      DD(padded(std::vector<std::int32_t>(N))),
      DH(std::vector<std::int32_t>(16, 0));
  kernels::bucket_then_count(intent::view<std::int32_t, 1>(DD.data(), {N}),
                             intent::view<std::int32_t, 1>(DH.data(), {16}),
                             intent::view<const std::int32_t, 1>(DX.data(), {N}),
                             intent::view<const std::int32_t, 1>(DI.data(), {M}));
  std::vector<std::int32_t> GD = DD.to_vector(), GH = DH.to_vector();
  GD.resize(N);
  return report("bucket_then_count", N, mismatches(GD, D) + mismatches(GH, Hist));
}

static bool runNormalize(index_t N, std::mt19937 &Rng) {
  std::uniform_real_distribution<float> Dist(-3.0f, 3.0f);
  std::vector<float> HX(N), E(N), Want(N);
  for (float &V : HX)
    V = Dist(Rng);
  double S = 0;
  for (index_t I = 0; I < N; ++I) {
    E[I] = std::exp(HX[I] - 1.0f);
    S += E[I];
  }
  for (index_t I = 0; I < N; ++I)
    Want[I] = static_cast<float>(E[N - 1 - I] / S);
  mem::array<float> DX(padded(HX)), DE(padded(std::vector<float>(N))),
      DY(padded(std::vector<float>(N)));
  kernels::normalize(intent::view<float, 1>(DY.data(), {N}),
                     intent::view<float, 1>(DE.data(), {N}),
                     intent::view<const float, 1>(DX.data(), {N}));
  std::vector<float> GY = DY.to_vector();
  long Bad = 0;
  // A float sum of 10^6 positive terms in serial order drifts by ~1e-4
  // relative (the CTA's tree sums drift less); the tolerance covers both.
  for (index_t I = 0; I < N; ++I)
    Bad += !(std::fabs(GY[I] - Want[I]) <= 2e-3f * std::fabs(Want[I]) + 1e-12f);
  return report("normalize", N, Bad);
}

int main() {
  std::mt19937 Rng(17);
  bool Ok = true;
  const index_t Sizes[] = {0, 1, 7, 1023, 1024, 1025, 4099, 1000000};
  for (index_t N : Sizes) {
    Ok = runSum(N, Rng) && Ok;
    Ok = runNearest(N, Rng) && Ok;
    Ok = runRange(N, Rng) && Ok;
    Ok = runNormalize(N, Rng) && Ok;
    Ok = runBuckets(N, Rng) && Ok;
  }
  const index_t Shapes[][2] = {{0, 0}, {0, 3}, {1, 1}, {3, 5}, {40, 41},
                               {1025, 3}, {2, 1500}, {300, 300}};
  for (const auto &S : Shapes) {
    Ok = runTranspose(S[0], S[1], Rng) && Ok;
    Ok = runCenter(S[0], S[1], Rng) && Ok;
  }
  return Ok ? 0 : 1;
}
