// A reduce's value lambda must not store to a view.
// RUN: %intent_syntax -Xclang -verify %s

#include <intent/intent.hpp>
using namespace intent;

[[intent::kernel]] void k(view<float, 1> out, view<float, 1> tmp, view<const float, 1> in) {
  out[0] = reduce(in.extent(0), 0.0f, ops::plus{}, [&](index i) {
    // expected-error@+1 {{the value callback of 'intent::reduce' must not write to a view: it may run any number of times and in any order; write results from an emit or store lambda, or after the reduction}}
    tmp[i] = in[i];
    return in[i];
  });
}
