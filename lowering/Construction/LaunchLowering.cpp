//===- LaunchLowering.cpp - KIR values -> launch expressions ---------------===//

#include "Construction/LaunchLowering.h"

using namespace intent;
using namespace intent::construct;
using LK = phys::LaunchExpr::Kind;

namespace {

std::string describe(const kir::Value *v) {
  std::string s = "%" + std::to_string(v->id);
  if (v->def) {
    s += " (" + kir::opcodeName(v->def->opcode).str();
    if (v->def->loc.valid())
      s += " at " + std::to_string(v->def->loc.line) + ":" +
           std::to_string(v->def->loc.col);
    s += ")";
  }
  return s;
}

bool integral(const kir::Type &t) { return t.isInteger() || t.isBool(); }

} // namespace

unsigned construct::clampedExtent(phys::Program &p, unsigned e) {
  unsigned zero = p.constExpr(0);
  if (p.exprs[e].type != phys::ScalarKind::I64) {
    phys::LaunchExpr c;
    c.kind = LK::Cast;
    c.operands = {e};
    e = p.addExpr(c);
  }
  return p.binaryExpr(LK::Max, e, zero);
}

std::optional<unsigned> construct::lowerToLaunch(const kir::Value *v,
                                                 const kir::Kernel &k,
                                                 phys::Program &p,
                                                 std::string &why) {
  phys::LaunchExpr e;
  e.type = v->type.elem;
  if (!v->type.isScalar() || !integral(v->type)) {
    why = describe(v) + " is not an integer";
    return std::nullopt;
  }
  if (v->isBlockArg()) {
    if (v->owner != &k.body->block) {
      why = describe(v) + " is a loop or parallel index";
      return std::nullopt;
    }
    e.kind = LK::Param;
    e.param = v->argNo;
    return p.addExpr(e);
  }
  const kir::Op &op = *v->def;
  auto sub = [&](unsigned i) { return lowerToLaunch(op.operands[i], k, p, why); };
  switch (op.opcode) {
  case kir::Opcode::Constant: {
    e.kind = LK::Const;
    if (const auto *b = std::get_if<bool>(op.attr("value")))
      e.value = *b;
    else
      e.value = op.intAttr("value");
    return p.addExpr(e);
  }
  case kir::Opcode::Add:
  case kir::Opcode::Sub:
  case kir::Opcode::Mul:
  case kir::Opcode::Div:
  case kir::Opcode::Rem:
  case kir::Opcode::Min:
  case kir::Opcode::Max:
  case kir::Opcode::Cmp:
  case kir::Opcode::Select:
  case kir::Opcode::Neg:
  case kir::Opcode::Cast: {
    for (const kir::Value *o : op.operands)
      if (!integral(o->type)) {
        why = describe(o) + " is not an integer";
        return std::nullopt;
      }
    static const std::pair<kir::Opcode, LK> map[] = {
        {kir::Opcode::Add, LK::Add},       {kir::Opcode::Sub, LK::Sub},
        {kir::Opcode::Mul, LK::Mul},       {kir::Opcode::Div, LK::Div},
        {kir::Opcode::Rem, LK::Rem},       {kir::Opcode::Min, LK::Min},
        {kir::Opcode::Max, LK::Max},       {kir::Opcode::Cmp, LK::Cmp},
        {kir::Opcode::Select, LK::Select}, {kir::Opcode::Neg, LK::Neg},
        {kir::Opcode::Cast, LK::Cast}};
    for (const auto &[kop, lk] : map)
      if (kop == op.opcode)
        e.kind = lk;
    e.pred = op.strAttr("pred");
    for (unsigned i = 0; i < op.operands.size(); ++i) {
      std::optional<unsigned> s = sub(i);
      if (!s)
        return std::nullopt;
      e.operands.push_back(*s);
    }
    return p.addExpr(e);
  }
  case kir::Opcode::Extent:
  case kir::Opcode::Stride: {
    ViewChain chain;
    if (!resolveView(op.operands[0], chain, why))
      return std::nullopt;
    unsigned dim = op.intAttr("dim");
    CExprRef c = op.opcode == kir::Opcode::Extent
                     ? viewExtent(chain, chain.ops.size(), dim)
                     : viewStride(chain, chain.ops.size(), dim);
    std::optional<unsigned> r = lowerToLaunch(c, k, p, why);
    if (r && p.exprs[*r].type != e.type) {
      phys::LaunchExpr cast;
      cast.kind = LK::Cast;
      cast.type = e.type;
      cast.operands = {*r};
      return p.addExpr(cast);
    }
    return r;
  }
  default:
    why = describe(v) + " is computed at run time";
    return std::nullopt;
  }
}

std::optional<unsigned> construct::lowerToLaunch(const CExprRef &c,
                                                 const kir::Kernel &k,
                                                 phys::Program &p,
                                                 std::string &why) {
  phys::LaunchExpr e;
  switch (c->kind) {
  case CExpr::Kind::Value: {
    std::optional<unsigned> r = lowerToLaunch(c->value, k, p, why);
    if (r && p.exprs[*r].type != phys::ScalarKind::I64) {
      phys::LaunchExpr cast;
      cast.kind = LK::Cast;
      cast.operands = {*r};
      return p.addExpr(cast);
    }
    return r;
  }
  case CExpr::Kind::Const:
    return p.constExpr(c->constant);
  case CExpr::Kind::Extent:
  case CExpr::Kind::Stride:
    e.kind = c->kind == CExpr::Kind::Extent ? LK::Extent : LK::Stride;
    e.param = c->param;
    e.dim = c->dim;
    return p.addExpr(e);
  default: {
    std::optional<unsigned> a = lowerToLaunch(c->lhs, k, p, why);
    std::optional<unsigned> b = a ? lowerToLaunch(c->rhs, k, p, why) : a;
    if (!b)
      return std::nullopt;
    LK kind = c->kind == CExpr::Kind::Add   ? LK::Add
              : c->kind == CExpr::Kind::Sub ? LK::Sub
              : c->kind == CExpr::Kind::Mul ? LK::Mul
              : c->kind == CExpr::Kind::Div ? LK::Div
                                            : LK::Rem;
    return p.binaryExpr(kind, *a, *b);
  }
  }
}

void construct::compactLaunchExprs(phys::Program &p) {
  std::vector<bool> live(p.exprs.size());
  std::vector<unsigned> work;
  auto use = [&](unsigned e) {
    if (!live[e]) {
      live[e] = true;
      work.push_back(e);
    }
  };
  for (const phys::Segment &s : p.segments) {
    for (unsigned e : s.extents)
      use(e);
    use(s.length);
    use(s.offset);
  }
  use(p.total);
  phys::walk(*p.body, [&](const phys::Op &op) {
    if (op.opcode == phys::Opcode::LaunchValue)
      use(op.intAttr("expr"));
  });
  while (!work.empty()) {
    unsigned e = work.back();
    work.pop_back();
    for (unsigned o : p.exprs[e].operands)
      use(o);
  }
  std::vector<unsigned> renum(p.exprs.size());
  std::vector<phys::LaunchExpr> kept;
  for (unsigned i = 0; i < p.exprs.size(); ++i) {
    if (!live[i])
      continue;
    renum[i] = kept.size();
    phys::LaunchExpr e = p.exprs[i];
    for (unsigned &o : e.operands)
      o = renum[o];
    kept.push_back(e);
  }
  p.exprs = std::move(kept);
  for (phys::Segment &s : p.segments) {
    for (unsigned &e : s.extents)
      e = renum[e];
    s.length = renum[s.length];
    s.offset = renum[s.offset];
  }
  p.total = renum[p.total];
  phys::walkMutable(*p.body, [&](phys::Op &op) {
    if (op.opcode == phys::Opcode::LaunchValue)
      op.setAttr("expr", static_cast<int64_t>(renum[op.intAttr("expr")]));
  });
}
