// A user combine lambda is lowered into the combine region like any inlined
// lambda (here std::max, a `max {nan = "std"}`); combiner = "user", and it is
// reassociable: an associative combine is the user's contract.
// RUN: %intent_syntax %s -fplugin-arg-intent-dump=kir -fplugin-arg-intent-stop-after=kir | FileCheck %s

#include <intent/intent.hpp>
using namespace intent;

#include <algorithm>

[[intent::kernel]] void absmax(view<int, 1> out, view<const int, 1> in) {
  auto larger = [](int a, int b) { return std::max(a, b); };
  out[0] = reduce(in.extent(0), 0, larger, [&](index i) { return std::abs(in[i]); });
}

// CHECK-LABEL: kernel @absmax
// CHECK:         {{%[0-9]+}} = reduce {{%[0-9]+}}, {{%[0-9]+}}, {{%[0-9]+}} {combiner = "user", reassociate = true} : i32
// CHECK-NEXT:    ^([[K:%[0-9]+]]: i64):
// CHECK-NEXT:      [[V:%[0-9]+]] = load %1, [[K]] : i32
// CHECK-NEXT:      [[ABS:%[0-9]+]] = math [[V]] {fn = "abs"} : i32
// CHECK-NEXT:      yield [[ABS]]
// CHECK-NEXT:    } {
// CHECK-NEXT:    ^([[A:%[0-9]+]]: i32, [[B:%[0-9]+]]: i32):
// CHECK-NEXT:      [[M:%[0-9]+]] = max [[A]], [[B]] {nan = "std"} : i32
// CHECK-NEXT:      yield [[M]]
// CHECK-NEXT:    }
