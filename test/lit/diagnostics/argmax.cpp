// intent::argmax is not supported by the compiler yet.
// RUN: %intent_syntax -Xclang -verify %s

#include <intent/intent.hpp>
using namespace intent;

[[intent::kernel]] void k(view<index, 1> out, view<const float, 1> in) {
  // expected-error@+1 {{'intent::argmax' is not supported by this version of the Intent compiler yet}}
  auto r = argmax(in.extent(0), [&](index i) { return in[i]; });
  out[0] = 0;
}
