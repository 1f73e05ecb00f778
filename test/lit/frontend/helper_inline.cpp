// Helpers are inlined: by value, by const reference, and with an early return.
// RUN: %intent_syntax %s -fplugin-arg-intent-dump=kir | FileCheck %s

#include <intent/intent.hpp>
using namespace intent;

inline float sq(float v) { return v * v; }
inline float clampNeg(const float &v) {
  if (v < 0.0f)
    return 0.0f;
  return v;
}

[[intent::kernel]] void helpers(view<float, 1> y, view<const float, 1> x) {
  parallel_for(y.extent(0), [&](index i) { y[i] = clampNeg(sq(x[i]) - 1.0f); });
}

// CHECK-LABEL: kernel @helpers (%0 y: view<f32, 1> w, %1 x: view<const f32, 1> r)
// CHECK:         ^([[I:%[0-9]+]]: i64):
// sq(x[i]) - 1.0f
// CHECK-NEXT:      [[X:%[0-9]+]] = load %1, [[I]] : f32
// CHECK-NEXT:      [[SQ:%[0-9]+]] = mul [[X]], [[X]] : f32
// CHECK-NEXT:      [[ONE:%[0-9]+]] = constant {value = 1.0} : f32
// CHECK-NEXT:      [[ARG:%[0-9]+]] = sub [[SQ]], [[ONE]] : f32
// clampNeg: `if (v < 0) return 0; return v;` is an if with a result
// CHECK-NEXT:      [[Z:%[0-9]+]] = constant {value = 0.0} : f32
// CHECK-NEXT:      [[NEG:%[0-9]+]] = cmp [[ARG]], [[Z]] {pred = "lt"} : bool
// CHECK-NEXT:      [[R:%[0-9]+]] = if [[NEG]] : f32
// CHECK-NEXT:        [[Z2:%[0-9]+]] = constant {value = 0.0} : f32
// CHECK-NEXT:        yield [[Z2]]
// CHECK-NEXT:      } {
// CHECK-NEXT:        yield [[ARG]]
// CHECK-NEXT:      }
// CHECK-NEXT:      store %0, [[R]], [[I]]
