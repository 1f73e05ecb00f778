// An atomic on an element of a view of const elements is an error that says
// what to do (the header's overload for const locations).
// RUN: %intent_syntax -Xclang -verify %s

#include <intent/intent.hpp>
using namespace intent;

// expected-error@intent/atomic.hpp:* {{intent::atomic_add needs a mutable location: an element of an intent::view<T>, not of a view<const T>}}
// expected-error@intent/atomic.hpp:* {{intent::atomic_cas needs a mutable location: an element of an intent::view<T>, not of a view<const T>}}

[[intent::kernel]] void k(view<const int, 1> counts, view<const int, 1> in) {
  parallel_for(in.extent(0), [&](index i) {
    atomic_add(counts[in[i]], 1); // expected-note {{in instantiation of}}
    atomic_cas(counts[0], 1, 2); // expected-note {{in instantiation of}}
  });
}
