//===- Emit.h - CUDA C++ for a scheduled copy -------------------*- C++ -*-===//
//
// Turns a CopyPlan into one brace-enclosed CUDA C++ block statement that
// thread `tid` of the scope executes. Vector plans become a serial
// (`#pragma unroll 1`) loop nest over the outer axis whose body moves one
// vector through a uint32 scratch of the access width with inline PTX
// (ld.global[.cache].v4.u32 / st.shared.v4.u32 and the reverse; .v8 for
// 256-bit global accesses, .v2.u32/.u32/.u16/.u8 for narrower ones); the
// swizzled side's address is computed with the structured XOR form. Scalar
// plans become an element loop. Inside `#if defined(__CUDA_ARCH__)` only
// the PTX is device-specific: compiled for the host (cpu mode), the same
// block moves the same bytes with the helpers of
// runtime/include/intent/runtime/copy.hpp, so every thread's part can be
// run on the CPU.
//
// The generated block needs intent/runtime/copy.hpp; all its names start
// with `icp_`.
//
//===----------------------------------------------------------------------===//

#ifndef INTENT_COPY_EMIT_H
#define INTENT_COPY_EMIT_H

#include "Copy/Plan.h"

#include <string>

namespace intent::copy {

/// The C++ expressions the emitted block is written against.
struct EmitNames {
  /// Pointers to element 0 of the dst and src buffers (any object pointer
  /// type; dst not const). Each must be aligned to the widest access.
  std::string dst;
  std::string src;
  /// The thread's index in the scope, in [0, threads). Ignored for a
  /// single-thread scope.
  std::string tid;
  /// Prefix of every emitted line.
  std::string indent;
};

/// The block statement that performs `plan` for thread `names.tid`.
std::string emitCopy(const CopyPlan &plan, const EmitNames &names);

/// The PTX instruction of one vector access, e.g. "ld.global.cg.v4.u32" or
/// "st.shared.u16"; `bytes` is 1, 2, 4, 8, 16 or 32 (32: global only).
std::string ptxAccess(bool load, MemSpace space, unsigned bytes,
                      CacheHint cache);

} // namespace intent::copy

#endif // INTENT_COPY_EMIT_H
