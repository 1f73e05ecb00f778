// intent::matmul is not supported by the compiler yet.
// RUN: %intent_syntax -Xclang -verify %s

#include <intent/intent.hpp>
using namespace intent;

[[intent::kernel]] void k(view<float, 2> c, view<const float, 2> a, view<const float, 2> b) {
  // expected-error@+1 {{'intent::matmul' is not supported by this version of the Intent compiler yet}}
  matmul(c, a, b);
}
