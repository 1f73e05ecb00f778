// -fplugin-arg-intent-remarks reports each extracted kernel; out=DIR is accepted.
// RUN: %intent_syntax -Xclang -verify %s -fplugin-arg-intent-remarks -fplugin-arg-intent-out=%t

#include <intent/intent.hpp>
using namespace intent;

// expected-remark@+1 {{extracted Intent kernel 'fill' (2 parameters)}}
[[intent::kernel]] void fill(view<float, 1> y, float v) {
  parallel_for(y.extent(0), [&](index i) { y[i] = v; });
}

// expected-remark@+1 {{extracted Intent kernel 'twice<int>' (1 parameters)}}
template <class T> [[intent::kernel]] void twice(view<T, 1> y) {
  parallel_for(y.extent(0), [&](index i) { y[i] = y[i] * 2; });
}
template void twice<int>(view<int, 1>);
