// Batched matmul of halves with a transposed, broadcast operand: one KIR
// `contract` op with accumulator_t<half> = f32 and batched = true
// (construction expands it: test/lit/construction/contract.kir).
// RUN: %intent_syntax %s -fplugin-arg-intent-dump=kir -fplugin-arg-intent-stop-after=kir | FileCheck %s

#include <intent/intent.hpp>
using namespace intent;

[[intent::kernel]] void mm(view<half, 3> c, view<const half, 3> a, view<const half, 2> bt) {
  matmul(c, a, bt.transpose().broadcast(0, c.extent(0)));
}

// CHECK-LABEL: kernel @mm (%0 c: view<f16, 3> w, %1 a: view<const f16, 3> r, %2 bt: view<const f16, 2> r)
// CHECK:         [[T:%[0-9]+]] = subview %2 {kind = "transpose", dim0 = 0, dim1 = 1}
// CHECK:         [[B:%[0-9]+]] = subview [[T]], {{%[0-9]+}} {kind = "broadcast", dim = 0} : view<const f16, 3>
// CHECK-NEXT:    contract %0, %1, [[B]] {acc = "f32", batched = true}
// CHECK-NEXT:    return
