// parallel_for nested in parallel_for; the inner body uses the outer index.
// RUN: %intent_syntax %s -fplugin-arg-intent-dump=kir | FileCheck %s

#include <intent/intent.hpp>
using namespace intent;

[[intent::kernel]] void rows(view<float, 2> out, view<const float, 1> bias) {
  parallel_for(out.extent(0), [&](index r) {
    float b = bias[r];
    parallel_for(out.extent(1), [&](index c) { out(r, c) = b; });
  });
}

// CHECK-LABEL: kernel @rows (%0 out: view<f32, 2> w, %1 bias: view<const f32, 1> r)
// CHECK-NEXT:    [[R:%[0-9]+]] = extent %0 {dim = 0} : i64
// CHECK-NEXT:    parallel_for [[R]]
// CHECK-NEXT:    ^([[I:%[0-9]+]]: i64):
// CHECK-NEXT:      [[B:%[0-9]+]] = load %1, [[I]] : f32
// CHECK-NEXT:      [[C:%[0-9]+]] = extent %0 {dim = 1} : i64
// CHECK-NEXT:      parallel_for [[C]]
// CHECK-NEXT:      ^([[J:%[0-9]+]]: i64):
// CHECK-NEXT:        store %0, [[B]], [[I]], [[J]]
// CHECK-NEXT:        yield
// CHECK-NEXT:      }
// CHECK-NEXT:      yield
// CHECK-NEXT:    }
// CHECK-NEXT:    return
