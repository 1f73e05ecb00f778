//===- Dispatch.cpp - The program space's dispatch, re-derived ------------===//

#include "Physical/Dispatch.h"

#include <algorithm>
#include <cassert>

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

namespace {

/// ceil(instances / threads) programs of a spread segment (folded when
/// the count is a constant: an ordered segment's one instance).
unsigned spreadLength(Program &p, unsigned instances, int threads) {
  using K = LaunchExpr::Kind;
  const LaunchExpr &n = p.exprs[instances];
  if (n.kind == K::Const)
    return p.constExpr((std::max<int64_t>(n.value, 0) + threads - 1) / threads);
  return p.binaryExpr(
      K::Div, p.binaryExpr(K::Add, instances, p.constExpr(threads - 1)),
      p.constExpr(threads));
}

/// Offsets and total from the lengths; the dispatch's launch values.
void rederive(Program &p) {
  using K = LaunchExpr::Kind;
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
    if (s.spread && op->operands.size() >= 4)
      retarget(op->operands[3], s.instances);
    if (s.team && op->operands.size() == 5)
      retarget(op->operands[4], s.parts);
    const Op *guard = op->parentOp();
    if (guard && guard->opcode == Opcode::If) {
      const Value *c = guard->operands[0];
      if (c->def && c->def->opcode == Opcode::Cmp &&
          c->def->operands[0] == op->operands[0])
        retarget(c->def->operands[1], p.total);
    }
  }
}

} // namespace

namespace {

/// Appends `launch_value` of `expr` to segment op `op`'s operands, the
/// value defined just before the op like the dispatch's other launch
/// values (construction's origin).
void appendLaunchOperand(Program &p, Op &op, unsigned expr) {
  Block *parent = op.parent;
  Builder b(p);
  b.setInsertionBlock(parent);
  b.loc = op.loc;
  const Op *lengthDef = op.operands[2]->def;
  b.origin = lengthDef ? lengthDef->origin : op.origin;
  Value *v = b.launchValue(expr);
  auto &ops = parent->ops;
  auto at = std::find_if(ops.begin(), ops.end(),
                         [&](const auto &o) { return o.get() == &op; });
  std::rotate(at, ops.end() - 1, ops.end());
  op.operands.push_back(v);
}

/// An instance's own accesses in a segment whose instances share programs
/// are each thread's.
void accessesPerThread(Op &segOp) {
  walkMutable(*segOp.regions[0], [](Op &o) {
    if (o.access.active == ActiveSet::Self)
      o.access.active = ActiveSet::Thread;
  });
}

/// A team segment's programs: ceil(instances / width) * parts.
unsigned teamLength(Program &p, unsigned instances, int width,
                    unsigned parts) {
  return p.binaryExpr(LaunchExpr::Kind::Mul,
                      spreadLength(p, instances, width), parts);
}

} // namespace

void intent::phys::resizeSegment(Program &p, unsigned index,
                                 unsigned instances) {
  Segment &seg = p.segments[index];
  if (seg.team) {
    seg.instances = instances;
    seg.length = teamLength(p, instances, seg.spread, seg.parts);
  } else if (seg.spread) {
    seg.instances = instances;
    seg.length = spreadLength(p, instances, seg.spread);
  } else {
    seg.length = instances;
  }
  rederive(p);
}

void intent::phys::spreadSegment(Program &p, unsigned index, int threads) {
  Segment &seg = p.segments[index];
  Op *op = segmentOp(p, seg.group);
  assert(op && !seg.spread && threads > 0);
  seg.spread = threads;
  seg.instances = seg.length;
  seg.length = spreadLength(p, seg.instances, threads);
  // The instance count: a launch value next to the op's other operands.
  appendLaunchOperand(p, *op, seg.instances);
  op->setAttr("spread", static_cast<int64_t>(threads));
  accessesPerThread(*op);
  rederive(p);
}

void intent::phys::teamSegment(Program &p, unsigned index, int width,
                               unsigned parts) {
  Segment &seg = p.segments[index];
  Op *op = segmentOp(p, seg.group);
  assert(op && !seg.team && !seg.ordered && width > 0 &&
         p.scope == ExecScope::CTA && p.ctaThreads % width == 0);
  if (!seg.spread) {
    seg.instances = seg.length;
    appendLaunchOperand(p, *op, seg.instances);
  }
  seg.spread = width;
  seg.team = true;
  seg.parts = parts;
  seg.length = teamLength(p, seg.instances, width, parts);
  appendLaunchOperand(p, *op, parts);
  op->setAttr("spread", static_cast<int64_t>(width));
  op->setAttr("team", true);
  // The region's (worker, active) arguments after the instance.
  Builder b(p);
  Block &r = op->regions[0]->block;
  b.addBlockArg(&r, Type::index(), "worker");
  b.addBlockArg(&r, Type::boolean(), "active");
  accessesPerThread(*op);
  rederive(p);
}
