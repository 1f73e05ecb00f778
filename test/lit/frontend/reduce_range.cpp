// reduce over range{b, e}: the op's begin and end are b and e themselves
// (an empty or reversed range folds nothing).
// RUN: %intent_syntax %s -fplugin-arg-intent-dump=kir -fplugin-arg-intent-stop-after=kir | FileCheck %s

#include <intent/intent.hpp>
using namespace intent;

[[intent::kernel]] void partial(view<double, 1> out, view<const double, 1> in, index b, index e) {
  out[0] = reduce(range{b, e}, 1.0, ops::mul{}, [&](index i) { return in[i]; });
}

// CHECK-LABEL: kernel @partial (%0 out: view<f64, 1> w, %1 in: view<const f64, 1> r, %2 b: i64, %3 e: i64)
// CHECK-NEXT:    [[I:%[0-9]+]] = constant {value = 1.0} : f64
// CHECK-NEXT:    [[R:%[0-9]+]] = reduce %2, %3, [[I]] {combiner = "mul", reassociate = true} : f64
// CHECK-NEXT:    ^([[K:%[0-9]+]]: i64):
// CHECK-NEXT:      [[V:%[0-9]+]] = load %1, [[K]] : f64
// CHECK-NEXT:      yield [[V]]
// CHECK-NEXT:    } {
// CHECK-NEXT:    ^([[A:%[0-9]+]]: f64, [[B:%[0-9]+]]: f64):
// CHECK-NEXT:      [[M:%[0-9]+]] = mul [[A]], [[B]] : f64
// CHECK-NEXT:      yield [[M]]
// CHECK-NEXT:    }
