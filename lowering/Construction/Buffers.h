//===- Buffers.h - Local buffers: scopes of KIR allocations -----*- C++ -*-===//
//
// Seed 000 §5: every KIR `alloc` (intent::buffer<T, N>) gets one physical
// allocation scope (docs/construction.md §"Local buffers"):
//
//  * an alloc inside a parallel_for body or another region is private to
//    the instance or iteration that executes it: program_private when it
//    runs once per program instance (directly in a parallel segment's
//    instance body), iteration_private when it runs once per iteration of
//    an ordered loop / region inside the instance;
//  * a kernel-level alloc (top of the kernel body) is shared by the units
//    that use it, which therefore join one group: an ordered group makes it
//    program_private to that single instance; a parallel group makes it an
//    invocation_workspace (a slice of the hidden workspace argument) that
//    the instances share with unique ownership (the group's accesses are
//    separated across instances, else the group would be ordered). A fill
//    value other than zero cannot be stored once per launch without an
//    extra launch, so such a buffer merges its instances instead (zero:
//    the runtime's zero_workspace).
//
//===----------------------------------------------------------------------===//

#ifndef INTENT_CONSTRUCTION_BUFFERS_H
#define INTENT_CONSTRUCTION_BUFFERS_H

#include "Construction/State.h"

namespace intent::construct {

/// The user's name of a buffer (its alloc result), or "buffer%N".
std::string bufferName(const kir::Op &alloc);
/// True when the fill value reads as all-zero bytes (+0, not -0.0).
bool isZeroFill(const kir::Op &alloc);
/// The kernel-level buffer allocated by KIR op `allocId`, or null.
const KernelBuffer *findKernelBuffer(const ConstructionState &s,
                                     unsigned allocId);
/// True when units a and b use one kernel-level buffer (they must run in
/// one group: groups do not order against each other).
bool shareKernelBuffer(const Unit &a, const Unit &b);
/// Why the instances of parallel unit `u` cannot share a kernel-level
/// buffer it uses (a non-zero fill value), or "".
std::string kernelBufferSerialReason(const ConstructionState &s,
                                     const Unit &u);

/// Pass place-buffers (after form-groups): the group and scope of every
/// kernel-level buffer, a remark per buffer, and an error for a buffer
/// without a fill value that is provably read before any write.
void placeBuffers(ConstructionState &s);

} // namespace intent::construct

#endif // INTENT_CONSTRUCTION_BUFFERS_H
