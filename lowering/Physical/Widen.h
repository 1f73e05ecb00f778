//===- Widen.h - Shape facts of widened pointwise segments ------*- C++ -*-===//
//
// The widen pass (lowering/Passes/Widen.cpp, docs/passes.md §6) and the
// [widen] verifier checks share these: when a segment is pointwise (every
// access is an unguarded load/store of a rank-1 view parameter exactly at
// the instance coordinate), the chunk width, the program cap.
//
//===----------------------------------------------------------------------===//

#ifndef INTENT_PHYSICAL_WIDEN_H
#define INTENT_PHYSICAL_WIDEN_H

#include "Physical/IR.h"

#include <string>

namespace intent::phys {

/// Programs a widened segment runs at most (1024 CTAs of 256 threads:
/// about eight per SM of an H200); each strides over the chunks.
inline constexpr int64_t kWidenMaxPrograms = int64_t(1) << 18;
/// Bytes one chunk of the widest accessed element type spans (128 bits).
inline constexpr int64_t kWidenBytes = 16;

/// "" when the region of segment op `segOp` is pointwise: its ops are the
/// delinearize of the local index into one coordinate `i`, pure code
/// without regions, unguarded loads/stores of rank-1 view parameters at
/// exactly `[i]`, and the yield, and no view is loaded after it is stored
/// (the vector path loads every view of a chunk before it stores any).
/// Otherwise why not.
std::string pointwiseProblem(const Program &p, const Op &segOp);

/// Chunk width for a pointwise segment: kWidenBytes / the widest accessed
/// element, capped at 16 (1 when nothing is accessed).
int widenWidth(const Op &segOp);

} // namespace intent::phys

#endif // INTENT_PHYSICAL_WIDEN_H
