// Execution test: row kernels over the last axis of rank-3 and rank-4
// views (a batch of matrices): the instance has several coordinates and its
// row is x(b, r, :). cta-rows keeps such rows in registers or stages them
// like rank-2 rows (the row's start is sum_d coord_d * stride(d)). Checked
// against serial references: softmax (float, tolerance), layernorm with
// weight and bias, an integer row sum over a rank-4 view (exact), a Welford
// mean/variance with a user combine (the 256-thread form) and an argmax;
// views contiguous, with padded rows, and with a non-unit last stride;
// row lengths 0, 1, odd, a register variant's edge +-1 and beyond the
// register form (staged / global).
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
using intent::reduce;
using intent::view;
namespace ops = intent::ops;

[[intent::kernel]] void softmax3(view<float, 3> out, view<const float, 3> in) {
  parallel_for(in.extent(0), in.extent(1), [&](index b, index r) {
    float m = reduce(in.extent(2), -INFINITY, ops::max{},
                     [&](index c) { return in(b, r, c); });
    float s = reduce(in.extent(2), 0.0f, ops::plus{},
                     [&](index c) { return expf(in(b, r, c) - m); });
    parallel_for(in.extent(2),
                 [&](index c) { out(b, r, c) = expf(in(b, r, c) - m) / s; });
  });
}

[[intent::kernel]] void layernorm3(view<float, 3> y, view<const float, 3> x,
                                   view<const float, 1> w,
                                   view<const float, 1> bias, float eps) {
  parallel_for(x.extent(0), x.extent(1), [&](index b, index r) {
    const index n = x.extent(2);
    float mean = reduce(n, 0.0f, ops::plus{},
                        [&](index c) { return x(b, r, c); }) /
                 static_cast<float>(n);
    float var = reduce(n, 0.0f, ops::plus{}, [&](index c) {
                  float d = x(b, r, c) - mean;
                  return d * d;
                }) /
                static_cast<float>(n);
    float inv = 1.0f / sqrtf(var + eps);
    parallel_for(n, [&](index c) {
      y(b, r, c) = (x(b, r, c) - mean) * inv * w[c] + bias[c];
    });
  });
}

[[intent::kernel]] void rowsum4(view<std::int64_t, 3> out,
                                view<const std::int32_t, 4> x) {
  parallel_for(x.extent(0), x.extent(1), x.extent(2),
               [&](index a, index b, index r) {
                 out(a, b, r) = reduce(x.extent(3), std::int64_t(0),
                                       ops::plus{}, [&](index c) {
                                         return std::int64_t(x(a, b, r, c));
                                       });
               });
}

struct Welford {
  double n, mean, m2;
};

[[intent::kernel]] void welford3(view<double, 2> mean, view<double, 2> var,
                                 view<const double, 3> x) {
  parallel_for(x.extent(0), x.extent(1), [&](index b, index r) {
    Welford w = reduce(
        x.extent(2), Welford{0.0, 0.0, 0.0},
        [](Welford p, Welford q) {
          double n = p.n + q.n;
          if (n == 0.0)
            return p;
          double d = q.mean - p.mean;
          return Welford{n, p.mean + d * q.n / n,
                         p.m2 + q.m2 + d * d * p.n * q.n / n};
        },
        [&](index c) { return Welford{1.0, x(b, r, c), 0.0}; });
    mean(b, r) = w.mean;
    var(b, r) = w.n > 0.0 ? w.m2 / w.n : 0.0;
  });
}

[[intent::kernel]] void argmax3(view<index, 2> pos, view<const float, 3> x) {
  parallel_for(x.extent(0), x.extent(1), [&](index b, index r) {
    pos(b, r) = intent::argmax(x.extent(2), [&](index c) { return x(b, r, c); })
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

/// A rank-3 layout: extents {B, R, N}; the element (b, r, c) is at
/// b * S0 + r * S1 + c * S2. `Layout` 0: contiguous; 1: rows padded by 3
/// elements; 2: last stride 2 (every other element).
struct Shape3 {
  index_t B, R, N;
  int Layout;
  index_t s2() const { return Layout == 2 ? 2 : 1; }
  index_t s1() const { return N * s2() + (Layout == 1 ? 3 : 0); }
  index_t s0() const { return R * s1(); }
  index_t size() const { return B * s0(); }
  index_t at(index_t b, index_t r, index_t c) const {
    return b * s0() + r * s1() + c * s2();
  }
};

static bool close(double Got, double Want, double Tol) {
  if (std::isnan(Got) && std::isnan(Want))
    return true;
  return std::fabs(Got - Want) <= Tol * (1.0 + std::fabs(Want));
}

static bool runFloat(const Shape3 &S, std::mt19937 &Rng) {
  std::uniform_real_distribution<float> F(-3.0f, 3.0f);
  std::vector<float> HIn(S.size()), HW(S.N), HB(S.N);
  for (float &V : HIn)
    V = F(Rng);
  for (index_t C = 0; C < S.N; ++C) {
    HW[C] = F(Rng);
    HB[C] = F(Rng);
  }
  // Ties for argmax: repeat a row's first element further on.
  for (index_t B = 0; B < S.B; ++B)
    for (index_t R = 0; R < S.R; ++R)
      if (S.N > 4)
        HIn[S.at(B, R, S.N - 2)] = HIn[S.at(B, R, 1)];
  std::vector<float> HSm(S.size(), -7.0f), HLn(S.size(), -7.0f);
  std::vector<index_t> HPos(S.B * S.R, -5);
  mem::array<float> DIn(pad(HIn)), DSm(pad(HSm)), DLn(pad(HLn)), DW(pad(HW)),
      DB(pad(HB));
  mem::array<index_t> DPos(pad(HPos));
  auto v3 = [&](float *P) {
    return intent::view<float, 3>(P, {S.B, S.R, S.N}, {S.s0(), S.s1(), S.s2()});
  };
  auto c3 = [&](const float *P) {
    return intent::view<const float, 3>(P, {S.B, S.R, S.N},
                                        {S.s0(), S.s1(), S.s2()});
  };
  kernels::softmax3(v3(DSm.data()), c3(DIn.data()));
  kernels::layernorm3(v3(DLn.data()), c3(DIn.data()),
                      intent::view<const float, 1>(DW.data(), {S.N}),
                      intent::view<const float, 1>(DB.data(), {S.N}), 1e-5f);
  kernels::argmax3(intent::view<index_t, 2>(DPos.data(), {S.B, S.R}),
                   c3(DIn.data()));
  std::vector<float> GotSm = DSm.to_vector(), GotLn = DLn.to_vector();
  std::vector<index_t> GotPos = DPos.to_vector();
  long Bad = 0;
  for (index_t B = 0; B < S.B; ++B)
    for (index_t R = 0; R < S.R; ++R) {
      double M = -INFINITY, Sum = 0, Mean = 0, Var = 0;
      index_t Best = S.N ? 0 : -1;
      for (index_t C = 0; C < S.N; ++C) {
        float V = HIn[S.at(B, R, C)];
        M = std::fmax(M, V);
        Mean += V;
        if (V > HIn[S.at(B, R, Best)])
          Best = C;
      }
      Mean /= S.N ? S.N : 1;
      for (index_t C = 0; C < S.N; ++C) {
        double V = HIn[S.at(B, R, C)];
        Sum += std::exp(V - M);
        Var += (V - Mean) * (V - Mean);
      }
      Var /= S.N ? S.N : 1;
      double Inv = 1.0 / std::sqrt(Var + 1e-5);
      for (index_t C = 0; C < S.N; ++C) {
        index_t I = S.at(B, R, C);
        Bad += !close(GotSm[I], std::exp(HIn[I] - M) / Sum, 1e-4);
        Bad += !close(GotLn[I], (HIn[I] - Mean) * Inv * HW[C] + HB[C], 1e-3);
      }
      Bad += GotPos[B * S.R + R] != Best;
    }
  // Elements between rows (padding, skipped columns) stay untouched.
  for (index_t I = 0; I < S.size(); ++I) {
    bool InRow = false;
    if (S.s2() == 1 || I % S.s2() == 0) {
      index_t C = (I % S.s1()) / S.s2();
      InRow = C < S.N;
    }
    if (!InRow)
      Bad += GotSm[I] != -7.0f || GotLn[I] != -7.0f;
  }
  std::printf("float3 %lldx%lldx%lld layout %d: %s (%ld mismatches)\n",
              static_cast<long long>(S.B), static_cast<long long>(S.R),
              static_cast<long long>(S.N), S.Layout, Bad ? "FAIL" : "ok", Bad);
  return Bad == 0;
}

static bool runWelford(const Shape3 &S, std::mt19937 &Rng) {
  std::uniform_real_distribution<double> F(-2.0, 5.0);
  std::vector<double> HX(S.size());
  for (double &V : HX)
    V = F(Rng);
  std::vector<double> HM(S.B * S.R, -1.0), HV(S.B * S.R, -1.0);
  mem::array<double> DX(pad(HX)), DM(pad(HM)), DV(pad(HV));
  kernels::welford3(
      intent::view<double, 2>(DM.data(), {S.B, S.R}),
      intent::view<double, 2>(DV.data(), {S.B, S.R}),
      intent::view<const double, 3>(DX.data(), {S.B, S.R, S.N},
                                    {S.s0(), S.s1(), S.s2()}));
  std::vector<double> GotM = DM.to_vector(), GotV = DV.to_vector();
  long Bad = 0;
  for (index_t B = 0; B < S.B; ++B)
    for (index_t R = 0; R < S.R; ++R) {
      double Mean = 0, Var = 0;
      for (index_t C = 0; C < S.N; ++C)
        Mean += HX[S.at(B, R, C)];
      Mean = S.N ? Mean / S.N : 0.0;
      for (index_t C = 0; C < S.N; ++C)
        Var += (HX[S.at(B, R, C)] - Mean) * (HX[S.at(B, R, C)] - Mean);
      Var = S.N ? Var / S.N : 0.0;
      Bad += !close(GotM[B * S.R + R], Mean, 1e-9);
      Bad += !close(GotV[B * S.R + R], Var, 1e-9);
    }
  std::printf("welford3 %lldx%lldx%lld layout %d: %s (%ld mismatches)\n",
              static_cast<long long>(S.B), static_cast<long long>(S.R),
              static_cast<long long>(S.N), S.Layout, Bad ? "FAIL" : "ok", Bad);
  return Bad == 0;
}

static bool runRowsum4(index_t A, index_t B, index_t R, index_t N,
                       std::mt19937 &Rng) {
  std::uniform_int_distribution<std::int32_t> D(-100000, 100000);
  std::vector<std::int32_t> HX(A * B * R * N);
  for (std::int32_t &V : HX)
    V = D(Rng);
  std::vector<std::int64_t> HOut(A * B * R, 99), Want(A * B * R, 0);
  for (index_t I = 0; I < A * B * R; ++I)
    for (index_t C = 0; C < N; ++C)
      Want[I] += HX[I * N + C];
  mem::array<std::int32_t> DX(pad(HX));
  mem::array<std::int64_t> DOut(pad(HOut));
  kernels::rowsum4(intent::view<std::int64_t, 3>(DOut.data(), {A, B, R}),
                   intent::view<const std::int32_t, 4>(DX.data(), {A, B, R, N}));
  std::vector<std::int64_t> Got = DOut.to_vector();
  long Bad = 0;
  for (index_t I = 0; I < A * B * R; ++I)
    Bad += Got[I] != Want[I];
  std::printf("rowsum4 %lldx%lldx%lldx%lld: %s (%ld mismatches)\n",
              static_cast<long long>(A), static_cast<long long>(B),
              static_cast<long long>(R), static_cast<long long>(N),
              Bad ? "FAIL" : "ok", Bad);
  return Bad == 0;
}

int main() {
  std::mt19937 Rng(23);
  bool Ok = true;
  const Shape3 Shapes[] = {
      {0, 3, 5, 0},    {2, 0, 5, 0},   {2, 3, 0, 0},    {1, 1, 1, 0},
      {2, 3, 7, 0},    {3, 5, 129, 1}, {2, 2, 257, 2},  {4, 3, 1023, 0},
      {2, 2, 1025, 1}, {1, 3, 4096, 0}, {2, 1, 33000, 0}, {1, 2, 40001, 1}};
  for (const Shape3 &S : Shapes)
    Ok = runFloat(S, Rng) && Ok;
  const Shape3 WShapes[] = {{0, 2, 3, 0}, {1, 1, 1, 0},    {2, 3, 31, 1},
                            {3, 2, 257, 2}, {2, 2, 3000, 0}};
  for (const Shape3 &S : WShapes)
    Ok = runWelford(S, Rng) && Ok;
  const index_t R4[][4] = {{0, 1, 1, 1}, {1, 1, 1, 0}, {2, 3, 4, 5},
                           {2, 2, 3, 300}, {1, 2, 2, 5000}};
  for (const auto &S : R4)
    Ok = runRowsum4(S[0], S[1], S[2], S[3], Rng) && Ok;
  return Ok ? 0 : 1;
}
