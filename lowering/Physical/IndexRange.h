//===- IndexRange.h - 64-bit index values that fit 32 bits ------*- C++ -*-===//
//
// Intent's index type is 64-bit, and so is every coordinate, extent and the
// user's arithmetic on them (`i - 1`, `j + 1 < m`). On the GPU a 64-bit add
// or compare is two instructions and a 64-bit multiply several; a tiled
// program (Passes/Tile.cpp) spends most of its instructions on them. The
// dense variant of a tiled program (docs/passes.md §9) runs only when the
// wrapper has checked launch facts that bound them:
//
//   every view parameter's extents are at most kDenseExtent, and
//   every tile segment's instance count is at most kDenseExtent,
//
// so a tile instance's coordinates lie in [0, kDenseExtent) (0 for an
// inactive instance). From those facts, constants and the integer types of
// narrower values, this analysis bounds the i64 values of the tile segments'
// regions by interval arithmetic (add, sub, mul, neg, min, max, select,
// casts, the results of `if`s); a value whose interval lies inside int32_t
// is computed in 32 bits there (the emitter's dense variant). Nothing else
// is assumed: a value loaded from memory, a scalar parameter, a launch value
// or a loop variable is unbounded, and so is anything computed from it.
//
//===----------------------------------------------------------------------===//

#ifndef INTENT_PHYSICAL_INDEXRANGE_H
#define INTENT_PHYSICAL_INDEXRANGE_H

#include "Physical/IR.h"

#include <cstdint>
#include <set>

namespace intent::phys {

/// The bound of view extents and tile instance counts the dense variant's
/// wrapper checks (2^30: sums and differences of two such values, plus a
/// tile, still fit int32_t).
constexpr int64_t kDenseExtent = int64_t(1) << 30;

/// A closed interval of int64 values, or unknown.
struct IndexRange {
  bool known = false;
  int64_t lo = 0, hi = 0;
  bool fitsInt32() const {
    return known && lo >= INT32_MIN && hi <= INT32_MAX;
  }
};

/// The i64 values defined in `p`'s tile segment regions (segment ops with a
/// `tile` attribute) whose every value, under the dense variant's launch
/// facts, lies in int32_t.
std::set<const Value *> denseInt32Values(const Program &p);

/// The range of `v` under the dense variant's launch facts (exposed for
/// tests).
IndexRange denseRange(const Program &p, const Value *v);

} // namespace intent::phys

#endif // INTENT_PHYSICAL_INDEXRANGE_H
