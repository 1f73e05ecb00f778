//===- VerifierWiden.cpp - Construction verifier: widened segments --------===//
//
// [widen]: a segment with `widen = W` (docs/passes.md §6) is a parallel,
// unsplit, one-dimensional segment of a thread-scope program; W is a power
// of two in [2, 16] and a chunk of the
// widest accessed element is at most 16 bytes; its region is pointwise
// (every access an unguarded load/store of a rank-1 view parameter at the
// instance coordinate, no load of a view after a store to it); its length
// is min((n + W - 1) / W, C) with n = widenElements and a constant C >= 1,
// so every chunk c < ceil(n / W) has the owner c mod P and every element
// (the remainder in the last chunk included) is owned exactly once. ([dispatch]
// checks that the segment op receives that length; [segments] that the
// extents multiply to n.)
//
//===----------------------------------------------------------------------===//

#include "Physical/Verifier.h"
#include "Physical/Widen.h"

#include <algorithm>

using namespace intent;
using namespace intent::phys;

namespace {

using K = LaunchExpr::Kind;

bool isConst(const Program &p, unsigned e, int64_t *v) {
  if (e >= p.exprs.size() || p.exprs[e].kind != K::Const)
    return false;
  *v = p.exprs[e].value;
  return true;
}

/// True when expression `e` is min((n + W - 1) / W, C), C >= 1.
bool isChunkCount(const Program &p, unsigned e, unsigned n, int64_t w) {
  if (e >= p.exprs.size())
    return false;
  const LaunchExpr &m = p.exprs[e];
  int64_t c = 0, wm1 = 0, wd = 0;
  if (m.kind != K::Min || !isConst(p, m.operands[1], &c) || c < 1)
    return false;
  const LaunchExpr &d = p.exprs[m.operands[0]];
  if (d.kind != K::Div || !isConst(p, d.operands[1], &wd) || wd != w)
    return false;
  const LaunchExpr &a = p.exprs[d.operands[0]];
  return a.kind == K::Add && a.operands[0] == n &&
         isConst(p, a.operands[1], &wm1) && wm1 == w - 1;
}

} // namespace

void intent::phys::verifyWiden(const Program &p,
                               std::vector<std::string> &errors) {
  auto error = [&](const std::string &m) { errors.push_back("[widen] " + m); };
  for (unsigned s = 0; s < p.segments.size(); ++s) {
    const Segment &seg = p.segments[s];
    std::string at = "segment " + std::to_string(s) + ": ";
    if (!seg.widen) {
      if (seg.widenElements >= 0)
        error(at + "records an element count but no chunk width");
      continue;
    }
    int w = seg.widen;
    if (w < 2 || w > 16 || (w & (w - 1)))
      error(at + "chunk width " + std::to_string(w) +
            " is not a power of two in [2, 16]");
    if (p.scope != ExecScope::Thread)
      error(at + "only thread-scope programs are widened");
    if (seg.ordered || seg.splitPrograms >= 0 || seg.extents.size() != 1)
      error(at + "only a parallel one-dimensional segment is widened");
    if (seg.widenElements < 0 ||
        static_cast<size_t>(seg.widenElements) >= p.exprs.size())
      continue; // [segments] reports it
    if (!isChunkCount(p, seg.length, seg.widenElements, w))
      error(at + "length " + p.exprToString(seg.length) +
            " is not min((n + " + std::to_string(w - 1) + ") / " +
            std::to_string(w) + ", C) of its element count n = " +
            p.exprToString(seg.widenElements) +
            " (every chunk must have an owner)");
    walk(*p.body, [&](const Op &op) {
      if (op.opcode != Opcode::Segment ||
          op.intAttr("group", -1) != static_cast<int64_t>(seg.group))
        return;
      std::string why = pointwiseProblem(p, op);
      if (!why.empty()) {
        error(at + "region is not pointwise: " + why);
        return;
      }
      if (static_cast<int64_t>(w) * [&] {
            int64_t widest = 1;
            for (const auto &o : op.regions[0]->block.ops)
              if (o->opcode == Opcode::Load || o->opcode == Opcode::Store)
                widest = std::max(widest, scalarBytes(o->memory()->type.elem));
            return widest;
          }() > kWidenBytes)
        error(at + "a chunk of " + std::to_string(w) +
              " elements is wider than " + std::to_string(kWidenBytes) +
              " bytes");
    });
  }
}
