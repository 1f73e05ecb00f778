// A view passed by reference is rejected: views are passed by value.
// RUN: %intent_syntax -Xclang -verify %s

#include <intent/intent.hpp>
using namespace intent;

// expected-error@+1 {{parameter 'y' of type 'view<float, 1> &' is not supported in an Intent kernel}}
[[intent::kernel]] void k(view<float, 1> &y) {}
