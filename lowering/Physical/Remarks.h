//===- Remarks.h - What a pass tells the user -------------------*- C++ -*-===//
//
// Besides errors, construction and the physical passes tell the user two
// things: remarks (what a step did, or why it did not apply) and findings of
// lost parallelism (-Wintent-serialization warnings). Both records live in
// this layer, below construction and the passes, so that a pass reports
// through a RemarkSink without seeing the construction state
// (docs/architecture.md, "Layers").
//
//===----------------------------------------------------------------------===//

#ifndef INTENT_PHYSICAL_REMARKS_H
#define INTENT_PHYSICAL_REMARKS_H

#include "Physical/IR.h"

#include <string>
#include <vector>

namespace intent::phys {

/// Parallelism the program loses (docs/construction.md §5 "Serialization
/// warnings"): a group serialized into one instance, a nested parallel_for
/// kept as an ordered loop, instances merged over a buffer, a reduction
/// folded by one thread. The plugin reports each one that survives the
/// physical passes as a warning (-Wintent-serialization) at `loc`:
/// "<cause>: <fix>".
struct Serialization {
  Loc loc;           ///< where the user should look (an access, a loop)
  std::string cause; ///< why, in the user's names
  std::string fix;   ///< what to change
  int group = -1;    ///< the serialized group (= segment), or -1
  int nested = -1;   ///< a nested parallel_for (KIR op id) kept ordered, or -1
  int unit = -1;     ///< the unit of a nested parallel_for
  bool empty() const { return cause.empty(); }
};

/// Where a physical pass reports: it appends to lists its creator owns. The
/// pipeline points it at the construction state's lists, so remarks and
/// findings keep the order in which construction and the passes made them;
/// a test or tool points it at its own.
class RemarkSink {
public:
  RemarkSink(std::vector<Remark> &remarks,
             std::vector<Serialization> &serializations)
      : remarks(remarks), serializations(serializations) {}

  /// A remark for the user at `loc` (a clang remark in the plugin).
  void remark(Loc loc, std::string text) {
    remarks.push_back({loc, std::move(text)});
  }

  /// Parallelism the program loses, as the pass found it.
  void lostParallelism(Serialization finding) {
    serializations.push_back(std::move(finding));
  }

  /// The findings so far, construction's first: a pass keeps quiet about a
  /// group that construction already reported.
  const std::vector<Serialization> &findings() const { return serializations; }

private:
  std::vector<Remark> &remarks;
  std::vector<Serialization> &serializations;
};

} // namespace intent::phys

#endif // INTENT_PHYSICAL_REMARKS_H
