// The compiler's _Float16 is not intent::half: rejected as a parameter type.
// RUN: %intent_syntax -Xclang -verify %s

#include <intent/intent.hpp>
using namespace intent;

// expected-error@+1 {{parameter 'x' of type '_Float16' is not supported in an Intent kernel; use a scalar (bool, integer, float, double) or an intent::view passed by value}}
[[intent::kernel]] void k(view<float, 1> out, _Float16 x) {
  out[0] = 1.0f;
}
