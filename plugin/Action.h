//===- Action.h - The plugin's attribute, options and AST action -*- C++ -*-===//
//
// What Plugin.cpp registers with Clang, usable without the plugin machinery:
// tools/intent-fuzz links these into one binary with libclang-cpp and runs
// IntentAction in-process on every input.
//
//===----------------------------------------------------------------------===//

#ifndef INTENT_PLUGIN_ACTION_H
#define INTENT_PLUGIN_ACTION_H

#include "clang/AST/ASTConsumer.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendAction.h"
#include "clang/Sema/ParsedAttr.h"

#include "llvm/ADT/StringRef.h"

#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace intent::plugin {

/// `[[intent::kernel]]` on a free function definition; remembered as an
/// AnnotateAttr("intent::kernel") that template instantiations inherit.
class KernelAttrInfo : public clang::ParsedAttrInfo {
public:
  KernelAttrInfo();
  bool diagAppertainsToDecl(clang::Sema &s, const clang::ParsedAttr &attr,
                            const clang::Decl *d) const override;
  AttrHandling handleDeclAttribute(clang::Sema &s, clang::Decl *d,
                                   const clang::ParsedAttr &attr) const override;
};

/// What the plugin arguments asked for.
struct Options {
  bool dumpKir = false;
  bool dumpPhys = false;
  bool remarks = false;
  bool fastMath = false; ///< fast-math: approximate f32 math in the kernels
  bool stopAfterKir = false;
  bool physicalPasses = true; ///< no-physical-passes turns them off
  /// passes=a,b: exactly these physical passes (Passes/Registry.h).
  std::optional<std::vector<std::string>> passes;
  /// disable-pass=x,y (repeatable): passes dropped, for bisecting.
  std::set<std::string> disabledPasses;
  std::string outDir; ///< stored for the output phase
  /// `W...` plugin arguments about Intent's warning group, in order (the
  /// driver passes -Wno-intent-serialization etc. this way, so that clang
  /// does not call the option unknown). Applied after clang's own -W.
  std::vector<std::string> warningArgs;
  /// How lost parallelism is reported (-Wintent-serialization), decided
  /// from clang's -W options and warningArgs when the consumer is made.
  enum class Report { Off, Warning, Error } serialization = Report::Warning;
};

/// Parses the -fplugin-arg-intent-* arguments (without that prefix) into
/// `opts`; reports each bad one as an error and then returns false.
bool parseOptions(clang::DiagnosticsEngine &de,
                  const std::vector<std::string> &args, Options &opts);

/// The consumer that collects, lowers, compiles and writes the kernels of a
/// translation unit.
std::unique_ptr<clang::ASTConsumer> createConsumer(Options opts);

/// The plugin action. Run as a plugin it adds itself after the main action;
/// run on its own (tools/intent-fuzz) it parses and runs the consumer only,
/// with the options given to the constructor.
class IntentAction : public clang::PluginASTAction {
public:
  IntentAction() = default;
  explicit IntentAction(Options opts) : opts(std::move(opts)) {}

protected:
  std::unique_ptr<clang::ASTConsumer>
  CreateASTConsumer(clang::CompilerInstance &, llvm::StringRef) override;
  bool ParseArgs(const clang::CompilerInstance &ci,
                 const std::vector<std::string> &args) override;
  ActionType getActionType() override { return AddAfterMainAction; }

private:
  Options opts;
};

} // namespace intent::plugin

#endif // INTENT_PLUGIN_ACTION_H
