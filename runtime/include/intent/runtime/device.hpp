//===- intent/runtime/device.hpp - Helpers for generated kernel code -----===//
//
// What a generated program function (<base>_program, see docs/runtime.md
// "Generated code ABI") may call besides the user API: 64-bit program ids,
// the segment table of a multi-group program space, row-major coordinate
// decoding, unchecked view addressing, vector loads/stores and scoped
// atomics (atomics.hpp). Every helper is __host__ __device__ (INTENT_HD)
// unless it reads CUDA built-in variables, so the same program source runs
// on the GPU and, compiled for the host, in cpu mode.
//
//===----------------------------------------------------------------------===//

#ifndef INTENT_RUNTIME_DEVICE_HPP
#define INTENT_RUNTIME_DEVICE_HPP

#include "intent/core.hpp"
#include "intent/runtime/atomics.hpp"
#include "intent/view.hpp"

#include <cassert>
#include <math.h>
#include <cstdint>

/// Marks a generated program function: callable from the __global__ grid
/// loop on the device and from the cpu-mode host loop.
#if defined(__CUDACC__)
#define INTENT_PROGRAM __host__ __device__ inline
#else
#define INTENT_PROGRAM inline
#endif

namespace intent {
namespace rt {

#if defined(__CUDACC__)
/// This thread's index in the whole grid, computed in 64 bits so that grids
/// with more than 2^31 threads do not overflow.
__device__ inline index global_thread_id() {
  return static_cast<index>(blockIdx.x) * static_cast<index>(blockDim.x) +
         static_cast<index>(threadIdx.x);
}

/// The number of threads in the grid (64-bit): the grid-stride step.
__device__ inline index global_thread_count() {
  return static_cast<index>(gridDim.x) * static_cast<index>(blockDim.x);
}
#endif

/// The segmented program space of a kernel with G execution groups (design.md
/// §4.3): group g owns program ids [begin(g), end[g]). end[] is the inclusive
/// prefix sum of the groups' segment lengths, so end[G-1] is the total.
template <int G> struct segments {
  static_assert(G >= 1, "a kernel has at least one group");
  /// end[g] = L_0 + ... + L_g.
  index end[G];

  /// The first program id of group g.
  INTENT_HD index begin(int Group) const {
    return Group == 0 ? 0 : end[Group - 1];
  }
  /// The segment length L_g.
  INTENT_HD index length(int Group) const {
    return end[Group] - begin(Group);
  }
  /// The number of program ids of the whole launch.
  INTENT_HD index total() const { return end[G - 1]; }
};

/// The segment table for lengths L_0..L_{G-1}; a negative length (an empty
/// parallel_for with n < 0) counts as 0.
template <int G>
INTENT_HD segments<G> make_segments(const index (&Lengths)[G]) {
  segments<G> Result;
  index Sum = 0;
  for (int Group = 0; Group < G; ++Group) {
    Sum += Lengths[Group] > 0 ? Lengths[Group] : 0;
    Result.end[Group] = Sum;
  }
  return Result;
}

/// R coordinates decoded from a row-major linear index.
template <int R> struct coords {
  index c[R];
  INTENT_HD index operator[](int Dim) const { return c[Dim]; }
};

/// Decodes Linear (0 <= Linear < product of Extents) into row-major
/// coordinates over Extents, the last coordinate varying fastest: the
/// inverse of the flattening the host wrapper used for the segment length.
template <int R>
INTENT_HD coords<R> delinearize(index Linear, const index (&Extents)[R]) {
  coords<R> Result;
  for (int Dim = R - 1; Dim > 0; --Dim) {
    Result.c[Dim] = Linear % Extents[Dim];
    Linear /= Extents[Dim];
  }
  Result.c[0] = Linear;
  return Result;
}

/// The address of element (I...) of V without the host bounds assertion of
/// view::operator() (the physical program has already proven validity).
template <class T, int R, class... Is>
INTENT_HD T *element_ptr(const view<T, R> &V, Is... I) {
  static_assert(sizeof...(Is) == R, "element_ptr takes rank coordinates");
  const index Coords[R] = {static_cast<index>(I)...};
  index Offset = 0;
  for (int Dim = 0; Dim < R; ++Dim)
    Offset += Coords[Dim] * V.stride(Dim);
  return V.data() + Offset;
}

/// N contiguous elements of T moved as one aligned access (a 128-bit
/// ld.global.v4.f32 for vec<float, 4>).
template <class T, int N> struct alignas(sizeof(T) * N) vec {
  static_assert(N == 1 || N == 2 || N == 4 || N == 8 || N == 16,
                "vector width must be a power of two <= 16");
  static_assert(sizeof(T) * N <= 16 || sizeof(T) * N == 32,
                "vector access is at most 256 bits");
  T v[N];
  INTENT_HD T &operator[](int I) { return v[I]; }
  INTENT_HD const T &operator[](int I) const { return v[I]; }
};

/// P, opaque to the optimizer: loads through the result cannot be moved out
/// of the loop that computes it. cta-rows reads a row-invariant side input
/// (a weight vector) per row through it; hoisted out of the program loop,
/// its K values stayed live next to the row's K and spilled (rmsnorm at
/// K = 16: 148 bytes at 64 registers, 0 with it).
template <class T> INTENT_HD inline T *opaque(T *P) {
#if defined(__CUDA_ARCH__)
  asm volatile("" : "+l"(P));
#endif
  return P;
}

/// True when P is aligned to Bytes (a power of two).
INTENT_HD inline bool is_aligned(const void *P, std::size_t Bytes) {
  return (reinterpret_cast<std::uintptr_t>(P) & (Bytes - 1)) == 0;
}

/// Loads N contiguous elements starting at P, which must be aligned to
/// sizeof(T) * N (checked by assert in cpu mode).
template <int N, class T> INTENT_HD vec<std::remove_const_t<T>, N> load_vec(T *P) {
  using V = vec<std::remove_const_t<T>, N>;
#if !defined(__CUDA_ARCH__)
  assert(is_aligned(P, sizeof(V)) && "intent::rt::load_vec: misaligned");
#endif
  return *reinterpret_cast<const V *>(P);
}

/// Stores N contiguous elements starting at P, which must be aligned to
/// sizeof(T) * N (checked by assert in cpu mode).
template <int N, class T> INTENT_HD void store_vec(T *P, const vec<T, N> &Value) {
#if !defined(__CUDA_ARCH__)
  assert(is_aligned(P, sizeof(Value)) && "intent::rt::store_vec: misaligned");
#endif
  *reinterpret_cast<vec<T, N> *>(P) = Value;
}

/// The bits of From as a To of the same size (the physical IR's bitcast).
template <class To, class From> INTENT_HD To bit_cast(const From &F) {
  static_assert(sizeof(To) == sizeof(From), "intent::rt::bit_cast: sizes differ");
  To T;
  __builtin_memcpy(&T, &F, sizeof(To));
  return T;
}

/// Fast-math mode (intentc --fast-math, plugin argument fast-math): the
/// generated kernels call these for single-precision exp, exp2, log, log2,
/// log10, sin, cos, tan, pow and division. On the device they are the
/// hardware approximations (`__expf` is ex2.approx.f32 after a multiply,
/// `__fdividef` is div.full.f32, 2 ulp, 0 when |y| > 2^126); on the host (cpu
/// mode, the serial form) they are the exact C functions, so fast-math
/// results differ between cpu and gpu mode by those functions' error.
#if defined(__CUDA_ARCH__)
#define INTENT_FAST_MATH_1(NAME, DEVICE, HOST)                                \
  INTENT_HD inline float NAME(float X) { return DEVICE(X); }
#define INTENT_FAST_MATH_2(NAME, DEVICE, HOST)                                \
  INTENT_HD inline float NAME(float X, float Y) { return DEVICE(X, Y); }
#else
#define INTENT_FAST_MATH_1(NAME, DEVICE, HOST)                                \
  INTENT_HD inline float NAME(float X) { return HOST(X); }
#define INTENT_FAST_MATH_2(NAME, DEVICE, HOST)                                \
  INTENT_HD inline float NAME(float X, float Y) { return HOST(X, Y); }
#endif
#if defined(__CUDA_ARCH__)
__device__ inline float approx_exp2(float X) {
  float R;
  asm("ex2.approx.f32 %0, %1;" : "=f"(R) : "f"(X));
  return R;
}
#endif
INTENT_FAST_MATH_1(fast_exp, __expf, ::expf)
INTENT_FAST_MATH_1(fast_exp2, approx_exp2, ::exp2f)
INTENT_FAST_MATH_1(fast_log, __logf, ::logf)
INTENT_FAST_MATH_1(fast_log2, __log2f, ::log2f)
INTENT_FAST_MATH_1(fast_log10, __log10f, ::log10f)
INTENT_FAST_MATH_1(fast_sin, __sinf, ::sinf)
INTENT_FAST_MATH_1(fast_cos, __cosf, ::cosf)
INTENT_FAST_MATH_1(fast_tan, __tanf, ::tanf)
INTENT_FAST_MATH_2(fast_pow, __powf, ::powf)
INTENT_HD inline float fast_div(float X, float Y) {
#if defined(__CUDA_ARCH__)
  return __fdividef(X, Y);
#else
  return X / Y;
#endif
}
#undef INTENT_FAST_MATH_1
#undef INTENT_FAST_MATH_2

} // namespace rt
} // namespace intent

#endif // INTENT_RUNTIME_DEVICE_HPP
