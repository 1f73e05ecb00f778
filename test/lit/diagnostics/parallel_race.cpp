// Assigning a captured outer local inside parallel_for is a race.
// RUN: %intent_syntax -Xclang -verify %s

#include <intent/intent.hpp>
using namespace intent;

[[intent::kernel]] void k(view<float, 1> out, view<const float, 1> in) {
  float acc = 0.0f;
  parallel_for(in.extent(0), [&](index i) {
    // expected-error@+1 {{assignment to 'acc', captured from outside the parallel_for, would race between instances; use intent::reduce or write to a view}}
    acc += in[i];
  });
  out[0] = acc;
}
