// view::data() yields a raw pointer.
// RUN: %intent_syntax -Xclang -verify %s

#include <intent/intent.hpp>
using namespace intent;

[[intent::kernel]] void k(view<float, 1> y) {
  // expected-error@+1 {{raw pointers are not supported in an Intent kernel; index the view instead of using data()}}
  y.data();
}
