// A local assigned in if/else becomes a result of the if.
// RUN: %intent_syntax %s -fplugin-arg-intent-dump=kir | FileCheck %s

#include <intent/intent.hpp>
using namespace intent;

[[intent::kernel]] void sign(view<int, 1> out, float v) {
  int s;
  if (v < 0.0f)
    s = -1;
  else if (v > 0.0f)
    s = 1;
  else
    s = 0;
  out[0] = s;
}

// CHECK-LABEL: kernel @sign (%0 out: view<i32, 1> w, %1 v: f32)
// CHECK:         [[LT:%[0-9]+]] = cmp %1, {{%[0-9]+}} {pred = "lt"} : bool
// CHECK-NEXT:    [[S:%[0-9]+]] = if [[LT]] : i32
// CHECK-NEXT:      [[M1:%[0-9]+]] = constant {value = -1} : i32
// CHECK-NEXT:      yield [[M1]]
// CHECK-NEXT:    } {
// CHECK:           [[GT:%[0-9]+]] = cmp %1, {{%[0-9]+}} {pred = "gt"} : bool
// CHECK-NEXT:      [[S2:%[0-9]+]] = if [[GT]] : i32
// CHECK-NEXT:        [[P1:%[0-9]+]] = constant {value = 1} : i32
// CHECK-NEXT:        yield [[P1]]
// CHECK-NEXT:      } {
// CHECK-NEXT:        [[Z:%[0-9]+]] = constant {value = 0} : i32
// CHECK-NEXT:        yield [[Z]]
// CHECK-NEXT:      }
// CHECK-NEXT:      yield [[S2]]
// CHECK-NEXT:    }
// CHECK-NEXT:    [[IDX:%[0-9]+]] = constant {value = 0} : i64
// CHECK-NEXT:    store %0, [[S]], [[IDX]]
