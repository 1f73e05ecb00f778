// `if (i >= n) return;` in a parallel_for body puts the rest into the else branch.
// RUN: %intent_syntax %s -fplugin-arg-intent-dump=kir | FileCheck %s

#include <intent/intent.hpp>
using namespace intent;

[[intent::kernel]] void tail(view<float, 1> y, index n) {
  parallel_for(y.extent(0), [&](index i) {
    if (i >= n)
      return;
    y[i] = 1.0f;
  });
}

// CHECK-LABEL: kernel @tail (%0 y: view<f32, 1> w, %1 n: i64)
// CHECK:         ^([[I:%[0-9]+]]: i64):
// CHECK-NEXT:      [[GE:%[0-9]+]] = cmp [[I]], %1 {pred = "ge"} : bool
// CHECK-NEXT:      if [[GE]]
// CHECK-NEXT:        yield
// CHECK-NEXT:      } {
// CHECK-NEXT:        [[ONE:%[0-9]+]] = constant {value = 1.0} : f32
// CHECK-NEXT:        store %0, [[ONE]], [[I]]
// CHECK-NEXT:        yield
// CHECK-NEXT:      }
// CHECK-NEXT:      yield
// CHECK-NEXT:    }
// CHECK-NEXT:    return
