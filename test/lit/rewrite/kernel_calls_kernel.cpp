// A kernel calling another kernel is refused: each call is one launch.
// RUN: %intent_syntax -fplugin-arg-intent-out=%t -Xclang -verify %s
#include <intent/intent.hpp>
using namespace intent;

[[intent::kernel]] void fill(view<float, 1> y, float v) {
  parallel_for(y.extent(0), [&](intent::index i) { y[i] = v; });
}

[[intent::kernel]] void twice(view<float, 1> y) {
  fill(y, 2.0f); // expected-error {{a kernel cannot call another kernel ('fill'): each call is one launch; call both from host code}}
}
