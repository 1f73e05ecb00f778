// The attribute applies to functions only.
// RUN: %intent_syntax -Xclang -verify %s

#include <intent/intent.hpp>
using namespace intent;

// expected-error@+1 {{'intent::kernel' attribute only applies to function definitions}}
[[intent::kernel]] int counter = 0;
