//===- Widen.h - Shape facts of widened pointwise segments ------*- C++ -*-===//
//
// The widen pass (lowering/Passes/Widen.cpp, docs/passes.md §6) and the
// verifier share these: when a segment is pointwise (every access is an
// unguarded load/store of a rank-1 view parameter exactly at the instance
// coordinate), the chunk width, the program cap, and the shape of the
// chunk traversal the pass writes (which elements an instance owns).
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

/// True when segment op `segOp` holds a chunk traversal the widen pass
/// wrote (a `loop` synthesized by "widen" at its top level).
bool isWidened(const Op &segOp);

/// The element indices of a widened segment's scalar path that provably
/// lie in chunks its instance owns: the induction variable of every `for
/// %b, %e` with b = c * W and e = min(b + W, x) (W a positive constant),
/// where c is a chunk index: the carried value of a top-level `loop` whose
/// step adds the instance count P (or a constant multiple of it) and whose
/// body yields c unchanged, started at the instance coordinate q =
/// delinearize(local, P) or at the result of such a loop. Then c = q (mod
/// P) and c >= 0, so different instances own disjoint elements: the
/// [conflicts] check treats these as members of q (PhysAffine::setMember).
/// `P` must be the launch value of expression `count`, the segment's one
/// extent.
std::vector<const Value *> ownedChunkElements(const Op &segOp, unsigned count);

} // namespace intent::phys

#endif // INTENT_PHYSICAL_WIDEN_H
