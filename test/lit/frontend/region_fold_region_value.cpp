// region_fold whose value callback takes (r, k): both region block
// arguments are passed; the store's accumulator is a 2-field struct.
// RUN: %intent_syntax %s -fplugin-arg-intent-dump=kir -fplugin-arg-intent-stop-after=kir | FileCheck %s

#include <intent/intent.hpp>
using namespace intent;

struct MinMax {
  float lo, hi;
};

[[intent::kernel]] void extremes(view<float, 1> span, view<const int, 1> offsets,
                                 view<const float, 1> x, view<const float, 1> bias) {
  region_fold(offsets, MinMax{INFINITY, -INFINITY},
              [](MinMax a, MinMax b) {
                return MinMax{a.lo < b.lo ? a.lo : b.lo, a.hi < b.hi ? b.hi : a.hi};
              },
              [&](index r, index k) { return MinMax{x[k] + bias[r], x[k] + bias[r]}; },
              [&](index r, MinMax m) { span[r] = m.hi - m.lo; });
}

// CHECK-LABEL: kernel @extremes
// CHECK:         region_fold %1, {{%[0-9]+}}, {{%[0-9]+}} {combiner = "user", reassociate = true}
// CHECK-NEXT:    ^([[R:%[0-9]+]]: i64, [[K:%[0-9]+]]: i64):
// CHECK-NEXT:      {{%[0-9]+}} = load %2, [[K]] : f32
// CHECK-NEXT:      {{%[0-9]+}} = load %3, [[R]] : f32
// CHECK:         ^({{%[0-9]+}}: f32, {{%[0-9]+}}: f32, {{%[0-9]+}}: f32, {{%[0-9]+}}: f32):
// CHECK:         ^([[SR:%[0-9]+]]: i64, [[LO:%[0-9]+]]: f32, [[HI:%[0-9]+]]: f32):
// CHECK-NEXT:      [[D:%[0-9]+]] = sub [[HI]], [[LO]] : f32
// CHECK-NEXT:      store %0, [[D]], [[SR]]
