// A 2-D parallel_for binds both lambda parameters to the body's block args.
// RUN: %intent_syntax %s -fplugin-arg-intent-dump=kir | FileCheck %s

#include <intent/intent.hpp>
using namespace intent;

[[intent::kernel]] void transpose(view<float, 2> out, view<const float, 2> in) {
  parallel_for(out.extent(0), out.extent(1), [&](index i, index j) { out(i, j) = in(j, i); });
}

// CHECK-LABEL: kernel @transpose (%0 out: view<f32, 2> w, %1 in: view<const f32, 2> r)
// CHECK-NEXT:    [[N0:%[0-9]+]] = extent %0 {dim = 0} : i64
// CHECK-NEXT:    [[N1:%[0-9]+]] = extent %0 {dim = 1} : i64
// CHECK-NEXT:    parallel_for [[N0]], [[N1]]
// CHECK-NEXT:    ^([[I:%[0-9]+]]: i64, [[J:%[0-9]+]]: i64):
// CHECK-NEXT:      [[V:%[0-9]+]] = load %1, [[J]], [[I]] : f32
// CHECK-NEXT:      store %0, [[V]], [[I]], [[J]]
// CHECK-NEXT:      yield
