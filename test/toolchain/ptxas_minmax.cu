// A ptxas miscompilation found by the GPU differential fuzzer (seed 7,
// program 42, 2026-11-30): with CUDA 13.0 (V13.0.88) ptxas at -O1 and above
// computes
//
//     max(max(-x, a), min(p, x))
//
// wrongly in 32-bit integers for negative x (x = -100, a = 20, p = 5000
// gives 20, not 100), whatever the width x was loaded with, for sm_90a and
// sm_80, and for every spelling of min/max we tried (?:, ::max/::min, an
// if). The PTX
// nvcc emits is right (neg, max, min, max); `-Xptxas -O0` and `-G` give the
// right result; max(-x, a) alone, max(-x, min(p, x)) alone and
// max(-x, a) + min(p, x) are right. The generated code of an Intent kernel
// whose C++ computes this expression inherits the bug on the GPU (CPU mode
// and the serial build are right): this is not an Intent bug and we have no
// workaround yet (docs/runtime.md, "Toolchain issues").
//
// Not part of the test suites (it fails on the affected toolchain). On a GPU
// machine:
//
//   nvcc -arch=sm_90a -O2 test/toolchain/ptxas_minmax.cu -o /tmp/r && /tmp/r
//
// prints one line per type and exits 1 while the toolchain is affected.
#include <cstdint>
#include <cstdio>

// 32-bit arithmetic on x loaded as T (as the generated code does it): ptxas
// fuses the three into VIMNMX + VIMNMX3 and loses the negation of x (64-bit
// arithmetic is not fused and comes out right).
template <class T>
__host__ __device__ int64_t f(const T *o, const int32_t *a, const int32_t *p,
                              int i) {
  const int32_t x = static_cast<int32_t>(o[i]);
  const int32_t nx = -x;
  const int32_t m1 = nx < a[i] ? a[i] : nx;
  const int32_t m2 = p[i] < x ? p[i] : x;
  return m1 < m2 ? m2 : m1;
}

template <class T>
__global__ void k(int64_t *out, const T *o, const int32_t *a,
                  const int32_t *p, int n) {
  const int i = threadIdx.x;
  if (i < n)
    out[i] = f(o, a, p, i);
}

template <class T> int check(const char *name) {
  const int n = 4;
  const T ho[n] = {T(-100), T(-7), T(50), T(-1)};
  const int32_t ha[n] = {20, 3, 9, 0}, hp[n] = {5000, 100, 1000, 7};
  T *o;
  int64_t *out;
  int32_t *a, *p;
  cudaMalloc(&o, sizeof ho);
  cudaMalloc(&out, n * sizeof(int64_t));
  cudaMalloc(&a, sizeof ha);
  cudaMalloc(&p, sizeof hp);
  cudaMemcpy(o, ho, sizeof ho, cudaMemcpyHostToDevice);
  cudaMemcpy(a, ha, sizeof ha, cudaMemcpyHostToDevice);
  cudaMemcpy(p, hp, sizeof hp, cudaMemcpyHostToDevice);
  k<<<1, 32>>>(out, o, a, p, n);
  int64_t got[n];
  cudaMemcpy(got, out, sizeof got, cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int i = 0; i < n; ++i)
    bad += got[i] != f(ho, ha, hp, i);
  std::printf("%-8s %s\n", name, bad ? "WRONG (toolchain affected)" : "ok");
  cudaFree(o);
  cudaFree(out);
  cudaFree(a);
  cudaFree(p);
  return bad;
}

int main() {
  int bad = check<int8_t>("int8") + check<int16_t>("int16") +
            check<int32_t>("int32") + check<int64_t>("int64");
  return bad ? 1 : 0;
}
