//===- TeamShape.cpp - Launch expressions that size lane teams ------------===//
//
// region-teams and scan-teams give each instance a team of 2^S consecutive
// threads, S chosen at launch from how many members an instance has on
// average. Both read that count the same way (Passes.h).
//
//===----------------------------------------------------------------------===//

#include "Passes/Passes.h"

#include "Physical/Dispatch.h"
#include "Physical/Structured.h"

using namespace intent;
using namespace intent::phys;

std::optional<unsigned> intent::passes::memberExtentExpr(Program &p,
                                                         const Op &op,
                                                         unsigned memberArg) {
  const Block &vb = op.region(ValueRegion)->block;
  const Value *k = vb.args[memberArg];
  auto isMember = [&](const Value *v) {
    if (v == k)
      return true;
    return v->def && v->def->opcode == Opcode::Cast &&
           v->def->operands[0] == k;
  };
  std::optional<unsigned> found;
  walk(*op.region(ValueRegion), [&](const Op &o) {
    if (found || o.opcode != Opcode::Load)
      return;
    const Value *mem = o.memory();
    if (!mem->isBlockArg() || mem->owner != &p.body->block)
      return;
    for (unsigned d = 1; d < o.operands.size(); ++d)
      if (isMember(o.operands[d])) {
        LaunchExpr e;
        e.kind = LaunchExpr::Kind::Extent;
        e.param = mem->argNo;
        e.dim = d - 1;
        e.type = ScalarKind::I64;
        found = p.addExpr(e);
        return;
      }
  });
  return found;
}

unsigned intent::passes::teamShiftExpr(Program &p, unsigned members,
                                       unsigned instances, int maxShift,
                                       int64_t perLane) {
  using K = LaunchExpr::Kind;
  unsigned avg = p.binaryExpr(K::Div, members,
                              p.binaryExpr(K::Max, instances, p.constExpr(1)));
  unsigned e = p.constExpr(0);
  for (int k = 1; k <= maxShift; ++k) {
    // One statement per node: argument evaluation order must not number them.
    const unsigned enough = p.cmpExpr("ge", avg, p.constExpr(perLane << k));
    e = p.selectExpr(enough, p.constExpr(k), e);
  }
  return e;
}

std::string intent::passes::laneTeamRejection(const Program &p,
                                              const Segment &seg, Op *&segOp) {
  if (seg.ordered)
    return "the group is a single instance";
  const int t = p.ctaThreads;
  if (!(p.scope == ExecScope::Thread ||
        (seg.spread && !seg.team && seg.tile < 0 && seg.spread == t &&
         t >= 32 && (t & (t - 1)) == 0 && !p.regMaxK)))
    return "the group is not one instance per thread of a power-of-two CTA "
           "of a fixed size";
  segOp = segmentOp(p, seg.group);
  if (!segOp)
    return "no segment op";
  if (containsPrint(*segOp->regions[0]))
    return "the instance prints";
  return "";
}
