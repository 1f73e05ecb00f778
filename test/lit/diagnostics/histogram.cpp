// intent::histogram: counts without atomics (16-bit) and a histogram inside a
// reduction callback are errors at the call.
// RUN: %intent_syntax -Xclang -verify %s

#include <intent/intent.hpp>
using namespace intent;

[[intent::kernel]] void narrow(view<short, 1> bins, view<const int, 1> in) {
  // expected-error@+1 {{the bins of 'intent::histogram' must be a mutable rank-1 intent::view with int32, uint32, int64, uint64, float or double counts}}
  histogram(bins, in.extent(0), [&](index i) -> index { return in[i]; });
}

[[intent::kernel]] void in_combine(view<int, 1> out, view<int, 1> bins,
                                   view<const int, 1> in) {
  out[0] = reduce(in.extent(0), 0, ops::plus{}, [&](index i) {
    // expected-error@+1 {{'intent::histogram' inside the value callback of 'intent::reduce' is not supported (it runs one instance per sample); count with an ordinary loop and atomic_add there, or call histogram outside the reduction}}
    histogram(bins, in.extent(0), [&](index k) -> index { return in[k]; });
    return in[i];
  });
}
