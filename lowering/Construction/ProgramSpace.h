//===- ProgramSpace.h - Pass: the segmented program space -------*- C++ -*-===//
//
// Gives every execution group a segment of the 1-D program space (design.md
// §4.3-§4.4): a parallel group's launch-visible domain is flattened
// row-major, L_g = prod_d max(n_d, 0); an ordered group has L_g = 1;
// O_g = sum_{h<g} L_h and total = sum_g L_g, all as launch expressions that
// the host wrapper and the kernel evaluate identically. L_g == 0 gives an
// empty segment (no program runs group g); data-dependent extents never
// appear in these expressions (such groups are ordered, length 1).
//
// Requires: formGroups. Guarantees: Program::segments (one per group, in
// group order) and Program::total; a remark per segment.
//
//===----------------------------------------------------------------------===//

#ifndef INTENT_CONSTRUCTION_PROGRAMSPACE_H
#define INTENT_CONSTRUCTION_PROGRAMSPACE_H

#include "Construction/State.h"

namespace intent::construct {

void assignProgramSpace(ConstructionState &s);

} // namespace intent::construct

#endif // INTENT_CONSTRUCTION_PROGRAMSPACE_H
