// A struct accumulator is flattened into one component per field: Welford's
// {count, mean, m2} makes a 3-component reduce. The combine region takes
// (a.count, a.mean, a.m2, b.count, b.mean, b.m2) and yields the merged
// fields; the early return of the helper becomes an `if` with 3 results.
// RUN: %intent_syntax %s -fplugin-arg-intent-dump=kir -fplugin-arg-intent-stop-after=kir | FileCheck %s

#include <intent/intent.hpp>
using namespace intent;

struct Welford {
  float count, mean, m2;
};

inline Welford merge(const Welford &a, const Welford &b) {
  float n = a.count + b.count;
  if (n == 0.0f)
    return a;
  float d = b.mean - a.mean;
  return {n, a.mean + d * b.count / n, a.m2 + b.m2 + d * d * a.count * b.count / n};
}

[[intent::kernel]] void meanvar(view<float, 1> out, view<const float, 1> x) {
  Welford w = reduce(x.extent(0), Welford{0.0f, 0.0f, 0.0f},
                     [](const Welford &a, const Welford &b) { return merge(a, b); },
                     [&](index i) { return Welford{1.0f, x[i], 0.0f}; });
  out[0] = w.mean;
  out[1] = w.m2 / w.count;
}

// CHECK-LABEL: kernel @meanvar
// CHECK:         [[C:%[0-9]+]], [[M:%[0-9]+]], [[Q:%[0-9]+]] = reduce {{%[0-9]+}}, {{%[0-9]+}}, {{%[0-9]+}}, {{%[0-9]+}}, {{%[0-9]+}} {combiner = "user", reassociate = true} : f32, f32, f32
// CHECK-NEXT:    ^([[K:%[0-9]+]]: i64):
// CHECK-NEXT:      [[ONE:%[0-9]+]] = constant {value = 1.0} : f32
// CHECK-NEXT:      [[X:%[0-9]+]] = load %1, [[K]] : f32
// CHECK-NEXT:      [[ZERO:%[0-9]+]] = constant {value = 0.0} : f32
// CHECK-NEXT:      yield [[ONE]], [[X]], [[ZERO]]
// CHECK-NEXT:    } {
// CHECK-NEXT:    ^([[AC:%[0-9]+]]: f32, [[AM:%[0-9]+]]: f32, [[AQ:%[0-9]+]]: f32, [[BC:%[0-9]+]]: f32, [[BM:%[0-9]+]]: f32, [[BQ:%[0-9]+]]: f32):
// CHECK-NEXT:      [[N:%[0-9]+]] = add [[AC]], [[BC]] : f32
// CHECK:           [[R0:%[0-9]+]], [[R1:%[0-9]+]], [[R2:%[0-9]+]] = if {{%[0-9]+}} : f32, f32, f32
// CHECK-NEXT:        yield [[AC]], [[AM]], [[AQ]]
// CHECK-NEXT:      } {
// CHECK-NEXT:        [[D:%[0-9]+]] = sub [[BM]], [[AM]] : f32
// CHECK:             yield [[N]], {{%[0-9]+}}, {{%[0-9]+}}
// CHECK-NEXT:      }
// CHECK-NEXT:      yield [[R0]], [[R1]], [[R2]]
// CHECK-NEXT:    }
// CHECK-NEXT:    [[Z:%[0-9]+]] = constant {value = 0} : i64
// CHECK-NEXT:    store %0, [[M]], [[Z]]
// CHECK-NEXT:    [[VAR:%[0-9]+]] = div [[Q]], [[C]] : f32
