//===- KernelCollector.cpp - Find [[intent::kernel]] definitions ---------===//

#include "KernelCollector.h"

#include "clang/AST/Attr.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"

#include <algorithm>

using namespace clang;
using namespace intent::plugin;

static const AnnotateAttr *kernelAttr(const Decl *d) {
  for (const auto *a : d->specific_attrs<AnnotateAttr>())
    if (a->getAnnotation() == KernelAnnotation)
      return a;
  return nullptr;
}

bool intent::plugin::isKernelDecl(const Decl *d) { return kernelAttr(d); }

namespace {

class Collector : public RecursiveASTVisitor<Collector> {
public:
  bool shouldVisitTemplateInstantiations() const { return true; }

  bool VisitFunctionDecl(FunctionDecl *fd) {
    if (!kernelAttr(fd))
      return true;
    // A declaration: the kernel is defined (and compiled) in another
    // translation unit, or further down in this one. A call through it
    // reaches the definition, which dispatches itself (Outputs.cpp).
    if (!fd->doesThisDeclarationHaveABody())
      return true;
    if (fd->isDependentContext())
      return true; // the template pattern; its instantiations are kernels
    if (seen.insert(fd).second)
      defs.push_back(fd);
    return true;
  }

  std::vector<const FunctionDecl *> defs;

private:
  llvm::SmallPtrSet<const FunctionDecl *, 8> seen;
};

std::string sanitize(llvm::StringRef s) {
  std::string out;
  for (char c : s) {
    bool ok = llvm::isAlnum(c) || c == '_';
    if (ok)
      out += c;
    else if (!out.empty() && out.back() != '_')
      out += '_';
  }
  while (!out.empty() && out.back() == '_')
    out.pop_back();
  return out;
}

} // namespace

std::vector<KernelDef> intent::plugin::collectKernels(ASTContext &ctx,
                                                      DiagReporter &) {
  Collector c;
  c.TraverseDecl(ctx.getTranslationUnitDecl());

  PrintingPolicy policy = ctx.getPrintingPolicy();
  policy.SuppressTagKeyword = true;
  policy.FullyQualifiedName = false;
  std::vector<KernelDef> defs;
  for (const FunctionDecl *fd : c.defs) {
    KernelDef d;
    d.fd = fd;
    d.name = fd->getNameAsString();
    llvm::raw_string_ostream dn(d.displayName);
    fd->getNameForDiagnostic(dn, policy, /*Qualified=*/false);
    dn.flush();
    std::string qualified = fd->getQualifiedNameAsString();
    d.mangledName = sanitize(qualified);
    if (const TemplateArgumentList *args = fd->getTemplateSpecializationArgs()) {
      const TemplateParameterList *params =
          fd->getPrimaryTemplate()
              ? fd->getPrimaryTemplate()->getTemplateParameters()
              : nullptr;
      for (unsigned i = 0; i < args->size(); ++i) {
        std::string value;
        llvm::raw_string_ostream os(value);
        (*args)[i].print(policy, os, /*IncludeType=*/false);
        os.flush();
        std::string pname =
            params && i < params->size()
                ? params->getParam(i)->getNameAsString()
                : "arg" + std::to_string(i);
        d.templateArgs.push_back(pname + " = " + value);
        d.mangledName += "__" + sanitize(value);
      }
    }
    defs.push_back(std::move(d));
  }

  SourceManager &sm = ctx.getSourceManager();
  std::stable_sort(defs.begin(), defs.end(),
                   [&](const KernelDef &a, const KernelDef &b) {
                     SourceLocation la = sm.getExpansionLoc(a.fd->getLocation());
                     SourceLocation lb = sm.getExpansionLoc(b.fd->getLocation());
                     if (la != lb)
                       return sm.isBeforeInTranslationUnit(la, lb);
                     return a.templateArgs < b.templateArgs;
                   });
  // Specializations whose arguments print alike still get distinct names.
  llvm::StringSet<> used;
  for (unsigned i = 0; i < defs.size(); ++i) {
    std::string base = defs[i].mangledName;
    for (unsigned n = 1; !used.insert(defs[i].mangledName).second; ++n)
      defs[i].mangledName = base + "_" + std::to_string(n);
  }
  return defs;
}
