// argmax's tie rule must be a constant enumerator: it becomes an attribute.
// RUN: %intent_syntax -Xclang -verify %s

#include <intent/intent.hpp>
using namespace intent;

[[intent::kernel]] void k(view<index, 1> out, view<const float, 1> in, bool last) {
  out[0] = argmax(in.extent(0), [&](index i) { return in[i]; },
                  // expected-error@+1 {{the tie argument of 'intent::argmax' must be a constant enumerator (e.g. tie::first) so the compiler knows it; to choose at run time, branch around two calls}}
                  last ? tie::last : tie::first).pos;
}
