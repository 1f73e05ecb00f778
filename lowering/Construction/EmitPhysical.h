//===- EmitPhysical.h - Pass: the physical program body ---------*- C++ -*-===//
//
// Builds the initial physical program body (design.md §4.4):
//
//   %pid = program_id; if %pid < total {
//     segment g (%pid, O_g, L_g) { ^(%local):
//       %c... = delinearize %local by the clamped domain   (parallel groups)
//       replicated scalar code the group needs, in KIR order
//       the group's units in KIR order
//     } ...
//   }
//
// KIR ops map to physical ops one to one, except: sub-views vanish (their
// coordinates are composed onto the root view, so every access addresses an
// ABI view with explicit i64 coordinate SSA and provenance); extents of
// sub-views become arithmetic on root extents; a parallel_for that is not
// part of the instance domain becomes a nest of ordered `for` loops.
// Every view parameter gets an external-view buffer with its ownership.
//
// Requires: assignProgramSpace. Guarantees: a program that passes the
// construction verifier (Physical/Verifier.h); unused launch expressions
// are dropped.
//
//===----------------------------------------------------------------------===//

#ifndef INTENT_CONSTRUCTION_EMITPHYSICAL_H
#define INTENT_CONSTRUCTION_EMITPHYSICAL_H

#include "Construction/State.h"

namespace intent::construct {

void emitPhysical(ConstructionState &s);

} // namespace intent::construct

#endif // INTENT_CONSTRUCTION_EMITPHYSICAL_H
