// intent::buffer becomes one `alloc` per declaration (a rank-1 memory value),
// b[i] a load/store through it, b.size() the constant N; a helper taking a
// buffer by reference works on the caller's allocation.
// RUN: %intent_syntax %s -fplugin-arg-intent-dump=kir -fplugin-arg-intent-stop-after=kir | FileCheck %s

#include <intent/intent.hpp>
using namespace intent;

static void fill(buffer<int, 3> &b, int v) {
  for (index k = 0; k < b.size(); ++k)
    b[k] = v;
}

[[intent::kernel]] void k(view<float, 1> y, view<const float, 1> x) {
  buffer<float, 16> shared(0.0f);
  parallel_for(y.extent(0), [&](index i) {
    buffer<int, 3> w;
    fill(w, 2);
    buffer<bool, 2> flags(true);
    shared[i] = x[i];
    y[i] = shared[i] + static_cast<float>(w[1]) + (flags[0] ? 1.0f : 0.0f);
  });
}

// CHECK-LABEL: kernel @k
// CHECK: [[S:%[0-9]+]] = alloc {size = 16, init = "value", value = 0.0} : view<f32, 1>
// CHECK: parallel_for
// CHECK: [[W:%[0-9]+]] = alloc {size = 3, init = "first_write"} : view<i32, 1>
// CHECK: loop
// CHECK: constant {value = 3} : i64
// CHECK: store [[W]], %{{[0-9]+}}, %{{[0-9]+}}
// CHECK: [[F:%[0-9]+]] = alloc {size = 2, init = "value", value = 1} : view<bool, 1>
// CHECK: store [[S]], %{{[0-9]+}}, %{{[0-9]+}}
// CHECK: load [[S]], %{{[0-9]+}} : f32
// CHECK: load [[W]], %{{[0-9]+}} : i32
// CHECK: load [[F]], %{{[0-9]+}} : bool
