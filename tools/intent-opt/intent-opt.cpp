//===- intent-opt.cpp - Run the lowering pipeline on textual KIR or phys --===//
//
//   intent-opt FILE.kir                 parse, verify, print KIR back
//   intent-opt --construct FILE.kir     print the physical program(s)
//     --print-after-all                 the state after every pass
//     --verify-each=false               skip the verifier between passes
//     --no-physical-passes              stop after construction (no
//                                       grid-reduce, ...; docs/passes.md)
//     --passes=a,b                      run exactly these physical passes
//                                       after construction (implies
//                                       --construct)
//     --disable-pass=x[,y]              drop passes from the default
//                                       pipeline (repeatable; implies
//                                       --construct): for bisecting
//     --list-passes                     print the registered passes
//   intent-opt FILE.phys (or --phys)    parse, verify, print the physical
//                                       program(s) back; with --passes= or
//                                       --disable-pass= run those passes on
//                                       them first
//   intent-opt --emit-cuda FILE.kir     construct, then print the .kernels.cu
//     --remarks                         print construction remarks (stderr)
//     --no-locs                         omit loc(...) and origin(...)
//     --fast-math                       approximate f32 exp/log/sin/cos/
//                                       pow and division in the kernels
//     --chunk-region-ops=N              set `chunk = N` on every reassociable
//                                       region_fold/region_scan (as a pass
//                                       that splits regions would), verify
//
// Reads stdin when FILE is `-` or absent. Errors go to stderr as
// `FILE:LINE:COL: error: ...` with exit status 1.
//
//===----------------------------------------------------------------------===//

#include "KIR/KIR.h"
#include "KIR/Parser.h"
#include "Passes/Registry.h"
#include "Physical/IR.h"
#include "Physical/Parser.h"
#include "Physical/Structured.h"
#include "Physical/Verifier.h"
#include "Pipeline/Pipeline.h"

#include "Emit/CudaEmitter.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>
#include <optional>
#include <set>

using namespace intent;

namespace {
// libLLVM registers options such as -print-after-all itself, so the flags
// are parsed by hand rather than with llvm::cl.
std::string inputFile = "-";
bool runConstruct = false;
bool printAfterAll = false;
bool verifyEach = true;
bool remarks = false;
bool noLocs = false;
bool emitCuda = false;
bool fastMath = false;
int64_t chunkRegionOps = 0;
bool physicalPasses = true;
bool physInput = false;
std::optional<std::vector<std::string>> passList;
std::set<std::string> disabledPasses;
/// --passes= or --disable-pass= was given (even empty): a .phys input then
/// runs passes.
bool passesAsked = false;

bool parseArgs(int argc, char **argv) {
  bool haveInput = false;
  for (int i = 1; i < argc; ++i) {
    llvm::StringRef a = argv[i];
    if (a.consume_front("--") || a.consume_front("-")) {
      if (a == "construct")
        runConstruct = true;
      else if (a == "print-after-all")
        printAfterAll = true;
      else if (a == "verify-each" || a == "verify-each=true")
        verifyEach = true;
      else if (a == "verify-each=false")
        verifyEach = false;
      else if (a == "remarks")
        remarks = true;
      else if (a == "emit-cuda")
        runConstruct = emitCuda = true;
      else if (a == "no-locs")
        noLocs = true;
      else if (a == "fast-math")
        fastMath = true;
      else if (a.consume_front("chunk-region-ops=") &&
               !a.getAsInteger(10, chunkRegionOps) && chunkRegionOps > 0)
        runConstruct = true;
      else if (a == "no-physical-passes")
        physicalPasses = false;
      else if (a == "phys")
        physInput = true;
      else if (a.consume_front("passes="))
        passList = passes::splitPassList(a), runConstruct = passesAsked = true;
      else if (a.consume_front("disable-pass=")) {
        for (std::string &n : passes::splitPassList(a))
          disabledPasses.insert(n);
        runConstruct = passesAsked = true;
      } else if (a == "list-passes") {
        for (const passes::PassInfo &p : passes::registeredPasses())
          llvm::outs() << p.name << (p.mapping ? "" : " (always)")
                       << (p.byDefault ? "" : " (when named)") << ": "
                       << p.summary << "\n";
        std::exit(0);
      }
      else if (a.empty() && !haveInput)
        haveInput = true; // "-": stdin
      else {
        llvm::errs() << "intent-opt: unknown option '" << argv[i] << "'\n";
        return false;
      }
      continue;
    }
    if (haveInput) {
      llvm::errs() << "intent-opt: more than one input file\n";
      return false;
    }
    inputFile = a.str();
    haveInput = true;
  }
  if (llvm::StringRef(inputFile).ends_with(".phys"))
    physInput = true;
  // Unknown pass names are an error before anything runs.
  std::vector<const passes::PassInfo *> selected;
  std::string error;
  if (!passes::selectPasses(passList, disabledPasses, physicalPasses,
                            selected, error)) {
    llvm::errs() << "intent-opt: " << error << "\n";
    return false;
  }
  return true;
}
} // namespace

static void diag(llvm::StringRef file, kir::Loc loc, llvm::StringRef kind,
                 llvm::StringRef msg) {
  llvm::errs() << file << ":" << loc.line << ":" << loc.col << ": " << kind
               << ": " << msg << "\n";
}

static PipelineOptions pipelineOptions() {
  PipelineOptions opts;
  opts.verifyEach = verifyEach;
  opts.physicalPasses = physicalPasses;
  opts.printAfterAll = printAfterAll;
  opts.log = printAfterAll ? &llvm::outs() : nullptr;
  opts.passes = passList;
  opts.disabledPasses = disabledPasses;
  return opts;
}

static void emitCudaFile(llvm::StringRef sourceFile,
                         const std::vector<std::unique_ptr<phys::Program>> &programs) {
  emit::EmitOptions eo;
  eo.sourceFile = sourceFile.empty() ? inputFile : sourceFile.str();
  eo.outputFile = "kernels.cu";
  eo.lineDirectives = !noLocs;
  eo.fastMath = fastMath;
  std::vector<const phys::Program *> ps;
  for (const auto &p : programs)
    ps.push_back(p.get());
  emit::emitKernelsFile(llvm::outs(), ps, eo);
}

/// Physical IR input: parse, verify, run the passes asked for (--passes=,
/// --disable-pass=; none otherwise), print or emit.
static int runOnPhysical(llvm::StringRef text) {
  std::vector<std::unique_ptr<phys::Program>> parsed;
  std::string error;
  if (!phys::parsePrograms(text, inputFile, parsed, error)) {
    llvm::errs() << error << "\n";
    return 1;
  }
  PipelineOptions opts = pipelineOptions();
  // Passes run on a .phys input only when asked for: it may be a finished
  // program (printed after the whole pipeline) that should stay as it is.
  if (!passesAsked)
    opts.passes = std::vector<std::string>();
  int status = 0;
  std::vector<std::unique_ptr<phys::Program>> programs;
  for (auto &p : parsed) {
    std::string name = p->name;
    PipelineResult r = runPasses(std::move(p), opts);
    if (remarks)
      for (const phys::Remark &rm : r.remarks)
        diag(inputFile, rm.loc, "remark", "@" + name + ": " + rm.text);
    for (const std::string &e : r.internalErrors)
      llvm::errs() << inputFile << ": error: program @" << name << ": " << e
                   << "\n";
    if (!r.ok()) {
      status = 1;
      continue;
    }
    if (emitCuda)
      programs.push_back(std::move(r.program));
    else if (!printAfterAll)
      phys::printProgram(llvm::outs(), *r.program, !noLocs);
  }
  if (emitCuda && status == 0)
    emitCudaFile("", programs);
  return status;
}

int main(int argc, char **argv) {
  if (!parseArgs(argc, argv))
    return 2;
  auto buf = llvm::MemoryBuffer::getFileOrSTDIN(inputFile);
  if (!buf) {
    llvm::errs() << "intent-opt: cannot read " << inputFile << ": "
                 << buf.getError().message() << "\n";
    return 1;
  }
  std::string error;
  if (physInput)
    return runOnPhysical((*buf)->getBuffer());
  std::unique_ptr<kir::Module> m =
      kir::parseModule((*buf)->getBuffer(), inputFile, error);
  if (!m) {
    llvm::errs() << error << "\n";
    return 1;
  }
  int status = 0;
  for (const auto &k : m->kernels) {
    std::vector<std::string> errs;
    if (!kir::verifyKernel(*k, errs)) {
      for (const std::string &e : errs)
        llvm::errs() << inputFile << ": error: kernel @" << k->name
                     << ": KIR verifier: " << e << "\n";
      status = 1;
    }
  }
  if (status)
    return status;
  if (!runConstruct) {
    kir::printModule(llvm::outs(), *m, !noLocs);
    return 0;
  }
  std::vector<std::unique_ptr<phys::Program>> programs;
  for (const auto &k : m->kernels) {
    PipelineResult r = runPipeline(*k, pipelineOptions());
    if (remarks)
      for (const phys::Remark &rm : r.remarks)
        diag(inputFile, rm.loc, "remark", "@" + k->name + ": " + rm.text);
    if (remarks) // what the plugin reports as -Wintent-serialization
      for (const construct::Serialization &f : r.serializations)
        diag(inputFile, f.loc, "warning",
             "@" + k->name + ": " + f.cause + ": " + f.fix);
    for (const construct::Diag &d : r.errors)
      diag(inputFile, d.loc, "error", d.message);
    for (const std::string &e : r.internalErrors)
      llvm::errs() << inputFile << ": error: kernel @" << k->name << ": "
                   << e << "\n";
    if (!r.ok()) {
      status = 1;
      continue;
    }
    if (chunkRegionOps > 0) {
      phys::walkMutable(*r.program->body, [](phys::Op &op) {
        const phys::AttrValue *re = op.attr("reassociate");
        if (phys::isRegionOp(op.opcode) && re &&
            std::holds_alternative<bool>(*re) && std::get<bool>(*re))
          op.setAttr("chunk", chunkRegionOps);
      });
      std::vector<std::string> errs;
      if (!phys::verifyProgram(*r.program, k.get(), errs)) {
        for (const std::string &e : errs)
          llvm::errs() << inputFile << ": error: kernel @" << k->name
                       << ": after --chunk-region-ops: " << e << "\n";
        status = 1;
        continue;
      }
    }
    if (emitCuda)
      programs.push_back(std::move(r.program));
    else if (!printAfterAll)
      phys::printProgram(llvm::outs(), *r.program, !noLocs);
  }
  if (emitCuda && status == 0)
    emitCudaFile(m->sourceFile, programs);
  return status;
}
