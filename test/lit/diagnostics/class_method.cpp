// Calling a member function of a user class is not supported yet.
// RUN: %intent_syntax -Xclang -verify %s

#include <intent/intent.hpp>
using namespace intent;

struct Affine {
  float a, b;
  float apply(float x) const { return a * x + b; }
};
const Affine identity{1.0f, 0.0f};

[[intent::kernel]] void k(view<float, 1> y) {
  // expected-error@+1 {{call to member function 'apply' of 'Affine' is not supported in an Intent kernel yet; use free functions and views}}
  y[0] = identity.apply(y[0]);
}
