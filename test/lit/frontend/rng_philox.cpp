// intent::philox: a local generator (seed, stream converted to u64 as the
// constructor does) and a temporary one; each draw is one pure `rng` op.
// RUN: %intent_syntax %s -fplugin-arg-intent-dump=kir -fplugin-arg-intent-stop-after=kir | FileCheck %s

#include <intent/intent.hpp>
#include <cstdint>
using namespace intent;

[[intent::kernel]] void draws(view<float, 1> u, view<std::uint32_t, 1> w, view<float, 1> z, std::uint64_t seed, int s) {
  intent::philox g(seed, s + 1);
  parallel_for(u.extent(0), [&](intent::index i) {
    u[i] = g.uniform(i);
    w[i] = g.u32(2 * i);
    z[i] = intent::philox(seed, i).normal(0);
  });
}

// CHECK-LABEL: kernel @draws (%0 u: view<f32, 1> w, %1 w: view<u32, 1> w, %2 z: view<f32, 1> w, %3 seed: u64, %4 s: i32)
// CHECK:         [[ADD:%[0-9]+]] = add %4, {{%[0-9]+}} : i32
// CHECK-NEXT:    [[STREAM:%[0-9]+]] = cast [[ADD]] : u64
// CHECK:         parallel_for
// CHECK-NEXT:    ^([[I:%[0-9]+]]: i64):
// CHECK-NEXT:      [[C:%[0-9]+]] = cast [[I]] : u64
// CHECK-NEXT:      [[U:%[0-9]+]] = rng %3, [[STREAM]], [[C]] {fn = "uniform"} : f32
// CHECK-NEXT:      store %0, [[U]], [[I]]
// CHECK:           [[W:%[0-9]+]] = rng %3, [[STREAM]], {{%[0-9]+}} {fn = "u32"} : u32
// CHECK-NEXT:      store %1, [[W]]
// CHECK:           [[S2:%[0-9]+]] = cast [[I]] : u64
// CHECK:           [[Z:%[0-9]+]] = rng %3, [[S2]], {{%[0-9]+}} {fn = "normal"} : f32
// CHECK-NEXT:      store %2, [[Z]], [[I]]
