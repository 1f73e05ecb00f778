// Direct recursion is rejected at the recursive call, with a note at the
// kernel it was reached from naming the chain of calls.
// RUN: %intent_syntax -Xclang -verify %s

#include <intent/intent.hpp>
using namespace intent;

inline int fact(int n) {
  if (n <= 1)
    return 1;
  // expected-error@+1 {{recursive call to 'fact' is not supported in an Intent kernel (helpers are inlined); rewrite it as a loop}}
  return n * fact(n - 1);
}

// expected-note@+1 {{'fact' was reached from kernel 'k' through the calls 'k' -> 'fact' -> 'fact'}}
[[intent::kernel]] void k(view<int, 1> y, int n) { y[0] = fact(n); }
