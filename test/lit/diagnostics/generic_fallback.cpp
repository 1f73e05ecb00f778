// A construct the front end does not know is reported by its class name.
// RUN: %intent_syntax -Xclang -verify %s

#include <intent/intent.hpp>
using namespace intent;

[[intent::kernel]] void k(view<int, 1> y) {
  // expected-error@+1 {{unsupported construct 'StmtExpr' in an Intent kernel}}
  y[0] = ({ int t = y[1]; t; });
}
