// saxpy: a 1-D parallel_for over y's extent with loads, a multiply-add and a store.
// RUN: %intent_syntax %s -fplugin-arg-intent-dump=kir | FileCheck %s

#include <intent/intent.hpp>
using namespace intent;

[[intent::kernel]] void saxpy(view<float, 1> y, view<const float, 1> x, float a) {
  parallel_for(y.extent(0), [&](index i) { y[i] = a * x[i] + y[i]; });
}

// CHECK-LABEL: kernel @saxpy (%0 y: view<f32, 1> rw, %1 x: view<const f32, 1> r, %2 a: f32)
// CHECK-NEXT:    [[N:%[0-9]+]] = extent %0 {dim = 0} : i64
// CHECK-NEXT:    parallel_for [[N]]
// CHECK-NEXT:    ^([[I:%[0-9]+]]: i64):
// CHECK-NEXT:      [[X:%[0-9]+]] = load %1, [[I]] : f32
// CHECK-NEXT:      [[AX:%[0-9]+]] = mul %2, [[X]] : f32
// CHECK-NEXT:      [[Y:%[0-9]+]] = load %0, [[I]] : f32
// CHECK-NEXT:      [[S:%[0-9]+]] = add [[AX]], [[Y]] : f32
// CHECK-NEXT:      store %0, [[S]], [[I]]
// CHECK-NEXT:      yield
// CHECK-NEXT:    }
// CHECK-NEXT:    return
