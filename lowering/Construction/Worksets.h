//===- Worksets.h - Pass: logical worksets from the kernel body -*- C++ -*-===//
//
// Splits the top level of the kernel body into units (design.md §4.1):
//
//  - pure scalar code and loads of const views are *replicated*: every group
//    that needs such a value recomputes it (and launch expressions recompute
//    extents), so it creates no dependence;
//  - each top-level parallel_for is a candidate workset. A parallel_for nested
//    at the top of its body is flattened into the instance domain when its
//    extents are launch-visible and the code around it has no effects (the
//    code before it is recomputed per instance, pure code after it is dead);
//    otherwise it stays an ordered loop inside the instance;
//    (a reduction around it is a shared producer: it stays an ordered loop);
//  - a top-level region_fold / region_scan is a candidate workset over its
//    regions r (launch-visible: offsets.extent(0) - 1); its members stay
//    inside the instance;
//  - every other top-level op (stores, loops or ifs with effects, loads of
//    mutable views, reduce / scan / argreduce) is an ordered unit.
//
// Requires: a verified KIR kernel. Guarantees: units in KIR order with ids
// 0..n-1; the domain of a parallel unit as launch expressions when every
// extent of its nest is launch-visible, else the reason it is not.
//
//===----------------------------------------------------------------------===//

#ifndef INTENT_CONSTRUCTION_WORKSETS_H
#define INTENT_CONSTRUCTION_WORKSETS_H

#include "Construction/State.h"

namespace intent::construct {

/// Fills s.replicable and s.units.
void buildWorksets(ConstructionState &s);

/// True when the op (and its regions) contain a store, an atomic, a print
/// or a parallel_for.
bool hasEffectsOrParallel(const kir::Op &op);

} // namespace intent::construct

#endif // INTENT_CONSTRUCTION_WORKSETS_H
