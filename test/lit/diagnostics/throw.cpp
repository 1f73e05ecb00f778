// 'throw' is rejected where it is written.
// RUN: %intent_syntax -Xclang -verify %s

#include <intent/intent.hpp>
using namespace intent;

[[intent::kernel]] void k(view<float, 1> y, int n) {
  if (n < 0)
    // expected-error@+1 {{'throw' is not supported in an Intent kernel; kernels cannot raise exceptions, check conditions explicitly instead}}
    throw 1;
  y[0] = n;
}
