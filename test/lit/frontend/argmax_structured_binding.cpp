// `auto [v, p] = argmax(...)` binds the two leaves of the arg_result; a
// member of a call result (`argmin(...).value`) reads one leaf.
// RUN: %intent_syntax %s -fplugin-arg-intent-dump=kir -fplugin-arg-intent-stop-after=kir | FileCheck %s

#include <intent/intent.hpp>
using namespace intent;

[[intent::kernel]] void spread(view<double, 1> y, view<const float, 1> x) {
  auto [v, p] = argmax(x.extent(0), [&](index i) { return x[i]; });
  y[0] = v - argmin(x.extent(0), [&](index i) { return x[i]; }).value;
  y[1] = p;
}

// CHECK-LABEL: kernel @spread
// CHECK:         [[V:%[0-9]+]], [[P:%[0-9]+]] = argreduce {{.*}} {which = "max", tie = "first", nan = "propagate"} : f32, i64
// CHECK:         [[W:%[0-9]+]], {{%[0-9]+}} = argreduce {{.*}} {which = "min", tie = "first", nan = "propagate"} : f32, i64
// CHECK:         [[D:%[0-9]+]] = sub [[V]], [[W]] : f32
// CHECK:         [[PD:%[0-9]+]] = cast [[P]] : f64
// CHECK-NEXT:    [[ONE:%[0-9]+]] = constant {value = 1} : i64
// CHECK-NEXT:    store %0, [[PD]], [[ONE]]
