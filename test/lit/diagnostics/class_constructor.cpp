// A struct of scalars built with a user-written constructor is rejected:
// only brace (aggregate) initialization is scalar-replaced.
// RUN: %intent_syntax -Xclang -verify %s

#include <intent/intent.hpp>
using namespace intent;

struct Pair {
  float a, b;
  Pair(float x, float y) : a(x), b(y) {}
};

[[intent::kernel]] void k(view<float, 1> y) {
  // expected-error@+1 {{constructing 'Pair' with a constructor is not supported in an Intent kernel; give the struct no constructors and use brace initialization ({a, b, ...})}}
  Pair p(1.0f, 2.0f);
  y[0] = p.a;
}
