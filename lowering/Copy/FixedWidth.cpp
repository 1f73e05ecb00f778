//===- FixedWidth.cpp - The vec_16b .. vec_256b copy variants -------------===//
//
// Seed 003: five fixed-width variants (priority 20) that move exactly the
// requested number of bits per access between global and shared/local
// memory or between shared and local memory. They are chosen only by an
// explicit dispatch and accept an op only when that width fits: whole
// elements, the contiguous tail, every non-vector stride and both base
// offsets aligned, within one swizzle chunk. They share the partition
// synthesis of vec_auto with the width fixed.
//
//===----------------------------------------------------------------------===//

#include "Copy/Dispatch.h"
#include "Copy/Gate.h"

#include <sstream>

namespace intent::copy {

/// The storage pairs a fixed width moves; a local side is per-thread
/// storage, so only a single-thread scope may name one.
static std::string checkFixedPair(const CopyOp &op) {
  MemSpace d = op.dst.space, s = op.src.space;
  bool hasLocal = d == MemSpace::Local || s == MemSpace::Local;
  std::ostringstream os;
  if (d == s) {
    os << "storage pair (dst " << memSpaceName(d) << ", src "
       << memSpaceName(s)
       << ") is not global<->shared, global<->local or shared<->local";
    return os.str();
  }
  if (hasLocal && op.scope.threads != 1) {
    os << "a local operand is per-thread storage and needs exec_scope "
          "thread, got "
       << scopeKindName(op.scope.kind) << " (" << op.scope.threads
       << " threads)";
    return os.str();
  }
  return "";
}

/// "" when exactly `bits` per access fits the op.
static std::string fixedWidthRejection(const CopyOp &op, const Target &target,
                                       unsigned bits) {
  for (const std::string &why :
       {checkCudaTarget(target), checkScopeKind(op.scope),
        checkAllThreadsActive(op.scope), checkValidCopy(op)})
    if (!why.empty())
      return why;
  if (std::string why = checkFixedPair(op); !why.empty())
    return why;
  if (std::string why = checkDividesThreads(op); !why.empty())
    return why;
  std::ostringstream os;
  unsigned eb = elemBits(op.src.elem);
  if (bits < eb || bits % eb != 0) {
    os << "a " << bits << "-bit access cannot hold whole "
       << elemTypeName(op.src.elem) << " elements";
    return os.str();
  }
  if (bits == 256 && target.sm < 100) {
    os << "256-bit ld/st needs sm_100 or newer (target sm_" << target.sm
       << ")";
    return os.str();
  }
  int64_t vec = bits / eb;
  AlignedSpace space = alignLayouts(op);
  if (space.elements == 0)
    return "empty region";
  if (std::string why = vecRejection(op, space, op.scope.threads, vec);
      !why.empty()) {
    os << bits << "-bit (" << vec << " x " << elemTypeName(op.src.elem)
       << "): " << why;
    return os.str();
  }
  return "";
}

void registerFixedWidthVariants(Registry &r) {
  for (unsigned bits : {16u, 32u, 64u, 128u, 256u}) {
    Variant v;
    v.name = "vec_" + std::to_string(bits) + "b";
    v.priority = 20;
    v.explicitOnly = true;
    v.when = [bits](const CopyOp &op, const Target &target) {
      return fixedWidthRejection(op, target, bits);
    };
    std::string name = v.name;
    v.schedule = [bits, name](const CopyOp &op, const Target &) {
      return makeVectorPlan(op, name, "fixed", bits / elemBits(op.src.elem));
    };
    r.add(std::move(v));
  }
}

} // namespace intent::copy
