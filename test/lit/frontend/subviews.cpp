// Sub-views: row, slice and transpose become subview ops; element access goes through them.
// RUN: %intent_syntax %s -fplugin-arg-intent-dump=kir | FileCheck %s

#include <intent/intent.hpp>
using namespace intent;

[[intent::kernel]] void sub(view<float, 2> out, view<const float, 2> in, index b, index e) {
  auto r = in.row(1);
  auto s = in.slice(1, range{b, e});
  auto t = in.transpose();
  out(0, 0) = r[2] + s(0, 0) + t(3, 4);
}

// CHECK-LABEL: kernel @sub (%0 out: view<f32, 2> w, %1 in: view<const f32, 2> r, %2 b: i64, %3 e: i64)
// CHECK-NEXT:    [[ONE:%[0-9]+]] = constant {value = 1} : i64
// CHECK-NEXT:    [[ROW:%[0-9]+]] = subview %1, [[ONE]] {kind = "row"} : view<const f32, 1>
// CHECK-NEXT:    [[SL:%[0-9]+]] = subview %1, %2, %3 {kind = "slice", dim = 1} : view<const f32, 2>
// CHECK-NEXT:    [[TR:%[0-9]+]] = subview %1 {kind = "transpose", dim0 = 0, dim1 = 1} : view<const f32, 2>
// CHECK-NEXT:    [[C2:%[0-9]+]] = constant {value = 2} : i64
// CHECK-NEXT:    {{%[0-9]+}} = load [[ROW]], [[C2]] : f32
// CHECK:         {{%[0-9]+}} = load [[SL]], {{%[0-9]+}}, {{%[0-9]+}} : f32
// CHECK:         [[C3:%[0-9]+]] = constant {value = 3} : i64
// CHECK-NEXT:    [[C4:%[0-9]+]] = constant {value = 4} : i64
// CHECK-NEXT:    {{%[0-9]+}} = load [[TR]], [[C3]], [[C4]] : f32
