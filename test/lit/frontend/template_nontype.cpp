// A non-type template parameter becomes a constant.
// RUN: %intent_syntax %s -fplugin-arg-intent-dump=kir | FileCheck %s

#include <intent/intent.hpp>
using namespace intent;

template <int N> [[intent::kernel]] void addn(view<int, 1> v) {
  parallel_for(v.extent(0), [&](index i) { v[i] += N; });
}

template void addn<3>(view<int, 1>);

// CHECK-LABEL: kernel @addn "addn<3>" (%0 v: view<i32, 1> rw)
// CHECK:         [[N:%[0-9]+]] = constant {value = 3} : i32
// CHECK-NEXT:    [[V:%[0-9]+]] = load %0, [[I:%[0-9]+]] : i32
// CHECK-NEXT:    [[S:%[0-9]+]] = add [[V]], [[N]] : i32
// CHECK-NEXT:    store %0, [[S]], [[I]]
