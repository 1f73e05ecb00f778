// A kernel template: each instantiation is a kernel, ordered by template arguments.
// RUN: %intent_syntax %s -fplugin-arg-intent-dump=kir | FileCheck %s

#include <intent/intent.hpp>
using namespace intent;

template <class T> [[intent::kernel]] void scale(view<T, 1> v, T a) {
  parallel_for(v.extent(0), [&](index i) { v[i] = v[i] * a; });
}

template void scale<int>(view<int, 1>, int);
template void scale<float>(view<float, 1>, float);

// Ordered by source location, then by the template arguments' text.
// CHECK-LABEL: kernel @scale "scale<float>" (%0 v: view<f32, 1> rw, %1 a: f32)
// CHECK:           [[V:%[0-9]+]] = load %0, [[I:%[0-9]+]] : f32
// CHECK-NEXT:      [[M:%[0-9]+]] = mul [[V]], %1 : f32
// CHECK-NEXT:      store %0, [[M]], [[I]]
// CHECK-LABEL: kernel @scale "scale<int>" (%0 v: view<i32, 1> rw, %1 a: i32)
// CHECK:           [[V:%[0-9]+]] = load %0, [[I:%[0-9]+]] : i32
// CHECK-NEXT:      [[M:%[0-9]+]] = mul [[V]], %1 : i32
// CHECK-NEXT:      store %0, [[M]], [[I]]
// CHECK-NOT:   kernel @
