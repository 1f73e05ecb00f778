//===- test/copy/harness.hpp - Runs generated copy round trips -----------===//
//
// Hand-written half of the copy round-trip programs (the generated half,
// from roundtrip_gen.cpp, holds one struct per case with the emitted copy
// blocks). A case moves a region of a global buffer into shared memory
// (global->shared copy), synchronizes the CTA, and moves it back to another
// global buffer (shared->global copy); each of `kBlocks` CTAs handles its
// own region at global offset blk * kGBlockStride. Checked bit-exactly,
// against a reference computed here from the case's layout constants alone:
//   - out holds in's bytes at every region element and its sentinel bytes
//     everywhere else (no stray writes);
//   - shared memory (dumped raw after the copies) holds every region element
//     at swizzle(sBase + sum c_d * sStride_d).
//
// Modes: `cpu` emulates each CTA on the host, running every thread's part of
// phase 0, then every thread's part of phase 1 (the __syncthreads between
// them); `gpu` launches the kernel on device 0.
//
//===----------------------------------------------------------------------===//

#ifndef INTENT_TEST_COPY_HARNESS_HPP
#define INTENT_TEST_COPY_HARNESS_HPP

#include "intent/runtime/copy.hpp"

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_fp8.h>
#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace copytest {

/// The shared memory of one emulated or real CTA, aligned for 256-bit
/// accesses.
template <int Bytes> struct alignas(32) SharedTile {
  unsigned char bytes[Bytes];
};

/// A byte buffer aligned to 256 bytes, like cudaMalloc's, so that host
/// runs check the same alignment the device accesses need.
class Bytes {
public:
  Bytes(size_t n, unsigned char fill) : n(n) {
    p = static_cast<unsigned char *>(
        std::aligned_alloc(256, (n + 255) / 256 * 256 + 256));
    std::memset(p, fill, n);
  }
  Bytes(const Bytes &) = delete;
  Bytes &operator=(const Bytes &) = delete;
  ~Bytes() { std::free(p); }
  unsigned char *data() { return p; }
  const unsigned char *data() const { return p; }
  size_t size() const { return n; }
  unsigned char &operator[](size_t i) { return p[i]; }
  const unsigned char &operator[](size_t i) const { return p[i]; }
  unsigned char *begin() { return p; }
  unsigned char *end() { return p + n; }

private:
  size_t n;
  unsigned char *p;
};

/// Deterministic pseudo-random bytes (every bit pattern, NaNs included, must
/// survive a copy).
inline void fillRandom(Bytes &v, uint64_t seed) {
  uint64_t x = seed * 0x9E3779B97F4A7C15ull + 1;
  for (unsigned char &b : v) {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    b = static_cast<unsigned char>(x >> 24);
  }
}

/// The reference shared-memory swizzle (CuTe Swizzle<B, M, S>), written
/// independently of the copy library.
inline long long refSwizzle(long long x, int bits, int base, int shift) {
  if (bits == 0)
    return x;
  long long mask = ((1ll << bits) - 1) << (base + shift);
  return x ^ ((x & mask) >> shift);
}

/// Calls fn(global element offset, shared element offset) for every region
/// element of block blk.
template <class C, class F> void forEachElement(long long blk, F fn) {
  long long n = 1;
  for (int d = 0; d < C::kRank; ++d)
    n *= C::kShape[d];
  for (long long e = 0; e < n; ++e) {
    long long rest = e, g = C::kGBase + blk * C::kGBlockStride, s = C::kSBase;
    for (int d = C::kRank - 1; d >= 0; --d) {
      long long c = rest % C::kShape[d];
      rest /= C::kShape[d];
      g += c * C::kGStrides[d];
      s += c * C::kSStrides[d];
    }
    fn(g, refSwizzle(s, C::kSwzBits, C::kSwzBase, C::kSwzShift));
  }
}

/// One thread of the CTA: phase 0 loads the tile, phase 1 stores it.
template <class C>
__host__ __device__ void runPhase(int phase, const typename C::T *in,
                                  typename C::T *out, typename C::T *smem,
                                  long long blk, long long tid) {
  if (tid >= C::kActive)
    return; // threads outside the active set do not run the copy
  if (phase == 0)
    C::load(in, smem, blk, tid);
  else
    C::store(smem, out, blk, tid);
}

template <class C>
__global__ void roundTripKernel(const typename C::T *in, typename C::T *out,
                                unsigned char *raw) {
  __shared__ SharedTile<C::kSmemBytes> smem;
  using T = typename C::T;
  T *tile = reinterpret_cast<T *>(smem.bytes);
  runPhase<C>(0, in, out, tile, blockIdx.x, threadIdx.x);
  __syncthreads();
  runPhase<C>(1, in, out, tile, blockIdx.x, threadIdx.x);
  __syncthreads();
  for (int i = threadIdx.x; i < C::kSmemBytes; i += blockDim.x)
    raw[blockIdx.x * C::kSmemBytes + i] = smem.bytes[i];
}

/// Runs every CTA of case C on the host.
template <class C>
void runCpu(const Bytes &in, Bytes &out, Bytes &raw) {
  using T = typename C::T;
  static SharedTile<C::kSmemBytes> smem;
  for (long long blk = 0; blk < C::kBlocks; ++blk) {
    std::memset(smem.bytes, 0xCD, sizeof(smem.bytes));
    T *tile = reinterpret_cast<T *>(smem.bytes);
    for (int phase = 0; phase < 2; ++phase)
      for (long long tid = 0; tid < C::kThreads; ++tid)
        runPhase<C>(phase, reinterpret_cast<const T *>(in.data()),
                    reinterpret_cast<T *>(out.data()), tile, blk, tid);
    std::memcpy(raw.data() + blk * C::kSmemBytes, smem.bytes, C::kSmemBytes);
  }
}

#define COPYTEST_CUDA(call)                                                    \
  do {                                                                         \
    cudaError_t err_ = (call);                                                 \
    if (err_ != cudaSuccess) {                                                 \
      std::printf("  cuda error: %s (%s)\n", cudaGetErrorString(err_), #call); \
      return false;                                                            \
    }                                                                          \
  } while (0)

/// Runs case C on the GPU.
template <class C>
bool runGpu(const Bytes &in, Bytes &out, Bytes &raw) {
  using T = typename C::T;
  unsigned char *dIn = nullptr, *dOut = nullptr, *dRaw = nullptr;
  COPYTEST_CUDA(cudaMalloc(&dIn, in.size()));
  COPYTEST_CUDA(cudaMalloc(&dOut, out.size()));
  COPYTEST_CUDA(cudaMalloc(&dRaw, raw.size()));
  COPYTEST_CUDA(cudaMemcpy(dIn, in.data(), in.size(), cudaMemcpyHostToDevice));
  COPYTEST_CUDA(
      cudaMemcpy(dOut, out.data(), out.size(), cudaMemcpyHostToDevice));
  roundTripKernel<C><<<C::kBlocks, C::kThreads>>>(
      reinterpret_cast<const T *>(dIn), reinterpret_cast<T *>(dOut), dRaw);
  COPYTEST_CUDA(cudaGetLastError());
  COPYTEST_CUDA(cudaDeviceSynchronize());
  COPYTEST_CUDA(
      cudaMemcpy(out.data(), dOut, out.size(), cudaMemcpyDeviceToHost));
  COPYTEST_CUDA(
      cudaMemcpy(raw.data(), dRaw, raw.size(), cudaMemcpyDeviceToHost));
  COPYTEST_CUDA(cudaFree(dIn));
  COPYTEST_CUDA(cudaFree(dOut));
  COPYTEST_CUDA(cudaFree(dRaw));
  return true;
}

/// Runs case C in `mode` and checks it; prints "PASS name [mode]" or
/// "FAIL name [mode]" with the first mismatch.
template <class C> bool runCase(const std::string &mode) {
  constexpr size_t eb = sizeof(typename C::T);
  Bytes in(C::kGElems * eb, 0), out(in.size(), 0x5A),
      raw(static_cast<size_t>(C::kBlocks) * C::kSmemBytes, 0);
  fillRandom(in, C::kSeed);
  bool ran = mode == "gpu" ? runGpu<C>(in, out, raw)
                           : (runCpu<C>(in, out, raw), true);
  std::string error;
  std::vector<char> covered(C::kGElems, 0);
  for (long long blk = 0; blk < C::kBlocks && ran && error.empty(); ++blk) {
    forEachElement<C>(blk, [&](long long g, long long s) {
      if (!error.empty())
        return;
      covered[g] = 1;
      if (std::memcmp(&out[g * eb], &in[g * eb], eb) != 0)
        error = "out element at global offset " + std::to_string(g) +
                " differs from in (block " + std::to_string(blk) + ")";
      else if (std::memcmp(&raw[blk * C::kSmemBytes + s * eb], &in[g * eb],
                           eb) != 0)
        error = "shared element at offset " + std::to_string(s) +
                " does not hold global element " + std::to_string(g) +
                " (block " + std::to_string(blk) + ")";
    });
  }
  for (long long g = 0; g < C::kGElems && ran && error.empty(); ++g)
    for (size_t b = 0; b < eb && !covered[g]; ++b)
      if (out[g * eb + b] != 0x5A) {
        error = "stray write to out at global offset " + std::to_string(g);
        break;
      }
  bool ok = ran && error.empty();
  std::printf("%s %s [%s]\n", ok ? "PASS" : "FAIL", C::kName, mode.c_str());
  if (!error.empty())
    std::printf("  %s\n", error.c_str());
  return ok;
}

/// One entry of the generated case table.
struct CaseEntry {
  const char *name;
  bool (*run)(const std::string &mode);
};

/// usage: prog cpu|gpu [filter]. Exits 1 when a case failed.
inline int main(int argc, char **argv, const CaseEntry *cases, int n) {
  if (argc < 2 || (std::string(argv[1]) != "cpu" &&
                   std::string(argv[1]) != "gpu")) {
    std::fprintf(stderr, "usage: %s cpu|gpu [substring]\n", argv[0]);
    return 2;
  }
  int failed = 0, ran = 0;
  for (int i = 0; i < n; ++i) {
    if (argc > 2 && !std::strstr(cases[i].name, argv[2]))
      continue;
    ++ran;
    failed += !cases[i].run(argv[1]);
  }
  return failed == 0 && ran > 0 ? 0 : 1;
}

} // namespace copytest

#endif // INTENT_TEST_COPY_HARNESS_HPP
