// argmin's NaN policy must be a constant enumerator. (The policy arrives as
// an int: a scoped-enum parameter is an error of its own,
// param_launch_types.cpp.)
// RUN: %intent_syntax -Xclang -verify %s

#include <intent/intent.hpp>
using namespace intent;

[[intent::kernel]] void k(view<index, 1> out, view<const float, 1> in, int bits) {
  nan_policy p = static_cast<nan_policy>(bits);
  // expected-error@+1 {{the nan_policy argument of 'intent::argmin' must be a constant enumerator (e.g. nan_policy::propagate)}}
  out[0] = argmin(in.extent(0), [&](index i) { return in[i]; }, tie::first, p).pos;
}
