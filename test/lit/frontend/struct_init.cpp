// A local struct of scalars is scalar-replaced: one SSA value per leaf in
// field order. Brace init, default member initializers, value init (zero),
// nested structs, member reads and member writes need no op of their own.
// RUN: %intent_syntax %s -fplugin-arg-intent-dump=kir -fplugin-arg-intent-stop-after=kir | FileCheck %s

#include <intent/intent.hpp>
using namespace intent;

struct Inner {
  float x = 2.0f;
  int n;
};
struct Outer {
  Inner in;
  double d;
};

[[intent::kernel]] void fields(view<double, 1> y, float a) {
  Outer o{{a, 3}, 0.5};
  Outer z{};
  z.in.n = o.in.n + 1;
  y[0] = o.in.x + o.d;
  y[1] = z.in.x + z.in.n + z.d;
}

// CHECK-LABEL: kernel @fields (%0 y: view<f64, 1> w, %1 a: f32)
// CHECK-NEXT:    [[THREE:%[0-9]+]] = constant {value = 3} : i32
// CHECK-NEXT:    [[HALF:%[0-9]+]] = constant {value = 0.5} : f64
// CHECK-NEXT:    [[ZX:%[0-9]+]] = constant {value = 2.0} : f32
// CHECK-NEXT:    [[ZN:%[0-9]+]] = constant {value = 0} : i32
// CHECK-NEXT:    [[ZD:%[0-9]+]] = constant {value = 0.0} : f64
// CHECK-NEXT:    [[ONE:%[0-9]+]] = constant {value = 1} : i32
// CHECK-NEXT:    [[N:%[0-9]+]] = add [[THREE]], [[ONE]] : i32
// CHECK-NEXT:    [[AX:%[0-9]+]] = cast %1 : f64
// CHECK-NEXT:    [[S:%[0-9]+]] = add [[AX]], [[HALF]] : f64
// CHECK:         store %0, [[S]], {{%[0-9]+}}
// CHECK-NEXT:    [[NF:%[0-9]+]] = cast [[N]] : f32
// CHECK-NEXT:    [[T:%[0-9]+]] = add [[ZX]], [[NF]] : f32
// CHECK-NEXT:    [[TD:%[0-9]+]] = cast [[T]] : f64
// CHECK-NEXT:    [[V:%[0-9]+]] = add [[TD]], [[ZD]] : f64
// CHECK:         store %0, [[V]], {{%[0-9]+}}
