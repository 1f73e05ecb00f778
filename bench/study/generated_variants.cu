// Variants of our generated transpose / stencil program functions (mkvar.py)
// and the compiler's own dense kernels (tp_dense.cu / st_dense.cu: the
// generated files as they are),
// launched directly, checked, timed: which per-element cost holds them back.
#include <intent/runtime/kernel.hpp>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <vector>
#include <algorithm>
namespace tp_gen {
#include "tp_gen.cu"
}
namespace tp_s1 {
#include "tp_s1.cu"
}
namespace tp_i32 {
#include "tp_i32.cu"
}
namespace tp_dense {
#include "tp_dense.cu"
}
namespace st_dense {
#include "st_dense.cu"
}
namespace st_gen {
#include "st_gen.cu"
}
namespace st_s1 {
#include "st_s1.cu"
}
namespace st_i32 {
#include "st_i32.cu"
}
#define CKC(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("CUDA %s line %d\n", cudaGetErrorString(e), __LINE__); exit(1);} } while (0)
template <class F> static float timeit(F f, char *junk, size_t jb) {
  cudaEvent_t a, b; CKC(cudaEventCreate(&a)); CKC(cudaEventCreate(&b));
  for (int i = 0; i < 3; ++i) f();
  CKC(cudaDeviceSynchronize());
  std::vector<float> ts;
  for (int r = 0; r < 30; ++r) {
    CKC(cudaMemsetAsync(junk, r & 0xff, jb));
    CKC(cudaEventRecord(a)); f(); CKC(cudaEventRecord(b)); CKC(cudaEventSynchronize(b));
    float ms; CKC(cudaEventElapsedTime(&ms, a, b)); ts.push_back(ms);
  }
  CKC(cudaGetLastError());
  std::sort(ts.begin(), ts.end());
  return ts[ts.size() / 2];
}
__global__ void copy4(float4 *d, const float4 *s, long long n4) {
  for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n4; i += (long long)gridDim.x * blockDim.x) d[i] = s[i];
}
int main() {
  size_t jb = 256 << 20; char *junk; CKC(cudaMalloc(&junk, jb));
  int shapes[][2] = {{8192, 8192}, {6000, 3000}};
  for (auto &sh : shapes) {
    int n = sh[0], m = sh[1];
    size_t N = (size_t)n * m; double bytes = 2.0 * N * 4;
    float *a, *o; CKC(cudaMalloc(&a, N * 4)); CKC(cudaMalloc(&o, N * 4));
    std::vector<float> h(N), r(N), g(N);
    for (size_t i = 0; i < N; ++i) h[i] = (float)((i * 2654435761u) % 1000) / 7.f;
    CKC(cudaMemcpy(a, h.data(), N * 4, cudaMemcpyHostToDevice));
    float cms = timeit([&] { copy4<<<132 * 16, 256>>>((float4 *)o, (const float4 *)a, (long long)(N / 4)); }, junk, jb);
    auto report = [&](const char *name, float ms, bool ok) {
      printf("%-12s %5dx%-5d %8.4f ms %7.1f GB/s %5.1f%% of copy %s\n", name, n, m, ms, bytes / ms / 1e6, 100 * cms / ms, ok ? "ok" : "WRONG");
    };
    report("copy", cms, true);
    for (int i = 0; i < n; ++i) for (int j = 0; j < m; ++j) r[(size_t)j * n + i] = h[(size_t)i * m + j];
    intent::view<float, 2> out(o, {m, n});
    intent::view<const float, 2> in(a, {n, m});
#define RUNTP(NSP, FN) { \
      NSP::transpose_kernels_transpose_matrix_args args{out, in, nullptr, nullptr}; \
      long long total = NSP::transpose_kernels_transpose_matrix_eval(args).e39; \
      auto go = [&] { NSP::transpose_kernels_transpose_matrix_kernel<false><<<(unsigned)total, 256, 8192>>>(args, total); }; \
      CKC(cudaMemset(o, 0xff, N * 4)); go(); CKC(cudaDeviceSynchronize()); \
      CKC(cudaMemcpy(g.data(), o, N * 4, cudaMemcpyDeviceToHost)); \
      report(FN, timeit(go, junk, jb), g == r); }
    RUNTP(tp_gen, "tp gen") RUNTP(tp_s1, "tp s1") RUNTP(tp_i32, "tp i32")
    { tp_dense::transpose_kernels_transpose_matrix_args args{out, in, nullptr, nullptr};
      long long total = tp_dense::transpose_kernels_transpose_matrix_eval(args).e39;
      auto go = [&] { tp_dense::transpose_kernels_transpose_matrix_dense_kernel<false><<<(unsigned)total, 256, 8192>>>(args, total); };
      CKC(cudaMemset(o, 0xff, N * 4)); go(); CKC(cudaDeviceSynchronize());
      CKC(cudaMemcpy(g.data(), o, N * 4, cudaMemcpyDeviceToHost));
      report("tp dense", timeit(go, junk, jb), g == r); }
    for (int i = 0; i < n; ++i) for (int j = 0; j < m; ++j) {
      size_t q = (size_t)i * m + j; float s = h[q];
      if (i > 0) s += h[q - m]; if (i + 1 < n) s += h[q + m]; if (j > 0) s += h[q - 1]; if (j + 1 < m) s += h[q + 1];
      r[q] = 0.2f * s;
    }
    intent::view<float, 2> out2(o, {n, m});
    auto close = [&] { for (size_t i = 0; i < N; ++i) if (fabsf(g[i] - r[i]) > 1e-3f * (1 + fabsf(r[i]))) return false; return true; };
#define RUNST(NSP, FN) { \
      NSP::stencil_kernels_stencil5_args args{out2, in, nullptr, nullptr}; \
      long long total = NSP::stencil_kernels_stencil5_eval(args).e39; \
      auto go = [&] { NSP::stencil_kernels_stencil5_kernel<false><<<(unsigned)total, 256, 0>>>(args, total); }; \
      CKC(cudaMemset(o, 0xff, N * 4)); go(); CKC(cudaDeviceSynchronize()); \
      CKC(cudaMemcpy(g.data(), o, N * 4, cudaMemcpyDeviceToHost)); \
      report(FN, timeit(go, junk, jb), close()); }
    RUNST(st_gen, "st gen") RUNST(st_s1, "st s1") RUNST(st_i32, "st i32")
    { st_dense::stencil_kernels_stencil5_args args{out2, in, nullptr, nullptr};
      long long total = st_dense::stencil_kernels_stencil5_eval(args).e39;
      auto go = [&] { st_dense::stencil_kernels_stencil5_dense_kernel<false><<<(unsigned)total, 256, 0>>>(args, total); };
      CKC(cudaMemset(o, 0xff, N * 4)); go(); CKC(cudaDeviceSynchronize());
      CKC(cudaMemcpy(g.data(), o, N * 4, cudaMemcpyDeviceToHost));
      report("st dense", timeit(go, junk, jb), close()); }
    CKC(cudaFree(a)); CKC(cudaFree(o));
  }
}
