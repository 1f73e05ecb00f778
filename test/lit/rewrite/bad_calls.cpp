// Calls the plugin cannot rewrite are errors at the call.
// RUN: %intent_syntax -I%intent_runtime_include -fplugin-arg-intent-out=%t -Xclang -verify %s
#include <intent/intent.hpp>
using namespace intent;

[[intent::kernel]] void fill(view<float, 1> y, float v) {
  parallel_for(y.extent(0), [&](intent::index i) { y[i] = v; });
}

#define FILL(y) fill(y, 1.0f)

void host(view<float, 1> y) {
  FILL(y); // expected-error {{cannot rewrite the call to kernel 'fill' inside a macro expansion; call the kernel outside the macro}}
  auto *p = &fill; // expected-error {{taking the address of kernel 'fill' is not supported; call the kernel directly}}
  (void)p;
}
