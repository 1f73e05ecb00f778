// View access modes come from the loads and stores reached through each view, also via sub-views.
// RUN: %intent_syntax %s -fplugin-arg-intent-dump=kir | FileCheck %s

#include <intent/intent.hpp>
using namespace intent;

[[intent::kernel]] void modes(view<float, 2> rw, view<float, 1> w, view<const float, 1> r, view<float, 1> unused, view<float, 2> viaRow) {
  parallel_for(w.extent(0), [&](index i) {
    w[i] = r[i];
    rw(i, 0) += 1.0f;
    viaRow.row(i)[0] = 2.0f;
  });
}

// rw: loaded and stored; w: stored; r: loaded; none: unused; a view written
// only through a row sub-view is w.
// CHECK-LABEL: kernel @modes (%0 rw: view<f32, 2> rw, %1 w: view<f32, 1> w, %2 r: view<const f32, 1> r, %3 unused: view<f32, 1> none, %4 viaRow: view<f32, 2> w)
// CHECK:         [[ROW:%[0-9]+]] = subview %4, {{%[0-9]+}} {kind = "row"} : view<f32, 1>
// CHECK:         store [[ROW]], {{%[0-9]+}}, {{%[0-9]+}}
