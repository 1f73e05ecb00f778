// An unknown plugin argument is an error; so is an unknown dump format,
// stop-after point or pass name (passes=, disable-pass=).
// RUN: not %intent_syntax %s -fplugin-arg-intent-bogus 2>&1 | FileCheck %s --check-prefix=ARG
// RUN: not %intent_syntax %s -fplugin-arg-intent-dump=ast 2>&1 | FileCheck %s --check-prefix=DUMP
// RUN: not %intent_syntax %s -fplugin-arg-intent-stop-after=phys 2>&1 | FileCheck %s --check-prefix=STOP
// RUN: not %intent_syntax %s -fplugin-arg-intent-passes=cta-rows,bogus 2>&1 | FileCheck %s --check-prefix=PASS
// RUN: not %intent_syntax %s -fplugin-arg-intent-disable-pass=nope 2>&1 | FileCheck %s --check-prefix=DISABLE
// ARG: error: unknown Intent plugin argument 'bogus' (expected dump=kir, dump=phys, stop-after=kir, out=DIR, remarks, no-physical-passes, passes=LIST or disable-pass=LIST)
// DUMP: error: unknown value 'ast' for -fplugin-arg-intent-dump (expected 'kir' or 'phys')
// STOP: error: unknown value 'phys' for -fplugin-arg-intent-stop-after (expected 'kir')
// PASS: error: bad Intent plugin argument 'passes=cta-rows,bogus': unknown pass 'bogus' (known passes: grid-scan, grid-reduce, counted-loops, cta-rows, cta-rows-ops, row-cache, col-reduce, region-teams, scan-teams, privatize-atomics, tile, widen, atomic-scopes, aggregate-atomics)
// DISABLE: error: bad Intent plugin argument 'disable-pass=nope': unknown pass 'nope' (known passes: grid-scan, grid-reduce, counted-loops, cta-rows, cta-rows-ops, row-cache, col-reduce, region-teams, scan-teams, privatize-atomics, tile, widen, atomic-scopes, aggregate-atomics)

#include <intent/intent.hpp>
using namespace intent;

[[intent::kernel]] void k(view<float, 1> y) { y[0] = 1.0f; }
