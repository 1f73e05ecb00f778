// 'delete' is rejected, at the expression.
// RUN: %intent_syntax -Xclang -verify %s

#include <intent/intent.hpp>
using namespace intent;

[[intent::kernel]] void k(view<float, 1> y) {
  // expected-error@+1 {{'delete' is not supported in an Intent kernel; free memory on the host}}
  delete y.data();
}
