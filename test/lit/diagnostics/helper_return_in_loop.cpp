// An early return inside a loop of an inlined helper is rejected.
// RUN: %intent_syntax -Xclang -verify %s

#include <intent/intent.hpp>
using namespace intent;

inline int find(view<const float, 1> x, float v) {
  for (index i = 0; i < x.extent(0); ++i)
    if (x[i] == v)
      // expected-error@+1 {{early return inside a loop is not supported in inlined helpers; use 'break' and return after the loop}}
      return i;
  return -1;
}

[[intent::kernel]] void k(view<int, 1> out, view<const float, 1> x) { out[0] = find(x, 1.0f); }
