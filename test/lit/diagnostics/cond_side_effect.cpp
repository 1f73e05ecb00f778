// An assignment in a loop condition cannot reach the body.
// RUN: %intent_syntax -Xclang -verify %s

#include <intent/intent.hpp>
using namespace intent;

[[intent::kernel]] void k(view<float, 1> y, int n) {
  int i = 0;
  // expected-error@+1 {{assignment to 'i' inside a loop condition is not supported in an Intent kernel; move it into the loop body}}
  while (i++ < n)
    y[0] += 1.0f;
}
