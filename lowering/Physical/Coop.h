//===- Coop.h - Cooperative constructs: shared layout facts -----*- C++ -*-===//
//
// The single definition of the layout of cooperative constructs (a
// `grid_reduce`, docs/passes.md), shared by the pass that creates them, the
// verifier, the interpreter and the CUDA emitter:
//
//   invocation workspace (u64 words, kept zero between launches):
//     word 0                    the arrival counter
//     word 1 + c*max + p        component c of program p's partial (bits)
//   shared memory (bytes):
//     [c * 256, c * 256 + 256)  component c of each warp's partial (32 x 8)
//     [256 * C, 256 * C + 8)    the "this program arrived last" flag
//
//===----------------------------------------------------------------------===//

#ifndef INTENT_PHYSICAL_COOP_H
#define INTENT_PHYSICAL_COOP_H

#include "Physical/IR.h"

namespace intent::phys {

/// The one reduce/argreduce directly in a grid_reduce's region (null when
/// there is none or more than one).
Op *gridReduceTarget(const Op &grid);

/// The loads of a reduction's value region that run for every member and
/// address a rank-1 view at exactly the member index k (top-level in the
/// region, unguarded): the ones a vector load can serve.
std::vector<const Op *> streamedLoads(const Op &target);

/// Accumulator components a grid_reduce exchanges: the reduce's components,
/// or (value, position) for an argreduce.
unsigned gridComponents(const Op &target);

/// Scalar kinds a warp shuffle moves (4 and 8 byte integers and floats).
bool isShuffleKind(ScalarKind k);

/// Workspace words a grid_reduce of `components` and up to `maxPrograms`
/// programs needs; shared bytes per CTA.
int64_t gridWorkspaceWords(unsigned components, int64_t maxPrograms);
int64_t gridSharedBytes(unsigned components);

/// cta-rows (docs/passes.md): the scratch bytes at shared offset 0 that a
/// CTA-distributed reduction of `components` components uses (warp
/// partials, then the broadcast result).
int64_t rowScratchBytes(unsigned components);
/// Bytes of one element of kind `k`.
int64_t elemBytes(ScalarKind k);

/// Combiners a grid_reduce may regroup AND reorder (commutative and, with
/// reassociate, associative up to float rounding).
bool isCommutativeCombiner(llvm::StringRef combiner);

} // namespace intent::phys

#endif // INTENT_PHYSICAL_COOP_H
