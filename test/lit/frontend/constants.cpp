// constexpr locals, constexpr globals and enumerators are constants.
// RUN: %intent_syntax %s -fplugin-arg-intent-dump=kir | FileCheck %s

#include <intent/intent.hpp>
using namespace intent;

constexpr float kScale = 0.5f;
enum Mode { Plain = 1, Fancy = 7 };

[[intent::kernel]] void consts(view<float, 1> y, view<int, 1> m) {
  constexpr int kOffset = 3;
  y[0] = y[0] * kScale;
  m[0] = kOffset + Fancy;
}

// CHECK-LABEL: kernel @consts (%0 y: view<f32, 1> rw, %1 m: view<i32, 1> w)
// CHECK:         [[Y:%[0-9]+]] = load %0, {{%[0-9]+}} : f32
// CHECK-NEXT:    [[K:%[0-9]+]] = constant {value = 0.5} : f32
// CHECK-NEXT:    {{%[0-9]+}} = mul [[Y]], [[K]] : f32
// kOffset + Fancy folds to 10
// CHECK:         [[TEN:%[0-9]+]] = constant {value = 10} : i32
// CHECK-NEXT:    [[Z:%[0-9]+]] = constant {value = 0} : i64
// CHECK-NEXT:    store %1, [[TEN]], [[Z]]
