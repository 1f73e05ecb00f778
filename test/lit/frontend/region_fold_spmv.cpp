// CSR SpMV y = A x with region_fold: the row pointer is the offsets operand
// (and counts as a read of that view), the value callback takes the member k
// (region block argument r unused), store writes y[r].
// RUN: %intent_syntax %s -fplugin-arg-intent-dump=kir -fplugin-arg-intent-stop-after=kir | FileCheck %s

#include <intent/intent.hpp>
using namespace intent;

[[intent::kernel]] void spmv(view<float, 1> y, view<const int, 1> rowptr,
                             view<const int, 1> col, view<const float, 1> val,
                             view<const float, 1> x) {
  region_fold(rowptr, 0.0f, ops::plus{},
              [&](index k) { return val[k] * x[col[k]]; },
              [&](index r, float s) { y[r] = s; });
}

// CHECK-LABEL: kernel @spmv (%0 y: view<f32, 1> w, %1 rowptr: view<const i32, 1> r, %2 col: view<const i32, 1> r, %3 val: view<const f32, 1> r, %4 x: view<const f32, 1> r)
// CHECK-NEXT:    [[I:%[0-9]+]] = constant {value = 0.0} : f32
// CHECK-NEXT:    region_fold %1, [[I]] {combiner = "plus", reassociate = true}
// CHECK-NEXT:    ^({{%[0-9]+}}: i64, [[K:%[0-9]+]]: i64):
// CHECK-NEXT:      [[V:%[0-9]+]] = load %3, [[K]] : f32
// CHECK-NEXT:      [[C:%[0-9]+]] = load %2, [[K]] : i32
// CHECK-NEXT:      [[C64:%[0-9]+]] = cast [[C]] : i64
// CHECK-NEXT:      [[XC:%[0-9]+]] = load %4, [[C64]] : f32
// CHECK-NEXT:      [[M:%[0-9]+]] = mul [[V]], [[XC]] : f32
// CHECK-NEXT:      yield [[M]]
// CHECK-NEXT:    } {
// CHECK-NEXT:    ^([[A:%[0-9]+]]: f32, [[B:%[0-9]+]]: f32):
// CHECK-NEXT:      [[S:%[0-9]+]] = add [[A]], [[B]] : f32
// CHECK-NEXT:      yield [[S]]
// CHECK-NEXT:    } {
// CHECK-NEXT:    ^([[R:%[0-9]+]]: i64, [[T:%[0-9]+]]: f32):
// CHECK-NEXT:      store %0, [[T]], [[R]]
// CHECK-NEXT:      yield
// CHECK-NEXT:    }
// CHECK-NEXT:    return
