// -fplugin-arg-intent-no-physical-passes emits the constructed program as is:
// saxpy keeps one program per element instead of the widen pass's chunks
// (docs/passes.md). Without the option the widen pass runs.
// RUN: %intent_syntax %s -fplugin-arg-intent-dump=phys | FileCheck %s --check-prefix=PASSES
// RUN: %intent_syntax %s -fplugin-arg-intent-dump=phys -fplugin-arg-intent-no-physical-passes | FileCheck %s --check-prefix=NOPASS

#include <intent/intent.hpp>
using namespace intent;

[[intent::kernel]] void saxpy(view<float, 1> y, view<const float, 1> x, float a) {
  parallel_for(y.extent(0), [&](intent::index i) { y[i] = a * x[i] + y[i]; });
}

// PASSES-LABEL: program @saxpy
// PASSES: vector_load {{.*}} {width = 4}
// NOPASS-LABEL: program @saxpy
// NOPASS: segment 0 (group 0, parallel) extents [[[E:e[0-9]+]]] length [[E]] offset
// NOPASS-NEXT: // length = max(y.extent(0), 0); offset = 0
// NOPASS-NOT: widen
