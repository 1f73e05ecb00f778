// reduce(n, init, ops::plus{}, value) becomes `reduce 0, n, init` whose value
// region is the inlined lambda and whose combine region is ops::plus's
// operator() from the header applied to the two block arguments.
// RUN: %intent_syntax %s -fplugin-arg-intent-dump=kir -fplugin-arg-intent-stop-after=kir | FileCheck %s

#include <intent/intent.hpp>
using namespace intent;

[[intent::kernel]] void sum(view<float, 1> out, view<const float, 1> in) {
  out[0] = reduce(in.extent(0), 0.0f, ops::plus{}, [&](index i) { return in[i]; });
}

// CHECK-LABEL: kernel @sum (%0 out: view<f32, 1> w, %1 in: view<const f32, 1> r)
// CHECK-NEXT:    [[N:%[0-9]+]] = extent %1 {dim = 0} : i64
// CHECK-NEXT:    [[B:%[0-9]+]] = constant {value = 0} : i64
// CHECK-NEXT:    [[I:%[0-9]+]] = constant {value = 0.0} : f32
// CHECK-NEXT:    [[R:%[0-9]+]] = reduce [[B]], [[N]], [[I]] {combiner = "plus", reassociate = true} : f32 loc(10:12) {
// CHECK-NEXT:    ^([[K:%[0-9]+]]: i64):
// CHECK-NEXT:      [[V:%[0-9]+]] = load %1, [[K]] : f32
// CHECK-NEXT:      yield [[V]]
// CHECK-NEXT:    } {
// CHECK-NEXT:    ^([[A:%[0-9]+]]: f32, [[C:%[0-9]+]]: f32):
// CHECK-NEXT:      [[S:%[0-9]+]] = add [[A]], [[C]] : f32 loc(10:12)
// CHECK-NEXT:      yield [[S]] loc(10:12)
// CHECK-NEXT:    }
// CHECK-NEXT:    [[Z:%[0-9]+]] = constant {value = 0} : i64
// CHECK-NEXT:    store %0, [[R]], [[Z]]
