// intent::scan is not supported by the compiler yet.
// RUN: %intent_syntax -Xclang -verify %s

#include <intent/intent.hpp>
using namespace intent;

[[intent::kernel]] void k(view<float, 1> out, view<const float, 1> in) {
  // expected-error@+1 {{'intent::scan' is not supported by this version of the Intent compiler yet}}
  scan(in.extent(0), 0.0f, ops::plus{}, [&](index i) { return in[i]; },
       [&](index i, float p) { out[i] = p; });
}
