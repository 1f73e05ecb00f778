//===- AtomicScope.h - Atomics: sharing domain -> hardware scope -*- C++ -*-===//
//
// The CUDA scope of an atomic (the threads it is atomic and ordered with:
// cta, gpu or sys) is not a KIR fact. It follows from the physical mapping:
// which program instances may touch the addressed element concurrently,
// recorded as the buffer's sharing domain (Buffer::sharing). The rule, used
// by the atomic-scopes pass and checked by the verifier:
//
//   sharing instance -> thread (a private buffer: nothing else touches it;
//                             emitted as a plain read-modify-write, since
//                             hardware atomics are not defined on the local
//                             memory such a buffer lives in; only "thread"
//                             is legal for it)
//   sharing cta      -> cta  (memory shared by the threads of one CTA)
//   sharing launch   -> gpu  (external views, workspaces: every instance of
//                             the launch, possibly in different CTAs)
//   sharing system   -> sys  (also the host or other devices meanwhile)
//
// A wider scope than the rule's is legal (only slower) except for sharing
// instance; a narrower one is not. Construction records sharing instance for
// atomics on private buffers and launch for external views and workspaces;
// cta and system are not produced yet.
//
// Also here: when an atomic may be combined over a warp's lanes
// (`aggregate`, the aggregate-atomics pass), the rule that pass applies and
// the verifier checks.
//
//===----------------------------------------------------------------------===//

#ifndef INTENT_PHYSICAL_ATOMICSCOPE_H
#define INTENT_PHYSICAL_ATOMICSCOPE_H

#include "Physical/IR.h"
#include "Physical/Remarks.h"

#include <string>
#include <vector>

namespace intent::phys {

/// The buffer record an access's memory operand refers to (an external
/// view's record, or the record of the alloc's `buffer`), or null.
const Buffer *bufferOf(const Program &p, const Value *mem);

/// The narrowest scope that covers `s` ("thread", "cta", "gpu", "sys"), or "" for
/// Sharing::None.
llvm::StringRef scopeFor(Sharing s);
/// True when scope `scope` covers sharing domain `s`.
bool scopeCovers(llvm::StringRef scope, Sharing s);

/// Pass atomic-scopes: sets attr `scope` on every atomic from its buffer's
/// sharing domain and adds a remark per atomic saying what it chose and why.
/// Atomics whose buffer records no sharing domain are left without a scope
/// (the verifier reports them).
void assignAtomicScopes(Program &p, RemarkSink &sink);

/// The rule for `aggregate = warp | ticket` (the aggregate-atomics pass
/// applies it, the verifier's [atomic] checks it): a kind combined over the
/// lanes (warp: add, min, max; ticket: add), relaxed order, a scope wider
/// than the thread, and an old value either unread (`uses` 0: warp) or the
/// ticket of an integer add of a constant (every lane adds the same amount,
/// so lane k of a group reads old + k times it). "" when atomic `op` may
/// carry `marking`, else why not.
std::string aggregateProblem(const Op &op, llvm::StringRef marking,
                             unsigned uses);

} // namespace intent::phys

#endif // INTENT_PHYSICAL_ATOMICSCOPE_H
