// matmul operands must share C's element type.
// RUN: %intent_syntax -Xclang -verify %s

#include <intent/intent.hpp>
using namespace intent;

[[intent::kernel]] void k(view<float, 2> c, view<const half, 2> a, view<const float, 2> b) {
  // expected-error@+1 {{'intent::matmul' with element types 'f32' (C), 'f16' (A) and 'f32' (B) is not supported in an Intent kernel; give A and B the element type of C (convert them in a parallel_for first)}}
  matmul(c, a, b);
}
