// The attribute must be on the definition.
// RUN: %intent_syntax -Xclang -verify %s

#include <intent/intent.hpp>
using namespace intent;

// expected-error@+1 {{intent::kernel must be on a function definition}}
[[intent::kernel]] void k(view<float, 1> y);
