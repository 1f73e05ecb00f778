//===- State.h - What the construction passes share -------------*- C++ -*-===//
//
// Construction (KIR -> initial physical program, design.md §4) is a straight
// sequence of passes over one ConstructionState (see Pipeline.cpp):
//
//   buildWorksets      top-level units, flattened parallel nests, domains
//   formGroups         dependence analysis, execution groups
//   assignProgramSpace segments: L_g, O_g, total
//   emitPhysical       the program body and buffers
//
// Each pass fills its part of the state and may add remarks (for the user)
// or errors (unsupported input, at the user's source location). The KIR
// kernel is only read.
//
//===----------------------------------------------------------------------===//

#ifndef INTENT_CONSTRUCTION_STATE_H
#define INTENT_CONSTRUCTION_STATE_H

#include "KIR/KIR.h"
#include "Physical/Conflict.h"
#include "Physical/IR.h"
#include "Physical/Remarks.h"

#include <memory>
#include <set>
#include <string>
#include <vector>

namespace intent::construct {

/// A user-facing construction error (unsupported input).
struct Diag {
  kir::Loc loc;
  std::string message;
};

/// Parallelism the program loses (Physical/Remarks.h): the record lives
/// below construction so that the physical passes can add findings too.
using Serialization = phys::Serialization;

/// A top-level piece of the kernel body: a parallel_for (with the nested
/// parallel_fors flattened into its instance domain), or one ordered op.
struct Unit {
  unsigned id = 0;
  const kir::Op *op = nullptr; ///< the top-level KIR op
  bool isParallelFor = false;
  /// A top-level region_fold / region_scan: its regions r are the instance
  /// domain (one coordinate), its members k stay inside the instance.
  bool isRegionOp = false;
  /// Parallel units: the flattened nest, outermost first, and the KIR
  /// values that are the instance coordinates (block args of the nest; for
  /// a region op the value region's `r`).
  std::vector<const kir::Op *> nest;
  std::vector<const kir::Value *> indices;
  /// Further KIR values equal to instance coordinate `second` (the `r` of a
  /// region op's other callback regions).
  std::vector<std::pair<const kir::Value *, unsigned>> coordAliases;
  /// Member indices `k` of the region selected by instance coordinate
  /// `second` (disjoint across instances: offsets are non-decreasing).
  std::vector<std::pair<const kir::Value *, unsigned>> members;
  /// Launch expressions of the domain (one per index) when every extent is
  /// launch-visible; empty otherwise.
  std::vector<unsigned> domain;
  bool launchVisible = false;
  std::string notVisible; ///< why the domain is not launch-visible
  /// Can run as its own parallel workset if nothing conflicts.
  bool parallelCapable() const { return isParallelFor || isRegionOp; }
  kir::Loc loc;
  /// Accesses (filled by formGroups), root coordinates over "iK" atoms.
  std::vector<phys::AccessSummary> accesses;
  phys::InstanceSpace space;
  /// Instance coordinates converted to a narrower integer type (a C `int
  /// i` index), analysed as the identity (formGroups): (coordinate, type).
  /// A parallel group checks at launch that the extent fits the type.
  std::vector<std::pair<unsigned, phys::ScalarKind>> narrowed;
};

/// An execution group: units that share state or depend on each other.
struct Group {
  unsigned id = 0;
  std::vector<unsigned> units; ///< in KIR order
  bool ordered = false;        ///< single instance, work traversed inside
  std::string reason;          ///< why ordered
  Serialization finding;       ///< the same, for the user (may be empty)
  int findingUnit = -1;        ///< the unit the reason is about
  std::vector<unsigned> domain; ///< parallel groups: launch exprs per coord
  kir::Loc loc;
};

/// A kernel-level buffer: an `alloc` at the top of the kernel body, shared
/// by every unit that uses it (placeBuffers decides its physical scope).
struct KernelBuffer {
  const kir::Op *alloc = nullptr;
  int group = -1; ///< the one group whose units use it; -1: unused
  /// ProgramPrivate (the single instance of an ordered group) or
  /// InvocationWorkspace (shared by the instances of a parallel group).
  phys::BufferScope scope = phys::BufferScope::ProgramPrivate;
};

struct ConstructionState {
  explicit ConstructionState(const kir::Kernel &k);

  const kir::Kernel &kernel;
  std::unique_ptr<phys::Program> program;
  /// Top-level KIR ops recomputed by every group that needs their values
  /// (pure scalar code, loads of const views), by op id.
  std::set<unsigned> replicable;
  std::vector<Unit> units;
  std::vector<Group> groups;
  /// Kernel-level buffers in KIR order (buildWorksets; placeBuffers).
  std::vector<KernelBuffer> kernelBuffers;
  std::vector<phys::Remark> remarks;
  std::vector<Diag> errors;
  /// Lost parallelism, in the order found (Serialization.h).
  std::vector<Serialization> serializations;

  void remark(kir::Loc loc, const std::string &text) {
    remarks.push_back({loc, text});
  }
  void error(kir::Loc loc, const std::string &text) {
    errors.push_back({loc, text});
  }
  /// True for a value that any group may recompute (params, replicable ops).
  bool isReplicable(const kir::Value *v) const;
};

/// Prints the worksets (after buildWorksets) and groups (after formGroups)
/// in a stable textual form for --print-after-all.
void printWorksets(llvm::raw_ostream &os, const ConstructionState &s);
void printGroups(llvm::raw_ostream &os, const ConstructionState &s);

/// "l:c" or "?" for diagnostics and remarks.
std::string locString(kir::Loc loc);

} // namespace intent::construct

#endif // INTENT_CONSTRUCTION_STATE_H
