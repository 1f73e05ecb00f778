// A reduce inside an ordinary loop: the loop carries the running total, the
// reduce's value region reads the loop's induction variable.
// RUN: %intent_syntax %s -fplugin-arg-intent-dump=kir -fplugin-arg-intent-stop-after=kir | FileCheck %s

#include <intent/intent.hpp>
using namespace intent;

[[intent::kernel]] void total(view<float, 1> out, view<const float, 2> a) {
  float acc = 0.0f;
  for (index j = 0; j < a.extent(0); ++j)
    acc += reduce(a.extent(1), 0.0f, ops::plus{}, [&](index i) { return a(j, i); });
  out[0] = acc;
}

// CHECK-LABEL: kernel @total
// CHECK:         [[RES:%[0-9]+]], {{%[0-9]+}} = loop {{%[0-9]+}}, {{%[0-9]+}} {test_first = true} : f32, i64
// CHECK:           condition
// CHECK-NEXT:    } {
// CHECK-NEXT:    ^([[ACC:%[0-9]+]]: f32, [[J:%[0-9]+]]: i64):
// CHECK:           [[S:%[0-9]+]] = reduce {{.*}} : f32
// CHECK-NEXT:      ^([[I:%[0-9]+]]: i64):
// CHECK-NEXT:        {{%[0-9]+}} = load %1, [[J]], [[I]] : f32
// CHECK:           [[NEW:%[0-9]+]] = add [[ACC]], [[S]] : f32
// CHECK-NEXT:      yield [[NEW]], [[J]]
// CHECK:         store %0, [[RES]], {{%[0-9]+}}
