// A local of user class type is not supported yet.
// RUN: %intent_syntax -Xclang -verify %s

#include <intent/intent.hpp>
using namespace intent;

struct Pair {
  float a, b;
};

[[intent::kernel]] void k(view<float, 1> y) {
  // expected-error@+1 {{local variable 'p' of class type 'Pair' is not supported in an Intent kernel; use scalars and intent::view}}
  Pair p{1.0f, 2.0f};
  y[0] = 0.0f;
}
