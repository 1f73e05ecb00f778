// Compound assignment and ++ on view elements: load, op, store.
// RUN: %intent_syntax %s -fplugin-arg-intent-dump=kir | FileCheck %s

#include <intent/intent.hpp>
using namespace intent;

[[intent::kernel]] void accum(view<float, 1> y, view<int, 1> c, view<const float, 1> x) {
  parallel_for(y.extent(0), [&](index i) {
    y[i] += x[i];
    y[i] *= 2.0f;
    c[i]++;
  });
}

// CHECK-LABEL: kernel @accum (%0 y: view<f32, 1> rw, %1 c: view<i32, 1> rw, %2 x: view<const f32, 1> r)
// CHECK:         ^([[I:%[0-9]+]]: i64):
// y[i] += x[i]
// CHECK-NEXT:      [[X:%[0-9]+]] = load %2, [[I]] : f32
// CHECK-NEXT:      [[Y:%[0-9]+]] = load %0, [[I]] : f32
// CHECK-NEXT:      [[S:%[0-9]+]] = add [[Y]], [[X]] : f32
// CHECK-NEXT:      store %0, [[S]], [[I]]
// y[i] *= 2.0f
// CHECK-NEXT:      [[TWO:%[0-9]+]] = constant {value = 2.0} : f32
// CHECK-NEXT:      [[Y2:%[0-9]+]] = load %0, [[I]] : f32
// CHECK-NEXT:      [[P:%[0-9]+]] = mul [[Y2]], [[TWO]] : f32
// CHECK-NEXT:      store %0, [[P]], [[I]]
// c[i]++
// CHECK-NEXT:      [[C:%[0-9]+]] = load %1, [[I]] : i32
// CHECK-NEXT:      [[ONE:%[0-9]+]] = constant {value = 1} : i32
// CHECK-NEXT:      [[C2:%[0-9]+]] = add [[C]], [[ONE]] : i32
// CHECK-NEXT:      store %1, [[C2]], [[I]]
// CHECK-NEXT:      yield
