// ops::max propagates NaN (include/intent/ops.hpp). Its combine region is its
// operator() body, so the NaN tests are visible: a NaN on the left wins, then
// a NaN on the right, then `a < b ? b : a`.
// RUN: %intent_syntax %s -fplugin-arg-intent-dump=kir -fplugin-arg-intent-stop-after=kir | FileCheck %s

#include <intent/intent.hpp>
using namespace intent;

[[intent::kernel]] void maxval(view<float, 1> out, view<const float, 1> in) {
  out[0] = reduce(in.extent(0), -INFINITY, ops::max{}, [&](index i) { return in[i]; });
}

// CHECK-LABEL: kernel @maxval
// CHECK:         [[I:%[0-9]+]] = constant {value = -inf} : f32
// CHECK-NEXT:    {{%[0-9]+}} = reduce {{%[0-9]+}}, {{%[0-9]+}}, [[I]] {combiner = "max", reassociate = true} : f32
// CHECK:         ^([[A:%[0-9]+]]: f32, [[B:%[0-9]+]]: f32):
// CHECK-NEXT:      [[ANAN:%[0-9]+]] = cmp [[A]], [[A]] {pred = "ne"} : bool
// CHECK-NEXT:      [[R:%[0-9]+]] = if [[ANAN]] : f32
// CHECK-NEXT:        yield [[A]]
// CHECK-NEXT:      } {
// CHECK-NEXT:        [[BNAN:%[0-9]+]] = cmp [[B]], [[B]] {pred = "ne"} : bool
// CHECK-NEXT:        [[R2:%[0-9]+]] = if [[BNAN]] : f32
// CHECK-NEXT:          yield [[B]]
// CHECK-NEXT:        } {
// CHECK-NEXT:          [[LT:%[0-9]+]] = cmp [[A]], [[B]] {pred = "lt"} : bool
// CHECK-NEXT:          [[R3:%[0-9]+]] = if [[LT]] : f32
// CHECK-NEXT:            yield [[B]]
// CHECK-NEXT:          } {
// CHECK-NEXT:            yield [[A]]
// CHECK-NEXT:          }
// CHECK-NEXT:          yield [[R3]]
// CHECK-NEXT:        }
// CHECK-NEXT:        yield [[R2]]
// CHECK-NEXT:      }
// CHECK-NEXT:      yield [[R]]
// CHECK-NEXT:    }
