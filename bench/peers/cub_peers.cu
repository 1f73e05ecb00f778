//===- bench/peers/cub_peers.cu - CUB device-wide primitives as peers -----===//
//
// Each wrapper queries CUB's temporary storage once and allocates it in its
// constructor; run() is the timed call. CUB is the CCCL that ships with the
// CUDA toolkit (nvcc finds its headers on its own).
//
//===----------------------------------------------------------------------===//

#include "peers.cuh"

#include <cub/device/device_histogram.cuh>
#include <cub/device/device_reduce.cuh>
#include <cub/device/device_scan.cuh>
#include <cub/device/device_segmented_reduce.cuh>
#include <cub/device/device_select.cuh>
#include <thrust/iterator/transform_output_iterator.h>

namespace peers {
namespace {

/// Item counts CUB takes as int here: every benchmark size is below 2^31.
int asInt(long long N) {
  if (N < 0 || N > 0x7fffffffLL) {
    std::fprintf(stderr, "bench: %lld items do not fit CUB's int count\n", N);
    std::exit(3);
  }
  return static_cast<int>(N);
}

} // namespace

CubSum::CubSum(const float *In, float *Out, long long N)
    : In(In), Out(Out), N(N) {
  BENCH_CK(cub::DeviceReduce::Sum(nullptr, TempBytes, In, Out, asInt(N)));
  Temp = bench::dbuf<char>(TempBytes ? TempBytes : 1);
}

void CubSum::run(cudaStream_t S) {
  BENCH_CK(cub::DeviceReduce::Sum(Temp.get(), TempBytes, In, Out, asInt(N), S));
}

CubArgMax::CubArgMax(const float *In, float *Value, long long *Pos,
                     long long N)
    : In(In), Value(Value), Pos(Pos), N(N) {
  BENCH_CK(cub::DeviceReduce::ArgMax(nullptr, TempBytes, In, Value, Pos,
                                     static_cast<::cuda::std::int64_t>(N)));
  Temp = bench::dbuf<char>(TempBytes ? TempBytes : 1);
}

void CubArgMax::run(cudaStream_t S) {
  BENCH_CK(cub::DeviceReduce::ArgMax(Temp.get(), TempBytes, In, Value, Pos,
                                     static_cast<::cuda::std::int64_t>(N), S));
}

CubInclusiveSum::CubInclusiveSum(const float *In, float *Out, long long N)
    : In(In), Out(Out), N(N) {
  BENCH_CK(cub::DeviceScan::InclusiveSum(nullptr, TempBytes, In, Out,
                                         asInt(N)));
  Temp = bench::dbuf<char>(TempBytes ? TempBytes : 1);
}

void CubInclusiveSum::run(cudaStream_t S) {
  BENCH_CK(cub::DeviceScan::InclusiveSum(Temp.get(), TempBytes, In, Out,
                                         asInt(N), S));
}

CubInclusiveSumI32::CubInclusiveSumI32(const int *In, int *Out, long long N)
    : In(In), Out(Out), N(N) {
  BENCH_CK(cub::DeviceScan::InclusiveSum(nullptr, TempBytes, In, Out,
                                         asInt(N)));
  Temp = bench::dbuf<char>(TempBytes ? TempBytes : 1);
}

void CubInclusiveSumI32::run(cudaStream_t S) {
  BENCH_CK(cub::DeviceScan::InclusiveSum(Temp.get(), TempBytes, In, Out,
                                         asInt(N), S));
}

namespace {
struct AffinePair {
  float a, b;
};
/// Composition of affine maps, the lower member first (as the Intent
/// kernel's combine).
struct ComposeAffine {
  __host__ __device__ AffinePair operator()(const AffinePair &L,
                                            const AffinePair &R) const {
    return AffinePair{L.a * R.a, R.a * L.b + R.b};
  }
};
struct AffineOffset {
  __host__ __device__ float operator()(const AffinePair &P) const { return P.b; }
};
auto affineOut(float *Out) {
  return thrust::make_transform_output_iterator(Out, AffineOffset{});
}
} // namespace

CubAffineScan::CubAffineScan(const float *In, float *Out, long long N)
    : In(In), Out(Out), N(N) {
  BENCH_CK(cub::DeviceScan::InclusiveScan(
      nullptr, TempBytes, reinterpret_cast<const AffinePair *>(In),
      affineOut(Out), ComposeAffine{}, asInt(N)));
  Temp = bench::dbuf<char>(TempBytes ? TempBytes : 1);
}

void CubAffineScan::run(cudaStream_t S) {
  BENCH_CK(cub::DeviceScan::InclusiveScan(
      Temp.get(), TempBytes, reinterpret_cast<const AffinePair *>(In),
      affineOut(Out), ComposeAffine{}, asInt(N), S));
}

namespace {
struct IsPositive {
  __host__ __device__ bool operator()(float V) const { return V > 0.0f; }
};
} // namespace

CubSelectPositive::CubSelectPositive(const float *In, float *Out,
                                     long long *Count, long long N)
    : In(In), Out(Out), Count(Count), N(N) {
  BENCH_CK(cub::DeviceSelect::If(nullptr, TempBytes, In, Out, Count, asInt(N),
                                 IsPositive{}));
  Temp = bench::dbuf<char>(TempBytes ? TempBytes : 1);
}

void CubSelectPositive::run(cudaStream_t S) {
  BENCH_CK(cub::DeviceSelect::If(Temp.get(), TempBytes, In, Out, Count,
                                 asInt(N), IsPositive{}, S));
}

CubSegmentedSum::CubSegmentedSum(const float *In, float *Out,
                                 const int *Offsets, long long Rows)
    : In(In), Out(Out), Offsets(Offsets), Rows(Rows) {
  BENCH_CK(cub::DeviceSegmentedReduce::Sum(nullptr, TempBytes, In, Out,
                                           asInt(Rows), Offsets, Offsets + 1));
  Temp = bench::dbuf<char>(TempBytes ? TempBytes : 1);
}

void CubSegmentedSum::run(cudaStream_t S) {
  BENCH_CK(cub::DeviceSegmentedReduce::Sum(Temp.get(), TempBytes, In, Out,
                                           asInt(Rows), Offsets, Offsets + 1,
                                           S));
}

CubHistogramEven::CubHistogramEven(const float *In, int *Bins, long long N,
                                   int Bins_)
    : In(In), Bins(Bins), N(N), Levels(Bins_ + 1) {
  BENCH_CK(cub::DeviceHistogram::HistogramEven(nullptr, TempBytes, In, Bins,
                                               Levels, 0.0f, 1.0f, asInt(N)));
  Temp = bench::dbuf<char>(TempBytes ? TempBytes : 1);
}

void CubHistogramEven::run(cudaStream_t S) {
  BENCH_CK(cub::DeviceHistogram::HistogramEven(Temp.get(), TempBytes, In, Bins,
                                               Levels, 0.0f, 1.0f, asInt(N), S));
}

} // namespace peers
