// The linear recurrence h[t] = a[t] * h[t-1] + b[t] as a scan over affine
// maps: a pair state {a, b} with the (non-commutative) composition as the
// combine. The state is 2 components; the emit reads the .b field.
// RUN: %intent_syntax %s -fplugin-arg-intent-dump=kir -fplugin-arg-intent-stop-after=kir | FileCheck %s

#include <intent/intent.hpp>
using namespace intent;

struct Affine {
  float a, b;
};

[[intent::kernel]] void recurrence(view<float, 1> h, view<const float, 1> a,
                                   view<const float, 1> b) {
  scan(h.extent(0), Affine{1.0f, 0.0f},
       [](Affine l, Affine r) { return Affine{l.a * r.a, r.a * l.b + r.b}; },
       [&](index t) { return Affine{a[t], b[t]}; },
       [&](index t, const Affine &p) { h[t] = p.b; });
}

// CHECK-LABEL: kernel @recurrence
// CHECK:         [[IA:%[0-9]+]] = constant {value = 1.0} : f32
// CHECK-NEXT:    [[IB:%[0-9]+]] = constant {value = 0.0} : f32
// CHECK-NEXT:    scan {{%[0-9]+}}, {{%[0-9]+}}, [[IA]], [[IB]] {kind = "inclusive", direction = "forward", combiner = "user", reassociate = true}
// CHECK-NEXT:    ^([[T:%[0-9]+]]: i64):
// CHECK-NEXT:      [[VA:%[0-9]+]] = load %1, [[T]] : f32
// CHECK-NEXT:      [[VB:%[0-9]+]] = load %2, [[T]] : f32
// CHECK-NEXT:      yield [[VA]], [[VB]]
// CHECK-NEXT:    } {
// CHECK-NEXT:    ^([[LA:%[0-9]+]]: f32, [[LB:%[0-9]+]]: f32, [[RA:%[0-9]+]]: f32, [[RB:%[0-9]+]]: f32):
// CHECK-NEXT:      [[NA:%[0-9]+]] = mul [[LA]], [[RA]] : f32
// CHECK-NEXT:      [[X:%[0-9]+]] = mul [[RA]], [[LB]] : f32
// CHECK-NEXT:      [[NB:%[0-9]+]] = add [[X]], [[RB]] : f32
// CHECK-NEXT:      yield [[NA]], [[NB]]
// CHECK-NEXT:    } {
// CHECK-NEXT:    ^([[ET:%[0-9]+]]: i64, [[PA:%[0-9]+]]: f32, [[PB:%[0-9]+]]: f32):
// CHECK-NEXT:      store %0, [[PB]], [[ET]]
// CHECK-NEXT:      yield
// CHECK-NEXT:    }
