//===- Outputs.cpp - Phase-1 outputs: generated .cu and rewritten TU ------===//
//
// The rewritten TU keeps the user's line numbers: every edit is inserted on
// the line it belongs to (a kernel's dispatch prologue after the `{` of its
// body, its launch traits after its closing brace, a call's site record
// around the call), and the file starts with `#line 1 "<original>"` after
// the runtime include, so diagnostics of phase 2 point at the user's lines.
//
//===----------------------------------------------------------------------===//

#include "Outputs.h"

#include "Diagnostics.h"

#include "Emit/CudaEmitter.h"

#include "clang/AST/ParentMapContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/TemplateBase.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "clang/Rewrite/Core/Rewriter.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <map>

using namespace clang;
using namespace intent;
using namespace intent::plugin;

namespace {

/// True for a kernel: any declaration of it (or of its template) carries
/// the attribute, be it before or after the one a call found.
bool isKernelDecl(const FunctionDecl *fd) {
  if (!fd)
    return false;
  for (const FunctionDecl *r : fd->redecls())
    for (const auto *a : r->specific_attrs<AnnotateAttr>())
      if (a->getAnnotation() == "intent::kernel")
        return true;
  if (const FunctionDecl *pattern = fd->getTemplateInstantiationPattern())
    return pattern != fd && isKernelDecl(pattern);
  return false;
}

/// True for a member of intent::view or intent::buffer named Name (an
/// operator when Op is set).
bool isContainerMember(const CXXMethodDecl *md) {
  if (!md)
    return false;
  const CXXRecordDecl *rd = md->getParent();
  if (!rd || (rd->getName() != "view" && rd->getName() != "buffer"))
    return false;
  const auto *ns = dyn_cast<NamespaceDecl>(rd->getDeclContext());
  return ns && ns->getName() == "intent" &&
         isa<TranslationUnitDecl>(ns->getDeclContext());
}

/// Reference mode's access sites (issue 15 item 6): every view or buffer
/// element access, `row` and `slice` in a kernel body, as a token range in
/// the main file with the name of the container when it is a variable.
class AccessSites : public RecursiveASTVisitor<AccessSites> {
public:
  struct Site {
    SourceLocation begin, end;
    unsigned line;
    std::string object;
  };
  AccessSites(const SourceManager &sm) : sm(sm) {}
  std::vector<Site> sites;

  bool VisitCXXOperatorCallExpr(CXXOperatorCallExpr *e) {
    OverloadedOperatorKind k = e->getOperator();
    if ((k == OO_Call || k == OO_Subscript) && e->getNumArgs() > 0 &&
        isContainerMember(dyn_cast_or_null<CXXMethodDecl>(e->getCalleeDecl())))
      add(e, e->getArg(0));
    return true;
  }
  bool VisitCXXMemberCallExpr(CXXMemberCallExpr *e) {
    const CXXMethodDecl *md = e->getMethodDecl();
    if (isContainerMember(md) && md->getIdentifier() &&
        (md->getName() == "row" || md->getName() == "slice"))
      add(e, e->getImplicitObjectArgument());
    return true;
  }

private:
  const SourceManager &sm;
  void add(const Expr *e, const Expr *object) {
    SourceLocation b = e->getBeginLoc(), end = e->getEndLoc();
    if (b.isInvalid() || end.isInvalid() || b.isMacroID() || end.isMacroID() ||
        !sm.isWrittenInMainFile(b) || !sm.isWrittenInMainFile(end))
      return;
    std::string name;
    if (object)
      if (const auto *dr = dyn_cast<DeclRefExpr>(object->IgnoreImpCasts()))
        name = dr->getDecl()->getNameAsString();
    sites.push_back({b, end, sm.getSpellingLineNumber(b), name});
  }
};

/// A C identifier from the main file's stem, e.g. "my-app" -> "my_app".
std::string identifierFrom(llvm::StringRef s) {
  std::string out;
  for (char c : s)
    out += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
  if (out.empty() || std::isdigit(static_cast<unsigned char>(out[0])))
    out = "tu_" + out;
  return out;
}

/// The outermost namespace enclosing `d`, or `d` itself at global scope.
const Decl *outermostGlobalDecl(const Decl *d) {
  const Decl *top = d;
  for (const DeclContext *dc = d->getDeclContext(); dc && !dc->isTranslationUnit();
       dc = dc->getParent())
    if (const auto *nd = dyn_cast<Decl>(dc))
      top = nd;
  return top;
}

class Writer {
public:
  Writer(ASTContext &ctx, llvm::StringRef outDir,
         llvm::ArrayRef<CompiledKernel> kernels, bool fastMath)
      : ctx(ctx), sm(ctx.getSourceManager()), diags(ctx.getDiagnostics()),
        rewriter(sm, ctx.getLangOpts()), outDir(outDir), kernels(kernels) {
    stem = translationUnitStem(ctx);
    opts.fastMath = fastMath;
    opts.symbolPrefix = identifierFrom(stem) + "_";
    if (auto fe = sm.getFileEntryRefForID(sm.getMainFileID())) {
      llvm::SmallString<256> abs(fe->getName());
      llvm::sys::fs::make_absolute(abs);
      llvm::sys::path::remove_dots(abs, /*remove_dot_dot=*/true);
      opts.sourceFile = std::string(abs);
    }
    llvm::SmallString<256> cu(outDir);
    llvm::sys::path::append(cu, stem + ".kernels.cu");
    opts.outputFile = std::string(cu);
  }

  bool run() {
    // The launcher takes each view with the user's element spelling.
    for (const CompiledKernel &k : kernels) {
      std::vector<std::string> elems;
      for (const ParmVarDecl *p : k.decl->parameters())
        elems.push_back(viewElementSpelling(ctx, p->getType()));
      opts.hostElems[k.program->mangledName] = std::move(elems);
    }
    insertDispatchers();
    CallFinder(*this).TraverseDecl(ctx.getTranslationUnitDecl());
    if (failed)
      return false;
    return writeKernelsFile() && writeRewrittenFile();
  }

  bool failed = false;

private:
  ASTContext &ctx;
  SourceManager &sm;
  DiagnosticsEngine &diags;
  Rewriter rewriter;
  std::string outDir;
  llvm::ArrayRef<CompiledKernel> kernels;
  std::string stem;
  emit::EmitOptions opts;

  /// Reports `fmt` (a msg:: text) with its %0, %1 arguments at `loc`.
  void error(SourceLocation loc, const char *fmt,
             std::initializer_list<std::string> args) {
    unsigned id = diags.getDiagnosticIDs()->getCustomDiagID(
        DiagnosticIDs::Error, fmt);
    DiagnosticBuilder db = diags.Report(loc, id);
    for (const std::string &a : args)
      db << a;
    failed = true;
  }

  /// Source text of a token range in the main file.
  std::string text(SourceRange r) {
    return Lexer::getSourceText(CharSourceRange::getTokenRange(r), sm,
                                ctx.getLangOpts())
        .str();
  }

  /// The kernel definition itself becomes the dispatcher, so that every
  /// caller launches: calls in this file, calls from other translation units
  /// (compiled with or without the plugin, with or without the attribute on
  /// their declaration), calls through a pointer. A prologue inserted right
  /// after the body's `{` (on the same line, so line numbers do not move)
  /// launches the kernel in gpu and cpu mode and returns; in reference mode
  /// it counts the call and the serial body runs as written.
  ///
  /// A plain kernel's prologue calls its launcher
  /// `__intent_launch_<tu>_<mangled>`, declared at global scope: inside the
  /// body for a kernel at global scope, else before the outermost enclosing
  /// namespace (or linkage specification). A kernel template's prologue
  /// calls `__intent_traits_<tu>_<name><targs>::launch`, a traits template
  /// declared before the template and specialised after it for every
  /// instantiation the TU compiled (each TU that instantiates the template
  /// compiles the kernel itself, with its own launchers; the instantiations
  /// are inline, so duplicates link).
  void insertDispatchers() {
    PrintingPolicy pp(ctx.getLangOpts());
    pp.SuppressScope = false;
    std::map<unsigned, std::string> before, after;
    // Specializations grouped by their definition, in kernel order.
    std::vector<const FunctionDecl *> defs;
    std::map<const FunctionDecl *, std::vector<const CompiledKernel *>> specs;
    for (const CompiledKernel &k : kernels) {
      const FunctionDecl *def = k.decl->getTemplateInstantiationPattern();
      if (!def)
        def = k.decl;
      if (!specs.count(def))
        defs.push_back(def);
      specs[def].push_back(&k);
    }
    for (const FunctionDecl *def : defs) {
      SourceLocation begin = sm.getExpansionLoc(def->getBeginLoc());
      if (!sm.isWrittenInMainFile(begin)) {
        error(def->getLocation(), msg::KernelInHeader,
              {def->getNameAsString(),
               llvm::sys::path::filename(sm.getFilename(begin)).str()});
        continue;
      }
      const auto *body = dyn_cast_or_null<CompoundStmt>(def->getBody());
      if (!body || def->getEndLoc().isMacroID() ||
          def->getBeginLoc().isMacroID() || body->getLBracLoc().isMacroID()) {
        error(def->getLocation(), msg::KernelInMacro, {});
        continue;
      }
      std::string args;
      bool named = true;
      for (unsigned i = 0; i < def->getNumParams(); ++i) {
        const ParmVarDecl *pv = def->getParamDecl(i);
        if (pv->getName().empty()) {
          error(pv->getLocation(), msg::KernelUnnamedParam, {});
          named = false;
          break;
        }
        args += (i ? ", " : "") + pv->getNameAsString();
      }
      if (!named)
        continue;
      unsigned bodyOffset = sm.getFileOffset(body->getLBracLoc());
      unsigned endOffset = sm.getFileOffset(def->getEndLoc());
      const Decl *top = outermostGlobalDecl(def);
      const FunctionTemplateDecl *tmpl = def->getDescribedFunctionTemplate();
      // Where launcher declarations go: before the outermost namespace, or
      // (kernel at global scope) before the template / inside the body.
      bool declareInBody = top == def && !tmpl;
      const Decl *declAt = top != def ? top
                           : tmpl     ? static_cast<const Decl *>(tmpl)
                                      : def;
      unsigned declOffset =
          sm.getFileOffset(sm.getExpansionLoc(declAt->getBeginLoc()));
      auto launcherDecl = [&](const CompiledKernel &k) {
        return "void " + emit::launchFunctionName(*k.program, opts) + "(" +
               emit::wrapperParams(*k.program, opts) + "); ";
      };
      std::string launch =
          " if (::intent::rt::mode() != ::intent::rt::device_mode::reference) "
          "{ ";
      // Reference mode names the kernel and, through a wrapper around each
      // access, the line and view of a failing index check (core.hpp).
      std::string reference =
          " return; } ::intent::rt::note_reference_call(); "
          "::intent::detail::reference_kernel __intent_reference(\"" +
          def->getNameAsString() + "\", __FILE__);";
      {
        const FunctionDecl *inst = specs[def].front()->decl;
        AccessSites finder(sm);
        finder.TraverseStmt(const_cast<Stmt *>(inst->getBody()));
        for (const AccessSites::Site &site : finder.sites) {
          before[sm.getFileOffset(site.begin)] +=
              "(::intent::detail::reference_access(" +
              std::to_string(site.line) + ", " +
              (site.object.empty() ? "nullptr" : "\"" + site.object + "\"") +
              "), ";
          after[sm.getFileOffset(site.end)] += ")";
        }
      }
      if (!tmpl) {
        const CompiledKernel &k = *specs[def].front();
        std::string decl = launcherDecl(k);
        if (!declareInBody)
          before[declOffset] += decl;
        // A block-scope declaration is found by unqualified lookup only.
        after[bodyOffset] += " " + std::string(declareInBody ? decl : "") +
                             launch.substr(1) +
                             (declareInBody ? "" : "::") +
                             emit::launchFunctionName(*k.program, opts) +
                             "(" + args + ");" + reference;
        continue;
      }
      const TemplateParameterList *tpl = tmpl->getTemplateParameters();
      std::string targs;
      for (unsigned i = 0; i < tpl->size(); ++i) {
        const NamedDecl *tp = tpl->getParam(i);
        if (tp->getName().empty()) {
          error(tp->getLocation(), msg::KernelUnnamedTemplateParam, {});
          named = false;
          break;
        }
        targs += (i ? ", " : "") + tp->getNameAsString() +
                 (tp->isParameterPack() ? "..." : "");
      }
      if (!named)
        continue;
      std::string traits =
          "__intent_traits_" + opts.symbolPrefix + def->getNameAsString();
      std::string tplText = text(tpl->getSourceRange());
      before[sm.getFileOffset(sm.getExpansionLoc(tmpl->getBeginLoc()))] +=
          tplText + " struct " + traits + "; ";
      after[bodyOffset] += launch + traits + "<" + targs + ">::launch(" +
                           args + ");" + reference;
      for (const CompiledKernel *k : specs[def]) {
        before[declOffset] += launcherDecl(*k);
        std::string targsText;
        llvm::raw_string_ostream os(targsText);
        printTemplateArgumentList(
            os, k->decl->getTemplateSpecializationArgs()->asArray(), pp);
        after[endOffset] += " template <> struct " + traits + targsText +
                            " { static void launch(" +
                            emit::wrapperParams(*k->program, opts) + ") { ::" +
                            emit::launchFunctionName(*k->program, opts) + "(" +
                            argNames(*k->program) + "); } };";
      }
    }
    // Text after a token comes before text before the next token where the
    // two meet (`{v[i]`: the prologue, then the access wrapper).
    FileID main = sm.getMainFileID();
    for (const auto &[offset, text] : after)
      rewriter.InsertTextAfterToken(sm.getComposedLoc(main, offset), text);
    for (const auto &[offset, text] : before)
      rewriter.InsertText(sm.getComposedLoc(main, offset), text,
                          /*InsertAfter=*/true);
  }

  static std::string argNames(const phys::Program &p) {
    std::string args;
    for (unsigned i = 0; i < p.params.size(); ++i)
      args += (i ? ", " : "") + p.params[i].name;
    return args;
  }

  /// Finds kernel calls in host code and records their call site.
  class CallFinder : public RecursiveASTVisitor<CallFinder> {
  public:
    explicit CallFinder(Writer &w) : w(w) {}
    bool shouldVisitTemplateInstantiations() const { return true; }

    bool TraverseFunctionDecl(FunctionDecl *fd) {
      // Calls inside a kernel body are the front end's business.
      bool saved = inKernel;
      if (isKernelDecl(fd))
        inKernel = true;
      bool ok = RecursiveASTVisitor::TraverseFunctionDecl(fd);
      inKernel = saved;
      return ok;
    }

    bool VisitCallExpr(CallExpr *ce) {
      const Expr *callee = ce->getCallee()->IgnoreImplicit();
      // A call in a template's pattern that names a kernel template.
      if (const auto *ule = dyn_cast<UnresolvedLookupExpr>(callee)) {
        for (const NamedDecl *d : ule->decls())
          if (isKernelDecl(d->getUnderlyingDecl()->getAsFunction())) {
            if (!inKernel)
              w.recordCallSite(ce);
            break;
          }
        return true;
      }
      const FunctionDecl *fd = ce->getDirectCallee();
      if (!isKernelDecl(fd))
        return true;
      if (inKernel) {
        w.error(ce->getBeginLoc(), msg::KernelCallsKernel,
                {fd->getNameAsString()});
        return true;
      }
      w.recordCallSite(ce);
      return true;
    }

  private:
    Writer &w;
    bool inKernel = false;
  };

  llvm::DenseSet<unsigned> rewritten;

  /// Wraps a main-file kernel call as `(set_call_site(__FILE__, __LINE__),
  /// call)` so that the checks before the launch name the user's line (the
  /// rewritten file maps back to the original with #line). The call
  /// launches either way (the callee dispatches); a call inside a macro
  /// expansion or outside the main file just has no recorded site.
  void recordCallSite(const CallExpr *ce) {
    SourceLocation b = ce->getBeginLoc(), e = ce->getEndLoc();
    if (b.isMacroID() || e.isMacroID() || !sm.isWrittenInMainFile(b) ||
        !sm.isWrittenInMainFile(e))
      return;
    if (!rewritten.insert(sm.getFileOffset(b)).second)
      return; // a template instantiated twice shares the call's text
    rewriter.InsertTextBefore(
        b, "(::intent::rt::detail::set_call_site(__FILE__, __LINE__), ");
    rewriter.InsertTextAfterToken(e, ")");
  }

  /// Writes what fn prints to path, unless path already holds exactly that:
  /// an unchanged output keeps its modification time, so build systems do
  /// not recompile it (no nvcc run after a host-only edit).
  bool writeFile(llvm::StringRef path,
                 const std::function<void(llvm::raw_ostream &)> &fn) {
    std::string text;
    llvm::raw_string_ostream ts(text);
    fn(ts);
    ts.flush();
    if (auto old = llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                               /*RequiresNullTerminator=*/false))
      if ((*old)->getBuffer() == text)
        return true;
    std::error_code ec;
    llvm::raw_fd_ostream os(path, ec);
    if (ec) {
      unsigned id = diags.getCustomDiagID(DiagnosticsEngine::Error,
                                          "cannot write '%0': %1");
      diags.Report(id) << path << ec.message();
      return false;
    }
    os << text;
    return true;
  }

  bool writeKernelsFile() {
    std::vector<const phys::Program *> programs;
    for (const CompiledKernel &k : kernels)
      programs.push_back(k.program);
    return writeFile(opts.outputFile, [&](llvm::raw_ostream &os) {
      emit::emitKernelsFile(os, programs, opts);
    });
  }

  bool writeRewrittenFile() {
    llvm::SmallString<256> path(outDir);
    llvm::sys::path::append(path, stem + ".intent.cpp");
    return writeFile(path, [&](llvm::raw_ostream &os) {
      os << "// Generated by the Intent compiler from " << opts.sourceFile
         << ": kernel calls rewritten into launches. Do not edit.\n";
      os << "#include <intent/runtime/api.hpp>\n";
      emit::emitAbiCheck(os);
      os << "#line 1 \"" << opts.sourceFile << "\"\n";
      FileID main = sm.getMainFileID();
      if (const auto *buf = rewriter.getRewriteBufferFor(main))
        buf->write(os);
      else
        os << sm.getBufferData(main);
    });
  }
};

} // namespace

std::string intent::plugin::viewElementSpelling(const ASTContext &ctx,
                                                QualType viewType) {
  const auto *spec = dyn_cast_or_null<ClassTemplateSpecializationDecl>(
      viewType.getNonReferenceType().getCanonicalType()->getAsCXXRecordDecl());
  if (!spec || spec->getName() != "view" ||
      spec->getTemplateArgs().size() != 2 ||
      spec->getTemplateArgs()[0].getKind() != TemplateArgument::Type)
    return "";
  QualType elem = spec->getTemplateArgs()[0]
                      .getAsType()
                      .getCanonicalType()
                      .getUnqualifiedType();
  const auto *bt = elem->getAs<BuiltinType>();
  if (!bt || !bt->isInteger())
    return "";
  switch (bt->getKind()) {
  // The types <cstdint> names: bool and int8_t .. uint64_t (LP64).
  case BuiltinType::Bool:
  case BuiltinType::SChar:
  case BuiltinType::UChar:
  case BuiltinType::Short:
  case BuiltinType::UShort:
  case BuiltinType::Int:
  case BuiltinType::UInt:
  case BuiltinType::Long:
  case BuiltinType::ULong:
    return "";
  default:
    return elem.getAsString(ctx.getPrintingPolicy());
  }
}

std::string intent::plugin::translationUnitStem(const ASTContext &ctx) {
  const SourceManager &sm = ctx.getSourceManager();
  if (auto fe = sm.getFileEntryRefForID(sm.getMainFileID()))
    return llvm::sys::path::stem(fe->getName()).str();
  return "input";
}

bool intent::plugin::writeOutputs(ASTContext &ctx, llvm::StringRef outDir,
                                  llvm::ArrayRef<CompiledKernel> kernels,
                                  bool fastMath) {
  if (std::error_code ec = llvm::sys::fs::create_directories(outDir)) {
    DiagnosticsEngine &d = ctx.getDiagnostics();
    d.Report(d.getCustomDiagID(DiagnosticsEngine::Error,
                               "cannot create output directory '%0': %1"))
        << outDir << ec.message();
    return false;
  }
  Writer w(ctx, outDir, kernels, fastMath);
  return w.run();
}
