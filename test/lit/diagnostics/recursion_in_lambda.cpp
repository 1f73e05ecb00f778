// A recursion reached through a parallel_for body and a helper: the note at
// the kernel names the whole chain (a lambda called in between shows as "a
// lambda").
// RUN: %intent_syntax -Xclang -verify %s

#include <intent/intent.hpp>
using namespace intent;

inline int steps(int n) {
  // expected-error@+1 {{recursive call to 'steps' is not supported in an Intent kernel (helpers are inlined); rewrite it as a loop}}
  return n <= 1 ? 0 : 1 + steps(n % 2 ? 3 * n + 1 : n / 2);
}

inline int twice(int n) { return 2 * steps(n); }

// expected-note@+1 {{'steps' was reached from kernel 'collatz' through the calls 'collatz' -> a lambda -> 'twice' -> 'steps' -> 'steps'}}
[[intent::kernel]] void collatz(view<int, 1> y) {
  parallel_for(y.extent(0), [&](index i) {
    auto f = [](int n) { return twice(n); };
    y[i] = f(static_cast<int>(i));
  });
}
