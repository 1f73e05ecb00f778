//===- Serialization.h - Lost parallelism, for the user ---------*- C++ -*-===//
//
// Item "serialization is never silent": every place where construction
// gives up parallelism that the kernel's text asked for (a parallel_for
// whose group is serialized into one instance, a nested parallel_for kept as
// an ordered loop) is recorded as a Serialization (Physical/Remarks.h): a
// location, a cause naming the parameters and accesses as the user wrote
// them, and a fix. The pipeline keeps those the physical passes did not
// recover (lostParallelism) and the plugin reports them as warnings
// (-Wintent-serialization, docs/construction.md §5).
//
//===----------------------------------------------------------------------===//

#ifndef INTENT_CONSTRUCTION_SERIALIZATION_H
#define INTENT_CONSTRUCTION_SERIALIZATION_H

#include "Construction/State.h"

namespace intent::construct {

/// "parallel_for at 5:3", "store at 7:5".
std::string unitName(const Unit &u);

/// An access as the user wrote it: "in(i - 1, j)" (the root parameter or
/// buffer, coordinates over the user's index and value names).
std::string userAccess(const ConstructionState &s, const Unit &u,
                       const phys::AccessSummary &a);

/// Why the instances of parallel unit `u` conflict: `write` (a write) and
/// `other` (the same access when the write is not unique per instance).
Serialization conflictFinding(const ConstructionState &s, const Unit &u,
                              const phys::AccessSummary &write,
                              const phys::AccessSummary &other);

/// The extent of parallel unit `u` is not launch-visible.
Serialization extentFinding(const Unit &u);

/// A kernel-level buffer merges the instances of `u` (`reason`).
Serialization bufferFinding(const Unit &u, const std::string &reason);

/// The serial-only unit `u` (top-level code outside any parallel_for)
/// depends on the parallel unit `par`, so its group is serialized.
Serialization outsideFinding(const ConstructionState &s, const Unit &u,
                             const Unit &par);

/// Why dependent units `a` and `b` (a first) run in one instance: the pair
/// of accesses x (of a) and y (of b) that conflict, or null when b uses a
/// value a computes.
Serialization fusionFinding(const ConstructionState &s, const Unit &a,
                            const Unit &b, const phys::AccessSummary *x,
                            const phys::AccessSummary *y);

/// The findings of `s` that the final program did not recover, in source
/// order: a serialized group that grid-reduce split over many programs, a
/// nested parallel_for that cta-rows distributed over a CTA, and a nested
/// parallel_for inside an already serialized group are dropped.
std::vector<Serialization> lostParallelism(const ConstructionState &s);

} // namespace intent::construct

#endif // INTENT_CONSTRUCTION_SERIALIZATION_H
