// scan with the default kind and direction: an inclusive forward scan; the
// emit lambda becomes the emit region ^(k, prefix).
// RUN: %intent_syntax %s -fplugin-arg-intent-dump=kir -fplugin-arg-intent-stop-after=kir | FileCheck %s

#include <intent/intent.hpp>
using namespace intent;

[[intent::kernel]] void cumsum(view<int, 1> y, view<const int, 1> x) {
  scan(x.extent(0), 0, ops::plus{}, [&](index i) { return x[i]; },
       [&](index i, int p) { y[i] = p; });
}

// CHECK-LABEL: kernel @cumsum
// CHECK:         scan {{%[0-9]+}}, {{%[0-9]+}}, {{%[0-9]+}} {kind = "inclusive", direction = "forward", combiner = "plus", reassociate = true} loc(9:3) {
// CHECK-NEXT:    ^([[K:%[0-9]+]]: i64):
// CHECK-NEXT:      [[V:%[0-9]+]] = load %1, [[K]] : i32
// CHECK-NEXT:      yield [[V]]
// CHECK-NEXT:    } {
// CHECK-NEXT:    ^([[A:%[0-9]+]]: i32, [[B:%[0-9]+]]: i32):
// CHECK-NEXT:      [[S:%[0-9]+]] = add [[A]], [[B]] : i32
// CHECK-NEXT:      yield [[S]]
// CHECK-NEXT:    } {
// CHECK-NEXT:    ^([[EK:%[0-9]+]]: i64, [[P:%[0-9]+]]: i32):
// CHECK-NEXT:      store %0, [[P]], [[EK]]
// CHECK-NEXT:      yield
// CHECK-NEXT:    }
// CHECK-NEXT:    return
