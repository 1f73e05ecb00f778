// reinterpret_cast is rejected.
// RUN: %intent_syntax -Xclang -verify %s

#include <intent/intent.hpp>
using namespace intent;

[[intent::kernel]] void k(view<int, 1> y, float f) {
  // expected-error@+1 {{'reinterpret_cast' is not supported in an Intent kernel; use static_cast between scalar types}}
  y[0] = reinterpret_cast<int &>(f);
}
