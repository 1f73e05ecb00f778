// scan_kind::exclusive is recorded as kind = "exclusive" (the first prefix
// emitted is init).
// RUN: %intent_syntax %s -fplugin-arg-intent-dump=kir -fplugin-arg-intent-stop-after=kir | FileCheck %s

#include <intent/intent.hpp>
using namespace intent;

[[intent::kernel]] void offsets(view<index, 1> y, view<const index, 1> x) {
  scan(x.extent(0), index(0), ops::plus{}, [&](index i) { return x[i]; },
       [&](index i, index p) { y[i] = p; }, scan_kind::exclusive);
}

// CHECK-LABEL: kernel @offsets
// CHECK:         scan {{%[0-9]+}}, {{%[0-9]+}}, {{%[0-9]+}} {kind = "exclusive", direction = "forward", combiner = "plus", reassociate = true}
// CHECK:         ^([[A:%[0-9]+]]: i64, [[B:%[0-9]+]]: i64):
// CHECK-NEXT:      {{%[0-9]+}} = add [[A]], [[B]] : i64
// CHECK:         ^([[K:%[0-9]+]]: i64, [[P:%[0-9]+]]: i64):
// CHECK-NEXT:      store %0, [[P]], [[K]]
