// intent::atomic_* become `atomic` {kind, order} / `atomic_cas` {order} on
// the element's (view, coordinates), through sub-views too; cas_result's two
// fields are the two results of atomic_cas. histogram becomes a parallel_for
// over the samples whose body adds 1 atomically to the in-range bin.
// RUN: %intent_syntax %s -fplugin-arg-intent-dump=kir -fplugin-arg-intent-stop-after=kir | FileCheck %s

#include <intent/intent.hpp>
using namespace intent;

[[intent::kernel]] void ops_(view<float, 2> m, view<int, 1> c, view<const float, 1> in) {
  parallel_for(in.extent(0), [&](index i) {
    float old = atomic_add(m(1, i), in[i]);
    atomic_min(m.row(0)[i], old, memory_order::acquire);
    cas_result<int> r = atomic_cas(c[0], 0, 1, memory_order::seq_cst);
    if (r.success)
      atomic_exch(c[1], r.old);
  });
}

[[intent::kernel]] void hist(view<unsigned, 1> bins, view<const int, 1> in) {
  histogram(bins, range{1, in.extent(0)}, [&](index i) { return in[i] - 1; });
}

// CHECK-LABEL: kernel @ops_ (%0 m: view<f32, 2> rw, %1 c: view<i32, 1> rw, %2 in: view<const f32, 1> r)
// CHECK:         [[ONE:%[0-9]+]] = constant {value = 1} : i64
// CHECK-NEXT:    [[X:%[0-9]+]] = load %2, [[I:%[0-9]+]] : f32
// CHECK-NEXT:    [[OLD:%[0-9]+]] = atomic %0, [[X]], [[ONE]], [[I]] {kind = "add", order = "relaxed"} : f32
// CHECK:         [[ROW:%[0-9]+]] = subview %0, {{%[0-9]+}} {kind = "row"} : view<f32, 1>
// CHECK-NEXT:    atomic [[ROW]], [[OLD]], [[I]] {kind = "min", order = "acquire"} : f32
// CHECK:         [[COLD:%[0-9]+]], [[OK:%[0-9]+]] = atomic_cas %1, {{%[0-9]+}}, {{%[0-9]+}}, {{%[0-9]+}} {order = "seq_cst"} : i32, bool
// CHECK-NEXT:    if [[OK]]
// CHECK:           atomic %1, [[COLD]], {{%[0-9]+}} {kind = "exch", order = "relaxed"} : i32

// CHECK-LABEL: kernel @hist (%0 bins: view<u32, 1> rw, %1 in: view<const i32, 1> r)
// CHECK:         [[N:%[0-9]+]] = max {{%[0-9]+}}, {{%[0-9]+}} {nan = "std"} : i64
// CHECK-NEXT:    parallel_for [[N]]
// CHECK-NEXT:    ^([[K:%[0-9]+]]: i64):
// CHECK-NEXT:      [[S:%[0-9]+]] = add [[K]], {{%[0-9]+}} : i64
// CHECK:           [[B:%[0-9]+]] = cast {{%[0-9]+}} : i64
// CHECK-NEXT:      [[E:%[0-9]+]] = extent %0 {dim = 0} : i64
// CHECK:           [[LO:%[0-9]+]] = cmp [[B]], {{%[0-9]+}} {pred = "ge"} : bool
// CHECK-NEXT:      [[HI:%[0-9]+]] = cmp [[B]], [[E]] {pred = "lt"} : bool
// CHECK:           [[IN:%[0-9]+]] = select [[LO]], [[HI]], {{%[0-9]+}} : bool
// CHECK-NEXT:      if [[IN]]
// CHECK-NEXT:        [[C1:%[0-9]+]] = constant {value = 1} : u32
// CHECK-NEXT:        atomic %0, [[C1]], [[B]] {kind = "add", order = "relaxed"} : u32
