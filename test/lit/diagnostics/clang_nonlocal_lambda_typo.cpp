// libFuzzer finding (was test/fuzz/libfuzzer/open/clang-sema-capture-crash.cpp):
// a mutated generated program whose broken braces leave a kernel's nested
// parallel_for lambdas at namespace scope, in a variable's initializer. Reduced
// (below) it crashes stock clang 19.1.7 in Sema::tryCaptureVariable during
// delayed typo correction WITHOUT the plugin and without [[intent::kernel]]:
// a non-local lambda with a capture-default, a nested capture-default lambda,
// and an undeclared name next to one of its locals (upstream
// llvm/llvm-project#107840, fixed after 19). The plugin is not involved: its
// attribute handler only annotates the kernel, and its AST consumer never runs
// on a TU with errors. The crash happens inside typo correction, so with
// -fno-spell-checking (what tools/intent-fuzz passes) clang reports the
// ordinary errors. This test pins that: the plugin, a valid kernel, and the
// reduced input, ordinary errors, no crash.
// RUN: %intent_syntax -fno-spell-checking -ferror-limit=0 -Xclang -verify %s

#include <intent/intent.hpp>
using namespace intent;

[[intent::kernel]] void scale(view<float, 1> y, float a) {
  parallel_for(y.extent(0), [&](index i) { y(i) = a * y(i); });
}

float fmax(float, float);
// expected-error@+2 {{use of undeclared identifier 'q'}}
// expected-error@+1 {{non-local lambda expression cannot have a capture-default}}
int x(q, [&] {
  // expected-error@+1 {{use of undeclared identifier 'w'}}
  z(w, [&] {
    float c = 1;
    // expected-error@+1 {{use of undeclared identifier 'u'}}
    fmax(u ? 1.0f : c, 1.0f);
  });
});
