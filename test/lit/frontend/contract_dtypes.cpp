// intent::matmul records one `contract` per call: acc is accumulator_t<T>
// (f32 for half and bfloat16, T for float and double); strided operands
// (transpose, slice) stay sub-views.
// RUN: %intent_syntax %s -fplugin-arg-intent-dump=kir -fplugin-arg-intent-stop-after=kir | FileCheck %s

#include <intent/intent.hpp>
using namespace intent;

[[intent::kernel]] void mm_f32(view<float, 2> c, view<const float, 2> a, view<const float, 2> b) {
  matmul(c, a, b);
}
// CHECK-LABEL: kernel @mm_f32
// CHECK: contract %0, %1, %2 {acc = "f32", batched = false}

[[intent::kernel]] void mm_f64_t(view<double, 2> c, view<const double, 2> a, view<const double, 2> bt) {
  matmul(c, a, bt.transpose());
}
// CHECK-LABEL: kernel @mm_f64_t
// CHECK: [[T:%[0-9]+]] = subview %2 {kind = "transpose", dim0 = 0, dim1 = 1}
// CHECK: contract %0, %1, [[T]] {acc = "f64", batched = false}

[[intent::kernel]] void mm_bf16(view<bfloat16, 3> c, view<const bfloat16, 3> a, view<const bfloat16, 3> b) {
  matmul(c, a, b);
}
// CHECK-LABEL: kernel @mm_bf16
// CHECK: contract %0, %1, %2 {acc = "f32", batched = true}

[[intent::kernel]] void mm_half_slice(view<half, 2> c, view<const half, 2> a, view<const half, 2> b) {
  matmul(c, a.slice(1, range{0, b.extent(0)}), b);
}
// CHECK-LABEL: kernel @mm_half_slice
// CHECK: [[S:%[0-9]+]] = subview %1, {{.*}} {kind = "slice", dim = 1}
// CHECK: contract %0, [[S]], %2 {acc = "f32", batched = false}
