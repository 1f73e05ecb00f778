//===- Groups.h - Pass: dependence analysis and execution groups -*- C++ -*-===//
//
// Forms execution groups from the units (design.md §4.2):
//
//  - a parallel unit stays parallel when its domain is launch-visible and no
//    two of its instances may touch one element with a write (Conflict.h);
//    otherwise it becomes a single-instance ordered group;
//  - units that depend on each other (SSA values, or accesses that may alias
//    with a write) join one group. The group stays parallel only when all its
//    units are parallel over the same domain and every dependent access pair
//    is same-instance (fusion); otherwise it is ordered, one instance running
//    its units in KIR order;
//  - independent units are separate groups (disjoint segments later).
//
// Requires: buildWorksets. Guarantees: every unit in exactly one group;
// groups numbered in the order of their first unit; a parallel group's
// domain; the reason for every ordered group; a remark per group.
//
//===----------------------------------------------------------------------===//

#ifndef INTENT_CONSTRUCTION_GROUPS_H
#define INTENT_CONSTRUCTION_GROUPS_H

#include "Construction/State.h"

namespace intent::construct {

/// Fills unit accesses and s.groups.
void formGroups(ConstructionState &s);

} // namespace intent::construct

#endif // INTENT_CONSTRUCTION_GROUPS_H
