// std::min and std::max become min/max ops.
// RUN: %intent_syntax %s -fplugin-arg-intent-dump=kir | FileCheck %s

#include <intent/intent.hpp>
using namespace intent;

#include <algorithm>

[[intent::kernel]] void clamp01(view<float, 1> y, view<int, 1> n, int k) {
  y[0] = std::min(std::max(y[0], 0.0f), 1.0f);
  n[0] = std::max(k, 3);
}

// CHECK-LABEL: kernel @clamp01 (%0 y: view<f32, 1> rw, %1 n: view<i32, 1> w, %2 k: i32)
// CHECK:         [[Y:%[0-9]+]] = load %0, {{%[0-9]+}} : f32
// CHECK-NEXT:    [[Z:%[0-9]+]] = constant {value = 0.0} : f32
// CHECK-NEXT:    [[MX:%[0-9]+]] = max [[Y]], [[Z]] {nan = "std"} : f32
// CHECK-NEXT:    [[ONE:%[0-9]+]] = constant {value = 1.0} : f32
// CHECK-NEXT:    [[MN:%[0-9]+]] = min [[MX]], [[ONE]] {nan = "std"} : f32
// CHECK:         store %0, [[MN]], {{%[0-9]+}}
// CHECK-NEXT:    [[THREE:%[0-9]+]] = constant {value = 3} : i32
// CHECK-NEXT:    [[MI:%[0-9]+]] = max %2, [[THREE]] {nan = "std"} : i32
