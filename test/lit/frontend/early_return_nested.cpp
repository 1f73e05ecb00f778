// A return nested in a block of a helper: the rest of the enclosing blocks
// runs on the other path (the continuation crosses the block boundary).
// RUN: %intent_syntax %s -fplugin-arg-intent-dump=kir | FileCheck %s

#include <intent/intent.hpp>
using namespace intent;

inline int classify(int v) {
  int r = 0;
  {
    if (v < 0)
      return -1;
    r = v * 2;
  }
  r = r + 1;
  return r;
}

[[intent::kernel]] void cls(view<int, 1> out, int v) { out[0] = classify(v); }

// CHECK-LABEL: kernel @cls (%0 out: view<i32, 1> w, %1 v: i32)
// CHECK:         [[NEG:%[0-9]+]] = cmp %1, {{%[0-9]+}} {pred = "lt"} : bool
// CHECK-NEXT:    {{%[0-9]+}}, [[RET:%[0-9]+]] = if [[NEG]] : i32, i32
// CHECK-NEXT:      [[M1:%[0-9]+]] = constant {value = -1} : i32
// CHECK-NEXT:      yield {{%[0-9]+}}, [[M1]]
// CHECK-NEXT:    } {
// CHECK-NEXT:      [[TWO:%[0-9]+]] = constant {value = 2} : i32
// CHECK-NEXT:      [[R1:%[0-9]+]] = mul %1, [[TWO]] : i32
// CHECK-NEXT:      [[ONE:%[0-9]+]] = constant {value = 1} : i32
// CHECK-NEXT:      [[R2:%[0-9]+]] = add [[R1]], [[ONE]] : i32
// CHECK-NEXT:      yield [[R2]], [[R2]]
// CHECK-NEXT:    }
// CHECK-NEXT:    [[Z:%[0-9]+]] = constant {value = 0} : i64
// CHECK-NEXT:    store %0, [[RET]], [[Z]]
