// Dereferencing a pointer is rejected.
// RUN: %intent_syntax -Xclang -verify %s

#include <intent/intent.hpp>
using namespace intent;

[[intent::kernel]] void k(view<float, 1> y, view<const float, 1> x) {
  // expected-error@+1 {{pointer dereference is not supported in an Intent kernel; index an intent::view instead}}
  y[0] = *x.data();
}
