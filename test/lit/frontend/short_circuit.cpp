// && is an if with a bool result: the guarded load only runs when the guard holds.
// RUN: %intent_syntax %s -fplugin-arg-intent-dump=kir | FileCheck %s

#include <intent/intent.hpp>
using namespace intent;

[[intent::kernel]] void guarded(view<int, 1> out, view<const float, 1> x, index n) {
  parallel_for(out.extent(0), [&](index i) { out[i] = i < n && x[i] > 0.0f; });
}

// CHECK-LABEL: kernel @guarded (%0 out: view<i32, 1> w, %1 x: view<const f32, 1> r, %2 n: i64)
// CHECK:         ^([[I:%[0-9]+]]: i64):
// CHECK-NEXT:      [[G:%[0-9]+]] = cmp [[I]], %2 {pred = "lt"} : bool
// CHECK-NEXT:      [[R:%[0-9]+]] = if [[G]] : bool
// the load of x[i] is inside the then branch only
// CHECK-NEXT:        [[X:%[0-9]+]] = load %1, [[I]] : f32
// CHECK-NEXT:        [[Z:%[0-9]+]] = constant {value = 0.0} : f32
// CHECK-NEXT:        [[P:%[0-9]+]] = cmp [[X]], [[Z]] {pred = "gt"} : bool
// CHECK-NEXT:        yield [[P]]
// CHECK-NEXT:      } {
// CHECK-NEXT:        [[F:%[0-9]+]] = constant {value = false} : bool
// CHECK-NEXT:        yield [[F]]
// CHECK-NEXT:      }
// CHECK-NEXT:      [[R32:%[0-9]+]] = cast [[R]] : i32
// CHECK-NEXT:      store %0, [[R32]], [[I]]
