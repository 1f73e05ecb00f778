// A scan's emit lambda may store to views but not assign captured locals.
// RUN: %intent_syntax -Xclang -verify %s

#include <intent/intent.hpp>
using namespace intent;

[[intent::kernel]] void k(view<float, 1> out, view<const float, 1> in) {
  float last = 0.0f;
  scan(in.extent(0), 0.0f, ops::plus{}, [&](index i) { return in[i]; },
       [&](index i, float p) {
         out[i] = p;
         // expected-error@+1 {{assignment to 'last', captured from outside the emit callback of 'intent::scan', is not supported}}
         last = p;
       });
  out[0] = last;
}
