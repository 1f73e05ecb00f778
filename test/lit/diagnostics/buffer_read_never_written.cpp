// A buffer without a fill value that is read before any write breaks the
// author's first-write obligation; construction proves it where the read
// comes first in the buffer's scope (no store before it or inside the
// construct that reads) and reports the read. No zeroing is synthesized.
// RUN: %intent_syntax -Xclang -verify %s

#include <intent/intent.hpp>
using namespace intent;

[[intent::kernel]] void readNeverWritten(view<float, 1> out) {
  parallel_for(out.extent(0), [&](index i) {
    buffer<float, 3> never;
    // expected-error@+1 {{buffer 'never' is read before any of its elements is written: it has no fill value, so every element must be written before it is read (write it first, or declare it as buffer<T, N>(value))}}
    out[i] = never[2];
  });
}

[[intent::kernel]] void readThenWrite(view<float, 1> out) {
  buffer<float, 4> w;
  // expected-error@+1 {{buffer 'w' is read before any of its elements is written}}
  parallel_for(out.extent(0), [&](index i) { out[i] = w[i & 3]; });
  parallel_for(out.extent(0), [&](index i) { w[i & 3] = 1.0f; });
}

// Not provable (a loop that writes before it reads in later iterations):
// accepted, the obligation stays the author's.
[[intent::kernel]] void loopCarried(view<float, 1> out) {
  parallel_for(out.extent(0), [&](index i) {
    buffer<float, 8> prefix;
    for (index k = 0; k < prefix.size(); ++k) {
      float before = k > 0 ? prefix[k - 1] : 0.0f;
      prefix[k] = before + 1.0f;
    }
    out[i] = prefix[7];
  });
}
