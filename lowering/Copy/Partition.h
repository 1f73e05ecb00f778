//===- Partition.h - [outer, threads, vec] partitions of a copy -*- C++ -*-===//
//
// The layout algebra of the vector copy paths (design.md §5):
//
//   1. alignLayouts: pair the non-unit dimensions of dst and src, order them
//      by the driving side's strides (the global side; shared when neither
//      is global), outermost first, and coalesce neighbours that are
//      contiguous on BOTH sides;
//   2. vecRejection / widestVec: the widest vector in {128, 64, 32, 16, 8}
//      bits whose element count divides the contiguous tail and the
//      per-thread share, for which every non-vector stride (thread strides
//      included) and both base offsets are multiples, and which fits in one
//      swizzle chunk of each swizzled side;
//   3. synthesizePartition: split the fused index space into
//      [outer, threads, vec]: vec from the contiguous tail, threads from the
//      next dimensions inward-out, outer from the rest.
//
// All inputs must have passed the gate (Gate.h): constant extents, equal
// non-unit extents, equal element types, non-negative strides.
//
//===----------------------------------------------------------------------===//

#ifndef INTENT_COPY_PARTITION_H
#define INTENT_COPY_PARTITION_H

#include "Copy/Copy.h"

#include <functional>
#include <string>
#include <vector>

namespace intent::copy {

/// One dimension of the paired iteration space: its extent and the element
/// stride of each side.
struct PDim {
  int64_t extent = 1;
  int64_t dst = 0;
  int64_t src = 0;
  /// A runtime extent (C++ expression); only the scalar fallback has them.
  std::string dynExtent;
  bool operator==(const PDim &o) const {
    return extent == o.extent && dst == o.dst && src == o.src &&
           dynExtent == o.dynExtent;
  }
};

/// The copy's iteration space in canonical order after coalescing.
struct AlignedSpace {
  /// Outermost first; no unit dimension (empty for a one-element region).
  std::vector<PDim> dims;
  /// Product of the extents.
  int64_t elements = 1;
  /// Whether dst (rather than src) drives the order.
  bool dstDrives = false;

  /// Extent of the innermost dimension if it is unit-stride on both sides,
  /// else 1.
  int64_t contiguousTail() const;
};

/// Pairs, orders and coalesces the layouts of a gated op.
AlignedSpace alignLayouts(const CopyOp &op);

/// Why a vector of `vec` elements (a power of two) cannot move this copy
/// with `threads` threads, or "" when it can.
std::string vecRejection(const CopyOp &op, const AlignedSpace &space,
                         int64_t threads, int64_t vec);

/// The vector widths vec_auto tries, widest first.
const std::vector<unsigned> &autoVectorBits();

/// The widest vector (in elements) of autoVectorBits() that vecRejection
/// accepts; 1 (scalar) always qualifies once the element count divides the
/// thread count. Appends "<bits>-bit: <reason>" to `notes` for every wider
/// width it rejected, and "<bits>-bit: chosen" for the winner.
int64_t widestVec(const CopyOp &op, const AlignedSpace &space, int64_t threads,
                  std::vector<std::string> *notes);

/// The [outer, threads, vec] partition of an aligned space. Fused linear
/// index L = (f * threads + tid) * vec + v, f in [0, outer).
struct Partition {
  int64_t elements = 0;
  int64_t threads = 1;
  int64_t vec = 1;
  int64_t outer = 0;
  /// Whether the threads axis is a product of (pieces of) dimensions; then
  /// thread offsets are affine per threadDims digit and outer iterations
  /// are nested loops over outerDims.
  bool factored = true;
  /// Factored: the outer loops, outermost first (product = outer).
  std::vector<PDim> outerDims;
  /// Factored: tid decomposed row-major over these (product = threads).
  std::vector<PDim> threadDims;
  /// Not factored: the dimensions of f * threads + tid, in vector units
  /// (innermost extent divided by vec, strides scaled), decomposed per
  /// iteration.
  std::vector<PDim> fused;
};

/// Splits `space` into [outer, threads, vec]. Requires
/// vecRejection(op, space, threads, vec) == "".
Partition synthesizePartition(const AlignedSpace &space, int64_t threads,
                              int64_t vec);

/// Prints "[outer=8, threads=32, vec=4]".
std::string partitionShape(const Partition &p);

/// Calls fn(dstOffset, srcOffset) for the element offsets (before swizzle,
/// relative to the tile bases) of each vector thread `tid` moves, in
/// iteration order.
void forEachVector(const Partition &p, int64_t tid,
                   const std::function<void(int64_t, int64_t)> &fn);

} // namespace intent::copy

#endif // INTENT_COPY_PARTITION_H
