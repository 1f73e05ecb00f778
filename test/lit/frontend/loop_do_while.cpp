// do-while: test_first = false, the body runs before the condition.
// RUN: %intent_syntax %s -fplugin-arg-intent-dump=kir | FileCheck %s

#include <intent/intent.hpp>
using namespace intent;

[[intent::kernel]] void doubling(view<float, 1> out, float x) {
  do {
    x = x * 2.0f;
  } while (x < 100.0f);
  out[0] = x;
}

// CHECK-LABEL: kernel @doubling (%0 out: view<f32, 1> w, %1 x: f32)
// CHECK-NEXT:    [[X:%[0-9]+]] = loop %1 {test_first = false} : f32
// CHECK-NEXT:    ^([[CX:%[0-9]+]]: f32):
// CHECK-NEXT:      [[H:%[0-9]+]] = constant {value = 1e+02} : f32
// CHECK-NEXT:      [[LT:%[0-9]+]] = cmp [[CX]], [[H]] {pred = "lt"} : bool
// CHECK-NEXT:      condition [[LT]]
// CHECK-NEXT:    } {
// CHECK-NEXT:    ^([[BX:%[0-9]+]]: f32):
// CHECK-NEXT:      [[TWO:%[0-9]+]] = constant {value = 2.0} : f32
// CHECK-NEXT:      [[D:%[0-9]+]] = mul [[BX]], [[TWO]] : f32
// CHECK-NEXT:      yield [[D]]
// CHECK-NEXT:    } {
// CHECK-NEXT:    ^([[SX:%[0-9]+]]: f32):
// CHECK-NEXT:      yield [[SX]]
// CHECK-NEXT:    }
// CHECK-NEXT:    [[Z:%[0-9]+]] = constant {value = 0} : i64
// CHECK-NEXT:    store %0, [[X]], [[Z]]
