// parallel_for over range{b, e}: extent max(e - b, 0), index offset by b.
// RUN: %intent_syntax %s -fplugin-arg-intent-dump=kir | FileCheck %s

#include <intent/intent.hpp>
using namespace intent;

[[intent::kernel]] void shifted(view<float, 1> y, index b, index e) {
  parallel_for(range{b, e}, [&](index i) { y[i] = 0.0f; });
}

// CHECK-LABEL: kernel @shifted (%0 y: view<f32, 1> w, %1 b: i64, %2 e: i64)
// CHECK-NEXT:    [[D:%[0-9]+]] = sub %2, %1 : i64
// CHECK-NEXT:    [[Z:%[0-9]+]] = constant {value = 0} : i64
// CHECK-NEXT:    [[N:%[0-9]+]] = max [[D]], [[Z]] {nan = "std"} : i64
// CHECK-NEXT:    parallel_for [[N]]
// CHECK-NEXT:    ^([[K:%[0-9]+]]: i64):
// CHECK-NEXT:      [[I:%[0-9]+]] = add [[K]], %1 : i64
// CHECK-NEXT:      [[V:%[0-9]+]] = constant {value = 0.0} : f32
// CHECK-NEXT:      store %0, [[V]], [[I]]
