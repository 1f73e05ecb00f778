// A call through a function pointer is rejected.
// RUN: %intent_syntax -Xclang -verify %s

#include <intent/intent.hpp>
using namespace intent;

inline float twice(float x) { return 2 * x; }
using Fn = float (*)(float);
constexpr Fn table = twice;

[[intent::kernel]] void k(view<float, 1> y) {
  // expected-error@+1 {{calls through function pointers are not supported in an Intent kernel; call the function directly}}
  y[0] = table(1.0f);
}
