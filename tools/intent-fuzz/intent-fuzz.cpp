//===- intent-fuzz.cpp - libFuzzer target for the plugin's front end ------===//
//
// Each input is the text of a C++ translation unit. It is compiled in-process
// like phase 1 of intentc (clang -fsyntax-only with the plugin), by the same
// attribute and action the plugin registers (plugin/Action.h), with the
// whole pipeline and the output writer (into a temporary folder). Every
// input must end with diagnostics or success: a crash, an assertion, a hang
// (libFuzzer's -timeout) or a sanitizer report is a bug.
//
// Built by scripts/fuzz-plugin.sh (a clang build with
// -fsanitize=fuzzer-no-link,address,undefined); see README "Fuzzing".
//
//   INTENT_FUZZ_VERBOSE=1  print each input's diagnostics to stderr
//   INTENT_FUZZ_PCH=0      do not parse the prelude (below) once into a PCH
//                          and include it before every input
//
//===----------------------------------------------------------------------===//

#include "Action.h"

#include "clang/Basic/Diagnostic.h"
#include "clang/Basic/FileManager.h"
#include "clang/Frontend/FrontendActions.h"
#include "clang/Sema/ParsedAttr.h"
#include "clang/Tooling/Tooling.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/VirtualFileSystem.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#ifndef INTENT_FUZZ_INCLUDE_DIRS
#error "INTENT_FUZZ_INCLUDE_DIRS: the Intent include folders, ':'-separated"
#endif
#ifndef INTENT_FUZZ_RESOURCE_DIR
#error "INTENT_FUZZ_RESOURCE_DIR: clang's resource folder"
#endif

using namespace clang;

static ParsedAttrInfoRegistry::Add<intent::plugin::KernelAttrInfo>
    registerAttr("intent-kernel", "[[intent::kernel]]");

namespace {

/// The headers the examples and generated programs include, parsed once into
/// a PCH that every input includes first: an input's own #includes of them
/// then cost nothing, which makes an execution several times faster.
const char *Prelude = R"(#include <intent/intent.hpp>
#include <intent/runtime.hpp>
#include <algorithm>
#include <cmath>
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>
)";

struct State {
  std::vector<std::string> baseArgs; ///< everything but the input's name
  std::string outDir;                ///< where the action writes its outputs
  bool verbose = false;
};

State *state = nullptr;

/// -fno-spell-checking: clang 19's typo correction crashes on some invalid
/// inputs by itself (a capture-default lambda at namespace scope with a nested
/// one and an undeclared name: Sema::tryCaptureVariable, upstream
/// llvm/llvm-project#107840; the reduced input is
/// test/lit/diagnostics/clang_nonlocal_lambda_typo.cpp). Typo correction runs
/// only on a TU that already has errors, which the plugin's consumer never
/// lowers, so turning it off hides none of the plugin's code from the fuzzer.
std::vector<std::string> commonArgs() {
  std::vector<std::string> args = {"clang++", "-std=c++17", "-fsyntax-only",
                                   "-resource-dir", INTENT_FUZZ_RESOURCE_DIR,
                                   "-ferror-limit=50", "-fno-spell-checking",
                                   "-ftemplate-depth=128",
                                   "-fconstexpr-steps=100000"};
  llvm::StringRef dirs(INTENT_FUZZ_INCLUDE_DIRS);
  llvm::SmallVector<llvm::StringRef, 4> parts;
  dirs.split(parts, ':', -1, false);
  for (llvm::StringRef d : parts)
    args.push_back(("-I" + d).str());
  return args;
}

/// Runs `action` with the command line `args` (argv[0] first, the input
/// last); `code`, when given, is the text of a file `name` that exists only
/// in memory. Returns true on success.
bool run(std::unique_ptr<FrontendAction> action, std::vector<std::string> args,
         bool verbose, llvm::StringRef name = {}, llvm::StringRef code = {}) {
  llvm::IntrusiveRefCntPtr<llvm::vfs::OverlayFileSystem> overlay(
      new llvm::vfs::OverlayFileSystem(llvm::vfs::getRealFileSystem()));
  llvm::IntrusiveRefCntPtr<llvm::vfs::InMemoryFileSystem> memory(
      new llvm::vfs::InMemoryFileSystem);
  overlay->pushOverlay(memory);
  if (!name.empty())
    memory->addFile(name, 0, llvm::MemoryBuffer::getMemBufferCopy(code, name));
  llvm::IntrusiveRefCntPtr<FileManager> files(
      new FileManager(FileSystemOptions(), overlay));
  tooling::ToolInvocation invocation(std::move(args), std::move(action),
                                     files.get());
  IgnoringDiagConsumer quiet;
  if (!verbose)
    invocation.setDiagnosticConsumer(&quiet);
  return invocation.run();
}

} // namespace

extern "C" int LLVMFuzzerInitialize(int *, char ***) {
  state = new State;
  const char *v = std::getenv("INTENT_FUZZ_VERBOSE");
  state->verbose = v && v[0] == '1';
  llvm::SmallString<128> tmp;
  if (llvm::sys::fs::createUniqueDirectory("intent-fuzz", tmp)) {
    llvm::errs() << "intent-fuzz: cannot create a temporary folder\n";
    std::exit(1);
  }
  state->outDir = tmp.str().str();
  state->baseArgs = commonArgs();

  const char *pch = std::getenv("INTENT_FUZZ_PCH");
  if (!pch || pch[0] != '0') {
    std::string header = (tmp + "/prelude.hpp").str();
    std::string pchPath = (tmp + "/prelude.pch").str();
    std::error_code ec;
    {
      llvm::raw_fd_ostream os(header, ec);
      os << Prelude;
    }
    std::vector<std::string> args = state->baseArgs;
    args.erase(std::find(args.begin(), args.end(), "-fsyntax-only"));
    args.insert(args.end(), {"-x", "c++-header", "-o", pchPath, header});
    if (!ec && run(std::make_unique<GeneratePCHAction>(), args, true))
      state->baseArgs.insert(state->baseArgs.end(), {"-include-pch", pchPath});
    else
      llvm::errs() << "intent-fuzz: could not build the prelude PCH; "
                      "parsing the headers for every input\n";
  }
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (!state)
    LLVMFuzzerInitialize(nullptr, nullptr);
  // Inputs beyond 64 KiB only slow the search down.
  if (size > 65536)
    return -1;
  llvm::StringRef code(reinterpret_cast<const char *>(data), size);
  // Clang's own crash switches (#pragma clang __debug crash, ...) and
  // device files (an endless #include) are not the plugin's bugs.
  if (code.contains("__debug") || code.contains("/dev/") ||
      code.contains("/proc/"))
    return -1;
  intent::plugin::Options opts;
  opts.outDir = state->outDir;
  std::vector<std::string> args = state->baseArgs;
  const char *name = "/intent-fuzz/input.cpp";
  args.push_back(name);
  run(std::make_unique<intent::plugin::IntentAction>(opts), std::move(args),
      state->verbose, name, code);
  return 0;
}
