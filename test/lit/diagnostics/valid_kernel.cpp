// A kernel inside the subset produces no diagnostic.
// RUN: %intent_syntax -Xclang -verify %s

#include <intent/intent.hpp>
using namespace intent;

// expected-no-diagnostics
inline float sq(float v) { return v * v; }

[[intent::kernel]] void k(view<float, 2> out, view<const float, 2> in, float eps) {
  parallel_for(out.extent(0), [&](index r) {
    float s = 0.0f;
    for (index c = 0; c < in.extent(1); ++c)
      s += sq(in(r, c));
    parallel_for(out.extent(1), [&](index c) { out(r, c) = in(r, c) / (s + eps); });
  });
}
