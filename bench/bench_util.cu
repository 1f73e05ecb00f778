//===- bench/bench_util.cu - Random fills and device-side comparison -----===//

#include "bench_util.cuh"

#include <cmath>
#include <sstream>

namespace bench {
namespace {

/// Blocks for a grid-stride kernel over N elements.
unsigned gridFor(long long N) {
  long long B = (N + 255) / 256;
  if (B < 1)
    B = 1;
  return static_cast<unsigned>(B < 65536 ? B : 65536);
}

__global__ void fillUniformKernel(float *P, long long N, std::uint64_t Seed,
                                  float Lo, float Hi) {
  for (long long I = blockIdx.x * (long long)blockDim.x + threadIdx.x; I < N;
       I += (long long)gridDim.x * blockDim.x) {
    float U = static_cast<float>(randomBits(Seed, I) >> 40) * 0x1p-24f;
    float V = Lo + (Hi - Lo) * U;
    P[I] = V < Hi ? V : Lo; // rounding may reach Hi; keep [Lo, Hi)
  }
}

__global__ void fillIntValuedKernel(float *P, long long N, std::uint64_t Seed,
                                    int Lo, int Hi) {
  std::uint64_t Span = static_cast<std::uint64_t>(Hi - Lo + 1);
  for (long long I = blockIdx.x * (long long)blockDim.x + threadIdx.x; I < N;
       I += (long long)gridDim.x * blockDim.x)
    P[I] = static_cast<float>(Lo + static_cast<int>(randomBits(Seed, I) % Span));
}

struct CompareState {
  unsigned long long Bad;
  unsigned long long First; // smallest bad index (ULLONG_MAX: none)
};

/// Element I of a float output against its reference: within Rel * Mag +
/// Abs (Mag = Scale[I], or |Want[I]|); NaN only against NaN, an infinity
/// only against itself.
struct FloatsAgree {
  const float *Got, *Want, *Scale;
  double Rel, Abs;
  __device__ bool operator()(long long I) const {
    float G = Got[I], W = Want[I];
    if (isnan(W))
      return isnan(G);
    if (isinf(W))
      return G == W;
    double Mag = Scale ? static_cast<double>(Scale[I]) : fabs((double)W);
    // A NaN G fails this comparison too.
    return fabs(static_cast<double>(G) - W) <= Rel * Mag + Abs;
  }
};

/// Element I of an int output equals its reference.
struct IntsAgree {
  const int *Got, *Want;
  __device__ bool operator()(long long I) const { return Got[I] == Want[I]; }
};

/// Counts the elements of [0, N) where Agree fails, and the first one.
template <class Agree>
__global__ void compareKernel(long long N, Agree Ok, CompareState *State) {
  unsigned long long Bad = 0, First = ~0ULL;
  for (long long I = blockIdx.x * (long long)blockDim.x + threadIdx.x; I < N;
       I += (long long)gridDim.x * blockDim.x)
    if (!Ok(I)) {
      ++Bad;
      if (static_cast<unsigned long long>(I) < First)
        First = static_cast<unsigned long long>(I);
    }
  if (Bad) {
    atomicAdd(&State->Bad, Bad);
    atomicMin(&State->First, First);
  }
}

} // namespace

/// Runs Launch(State) (a compare kernel's launch, none for N = 0) on a fresh
/// CompareState and reads the result back; Fetch(I, M) fills the values of
/// the first bad element I.
template <class LaunchFn, class FetchFn>
Mismatch runCompare(long long N, cudaStream_t S, LaunchFn Launch,
                    FetchFn Fetch) {
  static CompareState *State = nullptr;
  if (!State)
    BENCH_CK(cudaMalloc(&State, sizeof(CompareState)));
  CompareState Init{0, ~0ULL};
  BENCH_CK(cudaMemcpyAsync(State, &Init, sizeof Init, cudaMemcpyHostToDevice,
                           S));
  if (N > 0) {
    Launch(State);
    BENCH_CK(cudaGetLastError());
  }
  CompareState Out;
  BENCH_CK(cudaMemcpyAsync(&Out, State, sizeof Out, cudaMemcpyDeviceToHost, S));
  BENCH_CK(cudaStreamSynchronize(S));
  Mismatch M;
  M.Bad = Out.Bad;
  if (Out.Bad) {
    M.First = static_cast<long long>(Out.First);
    Fetch(M.First, M);
  }
  return M;
}

Mismatch compareDeviceInts(const int *Got, const int *Want, long long N,
                           cudaStream_t S) {
  return runCompare(
      N, S,
      [&](CompareState *State) {
        compareKernel<<<gridFor(N), 256, 0, S>>>(N, IntsAgree{Got, Want},
                                                  State);
      },
      [&](long long I, Mismatch &M) {
        int G = 0, W = 0;
        BENCH_CK(cudaMemcpy(&G, Got + I, sizeof(int), cudaMemcpyDeviceToHost));
        BENCH_CK(cudaMemcpy(&W, Want + I, sizeof(int), cudaMemcpyDeviceToHost));
        M.Got = static_cast<float>(G);
        M.Want = static_cast<float>(W);
      });
}

void fillUniform(float *P, long long N, std::uint64_t Seed, float Lo, float Hi,
                 cudaStream_t S) {
  if (N <= 0)
    return;
  fillUniformKernel<<<gridFor(N), 256, 0, S>>>(P, N, Seed, Lo, Hi);
  BENCH_CK(cudaGetLastError());
}

void fillIntValued(float *P, long long N, std::uint64_t Seed, int Lo, int Hi,
                   cudaStream_t S) {
  if (N <= 0)
    return;
  fillIntValuedKernel<<<gridFor(N), 256, 0, S>>>(P, N, Seed, Lo, Hi);
  BENCH_CK(cudaGetLastError());
}

Mismatch compareDevice(const float *Got, const float *Want, const float *Scale,
                       long long N, double Rel, double Abs, cudaStream_t S) {
  return runCompare(
      N, S,
      [&](CompareState *State) {
        compareKernel<<<gridFor(N), 256, 0, S>>>(
            N, FloatsAgree{Got, Want, Scale, Rel, Abs}, State);
      },
      [&](long long I, Mismatch &M) {
        BENCH_CK(cudaMemcpy(&M.Got, Got + I, sizeof(float),
                            cudaMemcpyDeviceToHost));
        BENCH_CK(cudaMemcpy(&M.Want, Want + I, sizeof(float),
                            cudaMemcpyDeviceToHost));
      });
}

std::string describe(const Mismatch &M, long long N) {
  if (!M.Bad)
    return "";
  std::ostringstream OS;
  OS.precision(9);
  OS << M.Bad << " of " << N << " elements off; first at " << M.First
     << ": got " << M.Got << ", want " << M.Want;
  return OS.str();
}

} // namespace bench
