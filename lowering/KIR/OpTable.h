//===- OpTable.h - KIR's op table -------------------------------*- C++ -*-===//
//
// One row per KIR Opcode (OpTable.cpp): printed name, operand and result
// arity, named regions, attribute schema (KIR/OpSchema.h, shared with the
// physical IR's table, Physical/OpTable.h). opcodeName, the parser's op
// names and the verifier's `[schema]` check come from it; the op-specific
// rules (types, regions' block arguments) stay in KIR/Verifier.cpp.
//
//===----------------------------------------------------------------------===//

#ifndef INTENT_KIR_OPTABLE_H
#define INTENT_KIR_OPTABLE_H

#include "KIR/KIR.h"
#include "KIR/OpSchema.h"

#include <optional>

namespace intent::kir {

struct OpInfo : schema::OpSchema {
  Opcode opcode;
};

/// The table row of `op`.
const OpInfo &opInfo(Opcode op);
/// Every row, indexed by Opcode.
llvm::ArrayRef<OpInfo> opTable();
/// The opcode printed as `name`, if any.
std::optional<Opcode> opcodeByName(llvm::StringRef name);

/// Checks `op` against its row; appends one `[schema] ...` message per
/// disagreement; returns true when there is none.
bool checkOpSchema(const Op &op, std::vector<std::string> &errors);

/// Spellings shared by both IRs' tables: the C math functions `math`
/// names, the reduction combiners, the atomic memory orders.
const std::vector<std::string> &mathFunctionNames();
const std::vector<std::string> &combinerNames();
const std::vector<std::string> &memoryOrderNames();

} // namespace intent::kir

#endif // INTENT_KIR_OPTABLE_H
