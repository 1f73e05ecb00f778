//===- Dependence.h - Access relations of units over KIR --------*- C++ -*-===//
//
// Analysis used by formGroups: summarises every load and store of a unit as
// an access on a root view parameter whose coordinates are affine forms over
// the unit's instance coordinates ("i0", "i1", ... = Unit::indices) and
// opaque KIR values ("vN"), with the instance-invariance of each atom. The
// legality rules themselves live in Physical/Conflict.h, shared with the
// construction verifier.
//
//===----------------------------------------------------------------------===//

#ifndef INTENT_CONSTRUCTION_DEPENDENCE_H
#define INTENT_CONSTRUCTION_DEPENDENCE_H

#include "Construction/State.h"

namespace intent::construct {

/// Fills u.accesses and u.space. Reports unsupported views as errors.
void summarizeUnit(ConstructionState &s, Unit &u);

/// True when unit `b` uses a value produced by unit `a`'s top-level op.
bool usesResultOf(const Unit &b, const Unit &a);

} // namespace intent::construct

#endif // INTENT_CONSTRUCTION_DEPENDENCE_H
