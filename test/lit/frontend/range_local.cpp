// An intent::range is a struct of two indices: it can be a local, and
// parallel_for and reduce take its leaves as their bounds.
// RUN: %intent_syntax %s -fplugin-arg-intent-dump=kir -fplugin-arg-intent-stop-after=kir | FileCheck %s

#include <intent/intent.hpp>
using namespace intent;

[[intent::kernel]] void window(view<float, 1> y, view<const float, 1> x, index b, index e) {
  range r{b + 1, e};
  parallel_for(r, [&](index i) { y[i] = 0.0f; });
  y[0] = reduce(r, 0.0f, ops::plus{}, [&](index i) { return x[i]; });
}

// CHECK-LABEL: kernel @window
// CHECK-NEXT:    [[ONE:%[0-9]+]] = constant {value = 1} : i64
// CHECK-NEXT:    [[LO:%[0-9]+]] = add %2, [[ONE]] : i64
// CHECK-NEXT:    [[D:%[0-9]+]] = sub %3, [[LO]] : i64
// CHECK-NEXT:    [[Z:%[0-9]+]] = constant {value = 0} : i64
// CHECK-NEXT:    [[N:%[0-9]+]] = max [[D]], [[Z]] {nan = "std"} : i64
// CHECK-NEXT:    parallel_for [[N]]
// CHECK:         {{%[0-9]+}} = reduce [[LO]], %3, {{%[0-9]+}} {combiner = "plus", reassociate = true} : f32
