//===- Atomic.cpp - KIR atomics: operand layout and legality ---------------===//

#include "KIR/Atomic.h"

#include "llvm/ADT/StringSwitch.h"

using namespace intent;
using namespace intent::kir;

bool intent::kir::isAtomic(Opcode op) {
  return op == Opcode::Atomic || op == Opcode::AtomicCas;
}

unsigned intent::kir::atomicValueCount(Opcode op) {
  return op == Opcode::AtomicCas ? 2 : 1;
}

bool intent::kir::isAtomicKind(llvm::StringRef kind) {
  return kind == "add" || kind == "min" || kind == "max" || kind == "exch";
}

bool intent::kir::isMemoryOrder(llvm::StringRef order) {
  return llvm::StringSwitch<bool>(order)
      .Cases("relaxed", "acquire", "release", "acq_rel", "seq_cst", true)
      .Default(false);
}

bool intent::kir::isAtomicElement(ScalarKind k) {
  switch (k) {
  case ScalarKind::I32:
  case ScalarKind::U32:
  case ScalarKind::I64:
  case ScalarKind::U64:
  case ScalarKind::F32:
  case ScalarKind::F64:
    return true;
  default:
    return false;
  }
}

std::string intent::kir::checkAtomic(const Op &op) {
  unsigned values = atomicValueCount(op.opcode);
  if (op.operands.empty() || !op.operands[0]->type.isView())
    return "the location of an atomic must be a view element";
  const Type &vt = op.operands[0]->type;
  if (vt.constElem)
    return "atomic on a view of const elements";
  if (!isAtomicElement(vt.elem))
    return "atomic on elements of type " + scalarKindName(vt.elem).str() +
           " (expected i32, u32, i64, u64, f32 or f64)";
  if (op.operands.size() != 1 + values + vt.rank)
    return "expects " + std::to_string(values) +
           " value operand(s) and one index per dimension of the view";
  Type elem = elementType(vt);
  for (unsigned i = 1; i <= values; ++i)
    if (op.operands[i]->type != elem)
      return "atomic value operand type differs from the element type";
  for (unsigned i = 1 + values; i < op.operands.size(); ++i)
    if (!op.operands[i]->type.isInteger())
      return "index operand must be an integer";
  if (op.opcode == Opcode::Atomic) {
    if (!isAtomicKind(op.strAttr("kind")))
      return "atomic needs a kind (add, min, max or exch)";
    if (op.results.size() != 1 || op.results[0]->type != elem)
      return "atomic returns the old element (one result of the element type)";
  } else if (op.results.size() != 2 || op.results[0]->type != elem ||
             !op.results[1]->type.isBool()) {
    return "atomic_cas returns the old element and a bool success";
  }
  if (!isMemoryOrder(op.strAttr("order")))
    return "atomic needs a memory order (relaxed, acquire, release, acq_rel or "
           "seq_cst)";
  return "";
}
