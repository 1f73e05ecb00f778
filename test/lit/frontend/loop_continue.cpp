// continue in a for loop goes to the step with the current carried values.
// RUN: %intent_syntax %s -fplugin-arg-intent-dump=kir | FileCheck %s

#include <intent/intent.hpp>
using namespace intent;

[[intent::kernel]] void count_pos(view<int, 1> out, view<const float, 1> x) {
  int n = 0;
  for (index i = 0; i < x.extent(0); ++i) {
    if (x[i] <= 0.0f)
      continue;
    ++n;
  }
  out[0] = n;
}

// CHECK-LABEL: kernel @count_pos (%0 out: view<i32, 1> w, %1 x: view<const f32, 1> r)
// CHECK:         [[CNT:%[0-9]+]], {{%[0-9]+}} = loop {{%[0-9]+}}, {{%[0-9]+}} {test_first = true} : i32, i64
// CHECK:         condition {{%[0-9]+}}
// CHECK-NEXT:    } {
// CHECK-NEXT:    ^([[BN:%[0-9]+]]: i32, [[BI:%[0-9]+]]: i64):
// CHECK-NEXT:      [[V:%[0-9]+]] = load %1, [[BI]] : f32
// CHECK-NEXT:      [[Z:%[0-9]+]] = constant {value = 0.0} : f32
// CHECK-NEXT:      [[LE:%[0-9]+]] = cmp [[V]], [[Z]] {pred = "le"} : bool
// CHECK-NEXT:      if [[LE]]
// CHECK-NEXT:        continue [[BN]], [[BI]]
// CHECK-NEXT:      } {
// CHECK-NEXT:        yield
// CHECK-NEXT:      }
// CHECK-NEXT:      [[ONE:%[0-9]+]] = constant {value = 1} : i32
// CHECK-NEXT:      [[N1:%[0-9]+]] = add [[BN]], [[ONE]] : i32
// CHECK-NEXT:      yield [[N1]], [[BI]]
// CHECK-NEXT:    } {
// CHECK-NEXT:    ^([[SN:%[0-9]+]]: i32, [[SI:%[0-9]+]]: i64):
// CHECK-NEXT:      [[ONE64:%[0-9]+]] = constant {value = 1} : i64
// CHECK-NEXT:      [[I1:%[0-9]+]] = add [[SI]], [[ONE64]] : i64
// CHECK-NEXT:      yield [[SN]], [[I1]]
// CHECK:         store %0, [[CNT]], {{%[0-9]+}}
