// A reduce's value lambda may read captured locals, not assign them.
// RUN: %intent_syntax -Xclang -verify %s

#include <intent/intent.hpp>
using namespace intent;

[[intent::kernel]] void k(view<float, 1> out, view<const float, 1> in) {
  int count = 0;
  out[0] = reduce(in.extent(0), 0.0f, ops::plus{}, [&](index i) {
    // expected-error@+1 {{assignment to 'count', captured from outside the value callback of 'intent::reduce', is not supported: reduction callbacks may run in any order and in parallel; return the value from the lambda, or write to a view from an emit or store lambda}}
    ++count;
    return in[i];
  });
  out[1] = count;
}
