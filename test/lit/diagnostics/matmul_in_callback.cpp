// matmul writes C, so it cannot run inside a reduction callback.
// RUN: %intent_syntax -Xclang -verify %s

#include <intent/intent.hpp>
using namespace intent;

[[intent::kernel]] void k(view<float, 1> out, view<float, 3> c, view<const float, 3> a, view<const float, 3> b) {
  scan(c.extent(0), 0.0f, ops::plus{}, [&](index n) { return a(n, 0, 0); },
       [&](index n, float p) {
         // expected-error@+1 {{'intent::matmul' inside a callback of a reduction is not supported; call it from the kernel body, a loop or a parallel_for}}
         matmul(c.row(n), a.row(n), b.row(n));
         out[n] = p;
       });
}
