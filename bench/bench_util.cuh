//===- bench/bench_util.cuh - Shared pieces of the benchmark driver -------===//
//
// CUDA error checks, device buffers, the counter-based random fill used for
// every input, host threads for the serial references, and the device-side
// comparison of a timed output with its reference. Used by bench/bench.cu
// and bench/peers/*.cu.
//
//===----------------------------------------------------------------------===//

#ifndef INTENT_BENCH_UTIL_CUH
#define INTENT_BENCH_UTIL_CUH

#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

/// Checks a CUDA runtime call: prints the call, the location and the error,
/// and exits with status 3. A CUDA error usually leaves the context unusable,
/// so the driver never tries to continue after one.
#define BENCH_CK(call)                                                         \
  do {                                                                         \
    cudaError_t Err_ = (call);                                                 \
    if (Err_ != cudaSuccess) {                                                 \
      std::fprintf(stderr, "bench: %s:%d: %s failed: %s: %s\n", __FILE__,      \
                   __LINE__, #call, cudaGetErrorName(Err_),                    \
                   cudaGetErrorString(Err_));                                  \
      std::exit(3);                                                            \
    }                                                                          \
  } while (0)

namespace bench {

/// Device memory of N elements of T (cudaMalloc, so 256-byte aligned).
template <class T> class dbuf {
public:
  dbuf() = default;
  explicit dbuf(std::size_t N) : N(N) {
    if (N)
      BENCH_CK(cudaMalloc(&P, N * sizeof(T)));
  }
  ~dbuf() {
    if (P)
      cudaFree(P);
  }
  dbuf(const dbuf &) = delete;
  dbuf &operator=(const dbuf &) = delete;
  dbuf(dbuf &&O) noexcept : P(O.P), N(O.N) { O.P = nullptr, O.N = 0; }
  dbuf &operator=(dbuf &&O) noexcept {
    if (this != &O) {
      if (P)
        cudaFree(P);
      P = O.P, N = O.N;
      O.P = nullptr, O.N = 0;
    }
    return *this;
  }
  T *get() const { return P; }
  std::size_t size() const { return N; }
  std::size_t bytes() const { return N * sizeof(T); }
  /// Copies the elements to a host vector (synchronous).
  std::vector<T> download() const {
    std::vector<T> H(N);
    if (N)
      BENCH_CK(cudaMemcpy(H.data(), P, bytes(), cudaMemcpyDeviceToHost));
    return H;
  }
  /// Copies a host vector of the same size in (synchronous).
  void upload(const std::vector<T> &H) {
    if (H.size() != N) {
      std::fprintf(stderr, "bench: upload of %zu elements into %zu\n",
                   H.size(), N);
      std::exit(3);
    }
    if (N)
      BENCH_CK(cudaMemcpy(P, H.data(), bytes(), cudaMemcpyHostToDevice));
  }

private:
  T *P = nullptr;
  std::size_t N = 0;
};

/// SplitMix64's finalizer: a counter-based generator, so every element of
/// an input is a pure function of (seed, index) and the fill is one pass.
__host__ __device__ inline std::uint64_t mix64(std::uint64_t Z) {
  Z += 0x9e3779b97f4a7c15ULL;
  Z = (Z ^ (Z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  Z = (Z ^ (Z >> 27)) * 0x94d049bb133111ebULL;
  return Z ^ (Z >> 31);
}

/// The random bits of element I of the stream Seed.
__host__ __device__ inline std::uint64_t randomBits(std::uint64_t Seed,
                                                    long long I) {
  return mix64(Seed ^ mix64(static_cast<std::uint64_t>(I)));
}

/// Fills P[0..N) on stream S with values uniform in [Lo, Hi), 24 random
/// bits each (Lo = 0, Hi = 1 gives exactly the multiples of 2^-24 below 1).
void fillUniform(float *P, long long N, std::uint64_t Seed, float Lo, float Hi,
                 cudaStream_t S);
/// Fills P[0..N) with integers drawn uniformly from [Lo, Hi], stored as
/// floats. Sums and prefix sums of such values are exact in any association
/// while every partial sum stays below 2^24 in magnitude (for zero-mean
/// values that is a random walk, far below it), so reductions and scans can
/// be checked exactly.
void fillIntValued(float *P, long long N, std::uint64_t Seed, int Lo, int Hi,
                   cudaStream_t S);

/// The result of comparing a device output with its reference.
struct Mismatch {
  unsigned long long Bad = 0;     // elements outside the tolerance
  long long First = -1;           // the first such element
  float Got = 0, Want = 0;        // its values
};

/// Compares Got[0..N) with Want[0..N) on the device: element i passes when
/// |Got[i] - Want[i]| <= Rel * Scale[i] + Abs (Scale null: |Want[i]|);
/// NaN passes only against NaN, and +-inf only against the same infinity.
/// Rel = Abs = 0 is an exact comparison. Synchronizes the stream.
Mismatch compareDevice(const float *Got, const float *Want, const float *Scale,
                       long long N, double Rel, double Abs, cudaStream_t S);

/// Compares Got[0..N) with Want[0..N) exactly on the device (32-bit
/// integers; the values in M are converted to float). Synchronizes.
Mismatch compareDeviceInts(const int *Got, const int *Want, long long N,
                           cudaStream_t S);

/// "" when M has no bad element, else a one-line description.
std::string describe(const Mismatch &M, long long N);

/// Runs Body(Begin, End) over [0, N) split across the host's threads (the
/// serial references of large inputs).
template <class F> void hostParallel(long long N, F &&Body) {
  unsigned T = std::thread::hardware_concurrency();
  if (T == 0)
    T = 1;
  if (N < 4096 || T == 1) {
    Body(0LL, N);
    return;
  }
  std::vector<std::thread> Threads;
  long long Chunk = (N + T - 1) / T;
  for (unsigned I = 0; I < T; ++I) {
    long long B = I * Chunk, E = B + Chunk < N ? B + Chunk : N;
    if (B >= E)
      break;
    Threads.emplace_back([&Body, B, E] { Body(B, E); });
  }
  for (std::thread &Th : Threads)
    Th.join();
}

} // namespace bench

#endif // INTENT_BENCH_UTIL_CUH
