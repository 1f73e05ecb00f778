// intent::ordered(op) records reassociate = false on the KIR op and the
// physical structured op (built-in and user combines alike); the bare
// combines stay reassociate = true.
// RUN: %intent_syntax %s -fplugin-arg-intent-dump=kir -fplugin-arg-intent-stop-after=kir | FileCheck %s --check-prefix=KIR
// RUN: %intent_syntax %s -fplugin-arg-intent-dump=phys | FileCheck %s --check-prefix=PHYS

#include <intent/intent.hpp>
using namespace intent;

[[intent::kernel]] void k(view<float, 1> out, view<float, 1> pre,
                          view<const float, 1> x, view<const int, 1> off) {
  out[0] = reduce(x.extent(0), 0.0f, ordered(ops::plus{}),
                  [&](index i) { return x[i]; });
  out[1] = reduce(x.extent(0), 0.0f, ops::plus{},
                  [&](index i) { return x[i]; });
  out[2] = reduce(x.extent(0), 1.0f,
                  ordered([](float a, float b) { return a * 0.5f + b; }),
                  [&](index i) { return x[i]; });
  scan(x.extent(0), 0.0f, ordered(ops::max{}), [&](index i) { return x[i]; },
       [&](index i, float p) { pre[i] = p; });
}

[[intent::kernel]] void regions(view<float, 1> tot, view<float, 1> pre,
                                view<const float, 1> x,
                                view<const int, 1> off) {
  region_fold(off, 0.0f, ordered(ops::plus{}), [&](index k) { return x[k]; },
              [&](index r, float t) { tot[r] = t; });
  region_scan(off, 0.0f, ordered(ops::plus{}), [&](index k) { return x[k]; },
              [&](index k, float p) { pre[k] = p; });
}

// KIR-LABEL: kernel @k
// KIR: reduce {{.*}} {combiner = "plus", reassociate = false} : f32
// KIR: reduce {{.*}} {combiner = "plus", reassociate = true} : f32
// KIR: reduce {{.*}} {combiner = "user", reassociate = false} : f32
// KIR: scan {{.*}} {kind = "inclusive", direction = "forward", combiner = "max", reassociate = false}
// KIR-LABEL: kernel @regions
// KIR: region_fold {{.*}} {combiner = "plus", reassociate = false}
// KIR: region_scan {{.*}} {kind = "inclusive", direction = "forward", combiner = "plus", reassociate = false}

// PHYS-LABEL: program @k
// PHYS: reduce {{.*}} {combiner = "plus", reassociate = false} : f32 acc(f32 = -0.0)
// PHYS: reduce {{.*}} {combiner = "plus", reassociate = true} : f32 acc(f32 = -0.0)
// PHYS: reduce {{.*}} {combiner = "user", reassociate = false} : f32 acc(f32 = init)
// PHYS: scan {{.*}} {kind = "inclusive", direction = "forward", combiner = "max", reassociate = false} acc(f32 = -inf)
// PHYS-LABEL: program @regions
// PHYS: region_fold {{.*}} {combiner = "plus", reassociate = false}
// PHYS: region_scan {{.*}} {kind = "inclusive", direction = "forward", combiner = "plus", reassociate = false} acc(f32 = -0.0)
