// Explicit casts and mixed arithmetic follow the AST's conversions.
// RUN: %intent_syntax %s -fplugin-arg-intent-dump=kir | FileCheck %s

#include <intent/intent.hpp>
using namespace intent;

[[intent::kernel]] void conv(view<float, 1> f, view<int, 1> i, unsigned u, double d, long l) {
  f[0] = static_cast<float>(d) + (float)l;
  i[0] = int(d) + (u > 3u);
  i[1] = u >> 2;
}

// CHECK-LABEL: kernel @conv (%0 f: view<f32, 1> w, %1 i: view<i32, 1> w, %2 u: u32, %3 d: f64, %4 l: i64)
// CHECK-NEXT:    [[DF:%[0-9]+]] = cast %3 : f32
// CHECK-NEXT:    [[LF:%[0-9]+]] = cast %4 : f32
// CHECK-NEXT:    [[SUM:%[0-9]+]] = add [[DF]], [[LF]] : f32
// CHECK:         [[DI:%[0-9]+]] = cast %3 : i32
// CHECK-NEXT:    [[THREE:%[0-9]+]] = constant {value = 3} : u32
// CHECK-NEXT:    [[GT:%[0-9]+]] = cmp %2, [[THREE]] {pred = "gt"} : bool
// CHECK-NEXT:    [[GI:%[0-9]+]] = cast [[GT]] : i32
// CHECK-NEXT:    {{%[0-9]+}} = add [[DI]], [[GI]] : i32
// u >> 2 is unsigned (logical) and then converted to int
// CHECK:         [[SH:%[0-9]+]] = shr %2, {{%[0-9]+}} : u32
// CHECK-NEXT:    {{%[0-9]+}} = cast [[SH]] : i32
