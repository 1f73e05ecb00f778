// Pointer arithmetic is rejected at the operator.
// RUN: %intent_syntax -Xclang -verify %s

#include <intent/intent.hpp>
using namespace intent;

[[intent::kernel]] void k(view<float, 1> y, view<const float, 1> x) {
  // expected-error@+1 {{pointer arithmetic is not supported in an Intent kernel; index an intent::view instead}}
  index d = (x.data() + 4) - x.data();
  y[0] = d;
}
