// A loop that only stores to a view carries nothing but its counter.
// RUN: %intent_syntax %s -fplugin-arg-intent-dump=kir | FileCheck %s

#include <intent/intent.hpp>
using namespace intent;

[[intent::kernel]] void zero(view<float, 1> y) {
  for (index i = 0; i < y.extent(0); i++)
    y[i] = 0.0f;
}

// CHECK-LABEL: kernel @zero (%0 y: view<f32, 1> w)
// CHECK-NEXT:    [[Z:%[0-9]+]] = constant {value = 0} : i64
// CHECK-NEXT:    {{%[0-9]+}} = loop [[Z]] {test_first = true} : i64
// CHECK-NEXT:    ^({{%[0-9]+}}: i64):
// CHECK:         condition {{%[0-9]+}}
// CHECK-NEXT:    } {
// CHECK-NEXT:    ^([[I:%[0-9]+]]: i64):
// CHECK-NEXT:      [[V:%[0-9]+]] = constant {value = 0.0} : f32
// CHECK-NEXT:      store %0, [[V]], [[I]]
// CHECK-NEXT:      yield [[I]]
