// Only u32, uniform and normal draws of intent::philox are supported.
// RUN: %intent_syntax -Xclang -verify %s

#include <intent/intent.hpp>
using namespace intent;

[[intent::kernel]] void k(view<unsigned long, 1> out) {
  philox rng(1, 2);
  // expected-error@+1 {{'intent::philox::stream' is not supported in an Intent kernel; use u32, uniform or normal}}
  out[0] = rng.stream();
}
