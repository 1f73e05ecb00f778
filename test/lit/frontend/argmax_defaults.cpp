// argmax with the default tie and NaN arguments: tie = "first",
// nan = "propagate", explicit attributes of an argreduce with results
// (value, pos); the arg_result's fields are those two results.
// RUN: %intent_syntax %s -fplugin-arg-intent-dump=kir -fplugin-arg-intent-stop-after=kir | FileCheck %s

#include <intent/intent.hpp>
using namespace intent;

[[intent::kernel]] void best(view<index, 1> pos, view<float, 1> val, view<const float, 1> x) {
  arg_result<float> r = argmax(x.extent(0), [&](index i) { return x[i]; });
  pos[0] = r.pos;
  val[0] = r.value;
}

// CHECK-LABEL: kernel @best
// CHECK:         [[N:%[0-9]+]] = extent %2 {dim = 0} : i64
// CHECK-NEXT:    [[B:%[0-9]+]] = constant {value = 0} : i64
// CHECK-NEXT:    [[V:%[0-9]+]], [[P:%[0-9]+]] = argreduce [[B]], [[N]] {which = "max", tie = "first", nan = "propagate"} : f32, i64
// CHECK-NEXT:    ^([[K:%[0-9]+]]: i64):
// CHECK-NEXT:      [[X:%[0-9]+]] = load %2, [[K]] : f32
// CHECK-NEXT:      yield [[X]]
// CHECK-NEXT:    }
// CHECK-NEXT:    [[Z:%[0-9]+]] = constant {value = 0} : i64
// CHECK-NEXT:    store %0, [[P]], [[Z]]
// CHECK-NEXT:    [[Z2:%[0-9]+]] = constant {value = 0} : i64
// CHECK-NEXT:    store %1, [[V]], [[Z2]]
