// Locals are SSA values: reassignment rebinds, ++ on a local adds 1.
// RUN: %intent_syntax %s -fplugin-arg-intent-dump=kir | FileCheck %s

#include <intent/intent.hpp>
using namespace intent;

[[intent::kernel]] void ssa(view<int, 1> out, int a) {
  int x = a;
  x = x * 3;
  x++;
  int y = x--;
  out[0] = x + y;
}

// CHECK-LABEL: kernel @ssa (%0 out: view<i32, 1> w, %1 a: i32)
// CHECK-NEXT:    [[THREE:%[0-9]+]] = constant {value = 3} : i32
// CHECK-NEXT:    [[X1:%[0-9]+]] = mul %1, [[THREE]] : i32
// CHECK-NEXT:    [[ONE:%[0-9]+]] = constant {value = 1} : i32
// CHECK-NEXT:    [[X2:%[0-9]+]] = add [[X1]], [[ONE]] : i32
// y = x-- takes the old value
// CHECK-NEXT:    [[ONE2:%[0-9]+]] = constant {value = 1} : i32
// CHECK-NEXT:    [[X3:%[0-9]+]] = sub [[X2]], [[ONE2]] : i32
// CHECK-NEXT:    [[SUM:%[0-9]+]] = add [[X3]], [[X2]] : i32
// CHECK-NEXT:    [[Z:%[0-9]+]] = constant {value = 0} : i64
// CHECK-NEXT:    store %0, [[SUM]], [[Z]]
