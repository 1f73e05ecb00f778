// argmin over a range with tie::last and nan_policy::ignore: both policies
// become explicit attributes, never guessed.
// RUN: %intent_syntax %s -fplugin-arg-intent-dump=kir -fplugin-arg-intent-stop-after=kir | FileCheck %s

#include <intent/intent.hpp>
using namespace intent;

[[intent::kernel]] void worst(view<index, 1> pos, view<const double, 1> x, index b, index e) {
  pos[0] = argmin(range{b, e}, [&](index i) { return x[i]; }, tie::last,
                  nan_policy::ignore).pos;
}

// CHECK-LABEL: kernel @worst
// CHECK-NEXT:    {{%[0-9]+}}, [[P:%[0-9]+]] = argreduce %2, %3 {which = "min", tie = "last", nan = "ignore"} : f64, i64
// CHECK:         store %0, [[P]], {{%[0-9]+}}
