// An early return at kernel level; the rest of the body is the else branch.
// RUN: %intent_syntax %s -fplugin-arg-intent-dump=kir | FileCheck %s

#include <intent/intent.hpp>
using namespace intent;

[[intent::kernel]] void maybe(view<float, 1> y, int n) {
  if (n <= 0)
    return;
  float v = n;
  y[0] = v;
}

// CHECK-LABEL: kernel @maybe (%0 y: view<f32, 1> w, %1 n: i32)
// CHECK-NEXT:    [[Z:%[0-9]+]] = constant {value = 0} : i32
// CHECK-NEXT:    [[LE:%[0-9]+]] = cmp %1, [[Z]] {pred = "le"} : bool
// CHECK-NEXT:    if [[LE]]
// CHECK-NEXT:      yield
// CHECK-NEXT:    } {
// CHECK-NEXT:      [[V:%[0-9]+]] = cast %1 : f32
// CHECK-NEXT:      [[I:%[0-9]+]] = constant {value = 0} : i64
// CHECK-NEXT:      store %0, [[V]], [[I]]
// CHECK-NEXT:      yield
// CHECK-NEXT:    }
// CHECK-NEXT:    return
