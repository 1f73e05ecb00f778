// printf in a kernel is an error that says so and suggests a way to debug
// (not "define printf in this translation unit"); another library function
// without a visible body says it is a library function.
// RUN: %intent_syntax -Xclang -verify %s

#include <cstdio>
#include <cstdlib>
#include <intent/intent.hpp>
using namespace intent;

[[intent::kernel]] void show(view<float, 1> y) {
  parallel_for(y.extent(0), [&](index i) {
    // expected-error@+1 {{'printf' is not supported in an Intent kernel yet (kernels cannot print); to debug, store the values in an output view and print them on the host after the call}}
    printf("%f\n", y[i]);
  });
}

[[intent::kernel]] void show_std(view<float, 1> y) {
  // expected-error@+1 {{'printf' is not supported in an Intent kernel yet (kernels cannot print); to debug, store the values in an output view and print them on the host after the call}}
  std::printf("%f\n", y[0]);
}

[[intent::kernel]] void random(view<int, 1> y) {
  // expected-error@+1 {{call to library function 'rand' is not supported in an Intent kernel: its body is not visible, so it cannot be compiled into the kernel; use <cmath> functions, intent:: helpers or your own inline functions}}
  y[0] = rand();
}
