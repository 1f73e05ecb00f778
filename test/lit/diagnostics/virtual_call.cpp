// A virtual call is rejected at the call.
// RUN: %intent_syntax -Xclang -verify %s

#include <intent/intent.hpp>
using namespace intent;

struct Shape {
  virtual float area() const { return 1.0f; }
};
const Shape unit{};

[[intent::kernel]] void k(view<float, 1> y) {
  // expected-error@+1 {{virtual call to 'area' is not supported in an Intent kernel; call a free function}}
  y[0] = unit.area();
}
