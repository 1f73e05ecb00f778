// A local array is rejected at its declaration.
// RUN: %intent_syntax -Xclang -verify %s

#include <intent/intent.hpp>
using namespace intent;

[[intent::kernel]] void k(view<float, 1> y) {
  int vals[3] = {1, 2, 3};
  // expected-error@-1 {{local array 'vals' is not supported in an Intent kernel; use scalars or an intent::view parameter}}
}
