// goto is rejected.
// RUN: %intent_syntax -Xclang -verify %s

#include <intent/intent.hpp>
using namespace intent;

[[intent::kernel]] void k(view<float, 1> y, int n) {
  if (n == 0)
    // expected-error@+1 {{'goto' is not supported in an Intent kernel; use structured control flow (if, for, while, break, continue)}}
    goto done;
  y[0] = 1.0f;
done:
  return;
}
