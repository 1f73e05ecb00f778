//===- intent/runtime/copy.hpp - Helpers of generated copy code ----------===//
//
// What the blocks emitted by the copy primitive (lowering/Copy/Emit.h,
// docs/copy.md) call besides their inline PTX:
//
//   shared_address(p)            (device) the 32-bit shared-window address
//                                of a generic pointer into shared memory,
//                                the operand of ld.shared / st.shared;
//   copy_load_bits<B>(r, p)      B bytes at p into the uint32 scratch r;
//   copy_store_bits<B>(p, r)     the first B bytes of r to p;
//   copy_bytes<B>(dst, src)      one element of B bytes (scalar fallback).
//
// The bit helpers are the host equivalents of the PTX vector accesses: in
// cpu mode (the generated source compiled for the host, where the emitted
// `#if defined(__CUDA_ARCH__)` branches fall away) they move exactly the
// bytes the PTX would, and assert the alignment the PTX requires. On the
// device they serve local (per-thread) operands, which have no PTX form in
// the emitted code. All are header-only and need no CUDA header.
//
//===----------------------------------------------------------------------===//

#ifndef INTENT_RUNTIME_COPY_HPP
#define INTENT_RUNTIME_COPY_HPP

#include "intent/core.hpp"

#include <cassert>
#include <cstdint>

namespace intent {
namespace rt {

#if defined(__CUDA_ARCH__)
/// The shared-state-space address of P, which must point into shared
/// memory (cvta.to.shared).
__device__ inline unsigned shared_address(const void *P) {
  return static_cast<unsigned>(__cvta_generic_to_shared(P));
}
#endif

namespace detail {
/// The number of uint32 registers of a B-byte scratch.
template <int B> struct CopyRegs {
  static_assert(B == 1 || B == 2 || B == 4 || B == 8 || B == 16 || B == 32,
                "copy accesses move 1, 2, 4, 8, 16 or 32 bytes");
  static constexpr int value = B >= 4 ? B / 4 : 1;
};

/// Whether P is aligned to B bytes.
INTENT_HD inline bool copyAligned(const void *P, int B) {
  return (reinterpret_cast<std::uintptr_t>(P) &
          static_cast<std::uintptr_t>(B - 1)) == 0;
}
} // namespace detail

/// Loads B bytes at P (aligned to B, like the PTX access) into the low
/// bytes of scratch R.
template <int B>
INTENT_HD inline void copy_load_bits(unsigned (&R)[detail::CopyRegs<B>::value],
                                     const void *P) {
#if !defined(__CUDA_ARCH__)
  assert(detail::copyAligned(P, B) && "intent copy: misaligned vector load");
#endif
  __builtin_memcpy(R, P, B);
}

/// Stores the first B bytes of scratch R to P (aligned to B).
template <int B>
INTENT_HD inline void
copy_store_bits(void *P, const unsigned (&R)[detail::CopyRegs<B>::value]) {
#if !defined(__CUDA_ARCH__)
  assert(detail::copyAligned(P, B) && "intent copy: misaligned vector store");
#endif
  __builtin_memcpy(P, R, B);
}

/// Copies one B-byte element from Src to Dst.
template <int B> INTENT_HD inline void copy_bytes(void *Dst, const void *Src) {
  __builtin_memcpy(Dst, Src, B);
}

} // namespace rt
} // namespace intent

#endif // INTENT_RUNTIME_COPY_HPP
