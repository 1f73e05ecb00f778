// A named function, its address and a constexpr pointer to it are combines
// like a lambda: the function is inlined into the combine region
// (combiner = "user"), for reduce and scan alike.
// RUN: %intent_syntax %s -fplugin-arg-intent-dump=kir -fplugin-arg-intent-stop-after=kir | FileCheck %s

#include <intent/intent.hpp>
using namespace intent;

inline int larger(int a, int b) { return a < b ? b : a; }
inline float add_f(float a, float b) { return a + b; }
constexpr int (*largest)(int, int) = &larger;

[[intent::kernel]] void named(view<int, 1> out, view<const int, 1> in) {
  out[0] = reduce(in.extent(0), 0, larger, [&](index i) { return in[i]; });
}

// CHECK-LABEL: kernel @named
// CHECK:         {{%[0-9]+}} = reduce {{%[0-9]+}}, {{%[0-9]+}}, {{%[0-9]+}} {combiner = "user", reassociate = true} : i32
// CHECK:         ^([[A:%[0-9]+]]: i32, [[B:%[0-9]+]]: i32):
// CHECK-NEXT:      [[LT:%[0-9]+]] = cmp [[A]], [[B]] {pred = "lt"} : bool
// CHECK:           yield

[[intent::kernel]] void address(view<int, 1> out, view<const int, 1> in) {
  out[0] = reduce(in.extent(0), 0, &larger, [&](index i) { return in[i]; });
}

// CHECK-LABEL: kernel @address
// CHECK:         reduce {{.*}} {combiner = "user", reassociate = true} : i32
// CHECK:         ^({{%[0-9]+}}: i32, {{%[0-9]+}}: i32):
// CHECK-NEXT:      cmp {{.*}} {pred = "lt"} : bool

[[intent::kernel]] void pointer(view<int, 1> out, view<const int, 1> in) {
  out[0] = reduce(in.extent(0), 0, largest, [&](index i) { return in[i]; });
}

// CHECK-LABEL: kernel @pointer
// CHECK:         reduce {{.*}} {combiner = "user", reassociate = true} : i32
// CHECK:         ^({{%[0-9]+}}: i32, {{%[0-9]+}}: i32):
// CHECK-NEXT:      cmp {{.*}} {pred = "lt"} : bool

[[intent::kernel]] void prefix(view<float, 1> out, view<const float, 1> in) {
  scan(in.extent(0), 0.0f, add_f, [&](index i) { return in[i]; },
       [&](index i, float s) { out[i] = s; });
}

// CHECK-LABEL: kernel @prefix
// CHECK:         scan {{.*}}combiner = "user"
// CHECK:         ^([[X:%[0-9]+]]: f32, [[Y:%[0-9]+]]: f32):
// CHECK-NEXT:      [[S:%[0-9]+]] = add [[X]], [[Y]] : f32
// CHECK-NEXT:      yield [[S]]
