// A kernel that does nothing (an empty body, what a test-case reducer
// leaves) builds: no groups, an empty program space; the physical passes
// leave it alone instead of reading a segment that is not there (grid-reduce
// crashed on it).
// RUN: %intent_syntax %s -fplugin-arg-intent-remarks 2>&1 | FileCheck %s
// CHECK: remark: extracted Intent kernel 'nothing' (2 parameters)
// CHECK: remark: program space: 0 segment(s), total 0
// CHECK-NOT: error
#include <intent/intent.hpp>

[[intent::kernel]] void nothing(intent::view<unsigned, 1> out, int s) {}
