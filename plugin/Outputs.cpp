//===- Outputs.cpp - Phase-1 outputs: generated .cu and rewritten TU ------===//
//
// The rewritten TU keeps the user's line numbers: generated wrappers are
// inserted on the line where the kernel definition ends, and the file starts
// with `#line 1 "<original>"` after the runtime include, so diagnostics of
// phase 2 point at the user's own lines.
//
//===----------------------------------------------------------------------===//

#include "Outputs.h"

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

bool isKernelDecl(const FunctionDecl *fd) {
  if (!fd)
    return false;
  for (const auto *a : fd->specific_attrs<AnnotateAttr>())
    if (a->getAnnotation() == "intent::kernel")
      return true;
  if (const FunctionDecl *pattern = fd->getTemplateInstantiationPattern())
    return pattern != fd && isKernelDecl(pattern);
  return false;
}

/// A C identifier from the main file's stem, e.g. "my-app" -> "my_app".
std::string identifierFrom(llvm::StringRef s) {
  std::string out;
  for (char c : s)
    out += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
  if (out.empty() || std::isdigit(static_cast<unsigned char>(out[0])))
    out = "tu_" + out;
  return out;
}

/// `::ns1::ns2::` for a declaration's enclosing namespaces; empty when an
/// enclosing context cannot be named (anonymous namespace, class, function).
std::optional<std::string> namespacePrefix(const Decl *d) {
  std::vector<std::string> parts;
  for (const DeclContext *dc = d->getDeclContext(); dc && !dc->isTranslationUnit();
       dc = dc->getParent()) {
    if (dc->isExternCContext() || dc->isExternCXXContext() ||
        isa<LinkageSpecDecl>(dc))
      continue;
    const auto *ns = dyn_cast<NamespaceDecl>(dc);
    if (!ns || ns->isAnonymousNamespace())
      return std::nullopt;
    if (ns->isInline())
      continue;
    parts.push_back(ns->getNameAsString());
  }
  std::string s = "::";
  for (auto it = parts.rbegin(); it != parts.rend(); ++it)
    s += *it + "::";
  return s;
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

/// `name<args>` of a specialization as C++ source that names it.
std::string callableName(const FunctionDecl *fd, const PrintingPolicy &pp) {
  std::string s = fd->getNameAsString();
  if (const TemplateArgumentList *args = fd->getTemplateSpecializationArgs()) {
    llvm::raw_string_ostream os(s);
    printTemplateArgumentList(os, args->asArray(), pp);
  }
  return s;
}

class Writer {
public:
  Writer(ASTContext &ctx, llvm::StringRef outDir,
         llvm::ArrayRef<CompiledKernel> kernels)
      : ctx(ctx), sm(ctx.getSourceManager()), diags(ctx.getDiagnostics()),
        rewriter(sm, ctx.getLangOpts()), outDir(outDir), kernels(kernels) {
    stem = translationUnitStem(ctx);
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
    for (const CompiledKernel &k : kernels) {
      byDecl[k.decl->getCanonicalDecl()] = &k;
      // The launcher takes each view with the user's element spelling.
      std::vector<std::string> elems;
      for (const ParmVarDecl *p : k.decl->parameters())
        elems.push_back(viewElementSpelling(ctx, p->getType()));
      opts.hostElems[k.program->mangledName] = std::move(elems);
    }
    insertWrappers();
    rewriteCalls();
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
  llvm::DenseMap<const Decl *, const CompiledKernel *> byDecl;
  /// Fully qualified wrapper name per kernel declaration.
  llvm::DenseMap<const Decl *, std::string> callName;
  /// The same, fully qualified: for a call that found the kernel through a
  /// using-declaration, where the wrapper's own name is not visible.
  llvm::DenseMap<const Decl *, std::string> qualifiedCallName;

  void error(SourceLocation loc, llvm::StringRef msg) {
    unsigned id = diags.getCustomDiagID(DiagnosticsEngine::Error, "%0");
    diags.Report(loc, id) << msg;
    failed = true;
  }

  std::string wrapperName(const CompiledKernel &k) {
    return "__intent_call_" + emit::symbolName(*k.program, opts);
  }

  /// Source text of a token range in the main file.
  std::string text(SourceRange r) {
    return Lexer::getSourceText(CharSourceRange::getTokenRange(r), sm,
                                ctx.getLangOpts())
        .str();
  }

  /// Wrappers go right after each kernel definition (the template pattern
  /// for specializations), on the line where it ends so that line numbers
  /// do not move. Launchers are defined at global scope in the .cu, so they
  /// are declared at global scope: after a global kernel, or before the
  /// outermost namespace around a namespaced one.
  ///
  /// A plain kernel gets `__intent_call_<tu>_<name>` with the launcher's
  /// parameters. A kernel template gets a wrapper template with the kernel's
  /// own template and function parameter lists (so calls deduce exactly as
  /// before, also from dependent host code) that dispatches through a traits
  /// template specialised for every instantiation the TU uses.
  void insertWrappers() {
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
      if (!sm.isWrittenInMainFile(sm.getExpansionLoc(def->getBeginLoc())))
        continue; // kernels from headers: only main-file calls matter
      std::optional<std::string> ns = namespacePrefix(def);
      if (!ns) {
        error(def->getLocation(),
              "a kernel inside an anonymous namespace or a class cannot be "
              "launched: its generated launcher cannot name it; move it to "
              "a named namespace or the global scope");
        continue;
      }
      if (def->getEndLoc().isMacroID() || def->getBeginLoc().isMacroID()) {
        error(def->getLocation(),
              "a kernel defined by a macro expansion cannot be rewritten; "
              "write its definition out");
        continue;
      }
      std::string wrapper =
          "__intent_call_" + opts.symbolPrefix + def->getNameAsString();
      unsigned endOffset = sm.getFileOffset(def->getEndLoc());
      const Decl *top = outermostGlobalDecl(def);
      bool global = top == def || isa<FunctionTemplateDecl>(top);
      auto declareLauncher = [&](const CompiledKernel &k) {
        std::string decl = "void " + emit::launchFunctionName(*k.program, opts) +
                           "(" + emit::wrapperParams(*k.program, opts) + ");";
        if (global)
          after[endOffset] += " " + decl;
        else
          before[sm.getFileOffset(sm.getExpansionLoc(top->getBeginLoc()))] +=
              decl + " ";
      };
      for (const CompiledKernel *k : specs[def]) {
        callName[k->decl->getCanonicalDecl()] = wrapper;
        qualifiedCallName[k->decl->getCanonicalDecl()] = *ns + wrapper;
      }
      callName[def->getCanonicalDecl()] = wrapper;
      qualifiedCallName[def->getCanonicalDecl()] = *ns + wrapper;

      std::string reference =
          " if (::intent::rt::mode() == ::intent::rt::device_mode::reference) "
          "{ ::intent::rt::note_reference_call(); ";
      const FunctionTemplateDecl *tmpl = def->getDescribedFunctionTemplate();
      if (!tmpl) {
        const CompiledKernel &k = *specs[def].front();
        std::string args = argNames(*k.program);
        declareLauncher(k);
        after[endOffset] += " inline void " + wrapper + "(" +
                            emit::wrapperParams(*k.program, opts) + ") {" +
                            reference + *ns + callableName(k.decl, pp) + "(" +
                            args + "); return; } ::" +
                            emit::launchFunctionName(*k.program, opts) + "(" +
                            args + "); }";
        continue;
      }
      const TemplateParameterList *tpl = tmpl->getTemplateParameters();
      std::string targs, params, args;
      for (unsigned i = 0; i < tpl->size(); ++i) {
        const NamedDecl *tp = tpl->getParam(i);
        if (tp->getName().empty()) {
          error(tp->getLocation(),
                "an unnamed template parameter of a kernel cannot be "
                "forwarded by its launcher; give it a name");
          break;
        }
        targs += (i ? ", " : "") + tp->getNameAsString() +
                 (tp->isParameterPack() ? "..." : "");
      }
      for (unsigned i = 0; i < def->getNumParams(); ++i) {
        const ParmVarDecl *pv = def->getParamDecl(i);
        if (pv->getName().empty()) {
          error(pv->getLocation(), "an unnamed parameter of a kernel cannot "
                                   "be forwarded by its launcher; give it a "
                                   "name");
          break;
        }
        params += (i ? ", " : "") + text(pv->getSourceRange());
        args += (i ? ", " : "") + pv->getNameAsString();
      }
      std::string traits =
          "__intent_launch_" + opts.symbolPrefix + def->getNameAsString();
      std::string tplText = text(tpl->getSourceRange());
      after[endOffset] += " " + tplText + " struct " + traits + "; " +
                          tplText + " inline void " + wrapper + "(" + params +
                          ") {" + reference + def->getNameAsString() + "<" +
                          targs + ">(" + args + "); return; } " + traits +
                          "<" + targs + ">::launch(" + args + "); }";
      for (const CompiledKernel *k : specs[def]) {
        declareLauncher(*k);
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
    FileID main = sm.getMainFileID();
    for (const auto &[offset, text] : before)
      rewriter.InsertTextBefore(sm.getComposedLoc(main, offset), text);
    for (const auto &[offset, text] : after)
      rewriter.InsertTextAfterToken(sm.getComposedLoc(main, offset), text);
  }

  static std::string argNames(const phys::Program &p) {
    std::string args;
    for (unsigned i = 0; i < p.params.size(); ++i)
      args += (i ? ", " : "") + p.params[i].name;
    return args;
  }

  /// Finds kernel calls and references; rewrites calls in the main file.
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
      // A call in a template's pattern that names a kernel template: its
      // text is shared by every instantiation, so rewrite it here too.
      if (const auto *ule = dyn_cast<UnresolvedLookupExpr>(callee)) {
        for (const NamedDecl *d : ule->decls()) {
          const FunctionDecl *fd = d->getUnderlyingDecl()->getAsFunction();
          if (!isKernelDecl(fd))
            continue;
          if (inKernel)
            break;
          w.rewriteCall(ce, fd, ule->getNameLoc(),
                        isa<UsingShadowDecl>(d) && !ule->getQualifier());
          break;
        }
        return true;
      }
      const FunctionDecl *fd = ce->getDirectCallee();
      if (!isKernelDecl(fd))
        return true;
      const auto *dre = dyn_cast<DeclRefExpr>(callee);
      if (dre)
        callees.insert(dre);
      if (inKernel) {
        w.error(ce->getBeginLoc(),
                "a kernel cannot call another kernel ('" +
                    fd->getNameAsString() +
                    "'): each call is one launch; call both from host code");
        return true;
      }
      if (!dre) {
        w.error(ce->getBeginLoc(),
                "cannot rewrite this call to kernel '" +
                    fd->getNameAsString() + "'; call the kernel by name");
        return true;
      }
      // Found through a using-declaration (`using n::k; k(v);`): the
      // wrapper is declared next to the kernel, so name it in full.
      w.rewriteCall(ce, fd, dre->getLocation(),
                    isa<UsingShadowDecl>(dre->getFoundDecl()) &&
                        !dre->hasQualifier());
      return true;
    }

    bool VisitDeclRefExpr(DeclRefExpr *dre) {
      const auto *fd = dyn_cast<FunctionDecl>(dre->getDecl());
      if (!isKernelDecl(fd) || callees.count(dre) || inKernel)
        return true;
      w.error(dre->getLocation(),
              "taking the address of kernel '" + fd->getNameAsString() +
                  "' is not supported; call the kernel directly");
      return true;
    }

  private:
    Writer &w;
    bool inKernel = false;
    llvm::DenseSet<const DeclRefExpr *> callees;
  };

  llvm::DenseSet<unsigned> rewritten;

  /// Replaces the kernel's name at `nameLoc` by its wrapper's name (fully
  /// qualified when `qualify`); the qualifier and explicit template
  /// arguments stay as written.
  void rewriteCall(const CallExpr *ce, const FunctionDecl *fd,
                   SourceLocation nameLoc, bool qualify) {
    SourceLocation loc = ce->getBeginLoc();
    if (loc.isMacroID() || nameLoc.isMacroID()) {
      error(sm.getExpansionLoc(loc),
            "cannot rewrite the call to kernel '" + fd->getNameAsString() +
                "' inside a macro expansion; call the kernel outside the "
                "macro");
      return;
    }
    if (!sm.isWrittenInMainFile(loc)) {
      error(loc, "cannot rewrite the call to kernel '" +
                     fd->getNameAsString() +
                     "' outside the main file; call kernels from the file "
                     "that is compiled");
      return;
    }
    const FunctionDecl *key = fd;
    if (const FunctionDecl *pattern = fd->getTemplateInstantiationPattern())
      key = pattern;
    else if (const FunctionTemplateDecl *t = fd->getPrimaryTemplate())
      key = t->getTemplatedDecl();
    auto it = callName.find(key->getCanonicalDecl());
    if (it == callName.end())
      return; // the kernel failed to compile: already diagnosed
    unsigned offset = sm.getFileOffset(nameLoc);
    if (!rewritten.insert(offset).second)
      return; // a template instantiated twice shares the call's text
    const std::string &name =
        qualify ? qualifiedCallName.find(key->getCanonicalDecl())->second
                : it->second;
    if (rewriter.ReplaceText(nameLoc, fd->getName().size(), name))
      error(loc, "cannot rewrite the call to kernel '" +
                     fd->getNameAsString() + "'");
  }

  void rewriteCalls() {
    CallFinder finder(*this);
    finder.TraverseDecl(ctx.getTranslationUnitDecl());
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
                                  llvm::ArrayRef<CompiledKernel> kernels) {
  if (std::error_code ec = llvm::sys::fs::create_directories(outDir)) {
    DiagnosticsEngine &d = ctx.getDiagnostics();
    d.Report(d.getCustomDiagID(DiagnosticsEngine::Error,
                               "cannot create output directory '%0': %1"))
        << outDir << ec.message();
    return false;
  }
  Writer w(ctx, outDir, kernels);
  return w.run();
}
