// A pointer parameter is rejected.
// RUN: %intent_syntax -Xclang -verify %s

#include <intent/intent.hpp>
using namespace intent;

// expected-error@+1 {{parameter 'p' of type 'float *' is not supported in an Intent kernel; use a scalar (bool, integer, float, double) or an intent::view passed by value}}
[[intent::kernel]] void k(float *p) {}
