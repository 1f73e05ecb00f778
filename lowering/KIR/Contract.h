//===- Contract.h - KIR contract: legality and expansion -------*- C++ -*-===//
//
// `contract %C, %A, %B {acc, batched}` is intent::matmul (include/intent/
// matmul.hpp) recorded as one op (docs/kir.md). This file holds the facts
// shared by the front end, the KIR verifier, the KIR interpreter and
// construction: the accumulator type of an element type, the operand check,
// and the expansion that construction starts from (a parallel_for over the
// batch and free axes with an ordered reduce over the paired axis k).
//
//===----------------------------------------------------------------------===//

#ifndef INTENT_KIR_CONTRACT_H
#define INTENT_KIR_CONTRACT_H

#include "KIR/KIR.h"

#include <memory>
#include <string>

namespace intent::kir {

/// accumulator_t<T> of the header: f32 for f16 / bf16, T otherwise.
ScalarKind contractAccumulator(ScalarKind elem);

/// Checks a contract op: three views of one non-bool element type, all of
/// rank 2 (batched = false) or rank 3 (batched = true), C with mutable
/// elements, no results or regions, attr acc naming contractAccumulator(T).
/// Returns the first problem, or "".
std::string checkContract(const Op &op);

/// True when some op of the kernel is a contract.
bool hasContract(const Kernel &k);

/// A copy of `k` in which every `contract` is replaced by the KIR with the
/// same semantics that construction maps (docs/construction.md):
///
///   parallel_for C.extent(0), .. {            // (b,) i, j: the workset
///     %s = reduce 0, A.extent(R-1), Acc(0) {combiner = "plus",
///                                           reassociate = false}
///       { ^(%k): yield Acc(A(.., i, k)) * Acc(B(.., k, j)) }
///       { ^(%x, %y): yield %x + %y }
///     store C, T(%s), (.., i, j)
///   }
///
/// Every other op is copied as is (new ids, same order, locations, attrs).
std::unique_ptr<Kernel> expandContracts(const Kernel &k);

} // namespace intent::kir

#endif // INTENT_KIR_CONTRACT_H
