// A scan's kind must be a constant enumerator.
// RUN: %intent_syntax -Xclang -verify %s

#include <intent/intent.hpp>
using namespace intent;

[[intent::kernel]] void k(view<float, 1> out, view<const float, 1> in, scan_kind kind) {
  scan(in.extent(0), 0.0f, ops::plus{}, [&](index i) { return in[i]; },
       [&](index i, float p) { out[i] = p; },
       // expected-error@+1 {{the scan_kind argument of 'intent::scan' must be a constant enumerator (e.g. scan_kind::inclusive)}}
       kind);
}
