// A constant dimension must lie within the rank.
// RUN: %intent_syntax -Xclang -verify %s

#include <intent/intent.hpp>
using namespace intent;

[[intent::kernel]] void k(view<float, 2> y) {
  // expected-error@+1 {{dimension 2 is out of range for a view of rank 2}}
  y(0, 0) = y.stride(2);
}
