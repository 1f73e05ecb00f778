//===- OpTable.h - The physical IR's op table -------------------*- C++ -*-===//
//
// One row per Opcode (OpTable.cpp) saying what an op looks like: its printed
// name, its operand and result arity, its regions and their names, and the
// schema of its attributes (name, typed kind, allowed enum spellings,
// required or optional). Everything generic about ops comes from it:
// opcodeName, isTerminator and isPure, the printer's op names and operand
// layout, the parser (Physical/Parser.h) and the verifier's [schema] check
// (checkOpSchema, run by verifyProgram for every op).
//
// Adding an op is one new Opcode and one table row; adding an attribute that
// a pass sets is one AttrSpec in that op's row (passes that set an attribute
// the table does not list fail the verifier right after they run).
//
//===----------------------------------------------------------------------===//

#ifndef INTENT_PHYSICAL_OPTABLE_H
#define INTENT_PHYSICAL_OPTABLE_H

#include "KIR/OpSchema.h"
#include "Physical/IR.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>
#include <vector>

namespace intent::phys {

using schema::AttrKind;
using schema::AttrSpec;
using schema::attrKindName;
using schema::kVariadic;

/// How an op's operands are laid out.
enum class OperandShape : uint8_t {
  /// Exactly `OpInfo::minOperands` ... `OpInfo::maxOperands`.
  Range,
  /// A memory access (load, store, atomics): the memory, `accessValues`
  /// value operands, one coordinate per dimension, then the guard when
  /// AccessInfo::hasGuard. Printed `%mem[%c0, ...], %value.. guard(%g)`.
  Access,
};

/// One row of the op table: the shared row fields (name, operand and
/// result arity, regions, attribute schema, terminator, pure;
/// KIR/OpSchema.h) and how the operands are laid out.
struct OpInfo : schema::OpSchema {
  Opcode opcode;
  OperandShape shape = OperandShape::Range;
  /// Access: value operands after the memory; kVariadic: as many as the
  /// op's `width` attribute says (vector_store).
  unsigned accessValues = 0;
  /// Load/store/atomics: the op carries an AccessInfo (printed `access(...)
  /// prov(...)`).
  bool hasAccess() const { return shape == OperandShape::Access; }
};

/// The last opcode (for iterating over all of them).
inline constexpr Opcode LastOpcode = Opcode::Bitcast;

/// The table row of `op`.
const OpInfo &opInfo(Opcode op);
/// Every row, indexed by Opcode.
llvm::ArrayRef<OpInfo> opTable();
/// The number of value operands of the memory access `op` after its memory
/// operand (its row's accessValues, or its `width` for vector_store).
unsigned accessValueCount(const Op &op);
/// The opcode printed as `name`, if any.
std::optional<Opcode> opcodeByName(llvm::StringRef name);

/// Checks `op` against its row: operand, result and region counts, and its
/// attributes (no unknown attribute, each of its kind, enum values allowed,
/// every required one present). Appends one `[schema] op N (name): ...`
/// message per disagreement; returns true when there is none.
bool checkOpSchema(const Op &op, std::vector<std::string> &errors);

} // namespace intent::phys

#endif // INTENT_PHYSICAL_OPTABLE_H
