// A generator is a value: a reference local to one is rejected.
// RUN: %intent_syntax -Xclang -verify %s

#include <intent/intent.hpp>
using namespace intent;

[[intent::kernel]] void k(view<float, 1> out) {
  philox a(1, 2);
  // expected-error@+1 {{this use of 'intent::philox' is not supported in an Intent kernel; declare a local 'intent::philox g(seed, stream);' and call g.u32(c), g.uniform(c) or g.normal(c) on it}}
  const philox &b = a;
  out[0] = b.uniform(0);
}
