// The dimension of extent() must be a constant.
// RUN: %intent_syntax -Xclang -verify %s

#include <intent/intent.hpp>
using namespace intent;

[[intent::kernel]] void k(view<float, 2> y, int d) {
  // expected-error@+1 {{the dimension argument of 'extent' must be an integer constant expression}}
  y(0, 0) = y.extent(d);
}
