// A non-const reference parameter aliases a local or a view element.
// RUN: %intent_syntax %s -fplugin-arg-intent-dump=kir | FileCheck %s

#include <intent/intent.hpp>
using namespace intent;

inline void bump(float &acc, float d) { acc += d; }

[[intent::kernel]] void refs(view<float, 1> y, float d) {
  float local = 1.0f;
  bump(local, d);
  bump(y[0], local);
}

// CHECK-LABEL: kernel @refs (%0 y: view<f32, 1> rw, %1 d: f32)
// bump(local, d): the local is rebound to local + d
// CHECK-NEXT:    [[L:%[0-9]+]] = constant {value = 1.0} : f32
// CHECK-NEXT:    [[L2:%[0-9]+]] = add [[L]], %1 : f32
// bump(y[0], local): load, add, store back to the element
// CHECK-NEXT:    [[Z:%[0-9]+]] = constant {value = 0} : i64
// CHECK-NEXT:    [[E:%[0-9]+]] = load %0, [[Z]] : f32
// CHECK-NEXT:    [[E2:%[0-9]+]] = add [[E]], [[L2]] : f32
// CHECK-NEXT:    store %0, [[E2]], [[Z]]
// CHECK-NEXT:    return
