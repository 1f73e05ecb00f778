// region_scan callbacks that take the region too: value(r, k) and
// emit(r, k, p) get both block arguments; an exclusive reverse scan per
// region records kind and direction.
// RUN: %intent_syntax %s -fplugin-arg-intent-dump=kir -fplugin-arg-intent-stop-after=kir | FileCheck %s

#include <intent/intent.hpp>
using namespace intent;

[[intent::kernel]] void ragged(view<float, 1> y, view<const int, 1> offsets,
                               view<const float, 1> x, view<const float, 1> w) {
  region_scan(offsets, 0.0f, ops::plus{},
              [&](index r, index k) { return w[r] * x[k]; },
              [&](index r, index k, float p) { y[k] = p + w[r]; },
              scan_kind::exclusive, direction::reverse);
}

// CHECK-LABEL: kernel @ragged
// CHECK:         region_scan %1, {{%[0-9]+}} {kind = "exclusive", direction = "reverse", combiner = "plus", reassociate = true}
// CHECK-NEXT:    ^([[R:%[0-9]+]]: i64, [[K:%[0-9]+]]: i64):
// CHECK-NEXT:      [[W:%[0-9]+]] = load %3, [[R]] : f32
// CHECK-NEXT:      [[X:%[0-9]+]] = load %2, [[K]] : f32
// CHECK-NEXT:      [[M:%[0-9]+]] = mul [[W]], [[X]] : f32
// CHECK-NEXT:      yield [[M]]
// CHECK:         ^([[ER:%[0-9]+]]: i64, [[EK:%[0-9]+]]: i64, [[P:%[0-9]+]]: f32):
// CHECK-NEXT:      [[W2:%[0-9]+]] = load %3, [[ER]] : f32
// CHECK-NEXT:      [[S:%[0-9]+]] = add [[P]], [[W2]] : f32
// CHECK-NEXT:      store %0, [[S]], [[EK]]
// CHECK-NEXT:      yield
