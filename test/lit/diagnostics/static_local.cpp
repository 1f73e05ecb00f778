// A static local variable is rejected at its declaration.
// RUN: %intent_syntax -Xclang -verify %s

#include <intent/intent.hpp>
using namespace intent;

[[intent::kernel]] void k(view<float, 1> y) {
  // expected-error@+1 {{static local variable 'calls' is not supported in an Intent kernel; use a constexpr variable or pass the value as a parameter}}
  static int calls = 0;
  y[0] = calls;
}
