//===- bench/peers/peers.cuh - The peers the Intent kernels are timed against ===//
//
// Hand-written CUDA (a device-to-device copy kernel, the float4 grid-stride
// saxpy) and CUB device-wide primitives, each issued on a given stream. The
// CUB wrappers size and allocate their temporary storage once, in the
// constructor, so that a timed call launches only the primitive's kernels.
//
//===----------------------------------------------------------------------===//

#ifndef INTENT_BENCH_PEERS_CUH
#define INTENT_BENCH_PEERS_CUH

#include "../bench_util.cuh"

namespace peers {

/// Dst[0..N) = Src[0..N) with one float4 load and store per thread and
/// iteration of a grid-stride loop (plus a scalar tail).
void copyFloat4(float *Dst, const float *Src, long long N, cudaStream_t S);

/// y = a * x + y: the usual hand-written float4 grid-stride kernel (one
/// resident grid, 16-byte loads and stores, a scalar tail for N % 4).
void saxpyFloat4(float *Y, const float *X, float A, long long N,
                 cudaStream_t S);

/// cub::DeviceReduce::Sum of N floats into Out[0].
class CubSum {
public:
  CubSum(const float *In, float *Out, long long N);
  void run(cudaStream_t S);

private:
  const float *In;
  float *Out;
  long long N;
  bench::dbuf<char> Temp;
  std::size_t TempBytes = 0;
};

/// cub::DeviceReduce::ArgMax of N floats: Value[0] and Pos[0].
class CubArgMax {
public:
  CubArgMax(const float *In, float *Value, long long *Pos, long long N);
  void run(cudaStream_t S);

private:
  const float *In;
  float *Value;
  long long *Pos;
  long long N;
  bench::dbuf<char> Temp;
  std::size_t TempBytes = 0;
};

/// cub::DeviceScan::InclusiveSum of N floats.
class CubInclusiveSum {
public:
  CubInclusiveSum(const float *In, float *Out, long long N);
  void run(cudaStream_t S);

private:
  const float *In;
  float *Out;
  long long N;
  bench::dbuf<char> Temp;
  std::size_t TempBytes = 0;
};

/// cub::DeviceScan::InclusiveSum of N 32-bit integers.
class CubInclusiveSumI32 {
public:
  CubInclusiveSumI32(const int *In, int *Out, long long N);
  void run(cudaStream_t S);

private:
  const int *In;
  int *Out;
  long long N;
  bench::dbuf<char> Temp;
  std::size_t TempBytes = 0;
};

/// cub::DeviceScan::InclusiveScan of the N affine maps (In[2k], In[2k + 1])
/// under composition; Out[k] = the composed map's offset.
class CubAffineScan {
public:
  CubAffineScan(const float *In, float *Out, long long N);
  void run(cudaStream_t S);

private:
  const float *In;
  float *Out;
  long long N;
  bench::dbuf<char> Temp;
  std::size_t TempBytes = 0;
};

/// cub::DeviceSelect::If keeping In[i] > 0: Out[0 .. *Count) in order.
class CubSelectPositive {
public:
  CubSelectPositive(const float *In, float *Out, long long *Count, long long N);
  void run(cudaStream_t S);

private:
  const float *In;
  float *Out;
  long long *Count;
  long long N;
  bench::dbuf<char> Temp;
  std::size_t TempBytes = 0;
};

/// cub::DeviceSegmentedReduce::Sum over the CSR rows of Offsets (Rows + 1
/// entries): Out[r] = sum of In[Offsets[r] .. Offsets[r + 1]).
class CubSegmentedSum {
public:
  CubSegmentedSum(const float *In, float *Out, const int *Offsets,
                  long long Rows);
  void run(cudaStream_t S);

private:
  const float *In;
  float *Out;
  const int *Offsets;
  long long Rows;
  bench::dbuf<char> Temp;
  std::size_t TempBytes = 0;
};

/// cub::DeviceHistogram::HistogramEven with 256 equal bins over [0, 1).
class CubHistogramEven {
public:
  /// Bins equal bins over [0, 1).
  CubHistogramEven(const float *In, int *Bins, long long N, int Bins_);
  void run(cudaStream_t S);

private:
  const float *In;
  int *Bins;
  long long N;
  int Levels;
  bench::dbuf<char> Temp;
  std::size_t TempBytes = 0;
};

} // namespace peers

#endif // INTENT_BENCH_PEERS_CUH
