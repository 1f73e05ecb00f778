// A scan's kind must be a constant enumerator. (The kind arrives as an int:
// a scoped-enum parameter is an error of its own, param_launch_types.cpp.)
// RUN: %intent_syntax -Xclang -verify %s

#include <intent/intent.hpp>
using namespace intent;

[[intent::kernel]] void k(view<float, 1> out, view<const float, 1> in, int kind_bits) {
  scan_kind kind = static_cast<scan_kind>(kind_bits);
  scan(in.extent(0), 0.0f, ops::plus{}, [&](index i) { return in[i]; },
       [&](index i, float p) { out[i] = p; },
       // expected-error@+1 {{the scan_kind argument of 'intent::scan' must be a constant enumerator (e.g. scan_kind::inclusive)}}
       kind);
}
