// A for loop with a break inside an if: the break carries the loop's locals.
// RUN: %intent_syntax %s -fplugin-arg-intent-dump=kir | FileCheck %s

#include <intent/intent.hpp>
using namespace intent;

[[intent::kernel]] void first_negative(view<int, 1> out, view<const float, 1> x) {
  int found = -1;
  for (int i = 0; i < x.extent(0); ++i) {
    if (x[i] < 0.0f) {
      found = i;
      break;
    }
  }
  out[0] = found;
}

// CHECK-LABEL: kernel @first_negative (%0 out: view<i32, 1> w, %1 x: view<const f32, 1> r)
// CHECK-NEXT:    [[INIT:%[0-9]+]] = constant {value = -1} : i32
// CHECK-NEXT:    [[ZERO:%[0-9]+]] = constant {value = 0} : i32
// CHECK-NEXT:    [[FOUND:%[0-9]+]], {{%[0-9]+}} = loop [[INIT]], [[ZERO]] {test_first = true} : i32, i32
// CHECK-NEXT:    ^({{%[0-9]+}}: i32, [[CI:%[0-9]+]]: i32):
// CHECK-NEXT:      [[CI64:%[0-9]+]] = cast [[CI]] : i64
// CHECK-NEXT:      [[N:%[0-9]+]] = extent %1 {dim = 0} : i64
// CHECK-NEXT:      [[LT:%[0-9]+]] = cmp [[CI64]], [[N]] {pred = "lt"} : bool
// CHECK-NEXT:      condition [[LT]]
// CHECK-NEXT:    } {
// CHECK-NEXT:    ^([[BF:%[0-9]+]]: i32, [[BI:%[0-9]+]]: i32):
// CHECK:           [[NEG:%[0-9]+]] = cmp {{%[0-9]+}}, {{%[0-9]+}} {pred = "lt"} : bool
// CHECK-NEXT:      if [[NEG]]
// found = i; break: both carried slots hold i
// CHECK-NEXT:        break [[BI]], [[BI]]
// CHECK-NEXT:      } {
// CHECK-NEXT:        yield
// CHECK-NEXT:      }
// CHECK-NEXT:      yield [[BF]], [[BI]]
// CHECK-NEXT:    } {
// CHECK-NEXT:    ^([[SF:%[0-9]+]]: i32, [[SI:%[0-9]+]]: i32):
// CHECK-NEXT:      [[ONE:%[0-9]+]] = constant {value = 1} : i32
// CHECK-NEXT:      [[NEXT:%[0-9]+]] = add [[SI]], [[ONE]] : i32
// CHECK-NEXT:      yield [[SF]], [[NEXT]]
// CHECK-NEXT:    }
// CHECK-NEXT:    [[Z:%[0-9]+]] = constant {value = 0} : i64
// CHECK-NEXT:    store %0, [[FOUND]], [[Z]]
