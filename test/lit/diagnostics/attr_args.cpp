// [[intent::kernel]] takes no arguments. Clang dropped arguments of a plugin
// attribute that declares none, so `[[intent::kernel(1)]]` used to be
// accepted silently (found while hardening the front end against bad input).
// RUN: %intent_syntax -Xclang -verify %s

#include <intent/intent.hpp>
using namespace intent;

// expected-error@+1 {{'intent::kernel' takes no arguments}}
[[intent::kernel(1)]] void k(view<float, 1> y) {}

// expected-error@+1 {{'intent::kernel' takes no arguments}}
[[intent::kernel("gpu", 2)]] void k2(view<float, 1> y) {}

// expected-error@+1 {{'intent::kernel' takes no arguments}}
[[intent::kernel()]] void k3(view<float, 1> y) {}
