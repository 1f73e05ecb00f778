// || is an if whose then branch yields true.
// RUN: %intent_syntax %s -fplugin-arg-intent-dump=kir | FileCheck %s

#include <intent/intent.hpp>
using namespace intent;

[[intent::kernel]] void either(view<bool, 1> out, view<const int, 1> x) {
  parallel_for(out.extent(0), [&](index i) { out[i] = x[i] == 0 || x[i] > 10; });
}

// CHECK-LABEL: kernel @either (%0 out: view<bool, 1> w, %1 x: view<const i32, 1> r)
// CHECK:           [[EQ:%[0-9]+]] = cmp {{%[0-9]+}}, {{%[0-9]+}} {pred = "eq"} : bool
// CHECK-NEXT:      [[R:%[0-9]+]] = if [[EQ]] : bool
// CHECK-NEXT:        [[T:%[0-9]+]] = constant {value = true} : bool
// CHECK-NEXT:        yield [[T]]
// CHECK-NEXT:      } {
// CHECK-NEXT:        [[X:%[0-9]+]] = load %1, {{%[0-9]+}} : i32
// CHECK-NEXT:        [[TEN:%[0-9]+]] = constant {value = 10} : i32
// CHECK-NEXT:        [[GT:%[0-9]+]] = cmp [[X]], [[TEN]] {pred = "gt"} : bool
// CHECK-NEXT:        yield [[GT]]
// CHECK-NEXT:      }
// CHECK-NEXT:      store %0, [[R]], {{%[0-9]+}}
