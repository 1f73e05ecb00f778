// Structs cross inlined helpers: returned by value (also as a braced list),
// passed by const & (a copy of the leaves), and by non-const & (an alias:
// the helper's member writes update the caller's leaves).
// RUN: %intent_syntax %s -fplugin-arg-intent-dump=kir -fplugin-arg-intent-stop-after=kir | FileCheck %s

#include <intent/intent.hpp>
using namespace intent;

struct Pair {
  float a, b;
};

inline Pair swap(const Pair &p) { return {p.b, p.a}; }
inline void scale(Pair &p, float s) {
  p.a *= s;
  p.b = p.b * s;
}

[[intent::kernel]] void pairs(view<float, 1> y, float u, float v) {
  Pair p = swap(Pair{u, v});
  scale(p, 2.0f);
  y[0] = p.a;
  y[1] = p.b;
}

// CHECK-LABEL: kernel @pairs (%0 y: view<f32, 1> w, %1 u: f32, %2 v: f32)
// CHECK-NEXT:    [[TWO:%[0-9]+]] = constant {value = 2.0} : f32
// CHECK-NEXT:    [[A:%[0-9]+]] = mul %2, [[TWO]] : f32
// CHECK-NEXT:    [[B:%[0-9]+]] = mul %1, [[TWO]] : f32
// CHECK-NEXT:    [[Z:%[0-9]+]] = constant {value = 0} : i64
// CHECK-NEXT:    store %0, [[A]], [[Z]]
// CHECK-NEXT:    [[O:%[0-9]+]] = constant {value = 1} : i64
// CHECK-NEXT:    store %0, [[B]], [[O]]
