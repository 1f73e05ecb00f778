//===- Plugin.cpp - [[intent::kernel]] Clang plugin entry point ------------===//
//
// Registers the `[[intent::kernel]]` attribute and the plugin action (both in
// Action.cpp) with Clang.
//
//   -fplugin-arg-intent-dump=kir   print the KIR of every kernel to stdout
//   -fplugin-arg-intent-dump=phys  print the physical program of every kernel
//   -fplugin-arg-intent-out=DIR    write DIR/<tu>.kernels.cu, DIR/<tu>.intent.cpp
//   -fplugin-arg-intent-remarks    report what construction did, as remarks
//   -fplugin-arg-intent-stop-after=kir  stop after building (and dumping)
//                                  KIR: no construction, no outputs
//   -fplugin-arg-intent-no-physical-passes  emit the constructed program as
//                                  is (no grid-reduce, ...; docs/passes.md)
//   -fplugin-arg-intent-passes=a,b run exactly these physical passes
//                                  (Passes/Registry.h) after construction
//   -fplugin-arg-intent-disable-pass=x,y  drop passes from the default
//                                  pipeline (repeatable), for bisecting
//
//===----------------------------------------------------------------------===//

#include "Action.h"

#include "clang/Frontend/FrontendPluginRegistry.h"

using namespace clang;
using namespace intent::plugin;

static ParsedAttrInfoRegistry::Add<KernelAttrInfo>
    registerAttr("intent-kernel", "[[intent::kernel]]");
static FrontendPluginRegistry::Add<IntentAction>
    registerAction("intent", "extract Intent kernels");
