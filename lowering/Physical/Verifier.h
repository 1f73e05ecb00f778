//===- Verifier.h - Construction verifier for physical programs -*- C++ -*-===//
//
// Checks the invariants of design.md §4.9 that apply to what construction
// produces today. Runs after construction and after every later pass. Each
// message starts with the check's tag in brackets:
//
//   [scope]      the exec scope is one that exists (thread today)
//   [launch]     launch expressions only use launch-visible values (ABI
//                scalars, constexprs, view extents/strides, integer ops)
//   [segments]   L_g = prod max(n_d, 0), O_g prefix sums, total = sum L_g;
//                ordered segments have length 1
//   [dispatch]   program_id, the round-up guard, one segment op per segment,
//                row-major delinearize of id - O_g by the segment's extents
//   [structure]  SSA dominance, terminators, break/continue targets, yields:
//                the program is interpretable on its own
//   [schema]     every op agrees with its op table row (OpTable.h):
//                operand, result and region counts; no unknown attribute,
//                each of its kind, enum values allowed, required ones present
//   [types]      every value has a legal physical type for its op
//   [attrs]      every op carries the attributes it needs to execute
//   [access]     every load/store addresses a root view or buffer with one
//                typed i64 coordinate per dimension, validity and provenance
//   [bounds]     every access claimed `proven` in bounds is re-proven from
//                the ranges of its coordinates (Physical/InBounds.h)
//   [active]     the active member set fits the exec scope and the place of
//                the access (self in thread programs; all / thread / leader
//                in cta programs, `thread` exactly in distributed regions,
//                `all` only for loads)
//   [origin]     every op names its KIR op (one the kernel has) or the
//                stage that synthesized it
//   [provenance] (with the KIR kernel) an access's recorded KIR op, KIR
//                coordinates, view chain and root agree with the KIR access,
//                and uncomposed coordinates equal the KIR ones
//   [buffers]    scope, init mode / first-write obligation, lifetime owner
//   [ownership]  writer/reader groups and ownership mode match the accesses
//   [conflicts]  no two instances of a parallel segment may touch an element
//                with a write (unordered conflicts closed); atomics of one
//                top-level KIR op are closed by atomic semantics
//   [dependences] no dependence between different groups (an ordered
//                dependence is never split across instances)
//   [coverage]   (with the KIR kernel) every KIR store / atomic is covered
//                by exactly one physical one, under the same parallel
//                iterations
//   [structured] reduce/scan/argreduce/region_fold/region_scan: complete
//                operands, results and regions; accumulator schema; an
//                identity per component; typed combine region; scan kind
//                and direction; arg-reduce which/tie/nan; region ops' source
//                slicing relation, with no segment bound leaking as an
//                observable value; callbacks without stores where the op's
//                semantics has none
//   [atomic]     atomic / atomic_cas: a legal memory order; a known kind;
//                typed results (old value; CAS success is bool) and value
//                operands; a supported element type on mutable memory; the
//                addressed buffer's sharing domain recorded; a scope, once
//                the atomic-scopes pass chose one, that covers that domain
//   [coop]       cooperative constructs (docs/passes.md): an ordered
//                segment run by several programs (grid-reduce) is in a cta
//                program, its program count min(..., C), and it allocates a
//                kept-zero invocation workspace of 1 + C words or more; a
//                kept-zero workspace is zero-filled and touched only by
//                atomics; cta-rows: `dist`
//                only on reduce/argreduce/parallel fors directly in a segment
//                of a cta program, distributed for iterations that do not
//                conflict, a CTA barrier between top-level ops that share
//                memory with a write, staged loads of row r of a staged parameter
//   [uniform]    barriers and shuffles are reached by every thread of their
//                scope: no enclosing condition, loop condition or bound
//                varies per thread (per warp for a warp barrier / shuffle)
//   [shared]     cta_shared records lie inside the CTA's shared memory and
//                do not overlap
//
//===----------------------------------------------------------------------===//

#ifndef INTENT_PHYSICAL_VERIFIER_H
#define INTENT_PHYSICAL_VERIFIER_H

#include "Physical/Conflict.h"
#include "Physical/IR.h"

#include <string>
#include <vector>

namespace intent::phys {

/// Verifies `p`. With `kernel` (the KIR it was built from) the origin-based
/// coverage check runs too. Appends one message per violation; returns true
/// when there is none.
bool verifyProgram(const Program &p, const kir::Kernel *kernel,
                   std::vector<std::string> &errors);

/// [coop] checks (VerifierCoop.cpp); runs on a structurally valid program.
void verifyCooperative(const Program &p, std::vector<std::string> &errors);
/// [uniform] barriers and shuffles only under control flow uniform over
/// their scope; [scope] primitives only in cta programs of whole warps
/// (VerifierUniform.cpp). Runs on a well-formed body.
void verifyUniform(const Program &p, std::vector<std::string> &errors);
/// [shared] cta_shared records inside the CTA's shared memory, disjoint,
/// only in cta programs (VerifierUniform.cpp); reads the records only.
void verifySharedBuffers(const Program &p, std::vector<std::string> &errors);

/// The accesses of one segment as conflict-analysis summaries (instance
/// coordinates are the segment's delinearize results). Used by the verifier
/// and exposed for tests.
std::vector<AccessSummary> summarizeSegment(const Program &p, const Op &seg,
                                            InstanceSpace &space);

/// Fills the memory part of an access summary for `mem` (a view parameter
/// or a buffer's alloc): root, name, element type, rank, const-ness, and
/// the workspace buffer it is, which Conflict.h's mayAlias compares.
void summarizeMemory(const Program &p, const Value *mem, AccessSummary &a);

/// The accesses inside `loop` (a `for`) as conflict-analysis summaries,
/// its iterations taken as the instances (coordinate 0 is its induction
/// variable; values defined before it are invariant).
std::vector<AccessSummary> summarizeIterations(const Program &p,
                                               const Op &loop,
                                               InstanceSpace &space);

/// A description of two iterations of `loop` that may touch one element
/// with a write (Conflict.h's rules), or "" when its iterations are
/// independent and may run on different threads in any order.
std::string iterationConflict(const Program &p, const Op &loop);

/// [structured] checks of every structured op; called by verifyProgram.
void verifyStructuredOps(const Program &p, std::vector<std::string> &errors);

/// [atomic] checks of every atomic op; called by verifyProgram.
void verifyAtomics(const Program &p, std::vector<std::string> &errors);
/// Local buffer checks ([buffer-scope], [buffer-instance], [buffer-init],
/// [buffer-ownership], VerifierBuffers.cpp); called by verifyProgram.
void verifyBuffers(const Program &p, std::vector<std::string> &errors);

/// Access and origin checks ([bounds], [active], [origin], [provenance],
/// VerifierAccess.cpp); called by verifyProgram on a well-formed body.
void verifyAccesses(const Program &p, const kir::Kernel *kernel,
                    std::vector<std::string> &errors);

/// Effect checks ([ownership], [conflicts], [dependences], [coverage]);
/// called by verifyProgram.
void verifyEffects(const Program &p, const kir::Kernel *kernel,
                   std::vector<std::string> &errors);

} // namespace intent::phys

#endif // INTENT_PHYSICAL_VERIFIER_H
