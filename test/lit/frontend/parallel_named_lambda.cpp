// A lambda stored in a local (and a generic one) can be passed by name.
// RUN: %intent_syntax %s -fplugin-arg-intent-dump=kir | FileCheck %s

#include <intent/intent.hpp>
using namespace intent;

[[intent::kernel]] void named(view<float, 1> y) {
  auto body = [&](auto i) { y[i] = 1.0f; };
  parallel_for(y.extent(0), body);
}

// CHECK-LABEL: kernel @named (%0 y: view<f32, 1> w)
// CHECK-NEXT:    [[N:%[0-9]+]] = extent %0 {dim = 0} : i64
// CHECK-NEXT:    parallel_for [[N]]
// CHECK-NEXT:    ^([[I:%[0-9]+]]: i64):
// CHECK-NEXT:      [[ONE:%[0-9]+]] = constant {value = 1.0} : f32
// CHECK-NEXT:      store %0, [[ONE]], [[I]]
// CHECK-NEXT:      yield
