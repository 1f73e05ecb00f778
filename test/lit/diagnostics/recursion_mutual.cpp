// Mutual recursion is rejected at the call that closes the cycle; a note at
// the kernel names the chain of calls that reached it.
// RUN: %intent_syntax -Xclang -verify %s

#include <intent/intent.hpp>
using namespace intent;

inline bool isOdd(int n);
inline bool isEven(int n) {
  if (n == 0)
    return true;
  return isOdd(n - 1);
}
inline bool isOdd(int n) {
  if (n == 0)
    return false;
  // expected-error@+1 {{recursive call to 'isEven' is not supported in an Intent kernel (helpers are inlined); rewrite it as a loop}}
  return isEven(n - 1);
}

// expected-note@+1 {{'isEven' was reached from kernel 'k' through the calls 'k' -> 'isEven' -> 'isOdd' -> 'isEven'}}
[[intent::kernel]] void k(view<int, 1> y, int n) { y[0] = isEven(n); }
