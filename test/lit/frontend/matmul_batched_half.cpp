// Batched matmul of halves with a transposed, broadcast operand: a
// parallel_for over C's (batch, i, j) whose body folds k in order
// (reassociate = false) in accumulator_t<half> = f32, then stores C.
// RUN: %intent_syntax %s -fplugin-arg-intent-dump=kir -fplugin-arg-intent-stop-after=kir | FileCheck %s

#include <intent/intent.hpp>
using namespace intent;

[[intent::kernel]] void mm(view<half, 3> c, view<const half, 3> a, view<const half, 2> bt) {
  matmul(c, a, bt.transpose().broadcast(0, c.extent(0)));
}

// CHECK-LABEL: kernel @mm (%0 c: view<f16, 3> w, %1 a: view<const f16, 3> r, %2 bt: view<const f16, 2> r)
// CHECK:         [[T:%[0-9]+]] = subview %2 {kind = "transpose", dim0 = 0, dim1 = 1}
// CHECK:         [[B:%[0-9]+]] = subview [[T]], {{%[0-9]+}} {kind = "broadcast", dim = 0} : view<const f16, 3>
// CHECK-NEXT:    [[E0:%[0-9]+]] = extent %0 {dim = 0} : i64
// CHECK-NEXT:    [[E1:%[0-9]+]] = extent %0 {dim = 1} : i64
// CHECK-NEXT:    [[E2:%[0-9]+]] = extent %0 {dim = 2} : i64
// CHECK-NEXT:    [[K:%[0-9]+]] = extent %1 {dim = 2} : i64
// CHECK-NEXT:    parallel_for [[E0]], [[E1]], [[E2]]
// CHECK-NEXT:    ^([[N:%[0-9]+]]: i64, [[I:%[0-9]+]]: i64, [[J:%[0-9]+]]: i64):
// CHECK-NEXT:      [[Z:%[0-9]+]] = constant {value = 0} : i64
// CHECK-NEXT:      [[INIT:%[0-9]+]] = constant {value = 0.0} : f32
// CHECK-NEXT:      [[S:%[0-9]+]] = reduce [[Z]], [[K]], [[INIT]] {combiner = "plus", reassociate = false} : f32
// CHECK-NEXT:      ^([[KK:%[0-9]+]]: i64):
// CHECK-NEXT:        [[X:%[0-9]+]] = load %1, [[N]], [[I]], [[KK]] : f16
// CHECK-NEXT:        [[Y:%[0-9]+]] = load [[B]], [[N]], [[KK]], [[J]] : f16
// CHECK-NEXT:        [[XF:%[0-9]+]] = cast [[X]] : f32
// CHECK-NEXT:        [[YF:%[0-9]+]] = cast [[Y]] : f32
// CHECK-NEXT:        [[P:%[0-9]+]] = mul [[XF]], [[YF]] : f32
// CHECK-NEXT:        yield [[P]]
// CHECK-NEXT:      } {
// CHECK-NEXT:      ^([[SA:%[0-9]+]]: f32, [[SB:%[0-9]+]]: f32):
// CHECK-NEXT:        [[ADD:%[0-9]+]] = add [[SA]], [[SB]] : f32
// CHECK-NEXT:        yield [[ADD]]
// CHECK-NEXT:      }
// CHECK-NEXT:      [[H:%[0-9]+]] = cast [[S]] : f16
// CHECK-NEXT:      store %0, [[H]], [[N]], [[I]], [[J]]
