//===- ProgramSpace.cpp - Pass: the segmented program space ----------------===//

#include "Construction/ProgramSpace.h"

#include "Construction/LaunchLowering.h"

using namespace intent;
using namespace intent::construct;
using LK = phys::LaunchExpr::Kind;

void construct::assignProgramSpace(ConstructionState &s) {
  phys::Program &p = *s.program;
  unsigned zero = p.constExpr(0);
  unsigned offset = zero;
  for (const Group &g : s.groups) {
    phys::Segment seg;
    seg.group = g.id;
    seg.loc = g.loc;
    seg.ordered = g.ordered;
    seg.reason = g.reason;
    for (unsigned u : g.units) {
      phys::Origin o;
      o.kernel = s.kernel.id;
      o.op = s.units[u].op->id;
      seg.covers.push_back(o);
    }
    if (g.ordered) {
      seg.length = p.constExpr(1);
    } else {
      for (unsigned e : g.domain)
        seg.extents.push_back(clampedExtent(p, e));
      seg.length = seg.extents.front();
      for (unsigned i = 1; i < seg.extents.size(); ++i)
        seg.length = p.binaryExpr(LK::Mul, seg.length, seg.extents[i]);
    }
    seg.offset = offset;
    offset = offset == zero ? seg.length
                            : p.binaryExpr(LK::Add, offset, seg.length);
    s.remark(g.loc, "group " + std::to_string(g.id) + ": segment length " +
                        p.exprToString(seg.length) + ", offset " +
                        p.exprToString(seg.offset));
    p.segments.push_back(std::move(seg));
  }
  p.total = offset;
  s.remark(s.kernel.loc, "program space: " + std::to_string(s.groups.size()) +
                             " segment(s), total " + p.exprToString(p.total));
}
