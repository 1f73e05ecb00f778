//===- Dependence.cpp - Access relations of units over KIR -----------------===//

#include "Construction/Dependence.h"

#include "Construction/Buffers.h"
#include "Construction/ViewRelations.h"
#include "KIR/Atomic.h"

#include <algorithm>

using namespace intent;
using namespace intent::construct;
using kir::Op;
using kir::Opcode;
using phys::Affine;

namespace {

class Summarizer {
public:
  Summarizer(ConstructionState &s, Unit &u) : s(s), u(u) {
    u.space.rank = u.parallelCapable() && u.launchVisible ? u.indices.size() : 0;
    for (const auto &[v, dim] : u.members) {
      std::string atom = "v" + std::to_string(v->id);
      u.space.memberOf[atom] = dim;
      u.space.invariant[atom] = false;
    }
  }

  void run() {
    auto visit = [&](const Op &op) {
      if (op.opcode == Opcode::Load || op.opcode == Opcode::Store ||
          kir::isAtomic(op.opcode))
        summarize(op);
      if (op.opcode == Opcode::RegionFold || op.opcode == Opcode::RegionScan)
        summarizeOffsets(op);
    };
    visit(*u.op);
    for (const auto &r : u.op->regions)
      kir::walk(*r, visit);
  }

private:
  ConstructionState &s;
  Unit &u;

  int indexOf(const kir::Value *v) const {
    for (unsigned k = 0; k < u.indices.size(); ++k)
      if (u.indices[k] == v)
        return k;
    for (const auto &[alias, dim] : u.coordAliases)
      if (alias == v)
        return dim;
    return -1;
  }

  bool definedInUnit(const kir::Value *v) const {
    const kir::Block *b = v->isBlockArg() ? v->owner : v->def->parent;
    return b != &s.kernel.body->block;
  }

  bool invariant(const kir::Value *v) {
    if (!definedInUnit(v))
      return s.isReplicable(v);
    if (v->isBlockArg())
      return false;
    const Op &op = *v->def;
    if (kir::isReductionOp(op.opcode))
      return false; // folds loaded data
    switch (op.opcode) {
    case Opcode::Load:
    case Opcode::If:
    case Opcode::Loop:
      return false;
    default:
      for (const kir::Value *o : op.operands)
        if (o->type.isScalar() && !invariant(o))
          return false;
      return true;
    }
  }

  Affine atom(const std::string &name, bool inv) {
    u.space.invariant[name] = inv;
    return Affine::ofAtom(name);
  }

  Affine affineOf(const kir::Value *v) {
    int k = indexOf(v);
    if (k >= 0 && u.space.rank > 0)
      return Affine::ofAtom(phys::instanceAtom(k));
    if (!v->isBlockArg()) {
      const Op &op = *v->def;
      switch (op.opcode) {
      case Opcode::Constant:
        if (v->type.isInteger())
          return Affine::ofConstant(op.intAttr("value"));
        break;
      case Opcode::Add:
        return affineOf(op.operands[0]).plus(affineOf(op.operands[1]));
      case Opcode::Sub:
        return affineOf(op.operands[0]).plus(affineOf(op.operands[1]).scaled(-1));
      case Opcode::Neg:
        return affineOf(op.operands[0]).scaled(-1);
      case Opcode::Mul: {
        if (std::optional<Affine> r =
                affineOf(op.operands[0]).times(affineOf(op.operands[1])))
          return *r;
        break;
      }
      case Opcode::Cast: {
        const kir::Value *src = op.operands[0];
        if (!v->type.isInteger() || !src->type.isInteger())
          break;
        if (v->type.bitWidth() >= src->type.bitWidth())
          return affineOf(src);
        // An instance coordinate in [0, n) converted to a narrower integer
        // (`[&](int i)`) is the coordinate itself when n fits the type: the
        // launch checks that (formGroups records the precondition).
        int k = indexOf(src);
        if (k >= 0 && u.space.rank > 0) {
          std::pair<unsigned, phys::ScalarKind> n{k, v->type.elem};
          if (std::find(u.narrowed.begin(), u.narrowed.end(), n) ==
              u.narrowed.end())
            u.narrowed.push_back(n);
          return Affine::ofAtom(phys::instanceAtom(k));
        }
        break;
      }
      default:
        break;
      }
    }
    const std::string name = "v" + std::to_string(v->id);
    if (v->isBlockArg())
      recordCounter(v, name);
    return atom(name, invariant(v));
  }

  /// A loop body's argument `v` that the body passes on unchanged, no
  /// `continue` replaces, and the step region moves by a constant c: from
  /// its initial value, it only grows (c >= 0) or only shrinks (c <= 0).
  void recordCounter(const kir::Value *v, const std::string &name) {
    const kir::Block *body = v->owner;
    const Op *loop = body && body->parent ? body->parent->parent : nullptr;
    if (!loop || loop->opcode != Opcode::Loop || loop->regions.size() != 3 ||
        body != &loop->regions[1]->block)
      return;
    const unsigned k = v->argNo;
    const Op *y = body->terminator();
    if (!y || y->opcode != Opcode::Yield || k >= y->operands.size() ||
        y->operands[k] != v || k >= loop->operands.size())
      return;
    bool continues = false;
    kir::walk(*loop->regions[1], [&](const Op &o) {
      continues |= o.opcode == Opcode::Continue;
    });
    if (continues)
      return;
    const kir::Block &step = loop->regions[2]->block;
    const Op *sy = step.terminator();
    if (!sy || sy->opcode != Opcode::Yield || k >= sy->operands.size() ||
        k >= step.args.size())
      return;
    const kir::Value *next = sy->operands[k];
    if (next->isBlockArg() || !(next->def->opcode == Opcode::Add ||
                                next->def->opcode == Opcode::Sub))
      return;
    const Op &inc = *next->def;
    const kir::Value *arg = step.args[k];
    const kir::Value *by = inc.operands[0] == arg   ? inc.operands[1]
                           : inc.opcode == Opcode::Add &&
                                   inc.operands[1] == arg
                               ? inc.operands[0]
                               : nullptr;
    if (!by || by->isBlockArg() || by->def->opcode != Opcode::Constant ||
        !by->type.isInteger())
      return;
    int64_t c = by->def->intAttr("value");
    if (inc.opcode == Opcode::Sub)
      c = -c;
    Affine init = affineOf(loop->operands[k]);
    if (!init.valid)
      return;
    if (c >= 0)
      u.space.atLeast[name] = init;
    if (c <= 0)
      u.space.atMost[name] = init;
  }

  /// A structural name for a non-affine expression, and its invariance.
  std::string keyOf(const CExprRef &e, bool &inv) {
    switch (e->kind) {
    case CExpr::Kind::Value:
      inv &= invariant(e->value) && indexOf(e->value) < 0;
      return "v" + std::to_string(e->value->id);
    case CExpr::Kind::Const:
      return std::to_string(e->constant);
    case CExpr::Kind::Extent:
      return "ext(" + std::to_string(e->param) + "," + std::to_string(e->dim) + ")";
    case CExpr::Kind::Stride:
      return "str(" + std::to_string(e->param) + "," + std::to_string(e->dim) + ")";
    default: {
      static const char *names[] = {"", "", "", "", "add", "sub", "mul", "div", "rem"};
      std::string a = keyOf(e->lhs, inv), b = keyOf(e->rhs, inv);
      return std::string(names[static_cast<int>(e->kind)]) + "(" + a + "," + b + ")";
    }
    }
  }

  Affine affineOf(const CExprRef &e) {
    switch (e->kind) {
    case CExpr::Kind::Value:
      return affineOf(e->value);
    case CExpr::Kind::Const:
      return Affine::ofConstant(e->constant);
    case CExpr::Kind::Add:
      return affineOf(e->lhs).plus(affineOf(e->rhs));
    case CExpr::Kind::Sub:
      return affineOf(e->lhs).plus(affineOf(e->rhs).scaled(-1));
    case CExpr::Kind::Mul: {
      if (std::optional<Affine> r = affineOf(e->lhs).times(affineOf(e->rhs)))
        return *r;
      break;
    }
    default:
      break;
    }
    bool inv = true;
    std::string key = keyOf(e, inv);
    return atom(key, inv);
  }

  /// A region op reads its offsets at (r) and (r + 1), r being the value
  /// region's region index.
  void summarizeOffsets(const Op &op) {
    const kir::Value *r = op.regions[0]->block.args[0];
    CExprRef rc = CExpr::of(r);
    addAccess(op, op.operands[0], /*write=*/false, {rc});
    addAccess(op, op.operands[0], /*write=*/false,
              {CExpr::binary(CExpr::Kind::Add, rc, CExpr::ofConst(1))});
  }

  void summarize(const Op &op) {
    bool atomic = kir::isAtomic(op.opcode);
    bool write = op.opcode == Opcode::Store || atomic;
    unsigned first = atomic ? 1 + kir::atomicValueCount(op.opcode)
                     : write ? 2
                             : 1;
    std::vector<CExprRef> coords;
    for (unsigned i = first; i < op.operands.size(); ++i)
      coords.push_back(CExpr::of(op.operands[i]));
    addAccess(op, op.operands[0], write, std::move(coords));
    if (atomic && !u.accesses.empty() && u.accesses.back().kirOp == (int)op.id) {
      u.accesses.back().atomic = true;
      u.accesses.back().atomicUnit = u.op->id;
    }
  }

  void addAccess(const Op &op, const kir::Value *view, bool write,
                 std::vector<CExprRef> coords) {
    ViewChain chain;
    std::string err;
    if (!resolveView(view, chain, err)) {
      s.error(op.loc, err);
      return;
    }
    phys::AccessSummary a;
    if (chain.rootAlloc) {
      // A local buffer: a kernel-level one is shared by the instances that
      // use it (compared like a view); one allocated inside the unit is
      // private to its instance or iteration and never conflicts.
      const kir::Op &alloc = *chain.rootAlloc;
      a.root = -1;
      if (alloc.parent == &s.kernel.body->block)
        a.buffer = alloc.id;
      a.rootName = bufferName(alloc);
      a.elem = alloc.result()->type.elem;
      a.rank = 1;
      a.write = write;
      a.loc = op.loc;
      a.kirOp = op.id;
      for (const CExprRef &c : coords)
        a.coords.push_back(affineOf(c));
      u.accesses.push_back(std::move(a));
      return;
    }
    const kir::Param &root = s.kernel.params[chain.rootParam];
    a.root = chain.rootParam;
    a.rootName = root.name;
    a.elem = root.type.elem;
    a.rank = root.type.rank;
    a.constView = root.type.constElem;
    a.write = write;
    a.loc = op.loc;
    a.kirOp = op.id;
    for (const CExprRef &c : rootCoords(chain, coords))
      a.coords.push_back(affineOf(c));
    u.accesses.push_back(std::move(a));
  }
};

} // namespace

void construct::summarizeUnit(ConstructionState &s, Unit &u) {
  Summarizer(s, u).run();
}

bool construct::usesResultOf(const Unit &b, const Unit &a) {
  bool uses = false;
  auto visit = [&](const Op &op) {
    for (const kir::Value *v : op.operands)
      if (v->def == a.op)
        uses = true;
  };
  visit(*b.op);
  for (const auto &r : b.op->regions)
    kir::walk(*r, visit);
  return uses;
}
