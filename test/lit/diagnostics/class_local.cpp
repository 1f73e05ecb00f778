// A local of a class type that is not a struct of scalars (here: a pointer
// member) is not supported.
// RUN: %intent_syntax -Xclang -verify %s

#include <intent/intent.hpp>
using namespace intent;

struct Handle {
  float *p;
  int n;
};

[[intent::kernel]] void k(view<float, 1> y) {
  // expected-error@+1 {{local variable 'h' of class type 'Handle' is not supported in an Intent kernel; use scalars, intent::view and structs whose fields are scalars}}
  Handle h{nullptr, 0};
  y[0] = 0.0f;
}
