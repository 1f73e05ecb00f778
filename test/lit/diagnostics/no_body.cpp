// A call to a function whose body is not visible cannot be inlined.
// RUN: %intent_syntax -Xclang -verify %s

#include <intent/intent.hpp>
using namespace intent;

float external(float x);

[[intent::kernel]] void k(view<float, 1> y) {
  // expected-error@+1 {{call to 'external' cannot be inlined into an Intent kernel because its body is not visible; define it in this translation unit or a header}}
  y[0] = external(1.0f);
}
