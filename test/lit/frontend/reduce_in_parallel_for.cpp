// Row sums: a reduce nested in a parallel_for body reads the row index of
// the enclosing body inside its value region.
// RUN: %intent_syntax %s -fplugin-arg-intent-dump=kir -fplugin-arg-intent-stop-after=kir | FileCheck %s

#include <intent/intent.hpp>
using namespace intent;

[[intent::kernel]] void rowsum(view<float, 1> out, view<const float, 2> a) {
  parallel_for(a.extent(0), [&](index r) {
    out[r] = reduce(a.extent(1), 0.0f, ops::plus{}, [&](index c) { return a(r, c); });
  });
}

// CHECK-LABEL: kernel @rowsum
// CHECK:         parallel_for {{%[0-9]+}}
// CHECK-NEXT:    ^([[R:%[0-9]+]]: i64):
// CHECK-NEXT:      [[N:%[0-9]+]] = extent %1 {dim = 1} : i64
// CHECK-NEXT:      [[B:%[0-9]+]] = constant {value = 0} : i64
// CHECK-NEXT:      [[I:%[0-9]+]] = constant {value = 0.0} : f32
// CHECK-NEXT:      [[S:%[0-9]+]] = reduce [[B]], [[N]], [[I]] {combiner = "plus", reassociate = true} : f32
// CHECK-NEXT:      ^([[C:%[0-9]+]]: i64):
// CHECK-NEXT:        [[V:%[0-9]+]] = load %1, [[R]], [[C]] : f32
// CHECK-NEXT:        yield [[V]]
// CHECK:           store %0, [[S]], [[R]]
// CHECK-NEXT:      yield
