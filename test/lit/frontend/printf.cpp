// printf / std::printf in a kernel become `print` ops: arguments promoted as
// C varargs promote them (bool and narrow integers to i32, float to f64),
// a %s of a string literal spliced into the format (with its % doubled),
// and the format's escapes kept.
// RUN: %intent_syntax %s -fplugin-arg-intent-dump=kir | FileCheck %s

#include <cstdio>
#include <intent/intent.hpp>
using namespace intent;

[[intent::kernel]] void show(view<const float, 1> x, view<const short, 1> s,
                             bool flag) {
  parallel_for(x.extent(0), [&](index i) {
    printf("i=%ld x=%.3f s=%hd flag=%d %s\n", i, x[i], s[i], flag, "50%");
  });
  std::printf("done \"%c\"\t%u\n", 'A', 7u);
}

// CHECK-LABEL: kernel @show
// CHECK:         parallel_for
// CHECK:           [[X:%[0-9]+]] = load %0, {{%[0-9]+}} : f32
// CHECK-NEXT:      [[XD:%[0-9]+]] = cast [[X]] : f64
// CHECK:           [[S:%[0-9]+]] = load %1, {{%[0-9]+}} : i16
// CHECK-NEXT:      [[SI:%[0-9]+]] = cast [[S]] : i32
// CHECK:           [[F:%[0-9]+]] = cast %2 : i32
// CHECK-NEXT:      print {{%[0-9]+}}, [[XD]], [[SI]], [[F]] {format = "i=%ld x=%.3f s=%hd flag=%d 50%%\n"}
// CHECK:         print {{%[0-9]+}}, {{%[0-9]+}} {format = "done \"%c\"\t%u\n"}
