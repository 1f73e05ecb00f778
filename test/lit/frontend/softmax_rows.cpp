// Row softmax (design.md §1): per row, a max reduce, a sum reduce whose
// value reads the max, and a parallel_for using both results.
// RUN: %intent_syntax %s -fplugin-arg-intent-dump=kir -fplugin-arg-intent-stop-after=kir | FileCheck %s

#include <intent/intent.hpp>
using namespace intent;

[[intent::kernel]] void softmax_rows(view<float, 2> out, view<const float, 2> in) {
  parallel_for(in.extent(0), [&](index r) {
    float m = reduce(in.extent(1), -INFINITY, ops::max{}, [&](index c) { return in(r, c); });
    float s = reduce(in.extent(1), 0.0f, ops::plus{}, [&](index c) { return expf(in(r, c) - m); });
    parallel_for(in.extent(1), [&](index c) { out(r, c) = expf(in(r, c) - m) / s; });
  });
}

// CHECK-LABEL: kernel @softmax_rows (%0 out: view<f32, 2> w, %1 in: view<const f32, 2> r)
// CHECK:         parallel_for
// CHECK-NEXT:    ^([[R:%[0-9]+]]: i64):
// CHECK:           [[M:%[0-9]+]] = reduce {{.*}} {combiner = "max", reassociate = true} : f32
// CHECK:           [[S:%[0-9]+]] = reduce {{.*}} {combiner = "plus", reassociate = true} : f32
// CHECK-NEXT:      ^([[C:%[0-9]+]]: i64):
// CHECK-NEXT:        [[X:%[0-9]+]] = load %1, [[R]], [[C]] : f32
// CHECK-NEXT:        [[D:%[0-9]+]] = sub [[X]], [[M]] : f32
// CHECK-NEXT:        [[E:%[0-9]+]] = math [[D]] {fn = "exp"} : f32
// CHECK-NEXT:        yield [[E]]
// CHECK:           parallel_for
// CHECK-NEXT:      ^([[C2:%[0-9]+]]: i64):
// CHECK-NEXT:        [[X2:%[0-9]+]] = load %1, [[R]], [[C2]] : f32
// CHECK-NEXT:        [[D2:%[0-9]+]] = sub [[X2]], [[M]] : f32
// CHECK-NEXT:        [[E2:%[0-9]+]] = math [[D2]] {fn = "exp"} : f32
// CHECK-NEXT:        [[Q:%[0-9]+]] = div [[E2]], [[S]] : f32
// CHECK-NEXT:        store %0, [[Q]], [[R]], [[C2]]
