// direction::reverse is recorded as direction = "reverse"; the regions are
// the same as forward (the carried value stays combine's left operand).
// RUN: %intent_syntax %s -fplugin-arg-intent-dump=kir -fplugin-arg-intent-stop-after=kir | FileCheck %s

#include <intent/intent.hpp>
using namespace intent;

[[intent::kernel]] void suffix(view<float, 1> y, view<const float, 1> x) {
  scan(x.extent(0), 0.0f, ops::plus{}, [&](index i) { return x[i]; },
       [&](index i, float p) { y[i] = p; }, scan_kind::inclusive,
       direction::reverse);
}

// CHECK-LABEL: kernel @suffix
// CHECK:         scan {{%[0-9]+}}, {{%[0-9]+}}, {{%[0-9]+}} {kind = "inclusive", direction = "reverse", combiner = "plus", reassociate = true}
// CHECK-NEXT:    ^({{%[0-9]+}}: i64):
// CHECK:         ^([[A:%[0-9]+]]: f32, [[B:%[0-9]+]]: f32):
// CHECK-NEXT:      {{%[0-9]+}} = add [[A]], [[B]] : f32
// CHECK:         ^({{%[0-9]+}}: i64, {{%[0-9]+}}: f32):
