// A kernel must return void.
// RUN: %intent_syntax -Xclang -verify %s

#include <intent/intent.hpp>
using namespace intent;

// expected-error@+1 {{an Intent kernel must return void; write results to a view parameter}}
[[intent::kernel]] float k(view<float, 1> y) { return y[0]; }
