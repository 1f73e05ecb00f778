//===- Plan.h - A scheduled copy, input of the emitter ---------*- C++ -*-===//
//
// A CopyPlan is the output of a variant's schedule: either a vector plan
// (an [outer, threads, vec] partition moved with `vecBits`-wide direct-PTX
// accesses) or a scalar plan (element by element, spread over the scope's
// threads or run by one thread). forEachAccess evaluates a plan without
// emitting code, so tests check coverage and addresses independently of
// the emitted text.
//
//===----------------------------------------------------------------------===//

#ifndef INTENT_COPY_PLAN_H
#define INTENT_COPY_PLAN_H

#include "Copy/Copy.h"
#include "Copy/Partition.h"

#include <functional>
#include <ostream>
#include <string>
#include <vector>

namespace intent::copy {

struct CopyPlan {
  enum class Kind : uint8_t { Vector, Scalar };

  /// The variant that produced the plan ("vec_auto", "vec_128b", ...).
  std::string variant;
  /// Its implementation path ("gmem_smem", "fixed", "scalar").
  std::string path;
  CopyOp op;
  Kind kind = Kind::Vector;

  /// Vector plans: the partition and the width of one access in bits
  /// (vec * element bits).
  Partition part;
  unsigned vecBits = 0;

  /// Scalar plans: the paired non-unit dimensions in dst order (runtime
  /// extents allowed), and whether all threads share the elements
  /// round-robin (otherwise thread `runner` moves them all).
  std::vector<PDim> scalarDims;
  bool distributed = false;
  unsigned runner = 0;

  /// How the schedule decided (widths tried, addressing mode).
  std::vector<std::string> notes;

  bool isVector() const { return kind == Kind::Vector; }
  /// Bytes of one access.
  unsigned accessBytes() const;
};

/// Builds the vector plan of a gated op: aligns its layouts, moves `vec`
/// elements per access (0: the widest vector widestVec accepts) and
/// synthesizes the partition. Requires vecRejection(...) == "" for an
/// explicit `vec`.
CopyPlan makeVectorPlan(const CopyOp &op, std::string variant,
                        std::string path, int64_t vec);

/// Whether the swizzle of one side (dst or src) can be applied once per
/// thread: every outer-loop stride of that side is a multiple of the
/// swizzle atom, so swizzle(x + k * atom) = swizzle(x) + k * atom.
bool swizzleHoistable(const CopyPlan &plan, bool dstSide);

/// Prints the plan: variant, path, direction, partition and notes.
void printPlan(std::ostream &os, const CopyPlan &plan);

/// Calls fn(dstOffset, srcOffset, elems) for every access thread `tid` of
/// the scope performs, in order: physical element offsets (base and swizzle
/// applied; base expressions count as 0) of `elems` contiguous elements on
/// each side. Requires constant extents.
void forEachAccess(const CopyPlan &plan, int64_t tid,
                   const std::function<void(int64_t, int64_t, int64_t)> &fn);

} // namespace intent::copy

#endif // INTENT_COPY_PLAN_H
