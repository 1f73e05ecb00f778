// intent::histogram is not supported by the compiler yet.
// RUN: %intent_syntax -Xclang -verify %s

#include <intent/intent.hpp>
using namespace intent;

[[intent::kernel]] void k(view<int, 1> bins, view<const int, 1> in) {
  // expected-error@+1 {{'intent::histogram' is not supported by this version of the Intent compiler yet}}
  histogram(bins, in.extent(0), [&](index i) -> index { return in[i]; });
}
