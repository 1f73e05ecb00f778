// A return inside a loop of the kernel body is rejected.
// RUN: %intent_syntax -Xclang -verify %s

#include <intent/intent.hpp>
using namespace intent;

[[intent::kernel]] void k(view<float, 1> y, int n) {
  for (int i = 0; i < n; ++i) {
    if (y[i] < 0)
      // expected-error@+1 {{'return' inside a loop is not supported in an Intent kernel; use 'break' and test afterwards}}
      return;
    y[i] = 1.0f;
  }
}
