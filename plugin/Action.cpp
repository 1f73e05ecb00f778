//===- Action.cpp - The plugin's attribute, options and AST action --------===//
//
// The action is a thin adapter: parse the plugin arguments, collect the
// kernels in source order, lower each to KIR, run the lowering pipeline on
// it, report its remarks and errors at the user's source, and write the
// outputs. Plugin.cpp registers it with Clang.
//
//===----------------------------------------------------------------------===//

#include "Action.h"

#include "Diagnostics.h"
#include "KernelCollector.h"
#include "KernelLowering.h"

#include "Outputs.h"

#include "KIR/KIR.h"
#include "Passes/Registry.h"
#include "Pipeline/Pipeline.h"

#include "clang/AST/Attr.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Lex/Lexer.h"
#include "clang/Sema/Sema.h"

#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

using namespace clang;
using namespace intent;
using namespace intent::plugin;

//===----------------------------------------------------------------------===//
// The attribute
//===----------------------------------------------------------------------===//

namespace {
void attrError(Sema &s, SourceLocation loc, llvm::StringRef text) {
  s.Diag(loc, s.getDiagnostics().getDiagnosticIDs()->getCustomDiagID(
                  DiagnosticIDs::Error, text));
}
/// True when the attribute's name is followed by `(`. Clang's parser skips
/// the argument list of a C++11 attribute it does not know itself (plugin
/// attributes included) and hands over the attribute without arguments, so
/// `[[intent::kernel(1)]]` would otherwise pass unnoticed.
bool hasArgumentList(Sema &s, const ParsedAttr &attr) {
  const SourceManager &sm = s.getSourceManager();
  // The range ends at the name when the arguments were skipped.
  SourceLocation loc = sm.getSpellingLoc(attr.getRange().getEnd());
  std::optional<Token> next =
      Lexer::findNextToken(loc, sm, s.getLangOpts());
  return next && next->is(tok::l_paren);
}

} // namespace

KernelAttrInfo::KernelAttrInfo() {
  static constexpr Spelling spellings[] = {
      {ParsedAttr::AS_CXX11, "intent::kernel"}};
  Spellings = spellings;
  OptArgs = 0;
  NumArgs = 0;
}

bool KernelAttrInfo::diagAppertainsToDecl(Sema &s, const ParsedAttr &attr,
                                          const Decl *d) const {
  if (isa<CXXMethodDecl>(d)) {
    attrError(s, attr.getLoc(), msg::AttrOnMember);
    return false;
  }
  if (isa<FunctionDecl>(d))
    return true;
  attrError(s, attr.getLoc(), msg::AttrNotFunction);
  return false;
}

ParsedAttrInfo::AttrHandling
KernelAttrInfo::handleDeclAttribute(Sema &s, Decl *d,
                                    const ParsedAttr &attr) const {
  if (attr.getNumArgs() != 0 || hasArgumentList(s, attr)) {
    attrError(s, attr.getLoc(), msg::AttrHasArgs);
    return AttributeNotApplied;
  }
  d->addAttr(AnnotateAttr::Create(s.Context, KernelAnnotation, nullptr, 0,
                                  attr.getRange()));
  return AttributeApplied;
}

//===----------------------------------------------------------------------===//
// The consumer
//===----------------------------------------------------------------------===//

namespace {

class IntentConsumer : public ASTConsumer {
public:
  explicit IntentConsumer(Options opts) : opts(std::move(opts)) {}

  void HandleTranslationUnit(ASTContext &ctx) override {
    DiagnosticsEngine &de = ctx.getDiagnostics();
    if (de.hasErrorOccurred())
      return;
    DiagReporter diags(de);
    std::vector<KernelDef> defs = collectKernels(ctx, diags);

    SourceManager &sm = ctx.getSourceManager();
    kir::Module module;
    std::vector<const FunctionDecl *> kernelDecls; ///< parallel to kernels
    if (const FileEntry *fe = sm.getFileEntryForID(sm.getMainFileID()))
      module.sourceFile = fe->tryGetRealPathName().empty()
                              ? std::string()
                              : llvm::sys::path::filename(
                                    fe->tryGetRealPathName())
                                    .str();
    for (unsigned i = 0; i < defs.size(); ++i) {
      const KernelDef &d = defs[i];
      auto k = std::make_unique<kir::Kernel>();
      k->id = i;
      k->name = d.name;
      k->displayName = d.displayName;
      k->mangledName = d.mangledName;
      k->templateArgs = d.templateArgs;
      PresumedLoc p = sm.getPresumedLoc(sm.getExpansionLoc(d.fd->getLocation()));
      if (p.isValid()) {
        k->file = p.getFilename();
        k->loc = {p.getLine(), p.getColumn()};
      }
      KernelLowering lowering(ctx, diags);
      if (!lowering.lower(d.fd, *k))
        continue;
      if (opts.remarks)
        diags.report(DiagnosticIDs::Remark, d.fd->getLocation(),
                     "extracted Intent kernel '%0' (%1 parameters)",
                     {d.displayName, std::to_string(k->params.size())});
      module.kernels.push_back(std::move(k));
      kernelDecls.push_back(d.fd);
    }
    if (de.hasErrorOccurred())
      return;
    if (opts.dumpKir) {
      kir::printModule(llvm::outs(), module);
      llvm::outs().flush();
    }
    if (opts.stopAfterKir)
      return;

    // KIR -> physical program, one kernel at a time. Remarks and user
    // errors come back at KIR locations in the kernel's file.
    std::vector<std::unique_ptr<phys::Program>> programs;
    std::vector<CompiledKernel> compiled;
    for (unsigned i = 0; i < module.kernels.size(); ++i) {
      const kir::Kernel &k = *module.kernels[i];
      const FunctionDecl *fd = kernelDecls[i];
      PipelineOptions pipelineOptions;
      pipelineOptions.physicalPasses = opts.physicalPasses;
      pipelineOptions.passes = opts.passes;
      pipelineOptions.disabledPasses = opts.disabledPasses;
      PipelineResult r = runPipeline(k, pipelineOptions);
      FileID file = sm.getFileID(sm.getExpansionLoc(fd->getLocation()));
      auto at = [&](kir::Loc l) {
        return l.valid() ? sm.translateLineCol(file, l.line, l.col)
                         : fd->getLocation();
      };
      if (opts.remarks)
        for (const phys::Remark &rm : r.remarks)
          diags.report(DiagnosticIDs::Remark, at(rm.loc), "%0", {rm.text});
      if (opts.serialization != Options::Report::Off) {
        bool asError = opts.serialization == Options::Report::Error;
        for (const construct::Serialization &f : r.serializations)
          diags.report(asError ? DiagnosticIDs::Error : DiagnosticIDs::Warning,
                       at(f.loc),
                       asError ? msg::SerializedError : msg::Serialized,
                       {f.cause, f.fix});
      }
      for (const construct::Diag &d : r.errors)
        diags.error(at(d.loc), "%0", {d.message});
      for (const std::string &e : r.internalErrors)
        diags.error(fd->getLocation(),
                    "internal error in the Intent compiler while building "
                    "kernel '%0': %1 (please report this)",
                    {k.displayName.empty() ? k.name : k.displayName, e});
      if (!r.ok())
        continue;
      if (opts.dumpPhys)
        phys::printProgram(llvm::outs(), *r.program);
      compiled.push_back({fd, r.program.get()});
      programs.push_back(std::move(r.program));
    }
    llvm::outs().flush();
    if (de.hasErrorOccurred() || opts.outDir.empty())
      return;
    writeOutputs(ctx, opts.outDir, compiled, opts.fastMath);
  }

private:
  Options opts;
};

} // namespace

std::unique_ptr<ASTConsumer> intent::plugin::createConsumer(Options opts) {
  return std::make_unique<IntentConsumer>(std::move(opts));
}

//===----------------------------------------------------------------------===//
// The action
//===----------------------------------------------------------------------===//

namespace {
/// The -W options the plugin reads (after -W): about its own group, and
/// -Werror / -Wno-error.
bool isWarningOption(llvm::StringRef w) {
  if (w == "error" || w == "no-error")
    return true;
  w.consume_front("no-");
  w.consume_front("error=");
  return w == msg::SerializationGroup;
}
} // namespace

bool intent::plugin::parseOptions(DiagnosticsEngine &de,
                                  const std::vector<std::string> &args,
                                  Options &opts) {
  auto error = [&](llvm::StringRef text, llvm::StringRef arg) {
    de.Report(de.getDiagnosticIDs()->getCustomDiagID(DiagnosticIDs::Error,
                                                     text))
        << arg;
  };
  bool ok = true;
  for (llvm::StringRef arg : args) {
    if (arg.consume_front("dump=")) {
      if (arg == "kir")
        opts.dumpKir = true;
      else if (arg == "phys")
        opts.dumpPhys = true;
      else
        ok = false, error(msg::BadDumpValue, arg);
    } else if (arg.consume_front("out=")) {
      opts.outDir = arg.str();
    } else if (arg.starts_with("W") && isWarningOption(arg.drop_front())) {
      opts.warningArgs.push_back(arg.drop_front().str());
    } else if (arg == "remarks") {
      opts.remarks = true;
    } else if (arg == "fast-math") {
      opts.fastMath = true;
    } else if (arg == "no-physical-passes") {
      opts.physicalPasses = false;
    } else if (arg.starts_with("passes=") ||
               arg.starts_with("disable-pass=")) {
      llvm::StringRef list = arg.split('=').second;
      if (arg.starts_with("passes="))
        opts.passes = passes::splitPassList(list);
      else
        for (std::string &n : passes::splitPassList(list))
          opts.disabledPasses.insert(n);
      std::vector<const passes::PassInfo *> selected;
      std::string why;
      if (!passes::selectPasses(opts.passes, opts.disabledPasses, true,
                                selected, why)) {
        ok = false;
        de.Report(de.getDiagnosticIDs()->getCustomDiagID(
            DiagnosticIDs::Error, msg::BadPassList))
            << arg << why;
      }
    } else if (arg.consume_front("stop-after=")) {
      if (arg == "kir")
        opts.stopAfterKir = true;
      else
        ok = false, error(msg::BadStopAfterValue, arg);
    } else {
      ok = false;
      error(msg::UnknownPluginArg, arg);
    }
  }
  return ok;
}

namespace {

/// -Wintent-serialization as clang would treat a warning group of its own:
/// on by default; -W<group> / -Wno-<group> switch it, -Werror=<group>
/// switches it on as an error, -Wno-error=<group> keeps it a warning under
/// -Werror, -w silences every warning. Clang's custom diagnostics belong to
/// no group and ignore these options, so the plugin reads them itself:
/// clang's own -W list first, then the plugin's `W...` arguments.
Options::Report serializationReport(const DiagnosticOptions &d,
                                    const std::vector<std::string> &args) {
  std::string group = msg::SerializationGroup;
  bool enabled = true, asError = false, werror = false, noError = false;
  auto apply = [&](llvm::StringRef w) {
    if (w == "error")
      werror = true;
    else if (w == "no-error")
      werror = false;
    else if (w == group)
      enabled = true;
    else if (w == "no-" + group)
      enabled = false;
    else if (w == "error=" + group)
      enabled = asError = true, noError = false;
    else if (w == "no-error=" + group)
      asError = false, noError = true;
  };
  for (const std::string &w : d.Warnings)
    apply(w);
  for (const std::string &w : args)
    apply(w);
  if (d.IgnoreWarnings || !enabled)
    return Options::Report::Off;
  return asError || (werror && !noError) ? Options::Report::Error
                                         : Options::Report::Warning;
}

} // namespace

std::unique_ptr<ASTConsumer>
IntentAction::CreateASTConsumer(CompilerInstance &ci, llvm::StringRef) {
  opts.serialization =
      serializationReport(ci.getDiagnosticOpts(), opts.warningArgs);
  return createConsumer(opts);
}

bool IntentAction::ParseArgs(const CompilerInstance &ci,
                             const std::vector<std::string> &args) {
  return parseOptions(ci.getDiagnostics(), args, opts);
}
