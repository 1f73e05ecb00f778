// An unknown plugin argument is an error; so is an unknown dump format or
// stop-after point.
// RUN: not %intent_syntax %s -fplugin-arg-intent-bogus 2>&1 | FileCheck %s --check-prefix=ARG
// RUN: not %intent_syntax %s -fplugin-arg-intent-dump=ast 2>&1 | FileCheck %s --check-prefix=DUMP
// RUN: not %intent_syntax %s -fplugin-arg-intent-stop-after=phys 2>&1 | FileCheck %s --check-prefix=STOP
// ARG: error: unknown Intent plugin argument 'bogus' (expected dump=kir, dump=phys, stop-after=kir, out=DIR, remarks or no-physical-passes)
// DUMP: error: unknown value 'ast' for -fplugin-arg-intent-dump (expected 'kir' or 'phys')
// STOP: error: unknown value 'phys' for -fplugin-arg-intent-stop-after (expected 'kir')

#include <intent/intent.hpp>
using namespace intent;

[[intent::kernel]] void k(view<float, 1> y) { y[0] = 1.0f; }
