// intent::ordered must be written directly as the combine argument: through
// a variable or nested the front end cannot follow the wrapped combine.
// RUN: %intent_syntax -Xclang -verify %s

#include <intent/intent.hpp>
using namespace intent;

[[intent::kernel]] void k(view<float, 1> out, view<const float, 1> x) {
  // expected-error@+1 {{intent::ordered(op) may only be written directly as the combine argument of intent::reduce, scan, region_fold or region_scan (not stored in a variable, nested or called)}}
  auto op = ordered(ops::plus{});
  out[0] = reduce(x.extent(0), 0.0f, op, [&](index i) { return x[i]; });
}

[[intent::kernel]] void nested(view<float, 1> out, view<const float, 1> x) {
  // expected-error@+1 {{intent::ordered(op) may only be written directly as the combine argument}}
  out[0] = reduce(x.extent(0), 0.0f, ordered(ordered(ops::plus{})),
                  [&](index i) { return x[i]; });
}
