// Range-based for is rejected.
// RUN: %intent_syntax -Xclang -verify %s

#include <intent/intent.hpp>
using namespace intent;

[[intent::kernel]] void k(view<int, 1> y) {
  // expected-error@+1 {{range-based 'for' is not supported in an Intent kernel; loop over an index and use v[i]}}
  for (int v : {1, 2, 3})
    y[0] += v;
}
