// Taking an address is rejected.
// RUN: %intent_syntax -Xclang -verify %s

#include <intent/intent.hpp>
using namespace intent;

inline void set(float *p) {}

[[intent::kernel]] void k(view<float, 1> y) {
  // expected-error@+1 {{taking an address ('&') is not supported in an Intent kernel; pass views or references instead}}
  set(&y[0]);
}
