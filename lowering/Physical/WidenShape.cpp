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

bool intent::phys::isWidened(const Op &segOp) {
  for (const auto &op : segOp.regions[0]->block.ops)
    if (op->opcode == Opcode::Loop && op->origin.synth == "widen")
      return true;
  return false;
}

namespace {

bool isLaunchValue(const Value *v, unsigned expr) {
  return v && v->def && v->def->opcode == Opcode::LaunchValue &&
         v->def->intAttr("expr", -1) == static_cast<int64_t>(expr);
}

bool isConstant(const Value *v, int64_t &c) {
  if (!v || !v->def || v->def->opcode != Opcode::Constant)
    return false;
  const auto *i = std::get_if<int64_t>(v->def->attr("value"));
  if (!i)
    return false;
  c = *i;
  return true;
}

/// `v` is P or P * k with a constant k >= 1.
bool isInstanceStride(const Value *v, unsigned count) {
  if (isLaunchValue(v, count))
    return true;
  int64_t k = 0;
  return v && v->def && v->def->opcode == Opcode::Mul &&
         isLaunchValue(v->def->operands[0], count) &&
         isConstant(v->def->operands[1], k) && k >= 1;
}

} // namespace

std::vector<const Value *>
intent::phys::ownedChunkElements(const Op &segOp, unsigned count) {
  std::vector<const Value *> out;
  const Block &b = segOp.regions[0]->block;
  // Values congruent to the instance coordinate q modulo P, all >= 0.
  std::set<const Value *> chunkIndex;
  for (const auto &op : b.ops) {
    if (op->opcode == Opcode::Delinearize && op->operands[0] == b.args[0] &&
        op->results.size() == 1 && op->operands.size() == 2 &&
        isLaunchValue(op->operands[1], count))
      chunkIndex.insert(op->result());
    if (op->opcode != Opcode::Loop || op->operands.size() != 1 ||
        op->regions.size() != 3 || !chunkIndex.count(op->operands[0]))
      continue;
    const Block &body = op->regions[1]->block, &step = op->regions[2]->block;
    if (body.args.size() != 1 || step.args.size() != 1)
      continue;
    // The body yields its chunk unchanged (no break/continue elsewhere
    // changes it: every terminator that leaves the body is that yield).
    bool ok = body.terminator() &&
              body.terminator()->opcode == Opcode::Yield &&
              body.terminator()->operands.size() == 1 &&
              body.terminator()->operands[0] == body.args[0];
    walk(*op->regions[1], [&](const Op &o) {
      ok &= o.opcode != Opcode::Break && o.opcode != Opcode::Continue;
    });
    const Op *st = step.terminator();
    const Value *next = st && st->operands.size() == 1 ? st->operands[0]
                                                       : nullptr;
    ok &= next && next->def && next->def->opcode == Opcode::Add &&
          next->def->operands[0] == step.args[0] &&
          isInstanceStride(next->def->operands[1], count);
    if (!ok)
      continue;
    chunkIndex.insert(op->result());
    const Value *c = body.args[0];
    walk(*op->regions[1], [&](const Op &f) {
      if (f.opcode != Opcode::For || f.operands.size() != 2)
        return;
      const Value *lb = f.operands[0], *ub = f.operands[1];
      int64_t w = 0, w2 = 0;
      if (!lb->def || lb->def->opcode != Opcode::Mul ||
          lb->def->operands[0] != c || !isConstant(lb->def->operands[1], w) ||
          w < 1)
        return;
      if (!ub->def || ub->def->opcode != Opcode::Min)
        return;
      const Value *e = ub->def->operands[0];
      if (!e->def || e->def->opcode != Opcode::Add ||
          e->def->operands[0] != lb || !isConstant(e->def->operands[1], w2) ||
          w2 != w)
        return;
      out.push_back(f.regions[0]->block.args[0]);
    });
  }
  return out;
}
