//===- bench/bench.cu - The benchmark driver ------------------------------===//
//
// Times the Intent-generated kernels (through the bench_entry functions of
// bench/kernels, linked from the plugin's rewritten .intent.cpp files) and
// their CUDA/CUB peers on the same stream -- the Intent runtime's stream --
// with the same method:
//
//  * inputs are drawn fresh on the device from a seed (printed; --seed
//    repeats a run) and are far larger than the L2 cache;
//  * before every run (untimed): the output is poisoned (NaN / -1 bytes) or,
//    for in-place saxpy, restored, and 256 MiB are written to evict the L2;
//  * device events around the one call being timed, nothing else between;
//  * two warm-up runs first (module load, lazy initialization), then
//    repetitions until a time budget is spent (at least --min-reps, at most
//    --max-reps); a variant whose first run takes longer than --slow-ms
//    (1 s) is reported from that one run (today's serial Intent reductions
//    take seconds on 2^28 elements), one whose second run does, from one
//    more;
//  * every run's output (warm-up and timed) is compared with a reference
//    computed on the host in double precision (exactly for integer results
//    and for sums of integer-valued floats);
//  * the median and the minimum are reported, one CSV row per variant.
//
// A variant whose Intent kernel was not generated (its bench_entry function
// is not linked: the declarations below are weak) is reported as skipped,
// with the reason the build recorded in --missing-dir.
//
//   bench --list
//   bench [--only NAME,...] [--csv FILE] [--seed N] [--quick]
//         [--budget-ms MS] [--min-reps N] [--max-reps N] [--slow-ms MS]
//         [--missing-dir DIR]
//
//===----------------------------------------------------------------------===//

#include "bench_util.cuh"
#include "kernels/entry.hpp"
#include "peers/peers.cuh"

#include <intent/runtime/api.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>
#include <fstream>
#include <functional>
#include <random>
#include <sstream>
#include <string>
#include <vector>

// The Intent kernels' entry points are weak: a kernel the plugin could not
// generate leaves its entry undefined (null), and the driver skips it.
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
__attribute__((weak)) void scan_i32(int *, const int *, long long);
__attribute__((weak)) void scan_affine(float *, const float *, long long);
__attribute__((weak)) void compact(float *, long long *, const float *,
                                   long long);
__attribute__((weak)) void segmented_sum(float *, const int *, const float *,
                                         long long, long long);
__attribute__((weak)) void histogram_even(int *, const float *, long long,
                                          long long);
__attribute__((weak)) void softmax3(float *, const float *, long long,
                                    long long, long long);
__attribute__((weak)) void mv2(float *, float *, const float *, const float *,
                               const float *, const float *, long long,
                               long long);
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
__attribute__((weak)) void norms3(float *, const float *, long long);
__attribute__((weak)) void rowsum(float *, const float *, long long, long long);
__attribute__((weak)) void rowcumsum(float *, const float *, long long, long long);
} // namespace bench_entry

namespace {

using bench::dbuf;

struct Options {
  std::vector<std::string> Only;
  std::string Csv;
  std::string MissingDir;
  std::uint64_t Seed = 0;
  bool SeedGiven = false;
  bool Quick = false;
  double BudgetMs = 1500;
  int MinReps = 5;
  int MaxReps = 50;
  double SlowMs = 1000;
};

/// One implementation of a workload.
struct Variant {
  std::string Impl;                    // "intent", "cub::DeviceReduce::Sum"...
  std::string Role;                    // ours | target | peer | copy | info
  std::function<void()> Prepare;       // untimed, on the stream
  std::function<void()> Run;           // the timed call
  std::function<std::string()> Verify; // after the run: "" or what is wrong
  std::string Skip;                    // non-empty: not run, this is why
};

/// State shared by all benchmarks of one process.
struct Ctx {
  Options O;
  cudaStream_t S = nullptr;
  cudaEvent_t Start = nullptr, Stop = nullptr;
  dbuf<char> Scrub;
  unsigned ScrubValue = 0;
  std::uint64_t Seed = 0;
  std::uint64_t Draws = 0;
  bool AllOk = true;

  /// A new seed for each input of the run.
  std::uint64_t nextSeed() { return bench::mix64(Seed + ++Draws); }

  /// Evicts the L2 (H200: 60 MB) by writing 256 MiB, on the stream.
  void scrubL2() {
    BENCH_CK(cudaMemsetAsync(Scrub.get(), static_cast<int>(++ScrubValue & 0xff),
                             Scrub.bytes(), S));
  }
};

std::string csvField(const std::string &F) {
  if (F.find_first_of(",\"\n") == std::string::npos)
    return F;
  std::string Q = "\"";
  for (char C : F) {
    if (C == '"')
      Q += '"';
    Q += C == '\n' ? ' ' : C;
  }
  return Q + "\"";
}

void appendCsv(const Ctx &C, const std::vector<std::string> &Fields) {
  if (C.O.Csv.empty())
    return;
  bool Fresh = true;
  {
    std::ifstream In(C.O.Csv);
    Fresh = !In.good() || In.peek() == std::ifstream::traits_type::eof();
  }
  std::ofstream Out(C.O.Csv, std::ios::app);
  if (Fresh)
    Out << "workload,shape,impl,role,median_ms,min_ms,reps,bytes,check\n";
  for (std::size_t I = 0; I < Fields.size(); ++I)
    Out << (I ? "," : "") << csvField(Fields[I]);
  Out << "\n";
}

std::string fmt(double V, int Prec = 6) {
  std::ostringstream OS;
  OS.precision(Prec);
  OS << V;
  return OS.str();
}

/// "2^28" for powers of two, else the number.
std::string sizeName(long long N) {
  if (N > 0 && (N & (N - 1)) == 0) {
    int L = 0;
    while ((1LL << L) < N)
      ++L;
    return "2^" + std::to_string(L);
  }
  return std::to_string(N);
}

/// The reason recorded by the build for a kernel that is not linked.
std::string missingReason(const Ctx &C, const char *Kernel) {
  std::string Why = std::string("the Intent kernel '") + Kernel +
                    "' was not generated or did not build";
  if (C.O.MissingDir.empty())
    return Why;
  std::ifstream In(C.O.MissingDir + "/" + Kernel + ".txt");
  std::string Line;
  if (In && std::getline(In, Line) && !Line.empty())
    Why += ": " + Line;
  return Why;
}

/// Times one variant and writes its row. Never throws: an Intent runtime
/// error becomes a failed check (CUDA errors of peers exit the process).
void measure(Ctx &C, const std::string &Workload, const std::string &Shape,
             double Bytes, Variant &V) {
  std::string Prefix = Workload + "," + Shape + "," + V.Impl + "," + V.Role;
  // For the harness script: what to report if this process is killed.
  std::printf("@@running %s,,,,%.0f\n", Prefix.c_str(), Bytes);
  std::fflush(stdout);
  if (!V.Skip.empty()) {
    std::printf("%-10s %-12s %-34s skipped: %s\n", Workload.c_str(),
                Shape.c_str(), V.Impl.c_str(), V.Skip.c_str());
    appendCsv(C, {Workload, Shape, V.Impl, V.Role, "", "", "0", fmt(Bytes, 15),
                  "skipped: " + V.Skip});
    std::printf("@@done\n");
    std::fflush(stdout);
    return;
  }
  std::vector<float> Times;
  std::string FirstBad;
  int BadRuns = 0, Runs = 0;
  auto once = [&](bool Timed) {
    V.Prepare();
    C.scrubL2();
    BENCH_CK(cudaEventRecord(C.Start, C.S));
    V.Run();
    BENCH_CK(cudaEventRecord(C.Stop, C.S));
    BENCH_CK(cudaEventSynchronize(C.Stop));
    BENCH_CK(cudaGetLastError());
    float Ms = 0;
    BENCH_CK(cudaEventElapsedTime(&Ms, C.Start, C.Stop));
    std::string Bad = V.Verify();
    ++Runs;
    if (!Bad.empty()) {
      ++BadRuns;
      if (FirstBad.empty())
        FirstBad = Bad;
    }
    if (Timed)
      Times.push_back(Ms);
    return Ms;
  };
  std::string Check;
  try {
    // Warm-up: the first call loads the module, the second estimates the
    // time of one run. A first run slower than --slow-ms is the one sample:
    // what a warm-up would remove (module load, first-touch work, a few
    // milliseconds) is then under 1% of it, and a second run of a
    // multi-second kernel would only spend the time budget.
    double First = once(false);
    int Reps = 0;
    if (First > C.O.SlowMs) {
      Times.push_back(static_cast<float>(First));
    } else {
      double Warm = once(false);
      Reps = 1;
      if (Warm <= C.O.SlowMs) {
        double Fit = C.O.BudgetMs / std::max(Warm, 1e-3);
        Reps = static_cast<int>(std::min<double>(C.O.MaxReps, Fit));
        Reps = std::max(Reps, C.O.MinReps);
      }
    }
    for (int R = 0; R < Reps; ++R)
      once(true);
    Check = BadRuns ? "FAIL (" + std::to_string(BadRuns) + " of " +
                          std::to_string(Runs) + " runs): " + FirstBad
                    : "ok";
  } catch (const std::exception &E) {
    Check = std::string("FAIL: ") + E.what();
  }
  if (Check != "ok")
    C.AllOk = false;
  std::string Median, Min;
  if (!Times.empty()) {
    std::vector<float> T = Times;
    std::sort(T.begin(), T.end());
    std::size_t K = T.size();
    double Med = K % 2 ? T[K / 2] : 0.5 * (T[K / 2 - 1] + T[K / 2]);
    Median = fmt(Med);
    Min = fmt(T[0]);
    std::printf("%-10s %-12s %-34s %10.4f ms (min %.4f, n=%zu) %8.1f GB/s  %s\n",
                Workload.c_str(), Shape.c_str(), V.Impl.c_str(), Med, T[0], K,
                Bytes / (Med * 1e6), Check.c_str());
  } else {
    std::printf("%-10s %-12s %-34s %s\n", Workload.c_str(), Shape.c_str(),
                V.Impl.c_str(), Check.c_str());
  }
  std::fflush(stdout);
  appendCsv(C, {Workload, Shape, V.Impl, V.Role, Median, Min,
                std::to_string(Times.size()), fmt(Bytes, 15), Check});
  std::printf("@@done\n");
  std::fflush(stdout);
}

/// Poisons N elements (all bytes 0xFF: a NaN for floats, -1 for integers).
template <class T> void poison(Ctx &C, dbuf<T> &B) {
  BENCH_CK(cudaMemsetAsync(B.get(), 0xff, B.bytes(), C.S));
}

std::string exactScalar(float Got, float Want) {
  if (std::memcmp(&Got, &Want, sizeof(float)) == 0 || Got == Want)
    return "";
  return "got " + fmt(Got, 9) + ", want " + fmt(Want, 9);
}

//===--- The benchmarks -----------------------------------------------------===//

void benchCopy(Ctx &C) {
  long long N = C.O.Quick ? (1LL << 22) : (1LL << 28);
  dbuf<float> Src(N), Dst(N);
  bench::fillUniform(Src.get(), N, C.nextSeed(), -1.0f, 1.0f, C.S);
  auto Verify = [&] {
    return bench::describe(
        bench::compareDevice(Dst.get(), Src.get(), nullptr, N, 0, 0, C.S), N);
  };
  double Bytes = 2.0 * N * sizeof(float);
  Variant Memcpy{"cudaMemcpy D2D", "copy", [&] { poison(C, Dst); },
                 [&] {
                   BENCH_CK(cudaMemcpyAsync(Dst.get(), Src.get(), Dst.bytes(),
                                            cudaMemcpyDeviceToDevice, C.S));
                 },
                 Verify, ""};
  Variant Kernel{"float4 copy kernel", "info", [&] { poison(C, Dst); },
                 [&] { peers::copyFloat4(Dst.get(), Src.get(), N, C.S); },
                 Verify, ""};
  measure(C, "copy", sizeName(N), Bytes, Memcpy);
  measure(C, "copy", sizeName(N), Bytes, Kernel);
}

void benchSaxpy(Ctx &C) {
  long long N = C.O.Quick ? (1LL << 22) : (1LL << 28);
  const float A = 2.5f;
  dbuf<float> X(N), Y0(N), Y(N), Want(N), Scale(N);
  bench::fillUniform(X.get(), N, C.nextSeed(), -1.0f, 1.0f, C.S);
  bench::fillUniform(Y0.get(), N, C.nextSeed(), -1.0f, 1.0f, C.S);
  {
    std::vector<float> HX = X.download(), HY = Y0.download(), HW(N), HS(N);
    bench::hostParallel(N, [&](long long B, long long E) {
      for (long long I = B; I < E; ++I) {
        double AX = static_cast<double>(A) * HX[I];
        HW[I] = static_cast<float>(AX + HY[I]);
        HS[I] = static_cast<float>(std::fabs(AX) + std::fabs(HY[I]));
      }
    });
    Want.upload(HW);
    Scale.upload(HS);
  }
  // One rounding of a * x (or none, with a fused multiply-add) and one of
  // the sum: within 2 ulp of the terms' magnitude.
  auto Verify = [&] {
    return bench::describe(bench::compareDevice(Y.get(), Want.get(),
                                                Scale.get(), N, 2.4e-7, 0, C.S),
                           N);
  };
  auto Restore = [&] {
    BENCH_CK(cudaMemcpyAsync(Y.get(), Y0.get(), Y.bytes(),
                             cudaMemcpyDeviceToDevice, C.S));
  };
  double Bytes = 3.0 * N * sizeof(float);
  Variant Peer{"float4 grid-stride kernel", "target", Restore,
               [&] { peers::saxpyFloat4(Y.get(), X.get(), A, N, C.S); },
               Verify, ""};
  Variant Ours{"intent", "ours", Restore,
               [&] { bench_entry::saxpy(Y.get(), X.get(), A, N); }, Verify,
               bench_entry::saxpy ? "" : missingReason(C, "saxpy")};
  measure(C, "saxpy", sizeName(N), Bytes, Peer);
  measure(C, "saxpy", sizeName(N), Bytes, Ours);
}

/// Fast: the kernel compiled with intentc --fast-math (workload
/// softmax_fast, the same check).
void benchSoftmax(Ctx &C, long long Rows, long long Cols, bool Fast = false) {
  if (C.O.Quick)
    Rows = std::max(1LL, Rows / 64);
  const long long N = Rows * Cols;
  dbuf<float> In(N), Out(N), Want(N);
  bench::fillUniform(In.get(), N, C.nextSeed(), -8.0f, 8.0f, C.S);
  {
    std::vector<float> HI = In.download(), HW(N);
    bench::hostParallel(Rows, [&](long long B, long long E) {
      for (long long R = B; R < E; ++R) {
        const float *X = &HI[R * Cols];
        double M = -INFINITY, S = 0;
        for (long long K = 0; K < Cols; ++K)
          M = std::max(M, static_cast<double>(X[K]));
        for (long long K = 0; K < Cols; ++K)
          S += std::exp(X[K] - M);
        for (long long K = 0; K < Cols; ++K)
          HW[R * Cols + K] = static_cast<float>(std::exp(X[K] - M) / S);
      }
    });
    Want.upload(HW);
  }
  // A float sum of up to 32768 positive terms and two expf roundings.
  auto Verify = [&] {
    return bench::describe(bench::compareDevice(Out.get(), Want.get(), nullptr,
                                                N, 5e-5, 0, C.S),
                           N);
  };
  std::string Shape = std::to_string(Rows) + "x" + std::to_string(Cols);
  auto *Entry = Fast ? bench_entry::softmax_fast : bench_entry::softmax;
  const char *Name = Fast ? "softmax_fast" : "softmax";
  Variant Ours{Fast ? "intent --fast-math" : "intent", "ours",
               [&] { poison(C, Out); },
               [&] { Entry(Out.get(), In.get(), Rows, Cols); }, Verify,
               Entry ? "" : missingReason(C, Name)};
  measure(C, Name, Shape, 2.0 * N * sizeof(float), Ours);
}

void benchLayernorm(Ctx &C, long long Rows, long long Cols) {
  if (C.O.Quick)
    Rows = std::max(1LL, Rows / 64);
  const long long N = Rows * Cols;
  const float Eps = 1e-5f;
  dbuf<float> X(N), Y(N), Gamma(Cols), Beta(Cols), Want(N), Scale(N);
  bench::fillUniform(X.get(), N, C.nextSeed(), -4.0f, 6.0f, C.S);
  bench::fillUniform(Gamma.get(), Cols, C.nextSeed(), 0.5f, 1.5f, C.S);
  bench::fillUniform(Beta.get(), Cols, C.nextSeed(), -1.0f, 1.0f, C.S);
  {
    std::vector<float> HX = X.download(), HG = Gamma.download(),
                       HB = Beta.download(), HW(N), HS(N);
    bench::hostParallel(Rows, [&](long long B, long long E) {
      for (long long R = B; R < E; ++R) {
        const float *Row = &HX[R * Cols];
        double Mean = 0, Var = 0;
        for (long long K = 0; K < Cols; ++K)
          Mean += Row[K];
        Mean /= static_cast<double>(Cols);
        for (long long K = 0; K < Cols; ++K)
          Var += (Row[K] - Mean) * (Row[K] - Mean);
        Var /= static_cast<double>(Cols);
        double Rstd = 1.0 / std::sqrt(Var + Eps);
        for (long long K = 0; K < Cols; ++K) {
          HW[R * Cols + K] =
              static_cast<float>((Row[K] - Mean) * Rstd * HG[K] + HB[K]);
          // The scale of the terms: |x - mean| and the rounding of mean.
          HS[R * Cols + K] = static_cast<float>(
              (std::fabs(Row[K] - Mean) + std::fabs(Mean)) * Rstd * HG[K] +
              std::fabs(HB[K]));
        }
      }
    });
    Want.upload(HW);
    Scale.upload(HS);
  }
  auto Verify = [&] {
    return bench::describe(bench::compareDevice(Y.get(), Want.get(),
                                                Scale.get(), N, 1e-4, 0, C.S),
                           N);
  };
  std::string Shape = std::to_string(Rows) + "x" + std::to_string(Cols);
  Variant Ours{"intent", "ours", [&] { poison(C, Y); },
               [&] {
                 bench_entry::layernorm(Y.get(), X.get(), Gamma.get(),
                                        Beta.get(), Eps, Rows, Cols);
               },
               Verify,
               bench_entry::layernorm ? "" : missingReason(C, "layernorm")};
  measure(C, "layernorm", Shape, (2.0 * N + 2.0 * Cols) * sizeof(float), Ours);
}

/// The exact sum of integer-valued floats (a double holds it exactly).
double exactSum(const std::vector<float> &H, long long B, long long E) {
  double S = 0;
  for (long long I = B; I < E; ++I)
    S += H[I];
  return S;
}

void benchSum(Ctx &C) {
  long long N = C.O.Quick ? (1LL << 22) : (1LL << 28);
  dbuf<float> X(N), Out(1);
  bench::fillIntValued(X.get(), N, C.nextSeed(), -8, 8, C.S);
  float Want;
  {
    std::vector<float> HX = X.download();
    unsigned T = std::max(1u, std::thread::hardware_concurrency());
    std::vector<double> Part(T, 0.0);
    long long Chunk = (N + T - 1) / T;
    std::vector<std::thread> Th;
    for (unsigned I = 0; I < T; ++I)
      Th.emplace_back([&, I] {
        long long B = std::min(N, I * Chunk), E = std::min(N, B + Chunk);
        Part[I] = exactSum(HX, B, E);
      });
    for (auto &Tt : Th)
      Tt.join();
    double S = 0;
    for (double P : Part)
      S += P;
    Want = static_cast<float>(S);
  }
  auto Verify = [&] {
    float Got;
    BENCH_CK(cudaMemcpy(&Got, Out.get(), sizeof Got, cudaMemcpyDeviceToHost));
    return exactScalar(Got, Want);
  };
  double Bytes = (N + 1.0) * sizeof(float);
  peers::CubSum Cub(X.get(), Out.get(), N);
  Variant Peer{"cub::DeviceReduce::Sum", "target", [&] { poison(C, Out); },
               [&] { Cub.run(C.S); }, Verify, ""};
  Variant Ours{"intent", "ours", [&] { poison(C, Out); },
               [&] { bench_entry::sum(Out.get(), X.get(), N); }, Verify,
               bench_entry::sum ? "" : missingReason(C, "sum")};
  measure(C, "sum", sizeName(N), Bytes, Peer);
  measure(C, "sum", sizeName(N), Bytes, Ours);
}

void benchArgmax(Ctx &C) {
  long long N = C.O.Quick ? (1LL << 22) : (1LL << 28);
  dbuf<float> X(N), Value(1);
  dbuf<long long> Pos(1);
  // 24-bit values: the maximum occurs several times at 2^28 elements, so
  // the first-position rule is exercised.
  bench::fillUniform(X.get(), N, C.nextSeed(), -1.0f, 1.0f, C.S);
  float WantV = -INFINITY;
  long long WantP = -1;
  {
    std::vector<float> HX = X.download();
    for (long long I = 0; I < N; ++I)
      if (WantP < 0 || HX[I] > WantV)
        WantV = HX[I], WantP = I;
  }
  auto Verify = [&]() -> std::string {
    float GotV;
    long long GotP;
    BENCH_CK(cudaMemcpy(&GotV, Value.get(), sizeof GotV, cudaMemcpyDeviceToHost));
    BENCH_CK(cudaMemcpy(&GotP, Pos.get(), sizeof GotP, cudaMemcpyDeviceToHost));
    if (GotP == WantP && GotV == WantV)
      return "";
    return "got (" + fmt(GotV, 9) + ", " + std::to_string(GotP) + "), want (" +
           fmt(WantV, 9) + ", " + std::to_string(WantP) + ")";
  };
  auto Poison = [&] {
    poison(C, Value);
    poison(C, Pos);
  };
  double Bytes = N * sizeof(float) + 12.0;
  peers::CubArgMax Cub(X.get(), Value.get(), Pos.get(), N);
  Variant Peer{"cub::DeviceReduce::ArgMax", "peer", Poison,
               [&] { Cub.run(C.S); }, Verify, ""};
  Variant Ours{"intent", "ours", Poison,
               [&] { bench_entry::argmax(Value.get(), Pos.get(), X.get(), N); },
               Verify, bench_entry::argmax ? "" : missingReason(C, "argmax")};
  measure(C, "argmax", sizeName(N), Bytes, Peer);
  measure(C, "argmax", sizeName(N), Bytes, Ours);
}

void benchScan(Ctx &C) {
  long long N = C.O.Quick ? (1LL << 22) : (1LL << 28);
  dbuf<float> X(N), Y(N), Want(N);
  bench::fillIntValued(X.get(), N, C.nextSeed(), -8, 8, C.S);
  {
    std::vector<float> HX = X.download(), HW(N);
    double S = 0; // exact: integers far below 2^53
    for (long long I = 0; I < N; ++I)
      HW[I] = static_cast<float>(S += HX[I]);
    Want.upload(HW);
  }
  auto Verify = [&] {
    return bench::describe(
        bench::compareDevice(Y.get(), Want.get(), nullptr, N, 0, 0, C.S), N);
  };
  double Bytes = 2.0 * N * sizeof(float);
  peers::CubInclusiveSum Cub(X.get(), Y.get(), N);
  Variant Peer{"cub::DeviceScan::InclusiveSum", "peer", [&] { poison(C, Y); },
               [&] { Cub.run(C.S); }, Verify, ""};
  Variant Ours{"intent", "ours", [&] { poison(C, Y); },
               [&] { bench_entry::inclusive_scan(Y.get(), X.get(), N); },
               Verify,
               bench_entry::inclusive_scan ? ""
                                           : missingReason(C, "inclusive_scan")};
  measure(C, "scan", sizeName(N), Bytes, Peer);
  measure(C, "scan", sizeName(N), Bytes, Ours);
}

/// Inclusive prefix sums of 2^28 random 32-bit integers (wrapping), checked
/// exactly against a serial host scan.
void benchScanI32(Ctx &C) {
  long long N = C.O.Quick ? (1LL << 22) : (1LL << 28);
  dbuf<int> X(N), Y(N), DWant(N);
  std::vector<int> HX(N), Want(N);
  const std::uint64_t XSeed = C.nextSeed();
  bench::hostParallel(N, [&](long long Lo, long long Hi) {
    for (long long I = Lo; I < Hi; ++I)
      HX[I] = static_cast<int>(bench::randomBits(XSeed, I) % 2001) - 1000;
  });
  {
    std::uint32_t S = 0;
    for (long long I = 0; I < N; ++I)
      Want[I] = static_cast<int>(S += static_cast<std::uint32_t>(HX[I]));
  }
  X.upload(HX);
  DWant.upload(Want);
  auto Verify = [&] {
    return bench::describe(bench::compareDeviceInts(Y.get(), DWant.get(), N, C.S),
                           N);
  };
  double Bytes = 2.0 * N * sizeof(int);
  peers::CubInclusiveSumI32 Cub(X.get(), Y.get(), N);
  Variant Peer{"cub::DeviceScan::InclusiveSum", "peer", [&] { poison(C, Y); },
               [&] { Cub.run(C.S); }, Verify, ""};
  Variant Ours{"intent", "ours", [&] { poison(C, Y); },
               [&] { bench_entry::scan_i32(Y.get(), X.get(), N); }, Verify,
               bench_entry::scan_i32 ? "" : missingReason(C, "scan_i32")};
  measure(C, "scan_i32", sizeName(N), Bytes, Peer);
  measure(C, "scan_i32", sizeName(N), Bytes, Ours);
}

/// The linear recurrence h[k] = a[k] h[k - 1] + b[k] over 2^27 pairs (a in
/// [0.5, 1), b in [-1, 1)), a scan with a user combine; CUB runs
/// cub::DeviceScan::InclusiveScan with the same combine over the same
/// pairs and writes only h (a transform output iterator). Checked against
/// a serial double recurrence within 1e-4 (h stays below ~8 in magnitude).
void benchScanAffine(Ctx &C) {
  long long N = C.O.Quick ? (1LL << 21) : (1LL << 27);
  dbuf<float> X(2 * N), Y(N), Want(N);
  bench::fillUniform(X.get(), 2 * N, C.nextSeed(), 0.0f, 1.0f, C.S);
  {
    std::vector<float> HX = X.download(), HW(N);
    // a = 0.5 + x / 2, b = 2 x - 1 (exact in float: x has 24 bits).
    for (long long I = 0; I < N; ++I) {
      HX[2 * I] = 0.5f + HX[2 * I] * 0.5f;
      HX[2 * I + 1] = 2.0f * HX[2 * I + 1] - 1.0f;
    }
    double H = 0;
    for (long long I = 0; I < N; ++I)
      HW[I] = static_cast<float>(H = double(HX[2 * I]) * H + HX[2 * I + 1]);
    X.upload(HX);
    Want.upload(HW);
  }
  auto Verify = [&] {
    return bench::describe(
        bench::compareDevice(Y.get(), Want.get(), nullptr, N, 0, 1e-4, C.S), N);
  };
  double Bytes = 3.0 * N * sizeof(float);
  peers::CubAffineScan Cub(X.get(), Y.get(), N);
  Variant Peer{"cub::DeviceScan::InclusiveScan", "peer", [&] { poison(C, Y); },
               [&] { Cub.run(C.S); }, Verify, ""};
  Variant Ours{"intent", "ours", [&] { poison(C, Y); },
               [&] { bench_entry::scan_affine(Y.get(), X.get(), N); }, Verify,
               bench_entry::scan_affine ? "" : missingReason(C, "scan_affine")};
  measure(C, "scan_affine", sizeName(N), Bytes, Peer);
  measure(C, "scan_affine", sizeName(N), Bytes, Ours);
}

/// Stream compaction of 2^28 floats uniform in [-1, 1) (keep x > 0, about
/// half): the kept values in order and their count, checked exactly.
void benchCompact(Ctx &C) {
  long long N = C.O.Quick ? (1LL << 22) : (1LL << 28);
  dbuf<float> X(N), Out(N), Want(N);
  dbuf<long long> Count(1);
  bench::fillUniform(X.get(), N, C.nextSeed(), -1.0f, 1.0f, C.S);
  long long Kept = 0;
  {
    std::vector<float> HX = X.download(), HW(N, 0.0f);
    for (long long I = 0; I < N; ++I)
      if (HX[I] > 0.0f)
        HW[Kept++] = HX[I];
    Want.upload(HW);
  }
  auto Verify = [&]() -> std::string {
    long long Got = Count.download()[0];
    if (Got != Kept)
      return "count: got " + std::to_string(Got) + ", want " + std::to_string(Kept);
    return bench::describe(
        bench::compareDevice(Out.get(), Want.get(), nullptr, Kept, 0, 0, C.S),
        Kept);
  };
  double Bytes = (N + Kept) * 1.0 * sizeof(float);
  peers::CubSelectPositive Cub(X.get(), Out.get(), Count.get(), N);
  auto Poison = [&] {
    poison(C, Out);
    BENCH_CK(cudaMemsetAsync(Count.get(), 0xff, Count.bytes(), C.S));
  };
  Variant Peer{"cub::DeviceSelect::If", "peer", Poison, [&] { Cub.run(C.S); },
               Verify, ""};
  Variant Ours{"intent", "ours", Poison,
               [&] { bench_entry::compact(Out.get(), Count.get(), X.get(), N); },
               Verify, bench_entry::compact ? "" : missingReason(C, "compact")};
  measure(C, "compact", sizeName(N), Bytes, Peer);
  measure(C, "compact", sizeName(N), Bytes, Ours);
}

/// CSR row sums: `Rows` rows of 0 .. 2 Avg members (uniform).
void benchSegmentedSum(Ctx &C, long long Rows, int Avg) {
  if (C.O.Quick)
    Rows = std::max(1LL, Rows >> 6);
  std::vector<int> HOff(Rows + 1, 0);
  {
    std::mt19937_64 Rng(C.nextSeed());
    std::uniform_int_distribution<int> Len(0, 2 * Avg);
    for (long long R = 0; R < Rows; ++R)
      HOff[R + 1] = HOff[R] + Len(Rng);
  }
  const long long N = HOff[Rows];
  dbuf<int> Off(Rows + 1);
  Off.upload(HOff);
  dbuf<float> X(N), Y(Rows), Want(Rows);
  bench::fillIntValued(X.get(), N, C.nextSeed(), -8, 8, C.S);
  {
    std::vector<float> HX = X.download(), HW(Rows);
    bench::hostParallel(Rows, [&](long long B, long long E) {
      for (long long R = B; R < E; ++R)
        HW[R] = static_cast<float>(exactSum(HX, HOff[R], HOff[R + 1]));
    });
    Want.upload(HW);
  }
  auto Verify = [&] {
    return bench::describe(bench::compareDevice(Y.get(), Want.get(), nullptr,
                                                Rows, 0, 0, C.S),
                           Rows);
  };
  double Bytes = (N + 2.0 * Rows + 1.0) * 4.0;
  std::string Shape = sizeName(Rows) + "rows/avg" + std::to_string(Avg);
  peers::CubSegmentedSum Cub(X.get(), Y.get(), Off.get(), Rows);
  Variant Peer{"cub::DeviceSegmentedReduce::Sum", "peer", [&] { poison(C, Y); },
               [&] { Cub.run(C.S); }, Verify, ""};
  Variant Ours{"intent", "ours", [&] { poison(C, Y); },
               [&] {
                 bench_entry::segmented_sum(Y.get(), Off.get(), X.get(), Rows,
                                            N);
               },
               Verify,
               bench_entry::segmented_sum ? ""
                                          : missingReason(C, "segmented_sum")};
  measure(C, "segsum", Shape, Bytes, Peer);
  measure(C, "segsum", Shape, Bytes, Ours);
}

/// NB equal bins over [0, 1) of 2^28 uniform samples (power-of-two bin
/// counts: x * NB is exact, so CUB's bin arithmetic and ours agree).
/// Moves three of four samples onto three hot bins (0, NB / 3, 2 NB / 3),
/// chosen per sample by a hash of its index: skewed data, where the
/// updates of one bin collide within a warp.
__global__ void skewSamples(float *X, long long N, int NB) {
  long long I = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x;
  if (I >= N)
    return;
  unsigned H = static_cast<unsigned>(I) * 2654435761u;
  H ^= H >> 15;
  if (H % 4 != 0)
    X[I] = (static_cast<float>((H >> 8) % 3 * (NB / 3)) + 0.5f) / NB;
}

void benchHistogram(Ctx &C, int NB, bool Hot = false) {
  long long N = C.O.Quick ? (1LL << 22) : (1LL << 28);
  dbuf<float> X(N);
  dbuf<int> Bins(NB);
  bench::fillUniform(X.get(), N, C.nextSeed(), 0.0f, 1.0f, C.S);
  if (Hot)
    skewSamples<<<static_cast<unsigned>((N + 255) / 256), 256, 0, C.S>>>(
        X.get(), N, NB);
  std::vector<long long> Want(NB, 0);
  {
    std::vector<float> HX = X.download();
    const float Scale = static_cast<float>(NB);
    for (long long I = 0; I < N; ++I) {
      int B = static_cast<int>(HX[I] * Scale);
      if (B >= 0 && B < NB)
        ++Want[B];
    }
  }
  auto Verify = [&]() -> std::string {
    std::vector<int> Got = Bins.download();
    for (int B = 0; B < NB; ++B)
      if (Got[B] != Want[B])
        return "bin " + std::to_string(B) + ": got " + std::to_string(Got[B]) +
               ", want " + std::to_string(Want[B]);
    return "";
  };
  double Bytes = N * sizeof(float) + NB * 1.0 * sizeof(int);
  peers::CubHistogramEven Cub(X.get(), Bins.get(), N, NB);
  // CUB overwrites the bins: poison them. intent::histogram adds to the
  // bins: clear them (untimed, like the poisoning).
  Variant Peer{"cub::DeviceHistogram::HistogramEven", "peer",
               [&] { poison(C, Bins); }, [&] { Cub.run(C.S); }, Verify, ""};
  Variant Ours{"intent", "ours",
               [&] {
                 BENCH_CK(cudaMemsetAsync(Bins.get(), 0, Bins.bytes(), C.S));
               },
               [&] { bench_entry::histogram_even(Bins.get(), X.get(), N, NB); },
               Verify,
               bench_entry::histogram_even ? ""
                                           : missingReason(C, "histogram_even")};
  const std::string Shape =
      sizeName(N) + "/" + std::to_string(NB) + "bins" + (Hot ? "-hot" : "");
  measure(C, "histogram", Shape, Bytes, Peer);
  measure(C, "histogram", Shape, Bytes, Ours);
}


/// Softmax over the last axis of a B x R x N tensor (rank-3 views): the same
/// check as the rank-2 softmax.
void benchSoftmax3(Ctx &C, long long B, long long R, long long Cols) {
  if (C.O.Quick)
    B = std::max(1LL, B / 64);
  const long long Rows = B * R, N = Rows * Cols;
  dbuf<float> In(N), Out(N), Want(N);
  bench::fillUniform(In.get(), N, C.nextSeed(), -8.0f, 8.0f, C.S);
  {
    std::vector<float> HX = In.download(), HW(N);
    bench::hostParallel(Rows, [&](long long Lo, long long Hi) {
      for (long long Row = Lo; Row < Hi; ++Row) {
        const float *X = &HX[Row * Cols];
        double M = -INFINITY, S = 0;
        for (long long K = 0; K < Cols; ++K)
          M = std::fmax(M, X[K]);
        for (long long K = 0; K < Cols; ++K)
          S += std::exp(X[K] - M);
        for (long long K = 0; K < Cols; ++K)
          HW[Row * Cols + K] = static_cast<float>(std::exp(X[K] - M) / S);
      }
    });
    Want.upload(HW);
  }
  auto Verify = [&] {
    return bench::describe(bench::compareDevice(Out.get(), Want.get(), nullptr,
                                                N, 5e-5, 0, C.S),
                           N);
  };
  std::string Shape = std::to_string(B) + "x" + std::to_string(R) + "x" +
                      std::to_string(Cols);
  Variant Ours{"intent", "ours", [&] { poison(C, Out); },
               [&] { bench_entry::softmax3(Out.get(), In.get(), B, R, Cols); },
               Verify, bench_entry::softmax3 ? "" : missingReason(C, "softmax3")};
  measure(C, "softmax3", Shape, 2.0 * N * sizeof(float), Ours);
}

/// Two matrix-vector products p = A u, q = B v in one kernel (two groups).
/// Integer-valued inputs: every sum is exact, checked exactly.
void benchMv2(Ctx &C, long long Rows, long long Cols) {
  if (C.O.Quick)
    Rows = std::max(1LL, Rows / 64);
  const long long N = Rows * Cols;
  dbuf<float> A(N), Bm(N), U(Cols), V(Cols), P(Rows), Q(Rows), WantP(Rows),
      WantQ(Rows);
  bench::fillIntValued(A.get(), N, C.nextSeed(), -4, 4, C.S);
  bench::fillIntValued(Bm.get(), N, C.nextSeed(), -4, 4, C.S);
  bench::fillIntValued(U.get(), Cols, C.nextSeed(), -4, 4, C.S);
  bench::fillIntValued(V.get(), Cols, C.nextSeed(), -4, 4, C.S);
  {
    std::vector<float> HA = A.download(), HB = Bm.download(), HU = U.download(),
                       HV = V.download(), HP(Rows), HQ(Rows);
    bench::hostParallel(Rows, [&](long long Lo, long long Hi) {
      for (long long I = Lo; I < Hi; ++I) {
        double SP = 0, SQ = 0;
        for (long long K = 0; K < Cols; ++K) {
          SP += double(HA[I * Cols + K]) * HU[K];
          SQ += double(HB[I * Cols + K]) * HV[K];
        }
        HP[I] = static_cast<float>(SP);
        HQ[I] = static_cast<float>(SQ);
      }
    });
    WantP.upload(HP);
    WantQ.upload(HQ);
  }
  auto Verify = [&] {
    std::string E = bench::describe(
        bench::compareDevice(P.get(), WantP.get(), nullptr, Rows, 0, 0, C.S),
        Rows);
    return E.empty() ? bench::describe(bench::compareDevice(Q.get(), WantQ.get(),
                                                            nullptr, Rows, 0, 0,
                                                            C.S),
                                       Rows)
                     : E;
  };
  std::string Shape = std::to_string(Rows) + "x" + std::to_string(Cols);
  Variant Ours{"intent", "ours",
               [&] {
                 poison(C, P);
                 poison(C, Q);
               },
               [&] {
                 bench_entry::mv2(P.get(), Q.get(), A.get(), U.get(), Bm.get(),
                                  V.get(), Rows, Cols);
               },
               Verify, bench_entry::mv2 ? "" : missingReason(C, "mv2")};
  measure(C, "mv2", Shape, (2.0 * N + 2.0 * Cols + 2.0 * Rows) * sizeof(float),
          Ours);
}

/// Column sums of a Rows x Cols matrix; integer-valued, checked exactly.
void benchColsum(Ctx &C, long long Rows, long long Cols) {
  if (C.O.Quick)
    Rows = std::max(1LL, Rows / 64);
  const long long N = Rows * Cols;
  dbuf<float> A(N), Out(Cols), Want(Cols);
  bench::fillIntValued(A.get(), N, C.nextSeed(), -8, 8, C.S);
  {
    std::vector<float> HA = A.download(), HW(Cols);
    bench::hostParallel(Cols, [&](long long Lo, long long Hi) {
      for (long long J = Lo; J < Hi; ++J) {
        double S = 0;
        for (long long I = 0; I < Rows; ++I)
          S += HA[I * Cols + J];
        HW[J] = static_cast<float>(S);
      }
    });
    Want.upload(HW);
  }
  auto Verify = [&] {
    return bench::describe(
        bench::compareDevice(Out.get(), Want.get(), nullptr, Cols, 0, 0, C.S),
        Cols);
  };
  std::string Shape = std::to_string(Rows) + "x" + std::to_string(Cols);
  Variant Ours{"intent", "ours", [&] { poison(C, Out); },
               [&] { bench_entry::colsum(Out.get(), A.get(), Rows, Cols); },
               Verify, bench_entry::colsum ? "" : missingReason(C, "colsum")};
  measure(C, "colsum", Shape, (1.0 * N + Cols) * sizeof(float), Ours);
}

/// float -> bfloat16 bits (round to nearest even; inputs are finite).
unsigned short toBf16(float F) {
  std::uint32_t U;
  std::memcpy(&U, &F, 4);
  U += 0x7fffu + ((U >> 16) & 1u);
  return static_cast<unsigned short>(U >> 16);
}

float fromBf16(unsigned short B) {
  std::uint32_t U = static_cast<std::uint32_t>(B) << 16;
  float F;
  std::memcpy(&F, &U, 4);
  return F;
}

/// RMSNorm of Rows x Cols bfloat16 rows with a bf16 weight (f32 math),
/// checked on the host against a double computation from the same bf16
/// inputs within 1/128 relative (the output's bf16 rounding is 1/256).
void benchRmsnorm(Ctx &C, long long Rows, long long Cols) {
  if (C.O.Quick)
    Rows = std::max(1LL, Rows / 64);
  const long long N = Rows * Cols;
  const float Eps = 1e-6f;
  std::vector<unsigned short> HX(N), HW(Cols);
  {
    dbuf<float> F(N), G(Cols);
    bench::fillUniform(F.get(), N, C.nextSeed(), -4.0f, 4.0f, C.S);
    bench::fillUniform(G.get(), Cols, C.nextSeed(), 0.5f, 1.5f, C.S);
    BENCH_CK(cudaStreamSynchronize(C.S));
    std::vector<float> HF = F.download(), HG = G.download();
    for (long long I = 0; I < N; ++I)
      HX[I] = toBf16(HF[I]);
    for (long long J = 0; J < Cols; ++J)
      HW[J] = toBf16(HG[J]);
  }
  std::vector<float> Want(N);
  bench::hostParallel(Rows, [&](long long Lo, long long Hi) {
    for (long long R = Lo; R < Hi; ++R) {
      double S = 0;
      for (long long K = 0; K < Cols; ++K) {
        double V = fromBf16(HX[R * Cols + K]);
        S += V * V;
      }
      double Inv = 1.0 / std::sqrt(S / double(Cols) + Eps);
      for (long long K = 0; K < Cols; ++K)
        Want[R * Cols + K] = static_cast<float>(
            fromBf16(HX[R * Cols + K]) * Inv * fromBf16(HW[K]));
    }
  });
  dbuf<unsigned short> X(N), W(Cols), Y(N);
  X.upload(HX);
  W.upload(HW);
  auto Verify = [&]() -> std::string {
    std::vector<unsigned short> Got = Y.download();
    for (long long I = 0; I < N; ++I) {
      float G = fromBf16(Got[I]), E = Want[I];
      if (!(std::fabs(G - E) <= std::fabs(E) / 128 + 1e-6f))
        return "element " + std::to_string(I) + ": got " + fmt(G, 6) +
               ", want " + fmt(E, 6);
    }
    return "";
  };
  std::string Shape = std::to_string(Rows) + "x" + std::to_string(Cols);
  Variant Ours{"intent", "ours", [&] { poison(C, Y); },
               [&] {
                 bench_entry::rmsnorm_bf16(Y.get(), X.get(), W.get(), Rows,
                                           Cols, Eps);
               },
               Verify, bench_entry::rmsnorm_bf16 ? "" : missingReason(C, "rmsnorm")};
  measure(C, "rmsnorm", Shape, (2.0 * N + Cols) * 2, Ours);
}

/// Row softmax in bf16 (f32 math): checked against a double host softmax of
/// the bf16 inputs within 2^-7 relative (bf16 rounding) plus 1e-7.
void benchSoftmaxBf16(Ctx &C, long long Rows, long long Cols) {
  if (C.O.Quick)
    Rows = std::max(1LL, Rows / 64);
  const long long N = Rows * Cols;
  std::vector<unsigned short> HX(N);
  {
    dbuf<float> F(N);
    bench::fillUniform(F.get(), N, C.nextSeed(), -4.0f, 4.0f, C.S);
    BENCH_CK(cudaStreamSynchronize(C.S));
    std::vector<float> HF = F.download();
    for (long long I = 0; I < N; ++I)
      HX[I] = toBf16(HF[I]);
  }
  std::vector<float> Want(N);
  bench::hostParallel(Rows, [&](long long Lo, long long Hi) {
    for (long long R = Lo; R < Hi; ++R) {
      double M = -INFINITY, S = 0;
      for (long long K = 0; K < Cols; ++K)
        M = std::max(M, double(fromBf16(HX[R * Cols + K])));
      for (long long K = 0; K < Cols; ++K)
        S += std::exp(fromBf16(HX[R * Cols + K]) - M);
      for (long long K = 0; K < Cols; ++K)
        Want[R * Cols + K] =
            static_cast<float>(std::exp(fromBf16(HX[R * Cols + K]) - M) / S);
    }
  });
  dbuf<unsigned short> X(N), Y(N);
  X.upload(HX);
  auto Verify = [&]() -> std::string {
    std::vector<unsigned short> Got = Y.download();
    for (long long I = 0; I < N; ++I) {
      float G = fromBf16(Got[I]), E = Want[I];
      if (!(std::fabs(G - E) <= std::fabs(E) / 128 + 1e-7f))
        return "element " + std::to_string(I) + ": got " + fmt(G, 6) +
               ", want " + fmt(E, 6);
    }
    return "";
  };
  std::string Shape = std::to_string(Rows) + "x" + std::to_string(Cols);
  Variant Ours{"intent", "ours", [&] { poison(C, Y); },
               [&] { bench_entry::softmax_bf16(Y.get(), X.get(), Rows, Cols); },
               Verify,
               bench_entry::softmax_bf16 ? "" : missingReason(C, "softmax_bf16")};
  measure(C, "softmax_bf16", Shape, 2.0 * N * 2, Ours);
}

/// y = exp(x - 1) / sum(exp(x - 1)): one kernel with dependent phases
/// against the same work as two kernels of ours; checked against a double
/// host computation within 1e-4 relative.
void benchPhases(Ctx &C, long long N) {
  if (C.O.Quick)
    N = std::max(1LL, N / 64);
  dbuf<float> X(N), Y(N), S(1), Want(N);
  bench::fillUniform(X.get(), N, C.nextSeed(), -4.0f, 4.0f, C.S);
  {
    std::vector<float> HX = X.download(), HW(N);
    double Sum = 0;
    for (long long I = 0; I < N; ++I)
      Sum += std::exp(double(HX[I]) - 1.0);
    bench::hostParallel(N, [&](long long Lo, long long Hi) {
      for (long long I = Lo; I < Hi; ++I)
        HW[I] = static_cast<float>(std::exp(double(HX[I]) - 1.0) / Sum);
    });
    Want.upload(HW);
  }
  auto Verify = [&] {
    return bench::describe(
        bench::compareDevice(Y.get(), Want.get(), nullptr, N, 1e-4, 0, C.S), N);
  };
  double Bytes = 2.0 * N * sizeof(float);
  Variant Two{"intent, two kernels", "target", [&] { poison(C, Y); },
              [&] { bench_entry::phases_two(Y.get(), S.get(), X.get(), N); },
              Verify, bench_entry::phases_two ? "" : missingReason(C, "phases")};
  Variant Ours{"intent", "ours", [&] { poison(C, Y); },
               [&] { bench_entry::phases_one(Y.get(), X.get(), N); }, Verify,
               bench_entry::phases_one ? "" : missingReason(C, "phases")};
  measure(C, "phases", sizeName(N), Bytes, Two);
  measure(C, "phases", sizeName(N), Bytes, Ours);
}

/// The transpose of a Rows x Cols matrix into a Cols x Rows one: a copy,
/// checked exactly.
void benchTranspose(Ctx &C, long long Rows, long long Cols) {
  if (C.O.Quick)
    Rows = std::max(1LL, Rows / 64);
  const long long N = Rows * Cols;
  dbuf<float> A(N), Out(N), Want(N);
  bench::fillUniform(A.get(), N, C.nextSeed(), -1.0f, 1.0f, C.S);
  {
    std::vector<float> HA = A.download(), HW(N);
    bench::hostParallel(Cols, [&](long long Lo, long long Hi) {
      for (long long J = Lo; J < Hi; ++J)
        for (long long I = 0; I < Rows; ++I)
          HW[J * Rows + I] = HA[I * Cols + J];
    });
    Want.upload(HW);
  }
  auto Verify = [&] {
    return bench::describe(
        bench::compareDevice(Out.get(), Want.get(), nullptr, N, 0, 0, C.S), N);
  };
  std::string Shape = std::to_string(Rows) + "x" + std::to_string(Cols);
  Variant Ours{"intent", "ours", [&] { poison(C, Out); },
               [&] { bench_entry::transpose(Out.get(), A.get(), Rows, Cols); },
               Verify,
               bench_entry::transpose ? "" : missingReason(C, "transpose")};
  measure(C, "transpose", Shape, 2.0 * N * sizeof(float), Ours);
}

/// The last two axes of a B x R x Cols tensor swapped (B x Cols x R): a
/// copy, checked exactly.
void benchPermute3(Ctx &C, long long B, long long R, long long Cols) {
  if (C.O.Quick)
    B = std::max(1LL, B / 64);
  const long long N = B * R * Cols;
  dbuf<float> X(N), Out(N), Want(N);
  bench::fillUniform(X.get(), N, C.nextSeed(), -1.0f, 1.0f, C.S);
  {
    std::vector<float> HX = X.download(), HW(N);
    // One task per output row (b, j).
    bench::hostParallel(B * Cols, [&](long long Lo, long long Hi) {
      for (long long Row = Lo; Row < Hi; ++Row) {
        long long Bi = Row / Cols, J = Row % Cols;
        for (long long I = 0; I < R; ++I)
          HW[Row * R + I] = HX[(Bi * R + I) * Cols + J];
      }
    });
    Want.upload(HW);
  }
  auto Verify = [&] {
    return bench::describe(
        bench::compareDevice(Out.get(), Want.get(), nullptr, N, 0, 0, C.S), N);
  };
  std::string Shape = std::to_string(B) + "x" + std::to_string(R) + "x" +
                      std::to_string(Cols);
  Variant Ours{"intent", "ours", [&] { poison(C, Out); },
               [&] { bench_entry::permute3(Out.get(), X.get(), B, R, Cols); },
               Verify, bench_entry::permute3 ? "" : missingReason(C, "permute3")};
  measure(C, "permute3", Shape, 2.0 * N * sizeof(float), Ours);
}

/// The 5-point stencil (zero padding) of a Rows x Cols matrix, checked
/// against a double host computation within 1e-5 of the terms' scale (0.2
/// times the sum of their magnitudes): the order of the float additions and
/// a fused multiply-add may differ from the reference's.
void benchStencil(Ctx &C, long long Rows, long long Cols) {
  if (C.O.Quick)
    Rows = std::max(1LL, Rows / 64);
  const long long N = Rows * Cols;
  dbuf<float> A(N), Out(N), Want(N), Scale(N);
  bench::fillUniform(A.get(), N, C.nextSeed(), -1.0f, 1.0f, C.S);
  {
    std::vector<float> HA = A.download(), HW(N), HS(N);
    const double W = 0.2f; // the kernel's constant, exactly
    bench::hostParallel(Rows, [&](long long Lo, long long Hi) {
      for (long long I = Lo; I < Hi; ++I)
        for (long long J = 0; J < Cols; ++J) {
          double S = 0, M = 0;
          auto add = [&](long long K) {
            S += HA[K];
            M += std::fabs(HA[K]);
          };
          add(I * Cols + J);
          if (I > 0)
            add((I - 1) * Cols + J);
          if (I + 1 < Rows)
            add((I + 1) * Cols + J);
          if (J > 0)
            add(I * Cols + J - 1);
          if (J + 1 < Cols)
            add(I * Cols + J + 1);
          HW[I * Cols + J] = static_cast<float>(W * S);
          HS[I * Cols + J] = static_cast<float>(W * M);
        }
    });
    Want.upload(HW);
    Scale.upload(HS);
  }
  auto Verify = [&] {
    return bench::describe(bench::compareDevice(Out.get(), Want.get(),
                                                Scale.get(), N, 1e-5, 0, C.S),
                           N);
  };
  std::string Shape = std::to_string(Rows) + "x" + std::to_string(Cols);
  Variant Ours{"intent", "ours", [&] { poison(C, Out); },
               [&] { bench_entry::stencil(Out.get(), A.get(), Rows, Cols); },
               Verify, bench_entry::stencil ? "" : missingReason(C, "stencil")};
  measure(C, "stencil", Shape, 2.0 * N * sizeof(float), Ours);
}

void benchRowsum(Ctx &C, long long Rows, long long Cols) {
  if (C.O.Quick)
    Rows = std::max(1LL, Rows / 64);
  const long long N = Rows * Cols;
  dbuf<float> A(N), Out(Rows), Want(Rows);
  bench::fillIntValued(A.get(), N, C.nextSeed(), -8, 8, C.S);
  {
    std::vector<float> HA = A.download(), HW(Rows);
    bench::hostParallel(Rows, [&](long long Lo, long long Hi) {
      for (long long I = Lo; I < Hi; ++I) {
        double S = 0;
        for (long long J = 0; J < Cols; ++J)
          S += HA[I * Cols + J];
        HW[I] = static_cast<float>(S);
      }
    });
    Want.upload(HW);
  }
  auto Verify = [&] {
    return bench::describe(
        bench::compareDevice(Out.get(), Want.get(), nullptr, Rows, 0, 0, C.S),
        Rows);
  };
  Variant Ours{"intent", "ours", [&] { poison(C, Out); },
               [&] { bench_entry::rowsum(Out.get(), A.get(), Rows, Cols); },
               Verify, bench_entry::rowsum ? "" : missingReason(C, "rowsum")};
  measure(C, "rowsum", std::to_string(Rows) + "x" + std::to_string(Cols),
          (1.0 * N + Rows) * sizeof(float), Ours);
}

void benchRowcumsum(Ctx &C, long long Rows, long long Cols) {
  if (C.O.Quick)
    Rows = std::max(1LL, Rows / 64);
  const long long N = Rows * Cols;
  dbuf<float> X(N), Y(N), Want(N);
  // Integers of magnitude <= 8: every prefix is exact in f32 (|sum| < 2^24).
  bench::fillIntValued(X.get(), N, C.nextSeed(), -8, 8, C.S);
  {
    std::vector<float> HX = X.download(), HW(N);
    bench::hostParallel(Rows, [&](long long Lo, long long Hi) {
      for (long long I = Lo; I < Hi; ++I) {
        double S = 0;
        for (long long J = 0; J < Cols; ++J)
          HW[I * Cols + J] = static_cast<float>(S += HX[I * Cols + J]);
      }
    });
    Want.upload(HW);
  }
  auto Verify = [&] {
    return bench::describe(
        bench::compareDevice(Y.get(), Want.get(), nullptr, N, 0, 0, C.S), N);
  };
  Variant Ours{"intent", "ours", [&] { poison(C, Y); },
               [&] { bench_entry::rowcumsum(Y.get(), X.get(), Rows, Cols); },
               Verify, bench_entry::rowcumsum ? "" : missingReason(C, "rowcumsum")};
  measure(C, "rowcumsum", std::to_string(Rows) + "x" + std::to_string(Cols),
          2.0 * N * sizeof(float), Ours);
}

void benchNorms3(Ctx &C, long long N) {
  if (C.O.Quick)
    N = std::max(1LL, N / 64);
  dbuf<float> P(3 * N), Out(N), Want(N);
  bench::fillUniform(P.get(), 3 * N, C.nextSeed(), -1.0f, 1.0f, C.S);
  {
    std::vector<float> HP = P.download(), HW(N);
    bench::hostParallel(N, [&](long long Lo, long long Hi) {
      for (long long I = Lo; I < Hi; ++I) {
        double S = 0;
        for (int J = 0; J < 3; ++J)
          S += double(HP[3 * I + J]) * HP[3 * I + J];
        HW[I] = static_cast<float>(std::sqrt(S));
      }
    });
    Want.upload(HW);
  }
  auto Verify = [&] {
    return bench::describe(
        bench::compareDevice(Out.get(), Want.get(), nullptr, N, 1e-5, 1e-6, C.S),
        N);
  };
  Variant Ours{"intent", "ours", [&] { poison(C, Out); },
               [&] { bench_entry::norms3(Out.get(), P.get(), N); }, Verify,
               bench_entry::norms3 ? "" : missingReason(C, "norms3")};
  measure(C, "norms3", std::to_string(N) + "x3", 16.0 * N, Ours);
}

struct Benchmark {
  const char *Name;
  std::function<void(Ctx &)> Run;
};

const std::vector<Benchmark> &benchmarks() {
  static const std::vector<Benchmark> List = {
      {"copy", benchCopy},
      {"saxpy", benchSaxpy},
      {"softmax-32768x1024", [](Ctx &C) { benchSoftmax(C, 32768, 1024); }},
      {"softmax-8192x8192", [](Ctx &C) { benchSoftmax(C, 8192, 8192); }},
      {"softmax-4096x32768", [](Ctx &C) { benchSoftmax(C, 4096, 32768); }},
      {"softmax_fast-32768x1024",
       [](Ctx &C) { benchSoftmax(C, 32768, 1024, true); }},
      {"softmax-8x1000000",
       [](Ctx &C) { benchSoftmax(C, 8, 1000000); }},
      {"softmax_fast-8192x8192",
       [](Ctx &C) { benchSoftmax(C, 8192, 8192, true); }},
      {"softmax_fast-4096x32768",
       [](Ctx &C) { benchSoftmax(C, 4096, 32768, true); }},
      {"layernorm-32768x1024", [](Ctx &C) { benchLayernorm(C, 32768, 1024); }},
      {"layernorm-8192x8192", [](Ctx &C) { benchLayernorm(C, 8192, 8192); }},
      {"layernorm-4096x32768", [](Ctx &C) { benchLayernorm(C, 4096, 32768); }},
      {"sum", benchSum},
      {"argmax", benchArgmax},
      {"scan", benchScan},
      {"scan_i32", benchScanI32},
      {"scan_affine", benchScanAffine},
      {"compact", benchCompact},
      {"segsum-avg4", [](Ctx &C) { benchSegmentedSum(C, 1LL << 25, 4); }},
      {"segsum-avg64", [](Ctx &C) { benchSegmentedSum(C, 1LL << 22, 64); }},
      {"segsum-avg4096",
       [](Ctx &C) { benchSegmentedSum(C, 1LL << 16, 4096); }},
      {"histogram-256", [](Ctx &C) { benchHistogram(C, 256); }},
      {"histogram-2048", [](Ctx &C) { benchHistogram(C, 2048); }},
      {"histogram-65536", [](Ctx &C) { benchHistogram(C, 65536); }},
      {"histogram-256-hot", [](Ctx &C) { benchHistogram(C, 256, true); }},
      {"histogram-65536-hot", [](Ctx &C) { benchHistogram(C, 65536, true); }},
      {"softmax3-64x512x1024",
       [](Ctx &C) { benchSoftmax3(C, 64, 512, 1024); }},
      {"softmax3-12x1000x3000",
       [](Ctx &C) { benchSoftmax3(C, 12, 1000, 3000); }},
      {"mv2-8192x8192", [](Ctx &C) { benchMv2(C, 8192, 8192); }},
      {"mv2-3000x20000", [](Ctx &C) { benchMv2(C, 3000, 20000); }},
      {"colsum-8192x8192", [](Ctx &C) { benchColsum(C, 8192, 8192); }},
      {"colsum-65536x1000", [](Ctx &C) { benchColsum(C, 65536, 1000); }},
      {"rmsnorm-32768x1024", [](Ctx &C) { benchRmsnorm(C, 32768, 1024); }},
      {"rmsnorm-6000x3000", [](Ctx &C) { benchRmsnorm(C, 6000, 3000); }},
      {"softmax_bf16-32768x1024",
       [](Ctx &C) { benchSoftmaxBf16(C, 32768, 1024); }},
      {"softmax_bf16-6000x3000",
       [](Ctx &C) { benchSoftmaxBf16(C, 6000, 3000); }},
      {"phases-2^20", [](Ctx &C) { benchPhases(C, 1LL << 20); }},
      {"phases-10^8", [](Ctx &C) { benchPhases(C, 100000000LL); }},
      {"rowsum-16777216x16", [](Ctx &C) { benchRowsum(C, 16777216, 16); }},
      {"rowsum-8192x8192", [](Ctx &C) { benchRowsum(C, 8192, 8192); }},
      {"rowcumsum-2097152x32", [](Ctx &C) { benchRowcumsum(C, 2097152, 32); }},
      {"rowcumsum-16384x4096", [](Ctx &C) { benchRowcumsum(C, 16384, 4096); }},
      {"rowcumsum-65536x1000", [](Ctx &C) { benchRowcumsum(C, 65536, 1000); }},
      {"rowcumsum-16x4194304", [](Ctx &C) { benchRowcumsum(C, 16, 4194304); }},
      {"rowsum-2097152x100", [](Ctx &C) { benchRowsum(C, 2097152, 100); }},
      {"rowsum-65536x3000", [](Ctx &C) { benchRowsum(C, 65536, 3000); }},
      // Few long rows: each row split over a group of CTAs.
      {"rowsum-8x4000000", [](Ctx &C) { benchRowsum(C, 8, 4000000); }},
      {"rowsum-32x1000003", [](Ctx &C) { benchRowsum(C, 32, 1000003); }},
      {"norms3-2^26", [](Ctx &C) { benchNorms3(C, 1LL << 26); }},
      {"norms3-30000001", [](Ctx &C) { benchNorms3(C, 30000001LL); }},
      {"transpose-8192x8192", [](Ctx &C) { benchTranspose(C, 8192, 8192); }},
      {"transpose-6000x3000", [](Ctx &C) { benchTranspose(C, 6000, 3000); }},
      {"permute3-64x512x1024",
       [](Ctx &C) { benchPermute3(C, 64, 512, 1024); }},
      {"permute3-12x1000x3000",
       [](Ctx &C) { benchPermute3(C, 12, 1000, 3000); }},
      {"stencil-8192x8192", [](Ctx &C) { benchStencil(C, 8192, 8192); }},
      {"stencil-6000x3000", [](Ctx &C) { benchStencil(C, 6000, 3000); }},
  };
  return List;
}

[[noreturn]] void usage(const char *Why) {
  std::fprintf(stderr,
               "bench: %s\nusage: bench --list | bench [--only NAME,...] "
               "[--csv FILE] [--seed N] [--quick] [--budget-ms MS] "
               "[--min-reps N] [--max-reps N] [--slow-ms MS] "
               "[--missing-dir DIR]\n",
               Why);
  std::exit(2);
}

Options parseArgs(int Argc, char **Argv) {
  Options O;
  for (int I = 1; I < Argc; ++I) {
    std::string A = Argv[I];
    auto value = [&]() -> std::string {
      if (I + 1 >= Argc)
        usage(("missing value after " + A).c_str());
      return Argv[++I];
    };
    auto number = [&](const std::string &V) {
      char *End = nullptr;
      double D = std::strtod(V.c_str(), &End);
      if (V.empty() || *End || !(D >= 0))
        usage(("not a number >= 0: " + V).c_str());
      return D;
    };
    if (A == "--list") {
      for (const Benchmark &B : benchmarks())
        std::printf("%s\n", B.Name);
      std::exit(0);
    } else if (A == "--only") {
      std::stringstream SS(value());
      std::string Name;
      while (std::getline(SS, Name, ','))
        if (!Name.empty())
          O.Only.push_back(Name);
    } else if (A == "--csv")
      O.Csv = value();
    else if (A == "--missing-dir")
      O.MissingDir = value();
    else if (A == "--seed") {
      std::string V = value();
      char *End = nullptr;
      O.Seed = std::strtoull(V.c_str(), &End, 0);
      if (V.empty() || *End)
        usage(("not a seed: " + V).c_str());
      O.SeedGiven = true;
    } else if (A == "--quick")
      O.Quick = true;
    else if (A == "--budget-ms")
      O.BudgetMs = number(value());
    else if (A == "--min-reps")
      O.MinReps = std::max(1, static_cast<int>(number(value())));
    else if (A == "--max-reps")
      O.MaxReps = std::max(1, static_cast<int>(number(value())));
    else if (A == "--slow-ms")
      O.SlowMs = number(value());
    else
      usage(("unknown argument " + A).c_str());
  }
  if (O.MaxReps < O.MinReps)
    O.MaxReps = O.MinReps;
  for (const std::string &Name : O.Only) {
    bool Known = false;
    for (const Benchmark &B : benchmarks())
      Known = Known || Name == B.Name;
    if (!Known)
      usage(("unknown benchmark " + Name + " (see --list)").c_str());
  }
  return O;
}

} // namespace

int main(int Argc, char **Argv) {
  Ctx C;
  C.O = parseArgs(Argc, Argv);
  // Benchmarks run on the GPU only: make the Intent runtime use it (and fail
  // loudly when it cannot), whatever the environment says.
  setenv("INTENT_DEVICE", "gpu", 1);
  try {
    if (intent::rt::mode() != intent::rt::device_mode::gpu) {
      std::fprintf(stderr, "bench: the Intent runtime is not in gpu mode\n");
      return 3;
    }
    C.S = static_cast<cudaStream_t>(intent::rt::stream_handle());
  } catch (const std::exception &E) {
    std::fprintf(stderr, "bench: %s\n", E.what());
    return 3;
  }
  C.Seed = C.O.SeedGiven
               ? C.O.Seed
               : static_cast<std::uint64_t>(
                     std::chrono::high_resolution_clock::now()
                         .time_since_epoch()
                         .count());
  BENCH_CK(cudaEventCreate(&C.Start));
  BENCH_CK(cudaEventCreate(&C.Stop));
  C.Scrub = dbuf<char>(256u << 20);
  cudaDeviceProp Prop;
  int Dev;
  BENCH_CK(cudaGetDevice(&Dev));
  BENCH_CK(cudaGetDeviceProperties(&Prop, Dev));
  std::printf("# device %s, %d SMs, L2 %.1f MB; seed %llu%s\n", Prop.name,
              Prop.multiProcessorCount, Prop.l2CacheSize / 1e6,
              static_cast<unsigned long long>(C.Seed),
              C.O.Quick ? "; QUICK sizes" : "");
  std::fflush(stdout);
  for (const Benchmark &B : benchmarks()) {
    if (!C.O.Only.empty() &&
        std::find(C.O.Only.begin(), C.O.Only.end(), B.Name) == C.O.Only.end())
      continue;
    B.Run(C);
  }
  BENCH_CK(cudaDeviceSynchronize());
  return C.AllOk ? 0 : 1;
}
