// Writing through a view of const elements is a C++ error at the write.
// RUN: %intent_syntax -Xclang -verify %s

#include <intent/intent.hpp>
using namespace intent;

[[intent::kernel]] void k(view<const float, 1> x) {
  parallel_for(x.extent(0), [&](index i) {
    // expected-error@+1 {{cannot assign to return value because function 'operator[]' returns a const value}}
    x[i] = 0.0f;
    // expected-note@*:* {{function 'operator[]' which returns const-qualified type 'const float &' declared here}}
  });
}
