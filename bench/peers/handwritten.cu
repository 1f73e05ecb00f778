//===- bench/peers/handwritten.cu - Hand-written CUDA peers ---------------===//
//
// The copy kernel and saxpy as an experienced CUDA programmer writes them for
// a bandwidth-bound loop: a grid sized to the resident capacity of the
// device, a grid-stride loop of 16-byte (float4) accesses, and a scalar loop
// for the last N % 4 elements. cudaMalloc'ed buffers are 256-byte aligned.
//
//===----------------------------------------------------------------------===//

#include "peers.cuh"

namespace peers {
namespace {

__global__ void __launch_bounds__(256)
    copyFloat4Kernel(float *__restrict__ Dst, const float *__restrict__ Src,
                     long long N) {
  const long long N4 = N / 4;
  const long long Stride = (long long)gridDim.x * blockDim.x;
  const long long Tid = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  const float4 *S4 = reinterpret_cast<const float4 *>(Src);
  float4 *D4 = reinterpret_cast<float4 *>(Dst);
  for (long long I = Tid; I < N4; I += Stride)
    D4[I] = S4[I];
  for (long long I = N4 * 4 + Tid; I < N; I += Stride)
    Dst[I] = Src[I];
}

__global__ void __launch_bounds__(256)
    saxpyFloat4Kernel(float *__restrict__ Y, const float *__restrict__ X,
                      float A, long long N) {
  const long long N4 = N / 4;
  const long long Stride = (long long)gridDim.x * blockDim.x;
  const long long Tid = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  const float4 *X4 = reinterpret_cast<const float4 *>(X);
  float4 *Y4 = reinterpret_cast<float4 *>(Y);
  for (long long I = Tid; I < N4; I += Stride) {
    float4 XV = X4[I], YV = Y4[I];
    YV.x = A * XV.x + YV.x;
    YV.y = A * XV.y + YV.y;
    YV.z = A * XV.z + YV.z;
    YV.w = A * XV.w + YV.w;
    Y4[I] = YV;
  }
  for (long long I = N4 * 4 + Tid; I < N; I += Stride)
    Y[I] = A * X[I] + Y[I];
}

/// Blocks of 256 threads that are resident on the device at once for
/// Kernel, capped by the blocks the N / 4 vector elements need.
template <class K> unsigned residentGrid(K Kernel, long long N) {
  static int Sms = 0, PerSm = 0;
  if (!Sms) {
    int Dev;
    BENCH_CK(cudaGetDevice(&Dev));
    BENCH_CK(cudaDeviceGetAttribute(&Sms, cudaDevAttrMultiProcessorCount, Dev));
    BENCH_CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&PerSm, Kernel, 256,
                                                           0));
    if (PerSm < 1)
      PerSm = 1;
  }
  long long Need = (N / 4 + 255) / 256;
  long long Resident = static_cast<long long>(Sms) * PerSm;
  long long G = Need < Resident ? Need : Resident;
  return static_cast<unsigned>(G < 1 ? 1 : G);
}

} // namespace

void copyFloat4(float *Dst, const float *Src, long long N, cudaStream_t S) {
  if (N <= 0)
    return;
  copyFloat4Kernel<<<residentGrid(copyFloat4Kernel, N), 256, 0, S>>>(Dst, Src,
                                                                     N);
  BENCH_CK(cudaGetLastError());
}

void saxpyFloat4(float *Y, const float *X, float A, long long N,
                 cudaStream_t S) {
  if (N <= 0)
    return;
  saxpyFloat4Kernel<<<residentGrid(saxpyFloat4Kernel, N), 256, 0, S>>>(Y, X, A,
                                                                       N);
  BENCH_CK(cudaGetLastError());
}

} // namespace peers
