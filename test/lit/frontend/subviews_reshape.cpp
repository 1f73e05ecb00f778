// reshape, broadcast and expand become subview ops with their attributes.
// RUN: %intent_syntax %s -fplugin-arg-intent-dump=kir | FileCheck %s

#include <intent/intent.hpp>
using namespace intent;

[[intent::kernel]] void shapes(view<float, 1> a, view<const float, 1> bias, index m) {
  auto a2 = a.reshape<2>({2, a.extent(0) / 2});
  a2(1, 0) = bias.broadcast(0, m)(0, 1) + bias.expand(0, m)[1];
}

// CHECK-LABEL: kernel @shapes (%0 a: view<f32, 1> w, %1 bias: view<const f32, 1> r, %2 m: i64)
// CHECK-NEXT:    [[TWO:%[0-9]+]] = constant {value = 2} : i64
// CHECK-NEXT:    [[N:%[0-9]+]] = extent %0 {dim = 0} : i64
// CHECK-NEXT:    [[TWO2:%[0-9]+]] = constant {value = 2} : i64
// CHECK-NEXT:    [[H:%[0-9]+]] = div [[N]], [[TWO2]] : i64
// CHECK-NEXT:    [[A2:%[0-9]+]] = subview %0, [[TWO]], [[H]] {kind = "reshape", rank = 2} : view<f32, 2>
// CHECK-NEXT:    [[BC:%[0-9]+]] = subview %1, %2 {kind = "broadcast", dim = 0} : view<const f32, 2>
// CHECK:         {{%[0-9]+}} = load [[BC]], {{%[0-9]+}}, {{%[0-9]+}} : f32
// CHECK-NEXT:    [[EX:%[0-9]+]] = subview %1, %2 {kind = "expand", dim = 0} : view<const f32, 1>
// CHECK:         {{%[0-9]+}} = load [[EX]], {{%[0-9]+}} : f32
// CHECK:         store [[A2]], {{%[0-9]+}}, {{%[0-9]+}}, {{%[0-9]+}}
