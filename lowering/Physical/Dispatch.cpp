//===- Dispatch.cpp - The program space's dispatch, re-derived ------------===//

#include "Physical/Dispatch.h"

#include <algorithm>
#include <cassert>
#include <functional>

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
      retarget(op->operands[4], s.lanes ? s.shift : s.parts);
    if (s.tile >= 0 && op->operands.size() >= 4)
      retarget(op->operands[3], s.instances);
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
  if (seg.tile >= 0) {
    // The tiles follow the extents, not an instance count.
    seg.instances = instances;
    seg.length = tileLength(p, seg.extents, seg.tile,
                            std::max(p.ctaThreads, kTileWidth), seg.tileRows);
  } else if (seg.team && seg.lanes) {
    seg.instances = instances;
    seg.length = laneTeamLength(p, instances, seg.spread, seg.shift);
  } else if (seg.team) {
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

unsigned intent::phys::laneTeamLength(Program &p, unsigned instances,
                                      int threads, unsigned shift) {
  using K = LaunchExpr::Kind;
  int log2T = 0;
  while ((1 << log2T) < threads)
    ++log2T;
  // Teams per program T >> S; (instances + (T >> S) - 1) >> (log2 T - S).
  unsigned per = p.binaryExpr(K::Shr, p.constExpr(threads), shift);
  unsigned up = p.binaryExpr(
      K::Add, instances, p.binaryExpr(K::Sub, per, p.constExpr(1)));
  return p.binaryExpr(K::Shr, up,
                      p.binaryExpr(K::Sub, p.constExpr(log2T), shift));
}

void intent::phys::laneTeamSegment(Program &p, unsigned index,
                                   unsigned shift) {
  Segment &seg = p.segments[index];
  Op *op = segmentOp(p, seg.group);
  assert(op && !seg.team && !seg.ordered && seg.tile < 0 &&
         p.scope == ExecScope::CTA && p.ctaThreads > 0 &&
         (p.ctaThreads & (p.ctaThreads - 1)) == 0);
  if (!seg.spread) {
    seg.instances = seg.length;
    appendLaunchOperand(p, *op, seg.instances);
  }
  seg.spread = p.ctaThreads;
  seg.team = true;
  seg.lanes = true;
  seg.shift = shift;
  seg.length = laneTeamLength(p, seg.instances, p.ctaThreads, shift);
  appendLaunchOperand(p, *op, shift);
  op->setAttr("spread", static_cast<int64_t>(p.ctaThreads));
  op->setAttr("team", true);
  op->setAttr("lanes", true);
  Builder b(p);
  Block &r = op->regions[0]->block;
  b.addBlockArg(&r, Type::index(), "worker");
  b.addBlockArg(&r, Type::boolean(), "active");
  accessesPerThread(*op);
  rederive(p);
}

namespace {

/// last > 16 ? value(5) : last > 8 ? value(4) : ... : value(0), as launch
/// expressions: TX = 2^S and S of a tile segment whose last extent is `last`.
unsigned byTileShift(Program &p, unsigned last,
                     const std::function<int64_t(int)> &value) {
  unsigned e = p.constExpr(value(0));
  for (int k = 1, w = 2; w <= kTileWidth; ++k, w *= 2) {
    // One statement per node: the numbering must not depend on the order
    // in which a compiler evaluates arguments.
    const unsigned wider = p.cmpExpr("gt", last, p.constExpr(w / 2));
    e = p.selectExpr(wider, p.constExpr(value(k)), e);
  }
  return e;
}

} // namespace

unsigned intent::phys::tileWidthExpr(Program &p, unsigned last) {
  return byTileShift(p, last, [](int k) { return int64_t(1) << k; });
}

unsigned intent::phys::tileShiftExpr(Program &p, unsigned last) {
  return byTileShift(p, last, [](int k) { return int64_t(k); });
}

unsigned intent::phys::tileLength(Program &p,
                                  const std::vector<unsigned> &extents,
                                  int dim, int threads, int rows) {
  // Shifts where the sizes are powers of two (every thread evaluates the
  // launch expressions: no 64-bit division by a launch-time value).
  using K = LaunchExpr::Kind;
  const unsigned last = extents.size() - 1;
  const unsigned tx = tileWidthExpr(p, extents[last]);
  const unsigned s = tileShiftExpr(p, extents[last]);
  const unsigned one = p.constExpr(1);
  auto ceilShift = [&](unsigned e, unsigned k, unsigned sh) {
    return p.binaryExpr(
        K::Shr, p.binaryExpr(K::Add, e, p.binaryExpr(K::Sub, k, one)), sh);
  };
  const int64_t kt = static_cast<int64_t>(threads) * rows;
  const bool pow2 = (kt & (kt - 1)) == 0;
  int64_t log2kt = 0;
  while ((int64_t(1) << (log2kt + 1)) <= kt)
    ++log2kt;
  // R = K T / TX rows along `dim`.
  const unsigned r = pow2 ? p.binaryExpr(K::Shr, p.constExpr(kt), s)
                          : p.binaryExpr(K::Div, p.constExpr(kt), tx);
  unsigned n = 0;
  bool first = true;
  for (unsigned d = 0; d < extents.size(); ++d) {
    unsigned f;
    if (d == static_cast<unsigned>(dim))
      f = pow2 ? ceilShift(extents[d], r,
                           p.binaryExpr(K::Sub, p.constExpr(log2kt), s))
               : p.binaryExpr(K::Div,
                              p.binaryExpr(K::Add, extents[d],
                                           p.binaryExpr(K::Sub, r, one)),
                              r);
    else if (d == last)
      f = ceilShift(extents[d], tx, s);
    else
      f = extents[d];
    n = first ? f : p.binaryExpr(K::Mul, n, f);
    first = false;
  }
  return n;
}

void intent::phys::tileSegment(Program &p, unsigned index, int dim,
                               int rows) {
  Segment &seg = p.segments[index];
  Op *op = segmentOp(p, seg.group);
  assert(op && !seg.team && !seg.ordered && seg.tile < 0 &&
         p.scope == ExecScope::CTA && p.ctaThreads % kTileWidth == 0 &&
         seg.extents.size() >= 2 && dim >= 0 &&
         dim + 1 < static_cast<int>(seg.extents.size()));
  if (seg.spread) {
    // A spread segment's instance count operand stays; the attribute goes.
    seg.spread = 0;
    op->attrs.erase(std::remove_if(op->attrs.begin(), op->attrs.end(),
                                   [](const auto &a) { return a.name == "spread"; }),
                    op->attrs.end());
  } else {
    seg.instances = seg.length;
    appendLaunchOperand(p, *op, seg.instances);
  }
  seg.tile = dim;
  seg.tileRows = rows;
  seg.length = tileLength(p, seg.extents, dim, p.ctaThreads, rows);
  for (unsigned e : seg.extents)
    appendLaunchOperand(p, *op, e);
  op->setAttr("tile", static_cast<int64_t>(dim));
  op->setAttr("rows", static_cast<int64_t>(rows));
  Builder b(p);
  Block &r = op->regions[0]->block;
  b.addBlockArg(&r, Type::boolean(), "active");
  for (int k = 1; k < rows; ++k) {
    b.addBlockArg(&r, Type::index(), "local" + std::to_string(k));
    b.addBlockArg(&r, Type::boolean(), "active" + std::to_string(k));
  }
  for (int k = 0; k < rows; ++k) {
    b.addBlockArg(&r, Type::index(), "tlocal" + std::to_string(k));
    b.addBlockArg(&r, Type::boolean(), "tactive" + std::to_string(k));
  }
  accessesPerThread(*op);
  rederive(p);
}

bool intent::phys::isInstanceIndex(const Op &segOp, const Value *v) {
  if (segOp.opcode != Opcode::Segment || segOp.regions.empty())
    return false;
  const Block &b = segOp.regions[0]->block;
  return (!b.args.empty() && v == b.args[0]) || tileSlot(segOp, v) >= 0;
}

const Value *intent::phys::tileActiveOf(const Op &segOp, const Value *v) {
  int slot = tileSlot(segOp, v);
  return slot < 0 ? nullptr : segOp.regions[0]->block.args[2 * slot + 1];
}

const Value *intent::phys::decodedIndex(const Op &segOp, const Op &op) {
  std::function<const Value *(const Value *, unsigned)> from =
      [&](const Value *v, unsigned depth) -> const Value * {
    const Op *d = v->def;
    if (!d || depth > 64)
      return nullptr;
    if (d->opcode == Opcode::Delinearize)
      return isInstanceIndex(segOp, d->operands[0]) ? d->operands[0] : nullptr;
    for (const Value *x : d->operands)
      if (const Value *i = from(x, depth + 1))
        return i;
    return nullptr;
  };
  // An access's coordinates name its instance; its stored value may mix
  // other instances' values (tile rows a thread's instances share).
  if (op.opcode == Opcode::Load || op.opcode == Opcode::Store ||
      op.opcode == Opcode::VectorLoad || op.opcode == Opcode::VectorStore ||
      isAtomic(op.opcode))
    for (const Value *x : op.coords())
      if (const Value *i = from(x, 0))
        return i;
  for (const Value *x : op.operands)
    if (const Value *i = from(x, 0))
      return i;
  return nullptr;
}

int intent::phys::tileSlot(const Op &segOp, const Value *v) {
  if (!v || segOp.opcode != Opcode::Segment || segOp.intAttr("tile", -1) < 0 ||
      segOp.regions.empty())
    return -1;
  const Block &b = segOp.regions[0]->block;
  for (unsigned i = 0; i + 1 < b.args.size(); i += 2)
    if (v == b.args[i])
      return static_cast<int>(i / 2);
  return -1;
}
