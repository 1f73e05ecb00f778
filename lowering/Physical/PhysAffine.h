//===- PhysAffine.h - Affine forms of physical coordinate SSA ---*- C++ -*-===//
//
// Analysis used by the construction verifier: turns i64 SSA values of a
// physical program into affine forms (Conflict.h) over instance coordinates
// ("i0", "i1", ...), region-member atoms and opaque atoms named by the
// value's structure (launch values, parameters, pure expressions), with the
// instance-invariance of each atom recorded in an InstanceSpace. Also checks
// the source slicing relation of region_fold / region_scan.
//
//===----------------------------------------------------------------------===//

#ifndef INTENT_PHYSICAL_PHYSAFFINE_H
#define INTENT_PHYSICAL_PHYSAFFINE_H

#include "Physical/Conflict.h"
#include "Physical/IR.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"

#include <string>

namespace intent::phys {

/// Affine extraction over one program; `space` receives atom invariance.
class PhysAffine {
public:
  PhysAffine(const Program &p, InstanceSpace &space) : p(p), space(space) {}

  /// `v` is instance coordinate `dim`.
  void setCoord(const Value *v, unsigned dim) { coord[v] = dim; }
  /// `v` ranges over the members of the region that instance coordinate
  /// `dim` selects (members of different regions are disjoint).
  void setMember(const Value *v, unsigned dim);
  /// Every value of instance coordinate `dim` is below `limit` (checked by
  /// the launcher: Program::launchChecks). A conversion of the coordinate to
  /// an integer type that holds [0, limit) is then the coordinate itself.
  void setCoordLimit(unsigned dim, int64_t limit) {
    auto [it, added] = coordLimit.try_emplace(dim, limit);
    if (!added && limit < it->second)
      it->second = limit;
  }
  /// True when `v` is an instance coordinate.
  bool isCoord(const Value *v, unsigned &dim) const;
  /// The "instances" are the iterations of a loop whose region defines
  /// exactly the values in `inside`: every value defined outside it is the
  /// same in every iteration (an opaque invariant atom).
  void setIterationScope(const llvm::DenseSet<const Value *> *inside) {
    iterationScope = inside;
  }

  Affine of(const Value *v);

private:
  const Program &p;
  InstanceSpace &space;
  llvm::DenseMap<const Value *, unsigned> coord;
  llvm::DenseMap<unsigned, int64_t> coordLimit;
  const llvm::DenseSet<const Value *> *iterationScope = nullptr;

  bool isParam(const Value *v) const {
    return v->isBlockArg() && v->owner == &p.body->block;
  }
  std::string key(const Value *v, bool &inv);
  /// Records in `space` the bound of a loop counter (InstanceSpace::atLeast
  /// / atMost) whose atom is `atom`.
  void recordCounter(const Value *v, const std::string &atom);
};

/// The source slicing relation of a region_fold / region_scan `op`: its
/// member bounds are `begin = load M[c]`, `end = load M[c + 1]` (each
/// optionally cast to i64) of one rank-1 integer view or buffer M, where c
/// is `r + (r-independent terms)`, and these loads (and casts) feed nothing
/// but `op`, so the segment's extent never becomes an observable value.
/// Returns "" when it holds, else why not.
std::string checkRegionSlicing(const Program &p, const Op &op,
                               const llvm::DenseMap<const Value *, unsigned> &uses);

/// Number of uses of every value of `p` (as an operand of some op).
llvm::DenseMap<const Value *, unsigned> countUses(const Program &p);

} // namespace intent::phys

#endif // INTENT_PHYSICAL_PHYSAFFINE_H
