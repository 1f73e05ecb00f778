// A local lambda called directly is inlined like a helper.
// RUN: %intent_syntax %s -fplugin-arg-intent-dump=kir | FileCheck %s

#include <intent/intent.hpp>
using namespace intent;

[[intent::kernel]] void lam(view<float, 1> y, float s) {
  auto scale = [&](float v) { return v * s; };
  parallel_for(y.extent(0), [&](index i) { y[i] = scale(y[i]); });
}

// CHECK-LABEL: kernel @lam (%0 y: view<f32, 1> rw, %1 s: f32)
// CHECK:         ^([[I:%[0-9]+]]: i64):
// CHECK-NEXT:      [[V:%[0-9]+]] = load %0, [[I]] : f32
// CHECK-NEXT:      [[M:%[0-9]+]] = mul [[V]], %1 : f32
// CHECK-NEXT:      store %0, [[M]], [[I]]
