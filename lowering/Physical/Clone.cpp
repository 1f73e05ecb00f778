//===- Clone.cpp - Copying physical ops with a value map ------------------===//

#include "Physical/Clone.h"

#include "Physical/Parser.h"

using namespace intent;
using namespace intent::phys;

namespace {

/// Copies the printing hint and origins of `from` onto `to`.
void copyValueInfo(const Value *from, Value *to) {
  to->name = from->name;
  to->origin = from->origin;
  to->alsoFrom = from->alsoFrom;
}

} // namespace

Value *intent::phys::lookup(const ValueMap &map, Value *v) {
  auto it = map.find(v);
  return it == map.end() ? v : it->second;
}

Op *intent::phys::cloneOp(Builder &b, const Op &op, ValueMap &map) {
  return cloneOp(b, op, map, CloneHook());
}

Op *intent::phys::cloneOp(Builder &b, const Op &op, ValueMap &map,
                          const CloneHook &hook) {
  if (hook && hook(op))
    return nullptr;
  llvm::SmallVector<Value *, 4> operands;
  for (Value *v : op.operands)
    operands.push_back(lookup(map, v));
  llvm::SmallVector<Type, 2> types;
  for (const Value *r : op.results)
    types.push_back(r->type);
  Op *copy = b.create(op.opcode, operands, types);
  copy->loc = op.loc;
  copy->origin = op.origin;
  copy->attrs = op.attrs;
  copy->access = op.access;
  copy->acc = op.acc;
  for (unsigned i = 0; i < op.results.size(); ++i) {
    copyValueInfo(op.results[i], copy->results[i]);
    map[op.results[i]] = copy->results[i];
  }
  Block *saved = b.block;
  for (const auto &r : op.regions) {
    Region *nr = b.addRegion(copy);
    for (const Value *a : r->block.args) {
      Value *na = b.addBlockArg(&nr->block, a->type, a->name);
      copyValueInfo(a, na);
      map[a] = na;
    }
    b.setInsertionBlock(&nr->block);
    for (const auto &inner : r->block.ops)
      cloneOp(b, *inner, map, hook);
  }
  b.setInsertionBlock(saved);
  return copy;
}

void intent::phys::cloneOps(Builder &b, const Block &src, ValueMap &map,
                            bool withTerminator) {
  for (const auto &op : src.ops) {
    if (!withTerminator && op.get() == src.terminator() &&
        isTerminator(op->opcode))
      continue;
    cloneOp(b, *op, map);
  }
}

std::unique_ptr<Program> intent::phys::cloneProgram(const Program &p) {
  std::vector<std::unique_ptr<Program>> parsed;
  std::string error;
  if (!parsePrograms(programToString(p), p.name, parsed, error) ||
      parsed.size() != 1)
    return nullptr;
  parsed[0]->origin = p.origin;
  return std::move(parsed[0]);
}
