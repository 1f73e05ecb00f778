// <cmath> calls become math ops named by the double-precision C function.
// RUN: %intent_syntax %s -fplugin-arg-intent-dump=kir | FileCheck %s

#include <intent/intent.hpp>
using namespace intent;

#include <cmath>

[[intent::kernel]] void maths(view<float, 1> y, view<double, 1> d, view<bool, 1> b, float x, double z) {
  y[0] = expf(x) + std::exp(x) + sqrtf(x) + std::abs(x) + std::pow(x, 2.0f);
  d[0] = sqrt(z) + fabs(z) + log(z) + tanh(z) + floor(z) + fmax(z, 1.0);
  b[0] = std::isnan(x);
}

// CHECK-LABEL: kernel @maths (%0 y: view<f32, 1> w, %1 d: view<f64, 1> w, %2 b: view<bool, 1> w, %3 x: f32, %4 z: f64)
// expf, std::exp, sqrtf, std::abs and std::pow on float stay f32
// CHECK-NEXT:    {{%[0-9]+}} = math %3 {fn = "exp"} : f32
// CHECK-NEXT:    {{%[0-9]+}} = math %3 {fn = "exp"} : f32
// CHECK:         {{%[0-9]+}} = math %3 {fn = "sqrt"} : f32
// CHECK:         {{%[0-9]+}} = math %3 {fn = "fabs"} : f32
// CHECK:         [[TWO:%[0-9]+]] = constant {value = 2.0} : f32
// CHECK-NEXT:    {{%[0-9]+}} = math %3, [[TWO]] {fn = "pow"} : f32
// CHECK:         {{%[0-9]+}} = math %4 {fn = "sqrt"} : f64
// CHECK-NEXT:    {{%[0-9]+}} = math %4 {fn = "fabs"} : f64
// CHECK:         {{%[0-9]+}} = math %4 {fn = "log"} : f64
// CHECK:         {{%[0-9]+}} = math %4 {fn = "tanh"} : f64
// CHECK:         {{%[0-9]+}} = math %4 {fn = "floor"} : f64
// CHECK:         {{%[0-9]+}} = math %4, {{%[0-9]+}} {fn = "fmax"} : f64
// CHECK:         [[NAN:%[0-9]+]] = math %3 {fn = "isnan"} : bool
// CHECK-NEXT:    [[Z:%[0-9]+]] = constant {value = 0} : i64
// CHECK-NEXT:    store %2, [[NAN]], [[Z]]
