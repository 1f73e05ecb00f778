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
#include "Physical/Verifier.h"

#include <functional>

using namespace intent;
using namespace intent::construct;

namespace {

class PassRunner {
public:
  /// `kernel`: the KIR the program was built from (the verifier's coverage
  /// check), or null for a program read from text.
  PassRunner(ConstructionState &s, const kir::Kernel *kernel,
             const PipelineOptions &o, PipelineResult &r)
      : s(s), kernel(kernel), opts(o), result(r) {}

  /// Runs one pass; returns false when the pipeline must stop.
  bool run(llvm::StringRef name, const std::function<void(ConstructionState &)> &pass,
           const std::function<std::string()> &print, bool verifyProgram) {
    if (opts.log && !opts.printAfterAll)
      *opts.log << "// pass: " << name << "\n";
    pass(s);
    if (opts.printAfterAll && opts.log) {
      std::string text = print();
      *opts.log << "// -----// IR after " << name << " //----- //\n";
      if (text == last)
        *opts.log << "(unchanged)\n";
      else
        *opts.log << text;
      last = text;
    }
    if (!s.errors.empty())
      return false;
    if (verifyProgram && opts.verifyEach) {
      std::vector<std::string> errs;
      if (!phys::verifyProgram(*s.program, kernel, errs)) {
        for (const std::string &e : errs)
          result.internalErrors.push_back("after " + name.str() + ": " + e);
        return false;
      }
    }
    return true;
  }

private:
  ConstructionState &s;
  const kir::Kernel *kernel;
  const PipelineOptions &opts;
  PipelineResult &result;
  std::string last;
};

std::string programText(const ConstructionState &s) {
  return phys::programToString(*s.program);
}

/// The physical passes (docs/passes.md, Passes/Registry.h) the options
/// select: the registry's default order or the given list, minus the
/// disabled ones; each followed by the verifier.
bool runPhysicalPasses(PassRunner &runner, const ConstructionState &s,
                       const PipelineOptions &opts, PipelineResult &result) {
  std::vector<const passes::PassInfo *> selected;
  std::string error;
  if (!passes::selectPasses(opts.passes, opts.disabledPasses,
                            opts.physicalPasses, selected, error)) {
    result.internalErrors.push_back(error);
    return false;
  }
  auto program = [&s]() { return programText(s); };
  for (const passes::PassInfo *p : selected)
    if (!runner.run(p->name, p->run, program, true))
      return false;
  return true;
}

/// Moves what the passes produced into the result.
void finish(ConstructionState &s, bool ok, PipelineResult &result) {
  result.remarks = s.remarks;
  if (ok) // a rejected kernel loses nothing worth a warning
    result.serializations = lostParallelism(s);
  result.errors = s.errors;
  if (ok)
    result.program = std::move(s.program);
}

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
  PassRunner passes(s, &s.kernel, opts, result);
  auto text = [&](void (*printer)(llvm::raw_ostream &, const ConstructionState &)) {
    return [&s, printer]() {
      std::string out;
      llvm::raw_string_ostream os(out);
      printer(os, s);
      return out;
    };
  };
  auto program = [&s]() { return programText(s); };

  // Construction (docs/construction.md), then the registered physical
  // passes, each followed by the verifier.
  bool ok = passes.run("build-worksets", buildWorksets, text(printWorksets), false) &&
            passes.run("form-groups", formGroups, text(printGroups), false) &&
            passes.run("place-buffers", placeBuffers, text(printGroups), false) &&
            passes.run("assign-program-space", assignProgramSpace, program, false) &&
            passes.run("emit-physical", emitPhysical, program, true) &&
            runPhysicalPasses(passes, s, opts, result);
  finish(s, ok, result);
  return result;
}

PipelineResult intent::runPasses(std::unique_ptr<phys::Program> program,
                                 const PipelineOptions &opts) {
  PipelineResult result;
  // No KIR: the state holds only the program (its kernel is empty and the
  // verifier runs without the coverage check).
  kir::Kernel none;
  ConstructionState s(none);
  s.program = std::move(program);
  if (opts.verifyEach) {
    std::vector<std::string> errs;
    if (!phys::verifyProgram(*s.program, nullptr, errs)) {
      for (const std::string &e : errs)
        result.internalErrors.push_back("input: " + e);
      return result;
    }
  }
  PassRunner passes(s, nullptr, opts, result);
  bool ok = runPhysicalPasses(passes, s, opts, result);
  finish(s, ok, result);
  return result;
}
