// A lambda returned from a helper escapes its scope.
// RUN: %intent_syntax -Xclang -verify %s

#include <intent/intent.hpp>
using namespace intent;

inline auto reader(view<const float, 1> x) {
  return [=](index i) { return x[i]; };
}

[[intent::kernel]] void k(view<float, 1> y, view<const float, 1> x) {
  // expected-error@+1 {{returning a lambda from 'reader' is not supported in an Intent kernel; call the lambda where it is defined}}
  auto f = reader(x);
  y[0] = f(0);
}
