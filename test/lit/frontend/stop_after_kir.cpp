// -fplugin-arg-intent-stop-after=kir stops after KIR: it is dumped, but no
// construction runs (no physical program is printed even when asked for).
// RUN: %intent_syntax %s -fplugin-arg-intent-dump=kir -fplugin-arg-intent-dump=phys -fplugin-arg-intent-stop-after=kir | FileCheck %s
// RUN: %intent_syntax %s -fplugin-arg-intent-dump=phys | FileCheck %s --check-prefix=PHYS

#include <intent/intent.hpp>
using namespace intent;

[[intent::kernel]] void k(view<float, 1> y) { y[0] = 1.0f; }

// CHECK: kernel @k
// CHECK-NOT: program @k
// PHYS: program @k
