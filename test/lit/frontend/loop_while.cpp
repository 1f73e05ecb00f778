// A while loop carrying one value; the result is used after the loop.
// RUN: %intent_syntax %s -fplugin-arg-intent-dump=kir | FileCheck %s

#include <intent/intent.hpp>
using namespace intent;

[[intent::kernel]] void halve(view<int, 1> out, int n) {
  int steps = 0;
  while (n > 1) {
    n = n / 2;
    steps += 1;
  }
  out[0] = steps;
}

// CHECK-LABEL: kernel @halve (%0 out: view<i32, 1> w, %1 n: i32)
// CHECK-NEXT:    [[ZERO:%[0-9]+]] = constant {value = 0} : i32
// CHECK-NEXT:    {{%[0-9]+}}, [[STEPS:%[0-9]+]] = loop %1, [[ZERO]] {test_first = true} : i32, i32
// CHECK-NEXT:    ^([[CN:%[0-9]+]]: i32, {{%[0-9]+}}: i32):
// CHECK-NEXT:      [[ONE:%[0-9]+]] = constant {value = 1} : i32
// CHECK-NEXT:      [[GT:%[0-9]+]] = cmp [[CN]], [[ONE]] {pred = "gt"} : bool
// CHECK-NEXT:      condition [[GT]]
// CHECK-NEXT:    } {
// CHECK-NEXT:    ^([[BN:%[0-9]+]]: i32, [[BS:%[0-9]+]]: i32):
// CHECK-NEXT:      [[TWO:%[0-9]+]] = constant {value = 2} : i32
// CHECK-NEXT:      [[HALF:%[0-9]+]] = div [[BN]], [[TWO]] : i32
// CHECK-NEXT:      [[ONE2:%[0-9]+]] = constant {value = 1} : i32
// CHECK-NEXT:      [[INC:%[0-9]+]] = add [[BS]], [[ONE2]] : i32
// CHECK-NEXT:      yield [[HALF]], [[INC]]
// CHECK-NEXT:    } {
// CHECK-NEXT:    ^([[SN:%[0-9]+]]: i32, [[SS:%[0-9]+]]: i32):
// CHECK-NEXT:      yield [[SN]], [[SS]]
// CHECK-NEXT:    }
// CHECK-NEXT:    [[Z:%[0-9]+]] = constant {value = 0} : i64
// CHECK-NEXT:    store %0, [[STEPS]], [[Z]]
