// A parallel_for inside a reduction callback is rejected.
// RUN: %intent_syntax -Xclang -verify %s

#include <intent/intent.hpp>
using namespace intent;

[[intent::kernel]] void k(view<float, 2> out, view<const float, 1> in) {
  scan(in.extent(0), 0.0f, ops::plus{}, [&](index i) { return in[i]; },
       [&](index i, float p) {
         // expected-error@+1 {{parallel_for inside the emit callback of 'intent::scan' is not supported; use an ordinary loop there, or put the reduction inside the parallel_for}}
         parallel_for(out.extent(1), [&](index j) { out(i, j) = p; });
       });
}
