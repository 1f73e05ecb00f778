//===- Fallback.cpp - The scalar fallback copy variant --------------------===//
//
// Seed 003: `fallback` (priority 0) copies element by element and accepts
// what the vector paths reject: unaligned or indivisible regions, runtime
// extents, shared<->shared and global<->global, a narrowed active set, and
// any target (its code is plain C++). With every thread active the elements
// go round-robin over the scope's threads; otherwise the lowest active
// thread moves them all. The selection report shows why the faster
// variants were passed over.
//
//===----------------------------------------------------------------------===//

#include "Copy/Dispatch.h"
#include "Copy/Gate.h"

#include <sstream>

namespace intent::copy {

static std::string fallbackRejection(const CopyOp &op, const Target &) {
  if (std::string why = checkScopeKind(op.scope); !why.empty())
    return why;
  if (std::string why = checkValidCopy(op); !why.empty())
    return why;
  if (op.scope.threads == 0)
    return "empty exec scope: 0 threads";
  if (op.scope.activeCount() == 0)
    return "no thread of the scope is active";
  bool hasLocal =
      op.dst.space == MemSpace::Local || op.src.space == MemSpace::Local;
  if (hasLocal && op.scope.threads != 1) {
    std::ostringstream os;
    os << "a local operand in a " << op.scope.threads
       << "-thread scope needs a register layout (the reg path)";
    return os.str();
  }
  return "";
}

/// The non-unit dimensions of a tile (runtime extents count as non-unit).
static std::vector<TileDim> nonUnit(const Tile &t) {
  std::vector<TileDim> out;
  for (const TileDim &d : t.dims)
    if (!d.isConstant() || d.extent != 1)
      out.push_back(d);
  return out;
}

static CopyPlan scheduleFallback(const CopyOp &op, const Target &) {
  CopyPlan plan;
  plan.variant = "fallback";
  plan.path = "scalar";
  plan.op = op;
  plan.kind = CopyPlan::Kind::Scalar;
  std::vector<TileDim> dd = nonUnit(op.dst), sd = nonUnit(op.src);
  for (size_t i = 0; i < dd.size(); ++i)
    plan.scalarDims.push_back(
        {dd[i].extent, dd[i].stride, sd[i].stride, dd[i].dynExtent});
  plan.distributed = op.scope.allActive() && op.scope.threads > 1;
  plan.runner = op.scope.lowestActive();
  return plan;
}

void registerFallback(Registry &r) {
  Variant v;
  v.name = "fallback";
  v.priority = 0;
  v.when = fallbackRejection;
  v.schedule = scheduleFallback;
  r.add(std::move(v));
}

} // namespace intent::copy
