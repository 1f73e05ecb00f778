// A combine must not store to a view either, also through a helper.
// RUN: %intent_syntax -Xclang -verify %s

#include <intent/intent.hpp>
using namespace intent;

inline void trace(view<float, 1> t, float v) {
  // expected-error@+1 {{the combine callback of 'intent::reduce' must not write to a view}}
  t[0] = v;
}

[[intent::kernel]] void k(view<float, 1> out, view<float, 1> log, view<const float, 1> in) {
  out[0] = reduce(in.extent(0), 0.0f,
                  [&](float a, float b) { trace(log, a); return a + b; },
                  [&](index i) { return in[i]; });
}
