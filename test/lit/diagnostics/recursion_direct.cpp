// Direct recursion is rejected at the recursive call.
// RUN: %intent_syntax -Xclang -verify %s

#include <intent/intent.hpp>
using namespace intent;

inline int fact(int n) {
  if (n <= 1)
    return 1;
  // expected-error@+1 {{recursive call to 'fact' is not supported in an Intent kernel (helpers are inlined); rewrite it as a loop}}
  return n * fact(n - 1);
}

[[intent::kernel]] void k(view<int, 1> y, int n) { y[0] = fact(n); }
