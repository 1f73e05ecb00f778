// Struct leaves flow through control like scalars: an `if` that assigns a
// member yields that leaf, `c ? s1 : s2` is an `if` with one result per leaf,
// and a loop carries the leaves it assigns.
// RUN: %intent_syntax %s -fplugin-arg-intent-dump=kir -fplugin-arg-intent-stop-after=kir | FileCheck %s

#include <intent/intent.hpp>
using namespace intent;

struct Pair {
  int a, b;
};

[[intent::kernel]] void control(view<int, 1> y, int n, bool c) {
  Pair p{1, 2};
  Pair q{3, 4};
  if (c)
    p.b = n;
  Pair r = c ? p : q;
  for (int i = 0; i < n; ++i)
    r.a += i;
  y[0] = r.a + r.b;
}

// CHECK-LABEL: kernel @control (%0 y: view<i32, 1> w, %1 n: i32, %2 c: bool)
// CHECK:         [[PB:%[0-9]+]] = if %2 : i32
// CHECK-NEXT:      yield %1
// CHECK-NEXT:    } {
// CHECK-NEXT:      yield {{%[0-9]+}}
// CHECK-NEXT:    }
// CHECK-NEXT:    [[RA:%[0-9]+]], [[RB:%[0-9]+]] = if %2 : i32, i32
// CHECK-NEXT:      yield {{%[0-9]+}}, [[PB]]
// CHECK-NEXT:    } {
// CHECK-NEXT:      yield {{%[0-9]+}}, {{%[0-9]+}}
// CHECK-NEXT:    }
// CHECK:         [[LA:%[0-9]+]], {{%[0-9]+}} = loop [[RA]], {{%[0-9]+}} {test_first = true} : i32, i32
// CHECK:         [[SUM:%[0-9]+]] = add [[LA]], [[RB]] : i32
