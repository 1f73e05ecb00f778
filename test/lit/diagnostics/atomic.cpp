// Unsupported uses of intent::atomic_* are errors at the call: a local scalar
// as the location, a memory order that is not a constant, an element type
// without atomics, an atomic inside a reduction's value callback.
// RUN: %intent_syntax -Xclang -verify %s

#include <intent/intent.hpp>
using namespace intent;

[[intent::kernel]] void local(view<float, 1> out, view<const float, 1> in) {
  parallel_for(in.extent(0), [&](index i) {
    float acc = 0;
    // expected-error@+1 {{the first argument of 'intent::atomic_add' must be an element of an intent::view (y[i], y(i, j)) or of an intent::buffer (b[i]); atomics on local variables are not supported: they are private to one instance, so update the local directly}}
    atomic_add(acc, in[i]);
    out[i] = acc;
  });
}

[[intent::kernel]] void order(view<int, 1> out, view<const int, 1> in,
                              bool strong) {
  parallel_for(in.extent(0), [&](index i) {
    // expected-error@+1 {{the memory order of 'intent::atomic_max' must be a constant intent::memory_order enumerator (e.g. intent::memory_order::relaxed); to choose at run time, branch around two calls}}
    atomic_max(out[0], in[i], strong ? memory_order::seq_cst : memory_order::relaxed);
  });
}

[[intent::kernel]] void narrow(view<short, 1> out, view<const short, 1> in) {
  parallel_for(in.extent(0), [&](index i) {
    // expected-error@+1 {{'intent::atomic_add' on elements of type 'i16' is not supported; atomics support int32, uint32, int64, uint64, float and double elements}}
    atomic_add(out[0], in[i]);
  });
}

[[intent::kernel]] void in_callback(view<float, 1> out, view<float, 1> hits,
                                    view<const float, 1> in) {
  // expected-error@+2 {{the value callback of 'intent::reduce' must not update a view atomically: it may run any number of times and in any order; update from the parallel_for body or an emit/store callback instead}}
  out[0] = reduce(in.extent(0), 0.0f, ops::plus{}, [&](index i) {
    atomic_add(hits[0], 1.0f);
    return in[i];
  });
}
