//===- LaunchOf.cpp - SSA values of the body as launch expressions ---------===//

#include "Passes/Passes.h"

using namespace intent;
using namespace intent::phys;

std::optional<unsigned> intent::passes::launchExprOf(Program &p,
                                                     const Value *v) {
  using K = LaunchExpr::Kind;
  if (!v->type.isScalar() || (!v->type.isInteger() && !v->type.isBool()))
    return std::nullopt;
  if (v->isBlockArg()) {
    if (v->owner != &p.body->block)
      return std::nullopt;
    LaunchExpr e;
    e.kind = K::Param;
    e.param = v->argNo;
    e.type = v->type.elem;
    return p.addExpr(e);
  }
  const Op &op = *v->def;
  auto operand = [&](unsigned i) { return launchExprOf(p, op.operands[i]); };
  switch (op.opcode) {
  case Opcode::LaunchValue:
    return static_cast<unsigned>(op.intAttr("expr"));
  case Opcode::Constant: {
    const AttrValue *a = op.attr("value");
    const int64_t *i = a ? std::get_if<int64_t>(a) : nullptr;
    if (!i)
      return std::nullopt;
    LaunchExpr e;
    e.kind = K::Const;
    e.value = *i;
    e.type = v->type.elem;
    return p.addExpr(e);
  }
  case Opcode::Extent:
  case Opcode::Stride: {
    const Value *view = op.operands[0];
    if (!view->isBlockArg() || view->owner != &p.body->block)
      return std::nullopt;
    LaunchExpr e;
    e.kind = op.opcode == Opcode::Extent ? K::Extent : K::Stride;
    e.param = view->argNo;
    e.dim = op.intAttr("dim");
    e.type = ScalarKind::I64;
    return p.addExpr(e);
  }
  case Opcode::Cast: {
    auto a = operand(0);
    if (!a)
      return std::nullopt;
    LaunchExpr e;
    e.kind = K::Cast;
    e.type = v->type.elem;
    e.operands = {*a};
    return p.addExpr(e);
  }
  case Opcode::Add:
  case Opcode::Sub:
  case Opcode::Mul:
  case Opcode::Min:
  case Opcode::Max: {
    auto a = operand(0), b = operand(1);
    if (!a || !b)
      return std::nullopt;
    K k = op.opcode == Opcode::Add   ? K::Add
          : op.opcode == Opcode::Sub ? K::Sub
          : op.opcode == Opcode::Mul ? K::Mul
          : op.opcode == Opcode::Min ? K::Min
                                     : K::Max;
    return p.binaryExpr(k, *a, *b);
  }
  default:
    return std::nullopt;
  }
}

bool intent::passes::isLaunchVisible(const Program &p, const Value *v) {
  // launchExprOf only appends to p.exprs (Program::addExpr): run it and
  // drop what it appended, so the rules stay in one place.
  Program &scratch = const_cast<Program &>(p);
  const size_t before = scratch.exprs.size();
  const bool visible = launchExprOf(scratch, v).has_value();
  scratch.exprs.resize(before);
  return visible;
}
