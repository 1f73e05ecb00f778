// Integer bitwise and shift ops; shift amounts are cast to the result type.
// RUN: %intent_syntax %s -fplugin-arg-intent-dump=kir | FileCheck %s

#include <intent/intent.hpp>
using namespace intent;

[[intent::kernel]] void bits(view<unsigned, 1> u, view<long, 1> l, unsigned a, int s) {
  u[0] = (a & 0xFFu) | (a ^ 3u) | ~a;
  l[0] = (long)a << s;
  l[1] = -l[0] % 5 + !a;
}

// CHECK-LABEL: kernel @bits (%0 u: view<u32, 1> w, %1 l: view<i64, 1> rw, %2 a: u32, %3 s: i32)
// CHECK-NEXT:    [[M:%[0-9]+]] = constant {value = 255} : u32
// CHECK-NEXT:    [[AND:%[0-9]+]] = bitand %2, [[M]] : u32
// CHECK-NEXT:    [[THREE:%[0-9]+]] = constant {value = 3} : u32
// CHECK-NEXT:    [[XOR:%[0-9]+]] = bitxor %2, [[THREE]] : u32
// CHECK-NEXT:    [[OR:%[0-9]+]] = bitor [[AND]], [[XOR]] : u32
// CHECK-NEXT:    [[NOT:%[0-9]+]] = bitnot %2 : u32
// CHECK-NEXT:    {{%[0-9]+}} = bitor [[OR]], [[NOT]] : u32
// (long)a << s: the shift amount is cast to the shifted type
// CHECK:         [[AL:%[0-9]+]] = cast %2 : i64
// CHECK-NEXT:    [[SL:%[0-9]+]] = cast %3 : i64
// CHECK-NEXT:    {{%[0-9]+}} = shl [[AL]], [[SL]] : i64
// -l[0] % 5 + !a
// CHECK:         [[NEG:%[0-9]+]] = neg {{%[0-9]+}} : i64
// CHECK-NEXT:    [[FIVE:%[0-9]+]] = constant {value = 5} : i64
// CHECK-NEXT:    [[REM:%[0-9]+]] = rem [[NEG]], [[FIVE]] : i64
// CHECK-NEXT:    [[AB:%[0-9]+]] = cast %2 : bool
// CHECK-NEXT:    [[LN:%[0-9]+]] = not [[AB]] : bool
// CHECK-NEXT:    [[LNI:%[0-9]+]] = cast [[LN]] : i64
// CHECK-NEXT:    {{%[0-9]+}} = add [[REM]], [[LNI]] : i64
