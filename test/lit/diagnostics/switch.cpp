// switch is rejected; if/else is the way.
// RUN: %intent_syntax -Xclang -verify %s

#include <intent/intent.hpp>
using namespace intent;

[[intent::kernel]] void k(view<float, 1> y, int n) {
  // expected-error@+1 {{'switch' is not supported in an Intent kernel; use if/else}}
  switch (n) {
  case 0:
    y[0] = 1.0f;
    break;
  default:
    break;
  }
}
