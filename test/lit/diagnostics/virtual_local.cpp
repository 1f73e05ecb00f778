// A local of a class with virtual functions says so: its calls would be
// virtual calls, which a kernel cannot make. A virtual call operator on a
// constant object is a virtual call too.
// RUN: %intent_syntax -Xclang -verify %s

#include <intent/intent.hpp>
using namespace intent;

struct Shape {
  virtual float area() const { return 1.0f; }
};

[[intent::kernel]] void local(view<float, 1> y) {
  // expected-error@+1 {{local variable 's' of class type 'Shape', which has virtual functions, is not supported in an Intent kernel: virtual calls cannot be compiled into a kernel; use a struct without virtual functions and free functions}}
  Shape s;
  y[0] = s.area();
}

struct Scale {
  virtual float operator()(float x) const { return 2.0f * x; }
};
const Scale twice{};

[[intent::kernel]] void op(view<float, 1> y) {
  // expected-error@+1 {{virtual call to 'operator()' is not supported in an Intent kernel; call a free function}}
  y[0] = twice(y[0]);
}
