// 'new' is rejected.
// RUN: %intent_syntax -Xclang -verify %s

#include <intent/intent.hpp>
using namespace intent;

[[intent::kernel]] void k(view<float, 1> y) {
  // expected-error@+1 {{'new' is not supported in an Intent kernel; allocate on the host and pass an intent::view}}
  float *p = new float(1.0f);
  y[0] = 0.0f;
}
