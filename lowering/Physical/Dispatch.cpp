//===- Dispatch.cpp - The program space's dispatch, re-derived ------------===//

#include "Physical/Dispatch.h"

using namespace intent;
using namespace intent::phys;

namespace {

/// Points the launch_value op defining `v` at expression `e`.
void retarget(Value *v, unsigned e) {
  if (v && v->def && v->def->opcode == Opcode::LaunchValue)
    v->def->setAttr("expr", static_cast<int64_t>(e));
}

} // namespace

Op *intent::phys::segmentOp(const Program &p, unsigned group) {
  Op *found = nullptr;
  walk(*p.body, [&](const Op &op) {
    if (!found && op.opcode == Opcode::Segment &&
        op.intAttr("group", -1) == static_cast<int64_t>(group))
      found = const_cast<Op *>(&op);
  });
  return found;
}

void intent::phys::resizeSegment(Program &p, unsigned index, unsigned length) {
  using K = LaunchExpr::Kind;
  p.segments[index].length = length;
  unsigned zero = p.constExpr(0);
  unsigned offset = zero;
  for (Segment &s : p.segments) {
    s.offset = offset;
    offset = offset == zero ? s.length : p.binaryExpr(K::Add, offset, s.length);
  }
  p.total = offset;
  // The dispatch: each segment op's (pid, offset, length) and the guard
  // `pid < total` around them (construction's layout, EmitPhysical.cpp).
  for (const Segment &s : p.segments) {
    Op *op = segmentOp(p, s.group);
    if (!op)
      continue;
    retarget(op->operands[1], s.offset);
    retarget(op->operands[2], s.length);
    const Op *guard = op->parentOp();
    if (guard && guard->opcode == Opcode::If) {
      const Value *c = guard->operands[0];
      if (c->def && c->def->opcode == Opcode::Cmp &&
          c->def->operands[0] == op->operands[0])
        retarget(c->def->operands[1], p.total);
    }
  }
}
