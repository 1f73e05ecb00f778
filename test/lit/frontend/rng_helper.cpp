// A generator passed to a helper (const &) or copied is the same generator.
// RUN: %intent_syntax %s -fplugin-arg-intent-dump=kir -fplugin-arg-intent-stop-after=kir | FileCheck %s

#include <intent/intent.hpp>
using namespace intent;

static float draw(const philox &g, intent::index i) { return g.uniform(i) * 2.0f; }

[[intent::kernel]] void k(view<float, 1> out, unsigned seed) {
  philox a(seed, 5);
  philox b = a;
  parallel_for(out.extent(0), [&](intent::index i) { out[i] = draw(b, i); });
}

// CHECK-LABEL: kernel @k
// CHECK:         [[SEED:%[0-9]+]] = cast %1 : u64
// CHECK-NEXT:    [[FIVE:%[0-9]+]] = constant {value = 5} : u64
// CHECK:         rng [[SEED]], [[FIVE]], {{%[0-9]+}} {fn = "uniform"} : f32
