//===- Pipeline.cpp - KIR -> physical program, one pass at a time ----------===//

#include "Pipeline/Pipeline.h"

#include "Construction/Buffers.h"
#include "Construction/EmitPhysical.h"
#include "Construction/Groups.h"
#include "Construction/ProgramSpace.h"
#include "Construction/Serialization.h"
#include "Construction/Worksets.h"
#include "KIR/Contract.h"
#include "Physical/AtomicScope.h"
#include "Passes/Passes.h"
#include "Physical/Verifier.h"

#include <functional>

using namespace intent;
using namespace intent::construct;

namespace {

class PassRunner {
public:
  PassRunner(ConstructionState &s, const PipelineOptions &o, PipelineResult &r)
      : s(s), opts(o), result(r) {}

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
      if (!phys::verifyProgram(*s.program, &s.kernel, errs)) {
        for (const std::string &e : errs)
          result.internalErrors.push_back("after " + name.str() + ": " + e);
        return false;
      }
    }
    return true;
  }

private:
  ConstructionState &s;
  const PipelineOptions &opts;
  PipelineResult &result;
  std::string last;
};

/// A physical pass, run on the state: it sees the program and a sink into
/// the state's remarks and findings, nothing else of construction.
std::function<void(ConstructionState &)>
physical(void (*pass)(phys::Program &, phys::RemarkSink &)) {
  return [pass](ConstructionState &s) {
    phys::RemarkSink sink(s.remarks, s.serializations);
    pass(*s.program, sink);
  };
}

std::string programText(const ConstructionState &s) {
  return phys::programToString(*s.program);
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
  PassRunner passes(s, opts, result);
  auto text = [&](void (*printer)(llvm::raw_ostream &, const ConstructionState &)) {
    return [&s, printer]() {
      std::string out;
      llvm::raw_string_ostream os(out);
      printer(os, s);
      return out;
    };
  };
  auto program = [&s]() { return programText(s); };

  bool ok = passes.run("build-worksets", buildWorksets, text(printWorksets), false) &&
            passes.run("form-groups", formGroups, text(printGroups), false) &&
            passes.run("place-buffers", placeBuffers, text(printGroups), false) &&
            passes.run("assign-program-space", assignProgramSpace, program, false) &&
            passes.run("emit-physical", emitPhysical, program, true);
  // Physical passes (docs/passes.md), each followed by the verifier. The
  // mapping passes come first: the atomic scope depends on the final mapping.
  if (ok && opts.physicalPasses)
    ok = passes.run("grid-reduce", physical(intent::passes::gridReduce), program, true) &&
         passes.run("cta-rows", physical(intent::passes::ctaRows), program, true) &&
         passes.run("row-cache", physical(intent::passes::rowCache), program, true) &&
         passes.run("widen", physical(intent::passes::widen), program, true);
  if (ok)
    ok = passes.run("atomic-scopes", physical(phys::assignAtomicScopes), program, true);

  result.remarks = s.remarks;
  if (ok) // a rejected kernel loses nothing worth a warning
    result.serializations = lostParallelism(s);
  result.errors = s.errors;
  if (ok)
    result.program = std::move(s.program);
  return result;
}
