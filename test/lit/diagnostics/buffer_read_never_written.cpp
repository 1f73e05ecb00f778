// A buffer without a fill value that is read but never written breaks the
// author's first-write obligation; construction proves it and reports the
// first read (no zeroing is synthesized).
// RUN: %intent_syntax -Xclang -verify %s

#include <intent/intent.hpp>
using namespace intent;

[[intent::kernel]] void readNeverWritten(view<float, 1> out) {
  parallel_for(out.extent(0), [&](index i) {
    buffer<float, 3> never;
    // expected-error@+1 {{buffer 'never' is read but never written: it has no fill value, so every element must be written before it is read (write it first, or declare it as buffer<T, N>(value))}}
    out[i] = never[2];
  });
}
