// A try block is rejected.
// RUN: %intent_syntax -Xclang -verify %s

#include <intent/intent.hpp>
using namespace intent;

[[intent::kernel]] void k(view<float, 1> y) {
  // expected-error@+1 {{'try' is not supported in an Intent kernel}}
  try {
    y[0] = 1.0f;
  } catch (...) {
  }
}
