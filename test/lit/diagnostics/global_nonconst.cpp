// Reading a non-constexpr global is rejected; constexpr ones are fine.
// RUN: %intent_syntax -Xclang -verify %s

#include <intent/intent.hpp>
using namespace intent;

float scale = 2.0f;
constexpr float offset = 1.0f;

[[intent::kernel]] void k(view<float, 1> y) {
  // expected-error@+1 {{global variable 'scale' is not constexpr; an Intent kernel may only read constexpr globals, pass the value as a parameter}}
  y[0] = offset + scale;
}
