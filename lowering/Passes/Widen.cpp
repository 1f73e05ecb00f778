//===- Widen.cpp - Ownership widening of pointwise thread programs --------===//
//
// Before: one parallel segment over a 1-D domain of n instances, one
// program per element, whose instance only loads and stores rank-1 views
// at its own coordinate (saxpy: y[i] = a * x[i] + y[i]).
//
// After (docs/passes.md §6): the segment records `widen = W` (W = 16 bytes
// / the widest accessed element, 4 for f32) and `widenElements = n`; its
// length and the launch total become the program count
//   P = min((n + W - 1) / W, kWidenMaxPrograms)
// and program q owns the chunks c = q, q + P, ... of W contiguous elements
// (a persistent grid-stride traversal; the last chunk holds the n % W
// remainder). The emitter (EmitWiden.cpp) moves a whole chunk with the
// runtime's load_vec/store_vec when every accessed view has stride 1 and a
// base aligned to the vector's bytes (checked once per launch), scalar
// otherwise; the remainder chunk is scalar.
//
//===----------------------------------------------------------------------===//

#include "Passes/Passes.h"

#include "Physical/Dispatch.h"
#include "Physical/Widen.h"

using namespace intent;
using namespace intent::phys;

namespace {

std::string rejection(const Program &p, Op *&segOp) {
  if (p.scope != ExecScope::Thread)
    return "the program is already cooperative";
  if (p.segments.size() != 1)
    return "the program has several groups";
  const Segment &seg = p.segments[0];
  if (seg.ordered)
    return "the group is a single instance";
  if (seg.widen)
    return "the group is already widened";
  if (seg.extents.size() != 1)
    return "the instance domain is not one-dimensional";
  for (const Buffer &b : p.buffers)
    if (b.scope != BufferScope::ExternalView)
      return "the program allocates buffer " + b.name;
  segOp = nullptr;
  walk(*p.body, [&](const Op &op) {
    if (op.opcode == Opcode::Segment)
      segOp = const_cast<Op *>(&op);
  });
  if (!segOp)
    return "no segment op";
  // A print runs once per instance: the instance's code is not spread over
  // threads (nor over programs) when it prints.
  if (containsPrint(*segOp->regions[0]))
    return "the instance prints";
  std::string why = pointwiseProblem(p, *segOp);
  if (!why.empty())
    return why;
  if (widenWidth(*segOp) < 2)
    return "the accessed elements are already 16 bytes wide";
  return "";
}

} // namespace

std::string intent::passes::applyWiden(Program &p, std::string &what) {
  Op *segOp = nullptr;
  std::string why = rejection(p, segOp);
  if (!why.empty())
    return why;
  using K = LaunchExpr::Kind;
  Segment &seg = p.segments[0];
  int w = widenWidth(*segOp);
  unsigned n = seg.length;
  unsigned chunks = p.binaryExpr(
      K::Div, p.binaryExpr(K::Add, n, p.constExpr(w - 1)), p.constExpr(w));
  unsigned count = p.binaryExpr(K::Min, chunks, p.constExpr(kWidenMaxPrograms));
  seg.widen = w;
  seg.widenElements = static_cast<int>(n);
  resizeSegment(p, 0, count);
  what = "widen: each program owns chunks of " + std::to_string(w) +
         " contiguous elements, at most " + std::to_string(kWidenMaxPrograms) +
         " programs striding over them; vector loads/stores when every view "
         "is unit-stride and aligned";
  return "";
}

void intent::passes::widen(Program &p, phys::RemarkSink &sink) {
  bool candidate = p.scope == ExecScope::Thread && p.segments.size() == 1 &&
                   !p.segments[0].ordered;
  std::string what, why = applyWiden(p, what);
  if (why.empty())
    sink.remark(p.segments[0].loc, what);
  else if (candidate)
    sink.remark(p.segments[0].loc, "widen: not applied: " + why);
}
