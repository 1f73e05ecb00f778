// intent::half / intent::bfloat16 are the scalars f16 / bf16; every use as a
// number converts to float (operator float) and every construction from a
// number is a cast to f16 / bf16, exactly where C++ converts.
// RUN: %intent_syntax %s -fplugin-arg-intent-dump=kir -fplugin-arg-intent-stop-after=kir | FileCheck %s

#include <intent/intent.hpp>
using namespace intent;

[[intent::kernel]] void k(view<half, 1> h, view<const bfloat16, 1> b, half s) {
  parallel_for(h.extent(0), [&](intent::index i) {
    half t = h[i] * s + b[i];
    h[i] = t;
  });
}

// CHECK-LABEL: kernel @k (%0 h: view<f16, 1> rw, %1 b: view<const bf16, 1> r, %2 s: f16)
// CHECK:         [[H:%[0-9]+]] = load %0, [[I:%[0-9]+]] : f16
// CHECK-NEXT:    [[HF:%[0-9]+]] = cast [[H]] : f32
// CHECK-NEXT:    [[SF:%[0-9]+]] = cast %2 : f32
// CHECK-NEXT:    [[M:%[0-9]+]] = mul [[HF]], [[SF]] : f32
// CHECK-NEXT:    [[B:%[0-9]+]] = load %1, [[I]] : bf16
// CHECK-NEXT:    [[BF:%[0-9]+]] = cast [[B]] : f32
// CHECK-NEXT:    [[A:%[0-9]+]] = add [[M]], [[BF]] : f32
// CHECK-NEXT:    [[T:%[0-9]+]] = cast [[A]] : f16
// CHECK-NEXT:    store %0, [[T]], [[I]]
