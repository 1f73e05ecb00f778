//===- LaunchLowering.h - KIR values -> launch expressions ------*- C++ -*-===//
//
// Analysis: decides whether a KIR value is launch-visible (computable by the
// host before the launch from ABI scalars, constexpr values and view
// extents/strides through integer arithmetic) and, if so, builds its launch
// expression in the program's hash-consed table (design.md §4.4). Loads, loop
// or parallel indices and float arithmetic are not launch-visible.
//
//===----------------------------------------------------------------------===//

#ifndef INTENT_CONSTRUCTION_LAUNCHLOWERING_H
#define INTENT_CONSTRUCTION_LAUNCHLOWERING_H

#include "Construction/ViewRelations.h"
#include "Physical/IR.h"

#include <optional>
#include <string>

namespace intent::construct {

/// Returns the launch expression of `v`, or nullopt with `why` saying which
/// value makes it data-dependent.
std::optional<unsigned> lowerToLaunch(const kir::Value *v,
                                      const kir::Kernel &k,
                                      phys::Program &p, std::string &why);
std::optional<unsigned> lowerToLaunch(const CExprRef &e, const kir::Kernel &k,
                                      phys::Program &p, std::string &why);

/// max(e, 0) as an i64 launch expression (a negative extent is empty).
unsigned clampedExtent(phys::Program &p, unsigned e);

/// Drops launch expressions that nothing refers to (segments, total,
/// `launch_value` ops) and renumbers the rest, keeping their order.
void compactLaunchExprs(phys::Program &p);

} // namespace intent::construct

#endif // INTENT_CONSTRUCTION_LAUNCHLOWERING_H
