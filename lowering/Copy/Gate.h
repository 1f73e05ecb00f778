//===- Gate.h - Admission checks shared by the copy variants ----*- C++ -*-===//
//
// The pieces of the vec_auto gate (design.md §5) that more than one variant
// uses. Each returns "" when the op passes and otherwise a precise,
// user-readable reason; a variant's `when` predicate chains them and reports
// the first failure.
//
//===----------------------------------------------------------------------===//

#ifndef INTENT_COPY_GATE_H
#define INTENT_COPY_GATE_H

#include "Copy/Copy.h"

#include <string>

namespace intent::copy {

/// The target is CUDA ("non-cuda target").
std::string checkCudaTarget(const Target &target);

/// The scope is thread, warp, warpgroup or cta.
std::string checkScopeKind(const ExecScope &scope);

/// Every thread of the scope is active (no enclosing `if` narrowed it).
std::string checkAllThreadsActive(const ExecScope &scope);

/// `_is_valid_copy`: equal element types, equal non-unit extents (in
/// order), non-negative strides, well-formed swizzles, and a destination
/// whose non-unit dimensions have non-zero strides (no aliased writes).
std::string checkValidCopy(const CopyOp &op);

/// The (dst, src) memory spaces form a global<->shared pair, in either
/// direction, with no local side.
std::string checkGlobalSharedPair(const CopyOp &op);

/// `_divides_thread_cnt`: the scope has threads, the region's extents are
/// constants, and its element count is a multiple of the thread count.
std::string checkDividesThreads(const CopyOp &op);

/// "global->shared" etc.
std::string directionName(const CopyOp &op);

} // namespace intent::copy

#endif // INTENT_COPY_GATE_H
