// A segmented inclusive prefix sum with region_scan: value(k) and emit(k, p)
// receive the member index, the region block argument is left unused.
// RUN: %intent_syntax %s -fplugin-arg-intent-dump=kir -fplugin-arg-intent-stop-after=kir | FileCheck %s

#include <intent/intent.hpp>
using namespace intent;

[[intent::kernel]] void segsum(view<float, 1> y, view<const index, 1> offsets,
                               view<const float, 1> x) {
  region_scan(offsets, 0.0f, ops::plus{}, [&](index k) { return x[k]; },
              [&](index k, float p) { y[k] = p; });
}

// CHECK-LABEL: kernel @segsum (%0 y: view<f32, 1> w, %1 offsets: view<const i64, 1> r, %2 x: view<const f32, 1> r)
// CHECK-NEXT:    [[I:%[0-9]+]] = constant {value = 0.0} : f32
// CHECK-NEXT:    region_scan %1, [[I]] {kind = "inclusive", direction = "forward", combiner = "plus", reassociate = true}
// CHECK-NEXT:    ^({{%[0-9]+}}: i64, [[K:%[0-9]+]]: i64):
// CHECK-NEXT:      [[V:%[0-9]+]] = load %2, [[K]] : f32
// CHECK-NEXT:      yield [[V]]
// CHECK-NEXT:    } {
// CHECK-NEXT:    ^([[A:%[0-9]+]]: f32, [[B:%[0-9]+]]: f32):
// CHECK-NEXT:      [[S:%[0-9]+]] = add [[A]], [[B]] : f32
// CHECK-NEXT:      yield [[S]]
// CHECK-NEXT:    } {
// CHECK-NEXT:    ^({{%[0-9]+}}: i64, [[EK:%[0-9]+]]: i64, [[P:%[0-9]+]]: f32):
// CHECK-NEXT:      store %0, [[P]], [[EK]]
// CHECK-NEXT:      yield
// CHECK-NEXT:    }
