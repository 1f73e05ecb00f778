// intent::atomic_add is not supported by the compiler yet.
// RUN: %intent_syntax -Xclang -verify %s

#include <intent/intent.hpp>
using namespace intent;

[[intent::kernel]] void k(view<float, 1> sum, view<const float, 1> in) {
  parallel_for(in.extent(0), [&](index i) {
    // expected-error@+1 {{'intent::atomic_add' is not supported by this version of the Intent compiler yet}}
    atomic_add(sum[0], in[i]);
  });
}
