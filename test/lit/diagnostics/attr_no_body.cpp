// An attribute on a declaration without a body is not an error: the kernel is
// defined (and compiled) in another translation unit, whose definition
// dispatches every call. A call through the declaration records its call site
// and is otherwise left alone.
// RUN: rm -rf %t && %intent_syntax -I%intent_runtime_include -fplugin-arg-intent-out=%t -Xclang -verify %s
// RUN: FileCheck %s < %t/attr_no_body.intent.cpp
// expected-no-diagnostics

#include <intent/intent.hpp>
using namespace intent;

[[intent::kernel]] void k(view<float, 1> y);
void undecorated(view<float, 1> y);

void host(view<float, 1> y) {
  k(y);
  undecorated(y);
}

// CHECK: void host(view<float, 1> y) {
// CHECK-NEXT: (::intent::rt::detail::set_call_site(__FILE__, __LINE__), k(y));
// CHECK-NEXT: undecorated(y);
