// int8 + int8 follows C++ promotions: both operands cast to i32, the result back to i8.
// RUN: %intent_syntax %s -fplugin-arg-intent-dump=kir | FileCheck %s

#include <intent/intent.hpp>
using namespace intent;

[[intent::kernel]] void add8(view<int8_t, 1> o, view<const int8_t, 1> a, int8_t s) {
  parallel_for(o.extent(0), [&](index i) { o[i] = a[i] + s; });
}

// CHECK-LABEL: kernel @add8 (%0 o: view<i8, 1> w, %1 a: view<const i8, 1> r, %2 s: i8)
// CHECK:         ^([[I:%[0-9]+]]: i64):
// CHECK-NEXT:      [[A:%[0-9]+]] = load %1, [[I]] : i8
// CHECK-NEXT:      [[A32:%[0-9]+]] = cast [[A]] : i32
// CHECK-NEXT:      [[S32:%[0-9]+]] = cast %2 : i32
// CHECK-NEXT:      [[SUM:%[0-9]+]] = add [[A32]], [[S32]] : i32
// CHECK-NEXT:      [[SUM8:%[0-9]+]] = cast [[SUM]] : i8
// CHECK-NEXT:      store %0, [[SUM8]], [[I]]
