// An atomic reads its element: on a buffer without a fill value, an atomic
// before any write breaks the author's first-write obligation and is
// reported at the atomic (construction's first-write check).
// RUN: %intent_syntax -Xclang -verify %s

#include <intent/intent.hpp>
using namespace intent;

[[intent::kernel]] void uninitializedCounter(view<int, 1> out) {
  buffer<int, 1> next;
  parallel_for(out.extent(0), [&](index i) {
    // expected-error@+1 {{buffer 'next' is read before any of its elements is written: it has no fill value, so every element must be written before it is read (write it first, or declare it as buffer<T, N>(value))}}
    out[i] = intent::atomic_add(next[0], 1);
  });
}
