// Phase 1 rewrites an output only when its content changes: regenerating
// unchanged outputs keeps their modification time (so nvcc does not rerun
// after a host-only edit), while a change to the kernel rewrites
// .kernels.cu. Both outputs check the runtime's generated-code ABI version
// at compile time and ask to be regenerated when it differs.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %intent_syntax -I%intent_runtime_include -fplugin-arg-intent-out=%t %s
// RUN: touch -d '2000-01-01 00:00:00 UTC' %t/generated_files.kernels.cu %t/generated_files.intent.cpp
// RUN: %intent_syntax -I%intent_runtime_include -fplugin-arg-intent-out=%t %s
// RUN: stat -c '%%Y' %t/generated_files.kernels.cu %t/generated_files.intent.cpp | FileCheck %s --check-prefix=KEPT
// KEPT: 946684800
// KEPT-NEXT: 946684800
//
// A different scale changes the kernel: .kernels.cu is rewritten.
// RUN: %intent_syntax -I%intent_runtime_include -fplugin-arg-intent-out=%t -DSCALE=3.0f %s
// RUN: test "$(stat -c '%%Y' %t/generated_files.kernels.cu)" -gt 946684800
//
// The ABI check: compiles against these headers, fails against others.
// RUN: %clangxx -std=c++17 -fsyntax-only -I%intent_include -I%intent_runtime_include %t/generated_files.intent.cpp
// RUN: sed 's/INTENT_ABI_VERSION != [0-9]*/INTENT_ABI_VERSION != 999/' %t/generated_files.intent.cpp > %t/other_abi.cpp
// RUN: not %clangxx -std=c++17 -fsyntax-only -I%intent_include -I%intent_runtime_include %t/other_abi.cpp 2>&1 | FileCheck %s --check-prefix=ABI
// ABI: error: "this file was generated for Intent's generated-code ABI version {{[0-9]+}}, which the Intent runtime headers in use do not have: regenerate it
#include <intent/intent.hpp>
using namespace intent;

#ifndef SCALE
#define SCALE 2.0f
#endif

[[intent::kernel]] void scale(view<float, 1> y) {
  parallel_for(y.extent(0), [&](index i) { y[i] = SCALE * y[i]; });
}

void host(view<float, 1> y) { scale(y); }
