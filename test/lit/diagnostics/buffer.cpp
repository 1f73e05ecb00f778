// Unsupported uses of intent::buffer are errors at the use (one kernel per
// case: the first error stops a kernel).
// RUN: %intent_syntax -Xclang -verify %s

#include <intent/intent.hpp>
using namespace intent;

struct Pair {
  float a, b;
};

static float byValue(buffer<float, 4> b) { return b[0]; }

[[intent::kernel]] void elementStruct(view<float, 1> out) {
  // expected-error@+1 {{intent::buffer of 'Pair' is not supported in an Intent kernel; the element type must be bool, an integer or a floating-point type}}
  buffer<Pair, 2> s;
  out[0] = 0.0f;
}

[[intent::kernel]] void fillNotConstant(view<float, 1> out, float v) {
  // expected-error@+1 {{the fill value of an intent::buffer must be a constant expression in an Intent kernel; declare the buffer uninitialized and write its elements in a loop}}
  buffer<float, 4> c(v);
  out[0] = c[0];
}

[[intent::kernel]] void copyInit(view<float, 1> out) {
  buffer<float, 4> a(0.0f);
  // expected-error@+1 {{copying an intent::buffer is not supported in an Intent kernel; pass it to helpers by reference and copy elements in a loop}}
  buffer<float, 4> d = a;
  out[0] = d[0];
}

[[intent::kernel]] void copyToHelper(view<float, 1> out) {
  buffer<float, 4> a(0.0f);
  // expected-error@+1 {{copying an intent::buffer is not supported in an Intent kernel; pass it to helpers by reference and copy elements in a loop}}
  out[0] = byValue(a);
}

[[intent::kernel]] void assign(view<float, 1> out) {
  buffer<float, 4> a(0.0f), c(1.0f);
  // expected-error@+1 {{assigning an intent::buffer is not supported in an Intent kernel; copy the elements in a loop}}
  a = c;
  out[0] = a[0];
}

[[intent::kernel]] void dataPointer(view<float, 1> out) {
  buffer<float, 4> a(0.0f);
  // expected-error@+1 {{'buffer::data' is not supported in an Intent kernel (no pointers or pointer arithmetic); index the buffer with operator[]}}
  (void)a.data();
  out[0] = a[1];
}

[[intent::kernel]] void inCallback(view<float, 1> out) {
  out[0] = reduce(4, 0.0f, ops::plus{}, [&](index i) {
    // expected-error@+1 {{an intent::buffer inside the value callback of 'intent::reduce' is not supported; declare it in the enclosing parallel_for body or kernel}}
    buffer<float, 2> t(1.0f);
    return t[0];
  });
}
