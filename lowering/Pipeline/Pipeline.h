//===- Pipeline.h - KIR -> physical program, one pass at a time -*- C++ -*-===//
//
// The one pipeline function that the plugin and intent-opt call. It is a
// straight list of passes (Pipeline.cpp): construction, then the registered
// physical passes (Passes/Registry.h) in their default order or as the
// options select; each is logged, the state can be printed after every
// pass, and the construction verifier runs after every pass that produces
// or changes the physical program.
//
//===----------------------------------------------------------------------===//

#ifndef INTENT_PIPELINE_PIPELINE_H
#define INTENT_PIPELINE_PIPELINE_H

#include "Construction/State.h"
#include "KIR/KIR.h"
#include "Physical/IR.h"

#include "llvm/Support/raw_ostream.h"

#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace intent {

struct PipelineOptions {
  /// Run the construction verifier after every pass (on by default).
  bool verifyEach = true;
  /// Print the IR (or the pass's state) after every pass to `log`.
  bool printAfterAll = false;
  /// Run the physical passes after construction (docs/passes.md); off for
  /// debugging and for differential runs against the constructed program.
  bool physicalPasses = true;
  /// Run exactly these physical passes (registry names, Passes/Registry.h),
  /// in this order, instead of the default pipeline (intent-opt --passes=,
  /// -fplugin-arg-intent-passes=). physicalPasses does not filter them.
  std::optional<std::vector<std::string>> passes;
  /// Registered passes not to run (intent-opt --disable-pass=,
  /// -fplugin-arg-intent-disable-pass=): for bisecting a miscompile.
  std::set<std::string> disabledPasses;
  /// Where pass logs and --print-after-all output go (null: nowhere).
  llvm::raw_ostream *log = nullptr;
  /// Build the long-row alternative (Program::longRows): set by the
  /// pipeline itself when a pass asks for Program::alternative.
  bool longRows = false;
  /// Build the split-row alternative (Program::splitRows): set by the
  /// pipeline when cta-rows asks for it.
  bool splitRows = false;
};

struct PipelineResult {
  std::unique_ptr<phys::Program> program;
  /// Per-kernel remarks: groups, segments, why work was serialized.
  std::vector<phys::Remark> remarks;
  /// Parallelism the final program lost (Construction/Serialization.h):
  /// the plugin reports each as a warning (-Wintent-serialization).
  std::vector<construct::Serialization> serializations;
  /// User-facing errors (unsupported input) at source locations.
  std::vector<construct::Diag> errors;
  /// Internal errors: KIR or construction verifier failures.
  std::vector<std::string> internalErrors;
  bool ok() const { return errors.empty() && internalErrors.empty() && program; }
};

/// Runs construction on one kernel (KIR is only read), then the physical
/// passes the options select. An unknown pass name is an internal error.
PipelineResult runPipeline(const kir::Kernel &kernel,
                           const PipelineOptions &options = {});

/// Runs the physical passes the options select on a program that exists
/// already (one read from text, Physical/Parser.h): the program is verified
/// first (errors prefixed `input: `), then each pass and the verifier after
/// it. Without KIR the verifier's coverage check does not run.
PipelineResult runPasses(std::unique_ptr<phys::Program> program,
                         const PipelineOptions &options = {});

} // namespace intent

#endif // INTENT_PIPELINE_PIPELINE_H
