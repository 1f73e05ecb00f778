//===- KernelCollector.h - Find [[intent::kernel]] definitions --*- C++ -*-===//
//
// Collects the kernels of a translation unit in a deterministic order and
// names each specialization. Template patterns are skipped; their
// instantiations are kernels of their own.
//
//===----------------------------------------------------------------------===//

#ifndef INTENT_PLUGIN_KERNELCOLLECTOR_H
#define INTENT_PLUGIN_KERNELCOLLECTOR_H

#include "Diagnostics.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"

#include <string>
#include <vector>

namespace intent::plugin {

/// The spelling of the annotation that marks a kernel.
inline constexpr const char *KernelAnnotation = "intent::kernel";

/// True when `d` carries the kernel annotation (also inherited ones).
bool isKernelDecl(const clang::Decl *d);

/// One kernel specialization to lower.
struct KernelDef {
  const clang::FunctionDecl *fd = nullptr; ///< a definition
  std::string name;                        ///< "scale"
  std::string displayName;                 ///< "scale<float>"
  std::string mangledName;                 ///< "scale__float", unique
  std::vector<std::string> templateArgs;   ///< {"T = float"}
};

/// Returns the kernel definitions of the translation unit (template
/// instantiations included, uninstantiated patterns excluded), ordered by
/// source location, then by the text of their template arguments. An
/// annotated declaration without a definition is not a kernel of this TU
/// (it is defined in another one).
std::vector<KernelDef> collectKernels(clang::ASTContext &ctx,
                                      DiagReporter &diags);

} // namespace intent::plugin

#endif // INTENT_PLUGIN_KERNELCOLLECTOR_H
