// kernels_cpu: every benchmark kernel (bench/kernels), called through its
// bench_entry function exactly as the GPU driver calls it, run in CPU mode on
// small random inputs -- sizes 0, 1, odd and larger -- and compared with a
// serial computation: the generated code the benchmark times computes the
// right thing, and each call is one launch. A kernel the plugin could not
// generate is not linked (its entry is weak): that is a failure, since the
// benchmark would have nothing to time.
//
//   bench/test/run.sh BUILD      (builds this with intentc --from-generated)
#include "../kernels/entry.hpp"

#include <intent/runtime.hpp>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <tuple>
#include <vector>

namespace bench_entry {
__attribute__((weak)) void saxpy(float *, const float *, float, long long);
__attribute__((weak)) void softmax(float *, const float *, long long,
                                   long long);
__attribute__((weak)) void softmax_fast(float *, const float *, long long,
                                        long long);
__attribute__((weak)) void layernorm(float *, const float *, const float *,
                                     const float *, float, long long,
                                     long long);
__attribute__((weak)) void sum(float *, const float *, long long);
__attribute__((weak)) void argmax(float *, long long *, const float *,
                                  long long);
__attribute__((weak)) void inclusive_scan(float *, const float *, long long);
__attribute__((weak)) void segmented_sum(float *, const int *, const float *,
                                         long long, long long);
__attribute__((weak)) void histogram_even(int *, const float *, long long,
                                          long long);
__attribute__((weak)) void softmax3(float *, const float *, long long,
                                    long long, long long);
__attribute__((weak)) void mv2(float *, float *, const float *, const float *,
                               const float *, const float *, long long,
                               long long);
__attribute__((weak)) void norms3(float *, const float *, long long);
__attribute__((weak)) void rowsum(float *, const float *, long long, long long);
__attribute__((weak)) void rowcumsum(float *, const float *, long long, long long);
__attribute__((weak)) void colsum(float *, const float *, long long, long long);
__attribute__((weak)) void rmsnorm_bf16(unsigned short *, const unsigned short *,
                                        const unsigned short *, long long,
                                        long long, float);
__attribute__((weak)) void softmax_bf16(unsigned short *, const unsigned short *,
                                        long long, long long);
__attribute__((weak)) void phases_one(float *, const float *, long long);
__attribute__((weak)) void phases_two(float *, float *, const float *,
                                      long long);
__attribute__((weak)) void transpose(float *, const float *, long long,
                                     long long);
__attribute__((weak)) void permute3(float *, const float *, long long,
                                    long long, long long);
__attribute__((weak)) void stencil(float *, const float *, long long,
                                   long long);
} // namespace bench_entry

namespace {

std::mt19937 Rng(8);
int Passed = 0, Failed = 0;

std::vector<float> uniform(long long N, float Lo, float Hi) {
  std::uniform_real_distribution<float> D(Lo, Hi);
  std::vector<float> V(static_cast<std::size_t>(N));
  for (float &X : V)
    X = D(Rng);
  return V;
}

std::vector<float> intValued(long long N) {
  std::uniform_int_distribution<int> D(-8, 8);
  std::vector<float> V(static_cast<std::size_t>(N));
  for (float &X : V)
    X = static_cast<float>(D(Rng));
  return V;
}

/// Runs Call (one kernel call); true when it was exactly one launch.
template <class F> bool oneLaunch(F &&Call) {
  std::uint64_t Before = intent::rt::launch_count();
  Call();
  return intent::rt::launch_count() - Before == 1;
}

void report(const char *Name, const char *Size, bool Ok) {
  std::printf("%s %s %s\n", Ok ? "PASS" : "FAIL", Name, Size);
  (Ok ? Passed : Failed)++;
}

/// A kernel whose entry point is not linked (phase 1 failed for it).
void missing(const char *Name) {
  std::printf("FAIL %s (not generated: bench_entry::%s is not linked)\n", Name,
              Name);
  ++Failed;
}

bool close(float Got, double Want, double Tol) {
  return std::fabs(Got - Want) <= Tol; // false for NaN
}

void testSaxpy() {
  if (!bench_entry::saxpy)
    return missing("saxpy");
  for (long long N : {0LL, 1LL, 7LL, 1000LL, 4099LL}) {
    std::vector<float> X = uniform(N, -1, 1), Y = uniform(N, -1, 1), Y0 = Y;
    bool Ok = oneLaunch([&] { bench_entry::saxpy(Y.data(), X.data(), 2.5f, N); });
    for (long long I = 0; I < N; ++I)
      Ok = Ok && close(Y[I], 2.5 * X[I] + Y0[I],
                       2.4e-7 * (std::fabs(2.5 * X[I]) + std::fabs(Y0[I])));
    report("saxpy", std::to_string(N).c_str(), Ok);
  }
}

/// softmax and softmax_fast (--fast-math: in cpu mode the exact functions,
/// so the same check).
void testSoftmax(bool Fast) {
  auto *Entry = Fast ? bench_entry::softmax_fast : bench_entry::softmax;
  const char *Name = Fast ? "softmax_fast" : "softmax";
  if (!Entry)
    return missing(Name);
  for (auto [R, C] : std::vector<std::pair<long long, long long>>{
           {0, 5}, {3, 0}, {1, 1}, {7, 13}, {5, 1024}, {2, 4099}}) {
    std::vector<float> In = uniform(R * C, -8, 8), Out(R * C, NAN);
    bool Ok = oneLaunch([&] { Entry(Out.data(), In.data(), R, C); });
    for (long long I = 0; I < R; ++I) {
      double M = -INFINITY, S = 0;
      for (long long K = 0; K < C; ++K)
        M = std::fmax(M, In[I * C + K]);
      for (long long K = 0; K < C; ++K)
        S += std::exp(In[I * C + K] - M);
      for (long long K = 0; K < C; ++K) {
        double W = std::exp(In[I * C + K] - M) / S;
        Ok = Ok && close(Out[I * C + K], W, 5e-5 * W);
      }
    }
    report(Name, (std::to_string(R) + "x" + std::to_string(C)).c_str(), Ok);
  }
}

void testLayernorm() {
  if (!bench_entry::layernorm)
    return missing("layernorm");
  for (auto [R, C] : std::vector<std::pair<long long, long long>>{
           {0, 5}, {3, 0}, {1, 1}, {7, 13}, {5, 1024}, {2, 4099}}) {
    std::vector<float> X = uniform(R * C, -4, 6), G = uniform(C, 0.5f, 1.5f),
                       B = uniform(C, -1, 1), Y(R * C, NAN);
    bool Ok = oneLaunch([&] {
      bench_entry::layernorm(Y.data(), X.data(), G.data(), B.data(), 1e-5f, R, C);
    });
    for (long long I = 0; I < R; ++I) {
      double Mean = 0, Var = 0;
      for (long long K = 0; K < C; ++K)
        Mean += X[I * C + K];
      Mean /= C;
      for (long long K = 0; K < C; ++K)
        Var += (X[I * C + K] - Mean) * (X[I * C + K] - Mean);
      Var /= C;
      double Rstd = 1 / std::sqrt(Var + 1e-5);
      for (long long K = 0; K < C; ++K) {
        double D = X[I * C + K] - Mean;
        double Scale = (std::fabs(D) + std::fabs(Mean)) * Rstd * G[K] + std::fabs(B[K]);
        Ok = Ok && close(Y[I * C + K], D * Rstd * G[K] + B[K], 1e-4 * Scale);
      }
    }
    report("layernorm", (std::to_string(R) + "x" + std::to_string(C)).c_str(), Ok);
  }
}

void testSum() {
  if (!bench_entry::sum)
    return missing("sum");
  for (long long N : {0LL, 1LL, 7LL, 1000LL, 100003LL}) {
    std::vector<float> X = intValued(N);
    float Out = NAN;
    bool Ok = oneLaunch([&] { bench_entry::sum(&Out, X.data(), N); });
    double Want = 0;
    for (float V : X)
      Want += V;
    report("sum", std::to_string(N).c_str(), Ok && Out == Want);
  }
}

void testArgmax() {
  if (!bench_entry::argmax)
    return missing("argmax");
  for (long long N : {0LL, 1LL, 7LL, 1000LL, 100003LL}) {
    // Few distinct values: the maximum repeats, "first" is exercised.
    std::vector<float> X = intValued(N);
    float Value = NAN;
    long long Pos = -7;
    bool Ok = oneLaunch([&] { bench_entry::argmax(&Value, &Pos, X.data(), N); });
    long long WantP = -1;
    float WantV = -INFINITY;
    for (long long I = 0; I < N; ++I)
      if (WantP < 0 || X[I] > WantV)
        WantP = I, WantV = X[I];
    report("argmax", std::to_string(N).c_str(), Ok && Pos == WantP && Value == WantV);
  }
}

void testScan() {
  if (!bench_entry::inclusive_scan)
    return missing("inclusive_scan");
  for (long long N : {0LL, 1LL, 7LL, 1000LL, 100003LL}) {
    std::vector<float> X = intValued(N), Y(N, NAN);
    bool Ok = oneLaunch([&] { bench_entry::inclusive_scan(Y.data(), X.data(), N); });
    double S = 0;
    for (long long I = 0; I < N; ++I)
      Ok = Ok && Y[I] == (S += X[I]);
    report("inclusive_scan", std::to_string(N).c_str(), Ok);
  }
}

void testSegmentedSum() {
  if (!bench_entry::segmented_sum)
    return missing("segmented_sum");
  for (long long Rows : {0LL, 1LL, 7LL, 1000LL}) {
    std::uniform_int_distribution<int> Len(0, 128);
    std::vector<int> Off(Rows + 1, 0);
    for (long long R = 0; R < Rows; ++R)
      Off[R + 1] = Off[R] + (R % 5 == 3 ? 0 : Len(Rng)); // some empty rows
    long long N = Off[Rows];
    std::vector<float> X = intValued(N), Y(Rows, NAN);
    bool Ok = oneLaunch(
        [&] { bench_entry::segmented_sum(Y.data(), Off.data(), X.data(), Rows, N); });
    for (long long R = 0; R < Rows; ++R) {
      double S = 0;
      for (int K = Off[R]; K < Off[R + 1]; ++K)
        S += X[K];
      Ok = Ok && Y[R] == S;
    }
    report("segmented_sum", std::to_string(Rows).c_str(), Ok);
  }
}

void testHistogram() {
  if (!bench_entry::histogram_even)
    return missing("histogram_even");
  // 65536 bins do not fit shared memory: global atomics.
  for (long long NB : {256LL, 2048LL, 65536LL})
    for (long long N : {0LL, 1LL, 7LL, 1000LL, 100003LL}) {
      std::vector<float> X = uniform(N, 0, 1);
      std::vector<int> Bins(NB, 0);
      bool Ok = oneLaunch(
          [&] { bench_entry::histogram_even(Bins.data(), X.data(), N, NB); });
      std::vector<int> Want(NB, 0);
      for (float V : X)
        ++Want[static_cast<int>(V * static_cast<float>(NB))];
      report("histogram_even",
             (std::to_string(N) + "/" + std::to_string(NB)).c_str(),
             Ok && Bins == Want);
    }
}

} // namespace

void testSoftmax3() {
  if (!bench_entry::softmax3)
    return missing("softmax3");
  for (auto [B, R, C] : std::vector<std::tuple<long long, long long, long long>>{
           {0, 2, 5}, {2, 0, 5}, {2, 3, 0}, {1, 1, 1}, {3, 5, 13}, {2, 3, 1025}}) {
    std::vector<float> In = uniform(B * R * C, -8, 8), Out(B * R * C, NAN);
    bool Ok = oneLaunch(
        [&] { bench_entry::softmax3(Out.data(), In.data(), B, R, C); });
    for (long long I = 0; I < B * R; ++I) {
      double M = -INFINITY, S = 0;
      for (long long K = 0; K < C; ++K)
        M = std::fmax(M, In[I * C + K]);
      for (long long K = 0; K < C; ++K)
        S += std::exp(In[I * C + K] - M);
      for (long long K = 0; K < C; ++K) {
        double W = std::exp(In[I * C + K] - M) / S;
        Ok = Ok && close(Out[I * C + K], W, 5e-5 * W);
      }
    }
    report("softmax3", (std::to_string(B) + "x" + std::to_string(R) + "x" +
                        std::to_string(C)).c_str(), Ok);
  }
}

void testMv2() {
  if (!bench_entry::mv2)
    return missing("mv2");
  for (auto [R, C] : std::vector<std::pair<long long, long long>>{
           {0, 5}, {3, 0}, {1, 1}, {7, 13}, {5, 1024}, {300, 257}}) {
    // Integer-valued: the sums are exact in any order.
    std::vector<float> A = intValued(R * C), U = intValued(C),
                       Bm = intValued(R * C), V = intValued(C), P(R, NAN),
                       Q(R, NAN);
    bool Ok = oneLaunch([&] {
      bench_entry::mv2(P.data(), Q.data(), A.data(), U.data(), Bm.data(),
                       V.data(), R, C);
    });
    for (long long I = 0; I < R; ++I) {
      double WP = 0, WQ = 0;
      for (long long K = 0; K < C; ++K) {
        WP += double(A[I * C + K]) * U[K];
        WQ += double(Bm[I * C + K]) * V[K];
      }
      Ok = Ok && P[I] == WP && Q[I] == WQ;
    }
    report("mv2", (std::to_string(R) + "x" + std::to_string(C)).c_str(), Ok);
  }
}

void testColsum() {
  if (!bench_entry::colsum)
    return missing("colsum");
  for (auto [R, C] : std::vector<std::pair<long long, long long>>{
           {0, 5}, {3, 0}, {1, 1}, {7, 13}, {1024, 5}, {257, 300}}) {
    std::vector<float> A = intValued(R * C), Out(C, NAN);
    bool Ok = oneLaunch([&] { bench_entry::colsum(Out.data(), A.data(), R, C); });
    for (long long J = 0; J < C; ++J) {
      double W = 0;
      for (long long I = 0; I < R; ++I)
        W += A[I * C + J];
      Ok = Ok && Out[J] == W;
    }
    report("colsum", (std::to_string(R) + "x" + std::to_string(C)).c_str(), Ok);
  }
}

void testRowsum() {
  if (!bench_entry::rowsum)
    return missing("rowsum");
  for (auto [R, C] : std::vector<std::pair<long long, long long>>{
           {0, 5}, {3, 0}, {1, 1}, {7, 13}, {1024, 16}, {300, 255}, {9, 256},
           {5, 3000}}) {
    std::vector<float> A = intValued(R * C), Out(R, NAN);
    bool Ok = oneLaunch([&] { bench_entry::rowsum(Out.data(), A.data(), R, C); });
    for (long long I = 0; I < R; ++I) {
      double W = 0;
      for (long long J = 0; J < C; ++J)
        W += A[I * C + J];
      Ok = Ok && Out[I] == W;
    }
    report("rowsum", (std::to_string(R) + "x" + std::to_string(C)).c_str(), Ok);
  }
}

void testRowcumsum() {
  if (!bench_entry::rowcumsum)
    return missing("rowcumsum");
  for (auto [R, C] : std::vector<std::pair<long long, long long>>{
           {0, 5}, {3, 0}, {1, 1}, {7, 13}, {1024, 16}, {300, 255}, {9, 256},
           {5, 3000}}) {
    std::vector<float> X = intValued(R * C), Y(R * C, NAN);
    bool Ok = oneLaunch([&] { bench_entry::rowcumsum(Y.data(), X.data(), R, C); });
    for (long long I = 0; I < R; ++I) {
      double S = 0;
      for (long long J = 0; J < C; ++J)
        Ok = Ok && Y[I * C + J] == (S += X[I * C + J]);
    }
    report("rowcumsum", (std::to_string(R) + "x" + std::to_string(C)).c_str(), Ok);
  }
}

void testNorms3() {
  if (!bench_entry::norms3)
    return missing("norms3");
  for (long long N : {0LL, 1LL, 255LL, 257LL, 3001LL}) {
    std::vector<float> P = intValued(3 * N), Out(N, NAN);
    bool Ok = oneLaunch([&] { bench_entry::norms3(Out.data(), P.data(), N); });
    for (long long I = 0; I < N; ++I) {
      double S = 0; // integer values: the f32 sum of squares is exact
      for (int J = 0; J < 3; ++J)
        S += double(P[3 * I + J]) * P[3 * I + J];
      Ok = Ok && Out[I] == std::sqrt(static_cast<float>(S));
    }
    report("norms3", std::to_string(N).c_str(), Ok);
  }
}

void testTranspose() {
  if (!bench_entry::transpose)
    return missing("transpose");
  for (auto [R, C] : std::vector<std::pair<long long, long long>>{
           {0, 5}, {3, 0}, {1, 1}, {1, 45}, {37, 1}, {37, 45}, {257, 300}}) {
    std::vector<float> A = uniform(R * C, -1, 1), Out(R * C, NAN);
    bool Ok = oneLaunch([&] { bench_entry::transpose(Out.data(), A.data(), R, C); });
    // A copy: exact.
    for (long long I = 0; I < R; ++I)
      for (long long J = 0; J < C; ++J)
        Ok = Ok && Out[J * R + I] == A[I * C + J];
    report("transpose", (std::to_string(R) + "x" + std::to_string(C)).c_str(), Ok);
  }
}

void testPermute3() {
  if (!bench_entry::permute3)
    return missing("permute3");
  for (auto [B, N, M] : std::vector<std::tuple<long long, long long, long long>>{
           {0, 2, 5}, {2, 0, 5}, {2, 3, 0}, {1, 1, 1}, {3, 17, 33}, {2, 65, 31}}) {
    std::vector<float> X = uniform(B * N * M, -1, 1), Out(B * N * M, NAN);
    bool Ok = oneLaunch(
        [&] { bench_entry::permute3(Out.data(), X.data(), B, N, M); });
    // A copy: exact.
    for (long long Bi = 0; Bi < B; ++Bi)
      for (long long I = 0; I < N; ++I)
        for (long long J = 0; J < M; ++J)
          Ok = Ok && Out[(Bi * M + J) * N + I] == X[(Bi * N + I) * M + J];
    report("permute3", (std::to_string(B) + "x" + std::to_string(N) + "x" +
                        std::to_string(M)).c_str(), Ok);
  }
}

void testStencil() {
  if (!bench_entry::stencil)
    return missing("stencil");
  for (auto [R, C] : std::vector<std::pair<long long, long long>>{
           {0, 5}, {3, 0}, {1, 1}, {1, 7}, {7, 1}, {2, 2}, {37, 45}, {130, 257}}) {
    std::vector<float> A = uniform(R * C, -1, 1), Out(R * C, NAN);
    bool Ok = oneLaunch([&] { bench_entry::stencil(Out.data(), A.data(), R, C); });
    // Within 1e-5 of the terms' scale: the order of the additions and a
    // fused multiply-add may differ from the reference's.
    const double W = 0.2f;
    for (long long I = 0; I < R; ++I)
      for (long long J = 0; J < C; ++J) {
        double S = 0, Scale = 0;
        auto add = [&](long long K) {
          S += A[K];
          Scale += std::fabs(A[K]);
        };
        add(I * C + J);
        if (I > 0)
          add((I - 1) * C + J);
        if (I + 1 < R)
          add((I + 1) * C + J);
        if (J > 0)
          add(I * C + J - 1);
        if (J + 1 < C)
          add(I * C + J + 1);
        Ok = Ok && close(Out[I * C + J], W * S, 1e-5 * W * Scale);
      }
    report("stencil", (std::to_string(R) + "x" + std::to_string(C)).c_str(), Ok);
  }
}

/// bfloat16 bits of F, round to nearest even (finite F).
unsigned short toBf16(float F) {
  std::uint32_t U;
  std::memcpy(&U, &F, 4);
  U += 0x7fffu + ((U >> 16) & 1u);
  return static_cast<unsigned short>(U >> 16);
}

/// The float of bfloat16 bits B.
float fromBf16(unsigned short B) {
  std::uint32_t U = static_cast<std::uint32_t>(B) << 16;
  float F;
  std::memcpy(&F, &U, 4);
  return F;
}

void testSoftmaxBf16() {
  if (!bench_entry::softmax_bf16)
    return missing("softmax_bf16");
  for (auto [R, C] : std::vector<std::pair<long long, long long>>{
           {0, 5}, {3, 0}, {1, 1}, {7, 13}, {5, 1024}, {3, 3000}}) {
    std::vector<float> F = uniform(R * C, -4.0f, 4.0f);
    std::vector<unsigned short> X(R * C), Y(R * C, 0xffff);
    for (long long I = 0; I < R * C; ++I)
      X[I] = toBf16(F[I]);
    bool Ok = oneLaunch([&] { bench_entry::softmax_bf16(Y.data(), X.data(), R, C); });
    for (long long I = 0; I < R; ++I) {
      double M = -INFINITY, S = 0;
      for (long long J = 0; J < C; ++J)
        M = std::max(M, double(fromBf16(X[I * C + J])));
      for (long long J = 0; J < C; ++J)
        S += std::exp(fromBf16(X[I * C + J]) - M);
      for (long long J = 0; J < C; ++J) {
        double W0 = std::exp(fromBf16(X[I * C + J]) - M) / S;
        Ok = Ok && std::fabs(fromBf16(Y[I * C + J]) - W0) <= W0 / 128 + 1e-7;
      }
    }
    report("softmax_bf16", (std::to_string(R) + "x" + std::to_string(C)).c_str(), Ok);
  }
}

void testRmsnorm() {
  if (!bench_entry::rmsnorm_bf16)
    return missing("rmsnorm");
  for (auto [R, C] : std::vector<std::pair<long long, long long>>{
           {0, 5}, {3, 0}, {1, 1}, {7, 13}, {5, 1024}, {3, 3000}}) {
    std::vector<float> F = uniform(R * C, -4.0f, 4.0f), G = uniform(C, 0.5f, 1.5f);
    std::vector<unsigned short> X(R * C), W(C), Y(R * C, 0xffff);
    for (long long I = 0; I < R * C; ++I)
      X[I] = toBf16(F[I]);
    for (long long J = 0; J < C; ++J)
      W[J] = toBf16(G[J]);
    bool Ok = oneLaunch(
        [&] { bench_entry::rmsnorm_bf16(Y.data(), X.data(), W.data(), R, C, 1e-6f); });
    for (long long I = 0; I < R; ++I) {
      double S = 0;
      for (long long J = 0; J < C; ++J)
        S += double(fromBf16(X[I * C + J])) * fromBf16(X[I * C + J]);
      double Inv = 1.0 / std::sqrt(S / double(C) + 1e-6);
      for (long long J = 0; J < C; ++J) {
        double W0 = fromBf16(X[I * C + J]) * Inv * fromBf16(W[J]);
        Ok = Ok && std::fabs(fromBf16(Y[I * C + J]) - W0) <= std::fabs(W0) / 128 + 1e-6;
      }
    }
    report("rmsnorm", (std::to_string(R) + "x" + std::to_string(C)).c_str(), Ok);
  }
}

void testPhases() {
  if (!bench_entry::phases_one || !bench_entry::phases_two)
    return missing("phases");
  for (long long N : {0LL, 1LL, 7LL, 1025LL, 100000LL}) {
    std::vector<float> X = uniform(N, -4.0f, 4.0f), One(N, NAN), Two(N, NAN),
                       S(1, NAN);
    bool Ok = oneLaunch([&] { bench_entry::phases_one(One.data(), X.data(), N); });
    bench_entry::phases_two(Two.data(), S.data(), X.data(), N);
    double Sum = 0;
    for (float V : X)
      Sum += std::exp(double(V) - 1.0);
    for (long long I = 0; I < N; ++I) {
      double W = std::exp(double(X[I]) - 1.0) / Sum;
      Ok = Ok && std::fabs(One[I] - W) <= 1e-4 * W &&
           std::fabs(Two[I] - W) <= 1e-4 * W;
    }
    report("phases", std::to_string(N).c_str(), Ok);
  }
}

int main() {
  if (intent::rt::mode() != intent::rt::device_mode::cpu) {
    std::fprintf(stderr, "kernels_cpu: run with INTENT_DEVICE=cpu\n");
    return 2;
  }
  testSaxpy();
  testPhases();
  testRmsnorm();
  testSoftmaxBf16();
  testSoftmax(false);
  testSoftmax(true);
  testLayernorm();
  testSum();
  testArgmax();
  testScan();
  testSegmentedSum();
  testHistogram();
  testSoftmax3();
  testMv2();
  testColsum();
  testNorms3();
  testRowsum();
  testRowcumsum();
  testTranspose();
  testPermute3();
  testStencil();
  std::printf("%d passed, %d failed\n", Passed, Failed);
  return Failed ? 1 : 0;
}
