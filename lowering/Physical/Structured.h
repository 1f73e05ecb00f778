//===- Structured.h - Structured physical ops: layout and identities -*- C++ -*-===//
//
// The executable structured ops of the physical IR (design.md §4.4, §4.7):
// reduce, scan, argreduce, region_fold and region_scan. This header is the
// single definition of their operand and region layout, of the combiner
// names and of the identity of every built-in combiner, shared by
// construction, the verifier, the interpreter and the emitter. The full
// semantics are in docs/physical-ir.md §5.5.
//
//   reduce      (begin, end, init...) -> acc...   regions value(k), combine(a..., b...)
//   scan        (begin, end, init...)             regions value(k), combine, emit(k, p...)
//   argreduce   (begin, end) -> (T, i64)          region  value(k)
//   region_fold (r, begin, end, init...)          regions value(r, k), combine, store(r, acc...)
//   region_scan (r, begin, end, init...)          regions value(r, k), combine, emit(r, k, p...),
//                                                 apply(r, in..., p...), final(r, s...)
//
// Region ops may carry `chunk` (a positive i64): their members are then
// processed in chunks of that many (chunk summary -> carried incoming state
// -> apply -> emit, final state), which regroups the fold; without it each
// region is one ordered loop. A `reassociate = false` op never has `chunk`.
//
//===----------------------------------------------------------------------===//

#ifndef INTENT_PHYSICAL_STRUCTURED_H
#define INTENT_PHYSICAL_STRUCTURED_H

#include "Physical/IR.h"

#include <optional>

namespace intent::phys {

/// Region positions of structured ops.
enum StructuredRegion : unsigned {
  ValueRegion = 0,   ///< the per-member summarizer
  CombineRegion = 1, ///< combine(acc..., x...) -> acc...
  OutRegion = 2,     ///< scan/region_scan emit, region_fold store
  /// region_scan: apply(r, in..., p...) -> q...: the prefix emit sees when
  /// the incoming state `in` was carried into a chunk whose local prefix
  /// (folded from the identity) is `p`.
  ApplyRegion = 3,
  /// region_scan: final(r, s...): the final-state flow, run once per region
  /// with its final state (init combined with every member's summary).
  FinalRegion = 4,
};

/// The chunk length of a region op (`chunk` attribute), or nullopt when
/// each region is processed as one ordered loop.
std::optional<int64_t> chunkLength(const Op &op);

/// True for reduce, scan, argreduce, region_fold, region_scan.
bool isStructured(Opcode op);
/// True for region_fold and region_scan (one data-dependent region each).
bool isRegionOp(Opcode op);
/// Number of regions a structured op has.
unsigned structuredRegionCount(Opcode op);

/// Operand accessors of structured ops.
/// region ops: the region index r (an i64 operand).
inline Value *regionIndex(const Op &op) { return op.operands[0]; }
/// The first member and one past the last member (i64).
inline Value *memberBegin(const Op &op) {
  return op.operands[isRegionOp(op.opcode) ? 1 : 0];
}
inline Value *memberEnd(const Op &op) {
  return op.operands[isRegionOp(op.opcode) ? 2 : 1];
}
/// The initial accumulator components (empty for argreduce).
llvm::ArrayRef<Value *> accInits(const Op &op);

/// True for "plus", "mul", "max", "min", "bit_and", "bit_or", "bit_xor" and
/// "user".
bool isKnownCombiner(llvm::StringRef combiner);

/// The identity of a built-in combiner on scalar kind `k` (as the attribute
/// a `constant` of that type holds: integers as their bit pattern, floats as
/// double); nullopt for "user" and for combiners that do not apply to `k`
/// (bitwise ops on floats).
std::optional<AttrValue> combinerIdentity(llvm::StringRef combiner,
                                          ScalarKind k);

/// The lowest / highest value of `k` (-inf / +inf for floating point), as
/// intent::detail::lowest / highest define them.
AttrValue lowestValue(ScalarKind k);
AttrValue highestValue(ScalarKind k);

/// The accumulator schema of an argreduce of value type `t`: the value
/// starts at lowest (max) or highest (min), the position at -1.
std::vector<AccComponent> argReduceSchema(bool isMax, const Type &t);

/// True when two identity attributes denote the same value of kind `k`
/// (floats bit for bit, NaN equal to NaN).
bool sameIdentity(const AttrValue &a, const AttrValue &b, ScalarKind k);

} // namespace intent::phys

#endif // INTENT_PHYSICAL_STRUCTURED_H
