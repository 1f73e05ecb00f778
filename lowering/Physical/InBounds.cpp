//===- InBounds.cpp - Proving accesses inside their resource ---------------===//

#include "Physical/InBounds.h"

#include "Physical/Conflict.h"
#include "Physical/Structured.h"

#include <algorithm>
#include <cstdlib>

using namespace intent;
using namespace intent::phys;

namespace {

/// Coefficients and constants beyond this are not reasoned about: the
/// analysis' own int64 arithmetic must not wrap.
constexpr int64_t kMagnitude = int64_t(1) << 40;

bool small(const Affine &a) {
  if (!a.valid || std::llabs(a.constant) > kMagnitude)
    return false;
  for (const auto &[atom, c] : a.terms)
    if (std::llabs(c) > kMagnitude)
      return false;
  return true;
}

bool isSignedKind(ScalarKind k) { return kir::Type::scalar(k).isSigned(); }
unsigned widthOf(ScalarKind k) { return kir::Type::scalar(k).bitWidth(); }

class RangeAnalysis {
public:
  explicit RangeAnalysis(const Program &p) : p(p) {}

  /// The affine form of i64 value `v` over variables ("x<id>"), view
  /// extents ("E<param>.<dim>"), scalar parameters ("S<param>") and opaque
  /// values ("o<id>", "L<expr>").
  Affine form(const Value *v, unsigned depth = 0) {
    Affine a = formImpl(v, depth);
    return small(a) ? a : opaque(v);
  }

  /// The lowest (upper = false) or highest value of `a`: each variable is
  /// replaced by its bound until only symbols remain. Invalid when a
  /// variable's range is unknown or the chain is too deep.
  Affine extreme(Affine a, bool upper) {
    for (unsigned round = 0; round < 32 && a.valid; ++round) {
      auto it = std::find_if(a.terms.begin(), a.terms.end(), [](const auto &t) {
        return t.first[0] == 'x';
      });
      if (it == a.terms.end())
        return small(a) ? a : Affine::invalid();
      auto var = vars.find(it->first);
      int64_t c = it->second;
      a.terms.erase(it);
      if (var == vars.end())
        return Affine::invalid();
      const Affine &b = (c > 0) == upper ? var->second.hi : var->second.lo;
      a = a.plus(b.scaled(c));
    }
    return Affine::invalid();
  }

  /// Inside the `then` region of an `if (a < b)` (or <=, >, >=): when
  /// `a` is a variable, `b` (less one, for <) is also an upper bound of it;
  /// the guard's bound replaces the variable's own (both hold).
  void assumeGuard(const Op &cond) {
    if (cond.opcode != Opcode::Cmp || cond.operands.size() != 2)
      return;
    llvm::StringRef pred = cond.strAttr("pred");
    bool swap = pred == "gt" || pred == "ge";
    bool strict = pred == "lt" || pred == "gt";
    if (!strict && pred != "le" && pred != "ge")
      return;
    const Value *a = cond.operands[swap ? 1 : 0], *b = cond.operands[swap ? 0 : 1];
    if (!a->type.isIndex() || !b->type.isIndex())
      return;
    Affine x = form(a);
    if (!x.valid || x.constant != 0 || x.terms.size() != 1 ||
        x.terms.begin()->second != 1 || x.terms.begin()->first[0] != 'x')
      return;
    auto var = vars.find(x.terms.begin()->first);
    Affine hi = form(b).plus(Affine::ofConstant(strict ? -1 : 0));
    if (var != vars.end() && small(hi))
      var->second.hi = hi;
  }

private:
  struct Range {
    Affine lo, hi; ///< inclusive bounds
  };
  const Program &p;
  std::map<std::string, Range> vars;

  static Affine opaque(const Value *v) {
    return Affine::ofAtom("o" + std::to_string(v->id));
  }

  bool isParam(const Value *v) const {
    return v->isBlockArg() && v->owner == &p.body->block;
  }

  /// Registers variable `v` with range [lo, ub) and returns its atom.
  Affine variable(const Value *v, const Affine &lo, const Value *ub,
                  unsigned depth) {
    std::string atom = "x" + std::to_string(v->id);
    // Registered already (and perhaps narrowed by a guard): keep it.
    if (vars.count(atom))
      return Affine::ofAtom(atom);
    Affine hi = upper(ub, lo, depth + 1).plus(Affine::ofConstant(-1));
    if (!small(lo) || !small(hi))
      return opaque(v);
    vars[atom] = {lo, hi};
    return Affine::ofAtom(atom);
  }

  /// The symbolic exclusive upper bound `ub` of a variable whose lowest
  /// value is `lo`. `max(n, c)` with a constant c <= lo is n: were it c, no
  /// value in [lo, c) would exist.
  Affine upper(const Value *ub, const Affine &lo, unsigned depth) {
    bool loConst = lo.valid && lo.terms.empty();
    if (const Op *d = ub->def; d && loConst) {
      if (d->opcode == Opcode::LaunchValue) {
        int64_t e = d->intAttr("expr", -1);
        if (e >= 0 && static_cast<size_t>(e) < p.exprs.size()) {
          const LaunchExpr &x = p.exprs[e];
          if (x.kind == LaunchExpr::Kind::Max && x.operands.size() == 2)
            for (unsigned i = 0; i < 2; ++i) {
              const LaunchExpr &c = p.exprs[x.operands[1 - i]];
              if (c.kind == LaunchExpr::Kind::Const && c.value <= lo.constant)
                return launchForm(x.operands[i], depth + 1);
            }
        }
      }
      if (d->opcode == Opcode::Max)
        for (unsigned i = 0; i < 2; ++i) {
          Affine c = form(d->operands[1 - i], depth + 1);
          if (c.valid && c.terms.empty() && c.constant <= lo.constant)
            return form(d->operands[i], depth + 1);
        }
    }
    return form(ub, depth + 1);
  }

  Affine launchForm(unsigned e, unsigned depth) {
    const LaunchExpr &x = p.exprs[e];
    auto operand = [&](unsigned i) { return launchForm(x.operands[i], depth + 1); };
    Affine opaqueExpr = Affine::ofAtom("L" + std::to_string(e));
    if (depth > 64)
      return opaqueExpr;
    switch (x.kind) {
    case LaunchExpr::Kind::Const:
      return Affine::ofConstant(x.value);
    case LaunchExpr::Kind::Param:
      return Affine::ofAtom("S" + std::to_string(x.param));
    case LaunchExpr::Kind::Extent:
      return Affine::ofAtom("E" + std::to_string(x.param) + "." +
                            std::to_string(x.dim));
    case LaunchExpr::Kind::Cast:
      if (keepsEveryValue(p.exprs[x.operands[0]].type, x.type))
        return operand(0);
      return opaqueExpr;
    case LaunchExpr::Kind::Add:
    case LaunchExpr::Kind::Sub:
    case LaunchExpr::Kind::Neg:
    case LaunchExpr::Kind::Mul: {
      if (x.type != ScalarKind::I64)
        return opaqueExpr;
      Affine r = affineOp(x.kind == LaunchExpr::Kind::Add   ? Opcode::Add
                          : x.kind == LaunchExpr::Kind::Sub ? Opcode::Sub
                          : x.kind == LaunchExpr::Kind::Neg ? Opcode::Neg
                                                            : Opcode::Mul,
                          operand(0),
                          x.operands.size() > 1 ? operand(1) : Affine());
      return small(r) ? r : opaqueExpr;
    }
    default:
      return opaqueExpr;
    }
  }

  /// add/sub/neg/mul of affine operands; mul only by a constant.
  static Affine affineOp(Opcode opc, const Affine &a, const Affine &b) {
    switch (opc) {
    case Opcode::Add:
      return a.plus(b);
    case Opcode::Sub:
      return a.plus(b.scaled(-1));
    case Opcode::Neg:
      return a.scaled(-1);
    case Opcode::Mul:
      return a.times(b).value_or(Affine::invalid());
    default:
      return Affine::invalid();
    }
  }

  Affine formImpl(const Value *v, unsigned depth) {
    if (depth > 64)
      return opaque(v);
    if (isParam(v))
      return Affine::ofAtom("S" + std::to_string(v->argNo));
    if (v->isBlockArg())
      return blockArgForm(v, depth);
    const Op &op = *v->def;
    switch (op.opcode) {
    case Opcode::Constant:
      if (const auto *i = std::get_if<int64_t>(op.attr("value")))
        if (v->type.isInteger())
          return Affine::ofConstant(*i);
      return opaque(v);
    case Opcode::LaunchValue: {
      int64_t e = op.intAttr("expr", -1);
      if (e < 0 || static_cast<size_t>(e) >= p.exprs.size())
        return opaque(v);
      return launchForm(e, depth + 1);
    }
    case Opcode::Extent: {
      const Value *m = op.operands[0];
      if (!isParam(m))
        return opaque(v);
      return Affine::ofAtom("E" + std::to_string(m->argNo) + "." +
                            std::to_string(op.intAttr("dim")));
    }
    case Opcode::Delinearize:
      return variable(v, Affine::ofConstant(0), op.operands[v->resultNo + 1],
                      depth);
    case Opcode::ThreadId:
    case Opcode::LaneId:
    case Opcode::WarpId: {
      // The thread's identity in a CTA of T threads (whole warps; a
      // thread-scope program is a CTA of one thread).
      int64_t t = std::max(p.ctaThreads, 1);
      int64_t hi = op.opcode == Opcode::ThreadId ? t - 1
                   : op.opcode == Opcode::LaneId ? std::min<int64_t>(t, 32) - 1
                                                 : (t + 31) / 32 - 1;
      std::string atom = "x" + std::to_string(v->id);
      vars[atom] = {Affine::ofConstant(0), Affine::ofConstant(hi)};
      return Affine::ofAtom(atom);
    }
    case Opcode::CtaSize:
      return Affine::ofConstant(std::max(p.ctaThreads, 1));
    case Opcode::Add:
    case Opcode::Sub:
    case Opcode::Neg:
    case Opcode::Mul: {
      if (!v->type.isIndex())
        return opaque(v);
      return affineOp(op.opcode, form(op.operands[0], depth + 1),
                      op.operands.size() > 1 ? form(op.operands[1], depth + 1)
                                             : Affine());
    }
    case Opcode::Cast:
      return castForm(v, op.operands[0], depth);
    default:
      return opaque(v);
    }
  }

  /// A cast keeps its operand's value when the types hold every value, or
  /// when the operand lies in [0, n) with n at most a launch-checked extent
  /// whose index type fits the target (Program::launchChecks).
  Affine castForm(const Value *v, const Value *src, unsigned depth) {
    if (!v->type.isInteger() || !src->type.isInteger())
      return opaque(v);
    if (keepsEveryValue(src->type.elem, v->type.elem))
      return form(src, depth + 1);
    if (!src->type.isIndex())
      return opaque(v);
    Affine a = form(src, depth + 1);
    Affine lo = extreme(a, false), hi = extreme(a, true);
    if (!lo.valid || !lo.terms.empty() || lo.constant < 0 || !hi.valid)
      return opaque(v);
    for (const LaunchCheck &c : p.launchChecks) {
      if (indexLimit(c.type) > indexLimit(v->type.elem))
        continue;
      Affine gap = hi.plus(launchForm(c.extent, depth + 1).scaled(-1));
      if (gap.valid && gap.terms.empty() && gap.constant < 0)
        return a;
    }
    return opaque(v);
  }

  /// Block arguments with a range: a `for`'s induction variable and a
  /// structured op's member index; a region op's `r` argument is its r
  /// operand.
  Affine blockArgForm(const Value *v, unsigned depth) {
    const Block *b = v->owner;
    const Region *r = b ? b->parent : nullptr;
    const Op *op = r ? r->parent : nullptr;
    if (!op)
      return opaque(v);
    unsigned ri = 0;
    while (ri < op->regions.size() && op->regions[ri].get() != r)
      ++ri;
    if (op->opcode == Opcode::For && v->argNo == 0 && op->operands.size() == 2)
      return variable(v, form(op->operands[0], depth + 1), op->operands[1],
                      depth);
    if (!isStructured(op->opcode) || op->operands.size() < 2)
      return opaque(v);
    auto member = [&] {
      return variable(v, form(memberBegin(*op), depth + 1), memberEnd(*op),
                      depth);
    };
    if (isRegionOp(op->opcode)) {
      if (v->argNo == 0 && ri != CombineRegion)
        return form(regionIndex(*op), depth + 1);
      if (v->argNo == 1 &&
          (ri == ValueRegion ||
           (ri == OutRegion && op->opcode == Opcode::RegionScan)))
        return member();
      return opaque(v);
    }
    if (v->argNo == 0 &&
        (ri == ValueRegion || (ri == OutRegion && op->opcode == Opcode::Scan)))
      return member();
    return opaque(v);
  }
};

std::string resourceName(const Program &p, const Value *mem) {
  if (mem->isBlockArg() && mem->argNo < p.params.size())
    return p.params[mem->argNo].name;
  return "%" + std::to_string(mem->id);
}

} // namespace

static std::string provenInBounds(const Program &p, const Op &access,
                                  bool guards);

std::string intent::phys::whyNotInBounds(const Program &p, const Op &access) {
  const Value *mem = access.memory();
  bool param = mem->isBlockArg() && mem->owner == &p.body->block;
  bool buffer = mem->def && mem->def->opcode == Opcode::Alloc;
  if (!param && !buffer)
    return "it addresses neither a root view nor a buffer";
  // First from the ranges alone, then with the conditions of the enclosing
  // `if`s whose then-branch holds the access (a unit fused over a larger
  // domain runs under `if (i < its extent)`, Construction/EmitPhysical).
  std::string why = provenInBounds(p, access, false);
  if (why.empty())
    return why;
  return provenInBounds(p, access, true).empty() ? "" : why;
}

static std::string provenInBounds(const Program &p, const Op &access,
                                  bool guards) {
  const Value *mem = access.memory();
  bool buffer = mem->def && mem->def->opcode == Opcode::Alloc;
  RangeAnalysis ra(p);
  llvm::ArrayRef<Value *> cs = access.coords();
  if (guards) {
    for (const Value *c : cs)
      ra.form(c); // registers the variables the guards narrow
    const Op *inner = &access;
    for (const Op *a = access.parentOp(); a; inner = a, a = a->parentOp())
      if (a->opcode == Opcode::If && !a->regions.empty() &&
          inner->parent == &a->regions[0]->block && a->operands[0]->def)
        ra.assumeGuard(*a->operands[0]->def);
  }
  // A vector access also touches the width - 1 elements after its
  // coordinates along the last dimension.
  int64_t extra = access.opcode == Opcode::VectorLoad ||
                          access.opcode == Opcode::VectorStore
                      ? std::max<int64_t>(access.intAttr("width", 1), 1) - 1
                      : 0;
  for (unsigned d = 0; d < cs.size(); ++d) {
    std::string at = "coordinate " + std::to_string(d);
    Affine a = ra.form(cs[d]);
    if (d + 1 == cs.size() && extra)
      a = a.plus(Affine::ofConstant(extra));
    Affine lo = ra.extreme(a, false);
    if (!lo.valid || !lo.terms.empty() || lo.constant < 0)
      return at + " is not provably >= 0";
    Affine extent =
        buffer ? Affine::ofConstant(mem->type.size)
               : Affine::ofAtom("E" + std::to_string(mem->argNo) + "." +
                                std::to_string(d));
    Affine hi = ra.extreme(a, true);
    Affine gap = hi.plus(extent.scaled(-1));
    if (!gap.valid || !gap.terms.empty() || gap.constant >= 0)
      return at + " may reach " +
             (buffer ? "the buffer's size " + std::to_string(mem->type.size)
                     : resourceName(p, mem) + ".extent(" + std::to_string(d) +
                           ")");
  }
  return "";
}
