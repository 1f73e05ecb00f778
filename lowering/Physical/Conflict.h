//===- Conflict.h - Cross-instance conflict rules for accesses --*- C++ -*-===//
//
// The legality core shared by construction (which proves worksets from KIR)
// and the construction verifier (which re-proves them from the physical
// program alone): affine coordinate forms, the view aliasing contract
// (docs/construction.md §"Aliasing contract"), and the criterion that two
// accesses never touch one element from two different program instances.
//
// Both clients extract AccessSummary records from their own IR; the rules
// below are the single definition of what is legal.
//
//===----------------------------------------------------------------------===//

#ifndef INTENT_PHYSICAL_CONFLICT_H
#define INTENT_PHYSICAL_CONFLICT_H

#include "Physical/IR.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace intent::phys {

/// sum_k coeff_k * atom_k + constant, or invalid (not affine). Atoms are
/// canonical strings: "i0", "i1", ... are the instance coordinates; other
/// names are opaque values chosen by the extractor.
struct Affine {
  bool valid = false;
  int64_t constant = 0;
  std::map<std::string, int64_t> terms; ///< no zero coefficients

  static Affine invalid() { return {}; }
  static Affine ofConstant(int64_t c);
  static Affine ofAtom(const std::string &atom);
  Affine plus(const Affine &o) const;
  Affine scaled(int64_t k) const;
  /// The product with `o` when one of the two is a known constant (the
  /// other scaled by it; invalid when that one is); nullopt for a product
  /// of two non-constants, which is not affine: each extractor then makes
  /// the value an opaque atom of its own.
  std::optional<Affine> times(const Affine &o) const;
  bool operator==(const Affine &o) const {
    return valid == o.valid && constant == o.constant && terms == o.terms;
  }
  std::string str() const;
};

/// The name of instance coordinate `dim`.
std::string instanceAtom(unsigned dim);

/// What the extractor knows about the atoms of one instance domain.
struct InstanceSpace {
  unsigned rank = 0; ///< 0: a single instance (nothing can conflict)
  /// Atoms with the same value in every instance (params, launch values,
  /// pure functions of those).
  std::map<std::string, bool> invariant;
  /// Region-member atoms -> the instance dim whose value selects their
  /// region: a region_fold/region_scan member index k of the region r = iP.
  /// Regions of a region set are disjoint (offsets are non-decreasing, the
  /// header's contract), so different values of iP give different k.
  std::map<std::string, unsigned> memberOf;
  /// Loop-variable atoms bounded by an affine form of the same instance's
  /// atoms: a counter that starts at that form and only grows (atLeast) or
  /// only shrinks (atMost), e.g. `for (j = i; j < n; ++j)` gives j >= i0.
  std::map<std::string, Affine> atLeast, atMost;
  bool isInvariant(const std::string &atom) const;
  /// Returns the instance dim of an atom "iK", or -1.
  static int instanceDim(const std::string &atom);
};

/// One load or store, summarised for conflict analysis.
struct AccessSummary {
  int root = -1; ///< ABI view parameter number; -1 for private buffers
  std::string rootName;
  ScalarKind elem = ScalarKind::F32;
  int rank = 0;
  bool constView = false;
  bool write = false;
  /// The root is written somewhere in the kernel (by any access).
  bool rootWritten = false;
  std::vector<Affine> coords; ///< root coordinates
  Loc loc;
  int kirOp = -1;
  /// An atomic read-modify-write (it also counts as a write). Two atomics
  /// of the same `atomicUnit` (the top-level KIR op, i.e. one parallel_for,
  /// whose instances are unordered by contract) never conflict: the
  /// collision is closed by atomic semantics. Against a plain load or store,
  /// or an atomic of another unit, an atomic is an ordinary write.
  bool atomic = false;
  int atomicUnit = -1;
  /// The merge of a privatized copy into its view (IR.h isPrivatizedMerge).
  bool merge = false;
  std::string describe() const; ///< e.g. "write to y(i0 + 1)"
  /// A buffer shared by the instances of its group (a kernel-level buffer:
  /// an invocation workspace or the buffer of a single instance); one id
  /// per logical buffer, -1 otherwise. Only equal ids alias.
  int buffer = -1;
};

/// The aliasing contract: may `a` and `b` address the same element?
/// Same root: yes. A const view is never written during the invocation.
/// Two distinct views that the kernel both writes never overlap. A written
/// view and a mutable view the kernel only reads are either disjoint or
/// identical (in-place update), so they are compared as one view. Different
/// element types or ranks never alias.
bool mayAlias(const AccessSummary &a, const AccessSummary &b);

/// True when both are atomics of one unit: their collisions are closed by
/// atomic semantics (design.md §4.1, §4.5, §4.9).
bool closedByAtomics(const AccessSummary &a, const AccessSummary &b);

/// True when the accesses (at least one a write, mayAlias) can never address
/// the same element from two different instances of `space`.
bool separatedAcrossInstances(const AccessSummary &a, const AccessSummary &b,
                              const InstanceSpace &space);

/// Checks every (write, access) pair of `accesses` for a cross-instance
/// conflict; returns false if none, else true with the first pair in
/// (write, other) (other == write: the write is not unique per instance).
bool findCrossInstanceConflictPair(const std::vector<AccessSummary> &accesses,
                                   const InstanceSpace &space, unsigned &write,
                                   unsigned &other);

/// Checks every (write, access) pair of `accesses` for a cross-instance
/// conflict; returns a description of the first one, or "" if none.
std::string findCrossInstanceConflict(const std::vector<AccessSummary> &accesses,
                                      const InstanceSpace &space);

/// Checks every pair (x in a, y in b) with a write; returns a description
/// of the first pair that may alias at all, or "".
std::string findAnyConflict(const std::vector<AccessSummary> &a,
                            const std::vector<AccessSummary> &b);

/// Sets rootWritten on every access whose root some access in `all` writes.
void markWrittenRoots(const std::vector<std::vector<AccessSummary> *> &all);

} // namespace intent::phys

#endif // INTENT_PHYSICAL_CONFLICT_H
