//===- WidenShape.cpp - Pointwise segments (widen pass and verifier) ------===//

#include "Physical/Widen.h"

#include <algorithm>
#include <set>

using namespace intent;
using namespace intent::phys;

std::string intent::phys::pointwiseProblem(const Program &p, const Op &segOp) {
  if (segOp.regions.size() != 1)
    return "the segment has no region";
  const Block &b = segOp.regions[0]->block;
  if (b.args.size() != 1)
    return "the segment region does not take one local index";
  const Value *coord = nullptr;
  std::set<const Value *> stored;
  for (const auto &op : b.ops) {
    const Op &o = *op;
    if (!o.regions.empty())
      return "the instance has a nested " + opcodeName(o.opcode).str() +
             " (only straight-line code is widened)";
    switch (o.opcode) {
    case Opcode::Delinearize:
      if (coord || o.operands[0] != b.args[0] || o.results.size() != 1)
        return "the instance domain is not one-dimensional";
      coord = o.result(0);
      continue;
    case Opcode::Load:
    case Opcode::Store: {
      const Value *m = o.memory();
      if (!m->type.isView() || m->type.rank != 1 ||
          m->owner != &p.body->block)
        return "an access is not to a rank-1 view parameter";
      if (o.guard())
        return "an access is guarded";
      llvm::ArrayRef<Value *> c = o.coords();
      if (!coord || c.size() != 1 || c[0] != coord)
        return "an access is not at the instance coordinate (not pointwise)";
      if (o.opcode == Opcode::Store)
        stored.insert(m);
      else if (stored.count(m))
        return "a view is loaded after the instance stores it";
      continue;
    }
    case Opcode::Yield:
      continue;
    case Opcode::ProgramId:
    case Opcode::Rng:
      return "the instance uses " + opcodeName(o.opcode).str();
    default:
      if (!isPure(o.opcode))
        return "the instance has " + opcodeName(o.opcode).str() +
               " (only pure code, loads and stores are widened)";
    }
  }
  if (!coord)
    return "the instance domain is not one-dimensional";
  return "";
}

int intent::phys::widenWidth(const Op &segOp) {
  int64_t widest = 0;
  for (const auto &op : segOp.regions[0]->block.ops)
    if (op->opcode == Opcode::Load || op->opcode == Opcode::Store)
      widest = std::max(widest, scalarBytes(op->memory()->type.elem));
  if (widest == 0)
    return 1;
  return static_cast<int>(std::min<int64_t>(16, kWidenBytes / widest));
}
