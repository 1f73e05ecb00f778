//===- Atomic.h - KIR atomics: operand layout and legality -----*- C++ -*-===//
//
// The facts about `atomic` and `atomic_cas` (docs/kir.md) shared by the KIR
// verifier, construction, the physical verifier and the emitter: where the
// value operands and coordinates are, which kinds, memory orders and element
// types exist. The location of an atomic is (memory value, coordinates), as
// for load/store, so that a local buffer can be the memory later.
//
//===----------------------------------------------------------------------===//

#ifndef INTENT_KIR_ATOMIC_H
#define INTENT_KIR_ATOMIC_H

#include "KIR/KIR.h"

#include <string>

namespace intent::kir {

/// True for `atomic` and `atomic_cas`.
bool isAtomic(Opcode op);
/// The number of value operands between the memory and the coordinates:
/// 1 for `atomic` (the operand), 2 for `atomic_cas` (expected, desired).
unsigned atomicValueCount(Opcode op);
/// "add", "min", "max", "exch".
bool isAtomicKind(llvm::StringRef kind);
/// "relaxed", "acquire", "release", "acq_rel", "seq_cst" (intent::memory_order).
bool isMemoryOrder(llvm::StringRef order);
/// Element types atomics support: i32, u32, i64, u64, f32, f64.
bool isAtomicElement(ScalarKind k);

/// Checks an atomic op's operands, results and attributes (the memory is a
/// mutable view, one integer coordinate per dimension, value operands and the
/// old-value result of the element type, a bool success result for CAS, a
/// known kind and memory order). Returns the first problem, or "".
std::string checkAtomic(const Op &op);

} // namespace intent::kir

#endif // INTENT_KIR_ATOMIC_H
