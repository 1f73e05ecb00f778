//===- Outputs.h - Phase-1 outputs: generated .cu and rewritten TU -*- C++ -*-=//
//
// Writes DIR/<tu>.kernels.cu (the emitter's output) and DIR/<tu>.intent.cpp:
// the main file with each kernel definition turned into its own dispatcher
// (a prologue that launches the kernel in gpu and cpu mode; in reference mode
// the serial body runs), so that calls from any translation unit launch, and
// each main-file kernel call recording its call site for the runtime's
// checks. Only the main file is edited; a kernel defined in a header is a
// diagnostic.
//
//===----------------------------------------------------------------------===//

#ifndef INTENT_PLUGIN_OUTPUTS_H
#define INTENT_PLUGIN_OUTPUTS_H

#include "Physical/IR.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

namespace intent::plugin {

/// One compiled kernel specialization: its declaration and physical program.
struct CompiledKernel {
  const clang::FunctionDecl *decl = nullptr;
  const phys::Program *program = nullptr;
};

/// Writes both generated files into `outDir`. `kernelDecls` lists every
/// annotated function (also those that failed to compile) so that calls to
/// them are found. Returns false when a diagnostic was reported or a file
/// could not be written. `fastMath`: the kernels use the approximate
/// single-precision math of EmitOptions::fastMath.
bool writeOutputs(clang::ASTContext &ctx, llvm::StringRef outDir,
                  llvm::ArrayRef<CompiledKernel> kernels, bool fastMath);

/// For a view parameter type `viewType` (intent::view<E, R>, through
/// references and qualifiers): E, unqualified, as the generated launcher
/// spells it when E is another spelling of a standard integer type than its
/// <cstdint> name (`long long`, `unsigned long long`, plain `char`,
/// `wchar_t`, `char16_t`, ...); "" when the standard name (int64_t, float,
/// ...) is E itself, or for any other type.
std::string viewElementSpelling(const clang::ASTContext &ctx,
                                clang::QualType viewType);

/// The base name of generated files for the main file, e.g. "saxpy" for
/// "dir/saxpy.cpp".
std::string translationUnitStem(const clang::ASTContext &ctx);

} // namespace intent::plugin

#endif // INTENT_PLUGIN_OUTPUTS_H
