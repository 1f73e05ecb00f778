// intent::philox is not supported by the compiler yet.
// RUN: %intent_syntax -Xclang -verify %s

#include <intent/intent.hpp>
using namespace intent;

[[intent::kernel]] void k(view<float, 1> out) {
  // expected-error@+1 {{'intent::philox' is not supported by this version of the Intent compiler yet}}
  philox rng(1, 2);
  out[0] = 0.0f;
}
