//===- InBounds.h - Proving accesses inside their resource ------*- C++ -*-===//
//
// The analysis behind Bounds::Proven (docs/physical-ir.md §5.3). Every
// coordinate of an access is put in affine form over the variables that
// have a known half-open range in the physical program:
//
//   * instance coordinates: result d of `delinearize %local, %n...` lies in
//     [0, n_d) (a segment extent `max(n, 0)` bounds it by n: an instance
//     exists only when n > 0);
//   * the induction variable of `for %lb, %ub` lies in [lb, ub);
//   * the member index k of a structured op lies in [begin, end); a region
//     op's region argument `r` is its r operand;
//   * in a CTA of T threads (Program::ctaThreads; 1 in a thread-scope
//     program) thread_id lies in [0, T), lane_id in [0, 32) and warp_id in
//     [0, T / 32); cta_size is the constant T;
//
// and over symbolic bounds (view extents, scalar parameters, launch
// expressions built from them). The coordinate's lowest and highest values
// are found by replacing each variable by its bound (by coefficient sign)
// until only symbols remain; the access is proven when, for every dimension,
// the lowest value is a constant >= 0 and the highest is `extent - 1 - c`
// with a constant c >= 0 of the same view and dimension (a buffer: its
// constant size). Only i64 add/sub/neg/mul-by-constant are looked through
// (two's-complement wrap-around commutes with them, so the affine value is
// the machine value whenever it lies in range); casts only where they keep
// the value (narrowing ones of values below a launch-checked extent). The
// extents of different views are unrelated: `x[i]` in a loop over
// y.extent(0) is not proven.
//
// Construction marks what this proves; the verifier re-proves every Proven
// claim with the same function.
//
//===----------------------------------------------------------------------===//

#ifndef INTENT_PHYSICAL_INBOUNDS_H
#define INTENT_PHYSICAL_INBOUNDS_H

#include "Physical/IR.h"

#include <string>

namespace intent::phys {

/// Returns "" when every coordinate of load/store/atomic `access` provably
/// lies in [0, extent) of its dimension of the addressed view or buffer
/// (for vector_load / vector_store also the last coordinate + width - 1),
/// else why not (e.g. "coordinate 0 may reach y.extent(0)").
std::string whyNotInBounds(const Program &p, const Op &access);

} // namespace intent::phys

#endif // INTENT_PHYSICAL_INBOUNDS_H
