// A combine given as a function pointer chosen at run time cannot be inlined
// (a named function or a constexpr pointer can:
// test/lit/frontend/combine_function.cpp).
// RUN: %intent_syntax -Xclang -verify %s

#include <intent/intent.hpp>
using namespace intent;

inline int add(int a, int b) { return a + b; }
inline int larger(int a, int b) { return a < b ? b : a; }

[[intent::kernel]] void pick(view<int, 1> out, view<const int, 1> in, bool m) {
  // expected-error@+1 {{the combine argument of 'intent::reduce' is a function pointer whose target is not a compile-time constant; pass the function itself ('my_combine'), or a constexpr pointer to it}}
  out[0] = reduce(in.extent(0), 0, m ? &larger : &add,
                  [&](index i) { return in[i]; });
}
