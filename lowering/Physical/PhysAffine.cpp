//===- PhysAffine.cpp - Affine forms of physical coordinate SSA ------------===//

#include "Physical/PhysAffine.h"

#include "Physical/Structured.h"

using namespace intent;
using namespace intent::phys;

void PhysAffine::setMember(const Value *v, unsigned dim) {
  std::string atom = "m" + std::to_string(v->id);
  space.memberOf[atom] = dim;
  space.invariant[atom] = false;
}

bool PhysAffine::isCoord(const Value *v, unsigned &dim) const {
  auto it = coord.find(v);
  if (it == coord.end())
    return false;
  dim = it->second;
  return true;
}

std::string PhysAffine::key(const Value *v, bool &inv) {
  // Defined before the loop whose iterations are the instances: the same
  // value in each of them.
  if (iterationScope && !iterationScope->count(v) && !isParam(v))
    return "o" + std::to_string(v->id);
  if (v->isBlockArg()) {
    if (isParam(v))
      return "p" + std::to_string(v->argNo);
    inv = false;
    std::string member = "m" + std::to_string(v->id);
    if (space.memberOf.count(member))
      return member;
    return "a" + std::to_string(v->id);
  }
  const Op &op = *v->def;
  switch (op.opcode) {
  case Opcode::LaunchValue:
    return "L" + std::to_string(op.intAttr("expr"));
  case Opcode::Constant:
    if (const auto *i = std::get_if<int64_t>(op.attr("value")))
      return std::to_string(*i);
    return "c" + std::to_string(v->id);
  case Opcode::ProgramId:
  case Opcode::Delinearize:
    inv = false;
    return "v" + std::to_string(v->id);
  default:
    break;
  }
  if (!isPure(op.opcode)) {
    inv = false;
    return "v" + std::to_string(v->id);
  }
  std::string s =
      opcodeName(op.opcode).str() + op.strAttr("pred") + op.strAttr("fn");
  if (op.opcode == Opcode::Extent || op.opcode == Opcode::Stride)
    s += std::to_string(op.intAttr("dim"));
  s += "(";
  for (unsigned i = 0; i < op.operands.size(); ++i)
    s += (i ? "," : "") + key(op.operands[i], inv);
  return s + ")";
}

Affine PhysAffine::of(const Value *v) {
  auto it = coord.find(v);
  if (it != coord.end())
    return Affine::ofAtom(instanceAtom(it->second));
  if (const Op *op = v->def) {
    switch (op->opcode) {
    case Opcode::Constant:
      if (const auto *i = std::get_if<int64_t>(op->attr("value")))
        return Affine::ofConstant(*i);
      break;
    case Opcode::Add:
      return of(op->operands[0]).plus(of(op->operands[1]));
    case Opcode::Sub:
      return of(op->operands[0]).plus(of(op->operands[1]).scaled(-1));
    case Opcode::Neg:
      return of(op->operands[0]).scaled(-1);
    case Opcode::Mul: {
      if (std::optional<Affine> r =
              of(op->operands[0]).times(of(op->operands[1])))
        return *r;
      break;
    }
    case Opcode::Cast: {
      const Value *src = op->operands[0];
      if (!v->type.isInteger() || !src->type.isInteger())
        break;
      if (kir::Type::scalar(v->type.elem).bitWidth() >=
          kir::Type::scalar(src->type.elem).bitWidth())
        return of(src);
      unsigned dim;
      if (isCoord(src, dim)) {
        auto lim = coordLimit.find(dim);
        if (lim != coordLimit.end() && lim->second <= indexLimit(v->type.elem))
          return of(src);
      }
      break;
    }
    default:
      break;
    }
  }
  bool inv = true;
  std::string k = key(v, inv);
  space.invariant[k] = inv;
  if (v->isBlockArg() && !isParam(v) && !space.memberOf.count(k))
    recordCounter(v, k);
  return Affine::ofAtom(k);
}

void PhysAffine::recordCounter(const Value *v, const std::string &atom) {
  // A loop body's argument that the body passes on unchanged, no
  // `continue` replaces, and the step moves by a constant c: it only grows
  // from its initial value (c >= 0) or only shrinks (c <= 0).
  const Block *body = v->owner;
  const Op *loop = body && body->parent ? body->parent->parent : nullptr;
  // A `for`'s iteration variable only takes values from its lower bound up.
  if (loop && loop->opcode == Opcode::For && v->argNo == 0 &&
      loop->operands.size() == 2) {
    Affine lb = of(loop->operands[0]);
    if (lb.valid)
      space.atLeast[atom] = lb;
    return;
  }
  if (!loop || loop->opcode != Opcode::Loop || loop->regions.size() != 3 ||
      body != &loop->regions[1]->block)
    return;
  const unsigned k = v->argNo;
  const Op *y = body->terminator();
  if (!y || y->opcode != Opcode::Yield || k >= y->operands.size() ||
      y->operands[k] != v || k >= loop->operands.size())
    return;
  bool continues = false;
  walk(*loop->regions[1],
       [&](const Op &o) { continues |= o.opcode == Opcode::Continue; });
  if (continues)
    return;
  const Block &step = loop->regions[2]->block;
  const Op *sy = step.terminator();
  if (!sy || sy->opcode != Opcode::Yield || k >= sy->operands.size() ||
      k >= step.args.size())
    return;
  const Value *next = sy->operands[k];
  if (next->isBlockArg() ||
      !(next->def->opcode == Opcode::Add || next->def->opcode == Opcode::Sub))
    return;
  const Op &inc = *next->def;
  const Value *arg = step.args[k];
  const Value *by = inc.operands[0] == arg ? inc.operands[1]
                    : inc.opcode == Opcode::Add && inc.operands[1] == arg
                        ? inc.operands[0]
                        : nullptr;
  if (!by || by->isBlockArg())
    return;
  // A step of the CTA's size (cta-rows' strided iterations) is positive.
  const Value *size = by->def->opcode == Opcode::Cast && !by->def->operands.empty()
                          ? by->def->operands[0]
                          : by;
  const bool ctaStep = size->def && size->def->opcode == Opcode::CtaSize;
  const auto *c = by->def->opcode == Opcode::Constant
                      ? std::get_if<int64_t>(by->def->attr("value"))
                      : nullptr;
  if (!c && !ctaStep)
    return;
  const int64_t by1 = c ? *c : 1;
  const int64_t d = inc.opcode == Opcode::Sub ? -by1 : by1;
  Affine init = of(loop->operands[k]);
  if (!init.valid)
    return;
  // A growing counter that starts at lb + thread_id (cta-rows' iterations
  // strided over a CTA's threads) is at least lb.
  const Value *from = loop->operands[k];
  auto threadIndex = [](const Value *x) {
    if (x->def && x->def->opcode == Opcode::Cast && !x->def->operands.empty())
      x = x->def->operands[0];
    return x->def && (x->def->opcode == Opcode::ThreadId ||
                      x->def->opcode == Opcode::LaneId ||
                      x->def->opcode == Opcode::WarpId);
  };
  if (d >= 0 && from->def && from->def->opcode == Opcode::Add) {
    const Op &add = *from->def;
    const Value *rest = threadIndex(add.operands[1])   ? add.operands[0]
                        : threadIndex(add.operands[0]) ? add.operands[1]
                                                       : nullptr;
    if (rest) {
      Affine lb = of(rest);
      if (lb.valid) {
        space.atLeast[atom] = lb;
        return;
      }
    }
  }
  if (d >= 0)
    space.atLeast[atom] = init;
  if (d <= 0)
    space.atMost[atom] = init;
}

llvm::DenseMap<const Value *, unsigned> intent::phys::countUses(const Program &p) {
  llvm::DenseMap<const Value *, unsigned> uses;
  walk(*p.body, [&](const Op &op) {
    for (const Value *v : op.operands)
      ++uses[v];
  });
  return uses;
}

namespace {

/// The load behind a member bound (through an optional widening cast), with
/// every value on the way used exactly once.
const Op *boundLoad(const Value *v,
                    const llvm::DenseMap<const Value *, unsigned> &uses,
                    std::string &why, const char *which) {
  auto usedOnce = [&](const Value *x) {
    auto it = uses.find(x);
    return it != uses.end() && it->second == 1;
  };
  if (!usedOnce(v)) {
    why = std::string("the segment ") + which + " %" + std::to_string(v->id) +
          " is used outside its slicing relation; the segment extent would "
          "leak as an observable value";
    return nullptr;
  }
  const Op *def = v->def;
  if (def && def->opcode == Opcode::Cast) {
    const Value *src = def->operands[0];
    if (!usedOnce(src)) {
      why = std::string("the loaded segment ") + which + " %" +
            std::to_string(src->id) +
            " is used outside its slicing relation; the segment extent "
            "would leak as an observable value";
      return nullptr;
    }
    def = src->def;
  }
  if (!def || def->opcode != Opcode::Load) {
    why = std::string("the segment ") + which + " %" + std::to_string(v->id) +
          " is not loaded from the offsets (no source slicing relation)";
    return nullptr;
  }
  return def;
}

} // namespace

std::string
intent::phys::checkRegionSlicing(const Program &p, const Op &op,
                                 const llvm::DenseMap<const Value *, unsigned> &uses) {
  std::string why;
  const Op *lb = boundLoad(memberBegin(op), uses, why, "begin");
  if (!lb)
    return why;
  const Op *ub = boundLoad(memberEnd(op), uses, why, "end");
  if (!ub)
    return why;
  const Value *mem = lb->memory();
  if (ub->memory() != mem)
    return "begin and end are loaded from different offsets";
  if (mem->type.rank != 1 || !Type::scalar(mem->type.elem).isInteger())
    return "the offsets are not a rank-1 integer view";
  if (lb->coords().size() != 1 || ub->coords().size() != 1)
    return "the offsets loads need one coordinate";
  InstanceSpace space;
  PhysAffine aff(p, space);
  Affine cb = aff.of(lb->coords()[0]), ce = aff.of(ub->coords()[0]);
  Affine r = aff.of(regionIndex(op));
  if (!cb.valid || !(ce == cb.plus(Affine::ofConstant(1))))
    return "the end is not loaded at the begin's coordinate + 1";
  if (!r.valid || r.terms.size() != 1 || r.constant != 0 ||
      r.terms.begin()->second != 1)
    return "the region index is not a single coordinate or loop index";
  // c - r may only hold terms that are equal in every instance (a slice's
  // begin): then different r select different, disjoint regions.
  Affine rest = cb.plus(r.scaled(-1));
  for (const auto &[atom, c] : rest.terms)
    if (r.terms.count(atom) || !space.isInvariant(atom))
      return "the begin is not loaded at offsets(r + invariant)";
  return "";
}
