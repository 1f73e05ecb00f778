// ?: is an if with a result; only the chosen arm is evaluated.
// RUN: %intent_syntax %s -fplugin-arg-intent-dump=kir | FileCheck %s

#include <intent/intent.hpp>
using namespace intent;

[[intent::kernel]] void relu(view<float, 1> y, view<const float, 1> x) {
  parallel_for(y.extent(0), [&](index i) { y[i] = x[i] > 0.0f ? x[i] : 0.0f; });
}

// CHECK-LABEL: kernel @relu (%0 y: view<f32, 1> w, %1 x: view<const f32, 1> r)
// CHECK:         ^([[I:%[0-9]+]]: i64):
// CHECK-NEXT:      [[X:%[0-9]+]] = load %1, [[I]] : f32
// CHECK-NEXT:      [[Z:%[0-9]+]] = constant {value = 0.0} : f32
// CHECK-NEXT:      [[C:%[0-9]+]] = cmp [[X]], [[Z]] {pred = "gt"} : bool
// CHECK-NEXT:      [[R:%[0-9]+]] = if [[C]] : f32
// CHECK-NEXT:        [[X2:%[0-9]+]] = load %1, [[I]] : f32
// CHECK-NEXT:        yield [[X2]]
// CHECK-NEXT:      } {
// CHECK-NEXT:        [[Z2:%[0-9]+]] = constant {value = 0.0} : f32
// CHECK-NEXT:        yield [[Z2]]
// CHECK-NEXT:      }
// CHECK-NEXT:      store %0, [[R]], [[I]]
