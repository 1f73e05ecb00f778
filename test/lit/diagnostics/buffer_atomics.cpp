// Atomics on local buffer elements: what stays unsupported is an error at
// the atomic (element types without hardware atomics; an atomic that reads a
// first-write buffer before any element is written). Accepted forms are in
// test/lit/frontend/buffer_atomics.cpp and examples/buffer_atomics.cpp.
// RUN: %intent_syntax -Xclang -verify %s

#include <intent/intent.hpp>
using namespace intent;

[[intent::kernel]] void shortBins(view<int, 1> out) {
  parallel_for(out.extent(0), [&](index i) {
    buffer<short, 4> h(0);
    // expected-error@+1 {{'intent::atomic_add' on elements of type 'i16' is not supported; atomics support int32, uint32, int64, uint64, float and double elements}}
    intent::atomic_add(h[i & 3], short(1));
    out[i] = h[0];
  });
}
