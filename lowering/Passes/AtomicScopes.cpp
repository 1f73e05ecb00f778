//===- AtomicScopes.cpp - The atomic-scopes pass ---------------------------===//
//
// The registered pass around phys::assignAtomicScopes (Physical/
// AtomicScope.h, shared with the verifier's [atomic] scope check): every
// atomic gets the narrowest hardware scope covering its buffer's sharing
// domain, with a remark saying why.
//
//===----------------------------------------------------------------------===//

#include "Passes/Passes.h"

#include "Physical/AtomicScope.h"

void intent::passes::atomicScopes(phys::Program &p, phys::RemarkSink &sink) {
  phys::assignAtomicScopes(p, sink);
}
