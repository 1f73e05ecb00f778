// A class parameter is rejected.
// RUN: %intent_syntax -Xclang -verify %s

#include <intent/intent.hpp>
using namespace intent;

struct Params {
  float a, b;
};
// expected-error@+1 {{parameter 'p' of type 'Params' is not supported in an Intent kernel}}
[[intent::kernel]] void k(view<float, 1> y, Params p) {}
