//===- VecAuto.cpp - The vec_auto copy variant (gmem_smem path) -----------===//
//
// Seed 003: vec_auto (priority 10) routes a global<->shared copy to its
// gmem_smem path, which synthesizes an [outer, threads, vec] partition from
// the execution scope and moves it with the widest aligned direct-PTX
// vector. The gate `_is_gmem_smem` rejects, with a reason, everything the
// path cannot do well instead of emitting a slow scalar loop.
//
//===----------------------------------------------------------------------===//

#include "Copy/Dispatch.h"
#include "Copy/Gate.h"

namespace intent::copy {

/// `_is_gmem_smem`: "" when the gmem_smem path accepts the op.
static std::string gmemSmemRejection(const CopyOp &op, const Target &target) {
  if (std::string why = checkCudaTarget(target); !why.empty())
    return why;
  if (std::string why = checkScopeKind(op.scope); !why.empty())
    return why;
  if (std::string why = checkAllThreadsActive(op.scope); !why.empty())
    return why;
  if (std::string why = checkValidCopy(op); !why.empty())
    return why;
  if (std::string why = checkGlobalSharedPair(op); !why.empty())
    return why;
  return checkDividesThreads(op);
}

void registerVecAuto(Registry &r) {
  Variant v;
  v.name = "vec_auto";
  v.priority = 10;
  v.when = [](const CopyOp &op, const Target &target) -> std::string {
    std::string why = gmemSmemRejection(op, target);
    return why.empty() ? why : "gmem_smem: " + why;
  };
  v.schedule = [](const CopyOp &op, const Target &) {
    return makeVectorPlan(op, "vec_auto", "gmem_smem", /*vec=*/0);
  };
  r.add(std::move(v));
}

} // namespace intent::copy
