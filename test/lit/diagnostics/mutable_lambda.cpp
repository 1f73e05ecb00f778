// A mutable lambda would modify its own copy of a capture; it is rejected.
// RUN: %intent_syntax -Xclang -verify %s

#include <intent/intent.hpp>
using namespace intent;

[[intent::kernel]] void k(view<int, 1> y, int n) {
  // expected-error@+1 {{a 'mutable' lambda is not supported in an Intent kernel; use a local variable inside the lambda instead of modifying a copy-capture}}
  auto next = [n]() mutable { return ++n; };
  y[0] = next();
}
