// A 3-D parallel_for with int lambda parameters: the i64 block args are cast.
// RUN: %intent_syntax %s -fplugin-arg-intent-dump=kir | FileCheck %s

#include <intent/intent.hpp>
using namespace intent;

[[intent::kernel]] void fill3(view<int, 3> v) {
  parallel_for(v.extent(0), v.extent(1), v.extent(2), [&](int i, int j, int k) { v(i, j, k) = i + j + k; });
}

// CHECK-LABEL: kernel @fill3 (%0 v: view<i32, 3> w)
// CHECK:         parallel_for [[A:%[0-9]+]], [[B:%[0-9]+]], [[C:%[0-9]+]]
// CHECK-NEXT:    ^([[I:%[0-9]+]]: i64, [[J:%[0-9]+]]: i64, [[K:%[0-9]+]]: i64):
// CHECK-NEXT:      [[I32:%[0-9]+]] = cast [[I]] : i32
// CHECK-NEXT:      [[J32:%[0-9]+]] = cast [[J]] : i32
// CHECK-NEXT:      [[K32:%[0-9]+]] = cast [[K]] : i32
// CHECK-NEXT:      [[S:%[0-9]+]] = add [[I32]], [[J32]] : i32
// CHECK-NEXT:      [[T:%[0-9]+]] = add [[S]], [[K32]] : i32
// CHECK-NEXT:      [[I64:%[0-9]+]] = cast [[I32]] : i64
// CHECK-NEXT:      [[J64:%[0-9]+]] = cast [[J32]] : i64
// CHECK-NEXT:      [[K64:%[0-9]+]] = cast [[K32]] : i64
// CHECK-NEXT:      store %0, [[T]], [[I64]], [[J64]], [[K64]]
