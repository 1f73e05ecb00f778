// A view chosen by ?: is an if with a view result; stores through it count as
// writes of both candidate parameters. Construction does not map such views
// yet: after the KIR dump, that is an error at the view's use.
// RUN: not %intent_syntax %s -fplugin-arg-intent-dump=kir 2>&1 | FileCheck %s

#include <intent/intent.hpp>
using namespace intent;

[[intent::kernel]] void pick(view<float, 1> a, view<float, 1> b, bool first) {
  auto t = first ? a : b;
  parallel_for(t.extent(0), [&](index i) { t[i] = 0.0f; });
}

// CHECK-LABEL: kernel @pick (%0 a: view<f32, 1> w, %1 b: view<f32, 1> w, %2 first: bool)
// CHECK-NEXT:    [[T:%[0-9]+]] = if %2 : view<f32, 1>
// CHECK-NEXT:      yield %0
// CHECK-NEXT:    } {
// CHECK-NEXT:      yield %1
// CHECK-NEXT:    }
// CHECK-NEXT:    [[N:%[0-9]+]] = extent [[T]] {dim = 0} : i64
// CHECK-NEXT:    parallel_for [[N]]
// CHECK-NEXT:    ^([[I:%[0-9]+]]: i64):
// CHECK-NEXT:      [[Z:%[0-9]+]] = constant {value = 0.0} : f32
// CHECK-NEXT:      store [[T]], [[Z]], [[I]]
// CHECK: view_select.cpp:{{[0-9]+}}:{{[0-9]+}}: error: view %{{[0-9]+}} is produced by 'if' (a view chosen at run time), which construction does not support yet
