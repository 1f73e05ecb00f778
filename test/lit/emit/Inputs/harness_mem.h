// Memory for the emitted-kernel harnesses: CUDA managed memory in gpu mode
// (the kernels and the host both touch it), plain host memory otherwise
// (cpu mode runs the kernels on the host; there may be no CUDA device).
#ifndef INTENT_TEST_HARNESS_MEM_H
#define INTENT_TEST_HARNESS_MEM_H

#include <cuda_runtime.h>

#include <cstdlib>
#include <vector>

inline bool onGpu() {
  return intent::rt::mode() == intent::rt::device_mode::gpu;
}

/// Waits for the kernels before the host reads results.
inline void sync() { intent::rt::synchronize(); }

/// A fixed-size array visible to the kernels of the current mode.
template <class T> class Mem {
public:
  explicit Mem(size_t n, T fill = T()) : n(n), gpu(onGpu()) {
    size_t bytes = (n ? n : 1) * sizeof(T);
    if (gpu)
      cudaMallocManaged(reinterpret_cast<void **>(&p), bytes);
    else
      p = static_cast<T *>(std::malloc(bytes));
    for (size_t i = 0; i < n; ++i)
      p[i] = fill;
  }
  explicit Mem(const std::vector<T> &v) : Mem(v.size()) {
    for (size_t i = 0; i < n; ++i)
      p[i] = v[i];
  }
  Mem(Mem &&o) : p(o.p), n(o.n), gpu(o.gpu) { o.p = nullptr; }
  Mem(const Mem &) = delete;
  Mem &operator=(const Mem &) = delete;
  ~Mem() {
    if (p && gpu)
      cudaFree(p);
    else if (p)
      std::free(p);
  }
  T &operator[](size_t i) { return p[i]; }
  const T &operator[](size_t i) const { return p[i]; }
  T *data() { return p; }
  size_t size() const { return n; }

private:
  T *p = nullptr;
  size_t n = 0;
  bool gpu = false;
};

#endif // INTENT_TEST_HARNESS_MEM_H
