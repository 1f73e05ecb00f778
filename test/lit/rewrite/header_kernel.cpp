// A kernel defined in a header cannot launch: headers are not rewritten, so
// its definition cannot dispatch. It is an error where it is defined (once
// per kernel, not per instantiation), never a silent serial call.
// RUN: rm -rf %t && %intent_syntax -I%intent_runtime_include -fplugin-arg-intent-out=%t -Xclang -verify %s
#include "Inputs/header_kernel.h"

void host(intent::view<float, 1> f, intent::view<int, 1> i) {
  header_fill(f, 1.0f);
  header_fill(i, 2);
}

// expected-error@Inputs/header_kernel.h:4 {{kernel 'header_fill' is defined in 'header_kernel.h', which the Intent compiler does not rewrite, so its calls could not launch; define it in a source file and declare it in the header (a template: define it in a source file and instantiate it there explicitly)}}
