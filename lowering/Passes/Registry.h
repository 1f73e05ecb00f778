//===- Registry.h - The physical passes by name -----------------*- C++ -*-===//
//
// Every physical pass (the rewrites after construction, docs/passes.md) is
// registered here under the name the pipeline logs, --print-after-all
// prints and the tools accept: `intent-opt --passes=cta-rows,widen`,
// `--disable-pass=x`, `-fplugin-arg-intent-passes=` and
// `-fplugin-arg-intent-disable-pass=`. The registry's order is the default
// pipeline (Pipeline.cpp runs it, the verifier after every pass). Adding a
// pass is one file with its function and one row in Registry.cpp.
//
//===----------------------------------------------------------------------===//

#ifndef INTENT_PASSES_REGISTRY_H
#define INTENT_PASSES_REGISTRY_H

#include "Physical/IR.h"
#include "Physical/Remarks.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <optional>
#include <set>
#include <string>
#include <vector>

namespace intent::passes {

/// The signature of every registered pass (Passes.h): it rewrites the
/// program in place and reports remarks (and lost parallelism) to the sink;
/// it never sees the construction state, so the same pass runs on a
/// constructed program and on one read from text. One typedef, so that a
/// change of the pass signature is one edit here.
using PassFn = void (*)(phys::Program &, phys::RemarkSink &);

struct PassInfo {
  const char *name;
  PassFn run;
  /// A mapping pass: it changes how the program maps onto the GPU and is
  /// skipped when PipelineOptions::physicalPasses is off
  /// (-fplugin-arg-intent-no-physical-passes). The others finish every
  /// program (atomic-scopes: the atomics' hardware scope).
  bool mapping;
  /// One line for --help and docs.
  const char *summary;
  /// In the default pipeline; the others run only when named (--passes=).
  bool byDefault = true;
};

/// Every registered pass, in the default pipeline order.
llvm::ArrayRef<PassInfo> registeredPasses();
/// The pass registered as `name`, or null.
const PassInfo *lookupPass(llvm::StringRef name);
/// "grid-reduce, cta-rows, ...": the registered names, in order.
std::string knownPassNames();
/// Splits a comma list ("cta-rows,widen") into names; empty items dropped.
std::vector<std::string> splitPassList(llvm::StringRef list);

/// The passes a pipeline runs: `list` exactly, in its order, when given;
/// else the default order (without the mapping passes unless `mapping`);
/// minus the `disabled` ones in both cases. Returns false with `error` set
/// (`unknown pass 'x' (known passes: ...)`) when a name is not registered.
bool selectPasses(const std::optional<std::vector<std::string>> &list,
                  const std::set<std::string> &disabled, bool mapping,
                  std::vector<const PassInfo *> &out, std::string &error);

} // namespace intent::passes

#endif // INTENT_PASSES_REGISTRY_H
