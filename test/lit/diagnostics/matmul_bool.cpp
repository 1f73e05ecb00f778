// matmul needs arithmetic elements.
// RUN: %intent_syntax -Xclang -verify %s

#include <intent/intent.hpp>
using namespace intent;

[[intent::kernel]] void k(view<bool, 2> c, view<const bool, 2> a, view<const bool, 2> b) {
  // expected-error@+1 {{'intent::matmul' on elements of type 'bool' is not supported in an Intent kernel; use float, double, intent::half, intent::bfloat16 or an integer type}}
  matmul(c, a, b);
}
