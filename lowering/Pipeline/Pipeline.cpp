//===- Pipeline.cpp - KIR -> physical program, one pass at a time ----------===//

#include "Pipeline/Pipeline.h"

#include "Construction/Buffers.h"
#include "Construction/EmitPhysical.h"
#include "Construction/Groups.h"
#include "Construction/ProgramSpace.h"
#include "Construction/Serialization.h"
#include "Construction/Worksets.h"
#include "KIR/Contract.h"
#include "Passes/Registry.h"
#include "Physical/AtomicScope.h"
#include "Physical/Clone.h"
#include "Physical/Coop.h"
#include "Physical/Remarks.h"
#include "Physical/Verifier.h"

#include <functional>

using namespace intent;
using namespace intent::construct;

namespace {

/// Runs the pipeline one step at a time: logs the step, prints what it left
/// under --print-after-all, stops on a user error, and runs the verifier
/// after every step that produced or changed the program.
class PassRunner {
public:
  /// `program`: what the steps build (empty until emit-physical) and
  /// rewrite. `errors`: construction's user errors, which stop the pipeline
  /// (null where only physical passes run: they report none). `kernel`: the
  /// KIR the program was built from (the verifier's coverage check), or null
  /// for a program read from text.
  PassRunner(const std::unique_ptr<phys::Program> &program,
             const std::vector<Diag> *errors, const kir::Kernel *kernel,
             const PipelineOptions &o, PipelineResult &r)
      : program(program), errors(errors), kernel(kernel), opts(o), result(r) {}

  /// Runs one step; returns false when the pipeline must stop.
  bool run(llvm::StringRef name, const std::function<void()> &step,
           const std::function<std::string()> &print, bool verifyProgram) {
    if (opts.log && !opts.printAfterAll)
      *opts.log << "// pass: " << name << "\n";
    step();
    if (opts.printAfterAll && opts.log) {
      std::string text = print();
      *opts.log << "// -----// IR after " << name << " //----- //\n";
      if (text == last)
        *opts.log << "(unchanged)\n";
      else
        *opts.log << text;
      last = text;
    }
    if (errors && !errors->empty())
      return false;
    if (verifyProgram && opts.verifyEach) {
      std::vector<std::string> errs;
      if (!phys::verifyProgram(*program, kernel, errs)) {
        for (const std::string &e : errs)
          result.internalErrors.push_back("after " + name.str() + ": " + e);
        return false;
      }
    }
    return true;
  }

  /// The physical passes (docs/passes.md, Passes/Registry.h) the options
  /// select: the registry's default order (the mapping passes only with
  /// PipelineOptions::physicalPasses) or the given list, minus the disabled
  /// ones; each sees the program and `sink` only and is followed by the
  /// verifier. An unknown pass name is an internal error.
  bool runPhysicalPasses(phys::RemarkSink &sink) {
    std::vector<const passes::PassInfo *> selected;
    std::string error;
    if (!passes::selectPasses(opts.passes, opts.disabledPasses,
                              opts.physicalPasses, selected, error)) {
      result.internalErrors.push_back(error);
      return false;
    }
    program->rowTeams = false;
    for (const passes::PassInfo *p : selected)
      program->rowTeams |= llvm::StringRef(p->name) == "region-teams";
    // The program as the passes find it: cpu mode's serial form if they
    // make it spread over threads (Program::serialTwin).
    std::shared_ptr<phys::Program> before;
    if (!selected.empty() && !phys::spreadsOverThreads(*program))
      before = phys::cloneProgram(*program);
    for (const passes::PassInfo *p : selected)
      if (!run(p->name, [&] { p->run(*program, sink); }, programText(), true))
        return false;
    if (before && phys::spreadsOverThreads(*program) &&
        phys::workspaceBytes(*before) == 0) {
      // The twin's atomics (another group of the kernel) need their scopes
      // as much as the program's; its remarks are not the user's.
      std::vector<phys::Remark> twinRemarks;
      std::vector<Serialization> twinFindings;
      phys::RemarkSink twinSink(twinRemarks, twinFindings);
      phys::assignAtomicScopes(*before, twinSink);
      program->serialTwin = std::move(before);
    }
    return true;
  }

  /// The program's text, for --print-after-all.
  std::function<std::string()> programText() const {
    return [this] { return phys::programToString(*program); };
  }

private:
  const std::unique_ptr<phys::Program> &program;
  const std::vector<Diag> *errors;
  const kir::Kernel *kernel;
  const PipelineOptions &opts;
  PipelineResult &result;
  std::string last;
};

} // namespace

PipelineResult intent::runPipeline(const kir::Kernel &kernel,
                                   const PipelineOptions &opts) {
  PipelineResult result;
  std::vector<std::string> kirErrors;
  if (!kir::verifyKernel(kernel, kirErrors)) {
    for (const std::string &e : kirErrors)
      result.internalErrors.push_back("KIR verifier: " + e);
    return result;
  }
  // Construction maps a contract through its expansion (KIR/Contract.h):
  // batch and free axes -> workset, k -> an ordered reduce in the instance.
  std::unique_ptr<kir::Kernel> expanded;
  if (kir::hasContract(kernel)) {
    expanded = kir::expandContracts(kernel);
    if (!kir::verifyKernel(*expanded, kirErrors)) {
      for (const std::string &e : kirErrors)
        result.internalErrors.push_back("KIR verifier (expand-contracts): " + e);
      return result;
    }
  }
  ConstructionState s(expanded ? *expanded : kernel);
  PassRunner passes(s.program, &s.errors, &s.kernel, opts, result);
  // A construction step runs on the whole state.
  auto on = [&s](void (*step)(ConstructionState &)) {
    return [&s, step] { step(s); };
  };
  auto text = [&](void (*printer)(llvm::raw_ostream &, const ConstructionState &)) {
    return [&s, printer]() {
      std::string out;
      llvm::raw_string_ostream os(out);
      printer(os, s);
      return out;
    };
  };
  auto program = passes.programText();
  // The physical passes see the program and this sink only: it appends to
  // the state's remarks and findings, so that they keep the order in which
  // construction and the passes made them, and lostParallelism() below
  // sees the passes' findings next to construction's.
  phys::RemarkSink sink(s.remarks, s.serializations);

  // Construction (docs/construction.md), then the registered physical
  // passes, each followed by the verifier.
  bool ok = passes.run("build-worksets", on(buildWorksets), text(printWorksets), false) &&
            passes.run("form-groups", on(formGroups), text(printGroups), false) &&
            passes.run("place-buffers", on(placeBuffers), text(printGroups), false) &&
            passes.run("assign-program-space", on(assignProgramSpace), program, false) &&
            passes.run("emit-physical", on(emitPhysical), program, true);
  if (ok) {
    s.program->longRows = opts.longRows;
    s.program->splitRows = opts.splitRows;
    ok = passes.runPhysicalPasses(sink);
  }
  // A pass asked for a launch-time alternative (Program::alternative): the
  // kernel once more, the passes seeing Program::longRows (region-teams
  // asked) or Program::splitRows (cta-rows asked). Its remarks are the
  // user's too (prefixed); what it loses is not (the program itself runs
  // whatever the alternative would lose). The long-row alternative may ask
  // for a split-row one in turn.
  const bool split = s.program && s.program->alternativeKind ==
                                      phys::Program::AlternativeKind::SplitRows;
  if (ok && s.program->alternativeWhen >= 0 &&
      (split ? !opts.splitRows : !opts.longRows && !opts.splitRows)) {
    PipelineOptions altOpts = opts;
    (split ? altOpts.splitRows : altOpts.longRows) = true;
    const std::string which = split ? "split-row" : "long-row";
    if (opts.log)
      *opts.log << "// ===== the " << which
                << " alternative (Program::alternative): the kernel again "
                   "with PipelineOptions::"
                << (split ? "splitRows" : "longRows") << " =====\n";
    PipelineResult alt = runPipeline(kernel, altOpts);
    // Construction's remarks are the program's own: only what differs.
    std::set<std::string> said;
    for (const phys::Remark &r : s.remarks)
      said.insert(r.text);
    for (const phys::Remark &r : alt.remarks)
      if (!said.count(r.text) &&
          r.text.find(which + " alternative") == std::string::npos)
        s.remarks.push_back({r.loc, (split ? "few long rows" : "long rows") +
                                        std::string(" (launch-time "
                                                    "alternative): ") +
                                        r.text});
    for (std::string &e : alt.internalErrors)
      result.internalErrors.push_back(which + " alternative: " + e);
    for (construct::Diag &d : alt.errors)
      s.errors.push_back(std::move(d));
    ok = alt.ok();
    if (ok)
      s.program->alternative = std::move(alt.program);
  }

  result.remarks = s.remarks;
  if (ok) // a rejected kernel loses nothing worth a warning
    result.serializations = lostParallelism(s);
  result.errors = s.errors;
  if (ok)
    result.program = std::move(s.program);
  return result;
}

PipelineResult intent::runPasses(std::unique_ptr<phys::Program> program,
                                 const PipelineOptions &opts) {
  PipelineResult result;
  // No KIR: the verifier runs without the coverage check.
  if (opts.verifyEach) {
    std::vector<std::string> errs;
    if (!phys::verifyProgram(*program, nullptr, errs)) {
      for (const std::string &e : errs)
        result.internalErrors.push_back("input: " + e);
      return result;
    }
  }
  // No construction state either: the passes report to a sink of their own,
  // and every finding they make is parallelism the program loses.
  std::vector<Serialization> findings;
  phys::RemarkSink sink(result.remarks, findings);
  PassRunner passes(program, nullptr, nullptr, opts, result);
  if (passes.runPhysicalPasses(sink)) {
    result.serializations = std::move(findings);
    result.program = std::move(program);
  }
  return result;
}
