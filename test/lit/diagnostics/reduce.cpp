// intent::reduce is not supported by the compiler yet.
// RUN: %intent_syntax -Xclang -verify %s

#include <intent/intent.hpp>
using namespace intent;

[[intent::kernel]] void k(view<float, 1> out, view<const float, 1> in) {
  // expected-error@+1 {{'intent::reduce' is not supported by this version of the Intent compiler yet}}
  out[0] = reduce(in.extent(0), 0.0f, ops::plus{}, [&](index i) { return in[i]; });
}
