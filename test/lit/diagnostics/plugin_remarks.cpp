// -fplugin-arg-intent-remarks reports each extracted kernel and what
// construction did with it (groups, segments, program space); out=DIR is
// accepted.
// RUN: %intent_syntax -Xclang -verify %s -fplugin-arg-intent-remarks -fplugin-arg-intent-out=%t

#include <intent/intent.hpp>
using namespace intent;

// expected-remark@+2 {{extracted Intent kernel 'fill' (2 parameters)}}
// expected-remark@+1 {{program space: 1 segment(s), total max(y.extent(0), 0)}}
[[intent::kernel]] void fill(view<float, 1> y, float v) {
  // expected-remark@+3 {{group 0: parallel over [y.extent(0)]}}
  // expected-remark@+2 {{group 0: segment length max(y.extent(0), 0), offset 0}}
  // expected-remark@+1 {{widen: each program owns chunks of 4 contiguous elements}}
  parallel_for(y.extent(0), [&](intent::index i) { y[i] = v; });
}

// expected-remark@+2 {{extracted Intent kernel 'twice<int>' (1 parameters)}}
// expected-remark@+1 {{program space: 1 segment(s), total max(y.extent(0), 0)}}
template <class T> [[intent::kernel]] void twice(view<T, 1> y) {
  // expected-remark@+3 {{group 0: parallel over [y.extent(0)]}}
  // expected-remark@+2 {{group 0: segment length max(y.extent(0), 0), offset 0}}
  // expected-remark@+1 {{widen: each program owns chunks of 4 contiguous elements}}
  parallel_for(y.extent(0), [&](intent::index i) { y[i] = y[i] * 2; });
}
template void twice<int>(view<int, 1>);
