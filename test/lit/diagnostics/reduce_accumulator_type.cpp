// The accumulator of a reduce must be a scalar or a struct of scalars.
// RUN: %intent_syntax -Xclang -verify %s

#include <intent/intent.hpp>
using namespace intent;

struct Tagged {
  const float *src;
  float sum;
};

[[intent::kernel]] void k(view<float, 1> out, view<const float, 1> in) {
  Tagged t = reduce(in.extent(0),
                    // expected-error@+1 {{the accumulator type 'Tagged' of 'intent::reduce' is not supported in an Intent kernel; use a scalar, a struct whose fields are scalars, or a std::pair or std::tuple of scalars}}
                    Tagged{nullptr, 0.0f},
                    [](Tagged a, Tagged b) { return Tagged{a.src, a.sum + b.sum}; },
                    [&](index i) { return Tagged{nullptr, in[i]}; });
}
