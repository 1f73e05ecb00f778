// A member function cannot be a kernel.
// RUN: %intent_syntax -Xclang -verify %s

#include <intent/intent.hpp>
using namespace intent;

struct S {
  // expected-error@+1 {{'intent::kernel' cannot be applied to a member function; make the kernel a free function}}
  [[intent::kernel]] void k(view<float, 1> y) {}
};
