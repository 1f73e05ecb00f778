// Two independent parallel_fors with different extents stay two ops in order.
// RUN: %intent_syntax %s -fplugin-arg-intent-dump=kir | FileCheck %s

#include <intent/intent.hpp>
using namespace intent;

[[intent::kernel]] void two(view<float, 1> a, view<float, 2> m) {
  parallel_for(a.extent(0), [&](index i) { a[i] = 1.0f; });
  parallel_for(m.extent(0), m.extent(1), [&](index i, index j) { m(i, j) = 2.0f; });
}

// CHECK-LABEL: kernel @two (%0 a: view<f32, 1> w, %1 m: view<f32, 2> w)
// CHECK-NEXT:    [[NA:%[0-9]+]] = extent %0 {dim = 0} : i64
// CHECK-NEXT:    parallel_for [[NA]]
// CHECK-NEXT:    ^([[I:%[0-9]+]]: i64):
// CHECK:           store %0, {{%[0-9]+}}, [[I]]
// CHECK-NEXT:      yield
// CHECK-NEXT:    }
// CHECK-NEXT:    [[M0:%[0-9]+]] = extent %1 {dim = 0} : i64
// CHECK-NEXT:    [[M1:%[0-9]+]] = extent %1 {dim = 1} : i64
// CHECK-NEXT:    parallel_for [[M0]], [[M1]]
// CHECK-NEXT:    ^([[P:%[0-9]+]]: i64, [[Q:%[0-9]+]]: i64):
// CHECK:           store %1, {{%[0-9]+}}, [[P]], [[Q]]
// CHECK-NEXT:      yield
// CHECK-NEXT:    }
// CHECK-NEXT:    return
