// A kernel called through a using-declaration: the call keeps its text (the
// kernel dispatches itself) and records its site. (The rewritten file once
// failed to compile: found while hardening the front end against bad input.)
// RUN: rm -rf %t && %intent_syntax -I%intent_runtime_include -fplugin-arg-intent-out=%t %s
// RUN: FileCheck %s < %t/using_call.intent.cpp
// RUN: %clangxx -std=c++17 -fsyntax-only -I%intent_include -I%intent_runtime_include %t/using_call.intent.cpp
#include <intent/intent.hpp>
using namespace intent;

namespace a {
namespace b {
[[intent::kernel]] void fill(view<float, 1> y, float v) {
  parallel_for(y.extent(0), [&](intent::index i) { y[i] = v; });
}
template <class T>
[[intent::kernel]] void scale(view<T, 1> y, T s) {
  parallel_for(y.extent(0), [&](intent::index i) { y[i] = y[i] * s; });
}
} // namespace b
} // namespace a

using a::b::fill;
using a::b::scale;

template <class T> void host(view<T, 1> y) { scale(y, T(2)); }

void run(view<float, 1> y, view<double, 1> d) {
  fill(y, 1.0f);
  a::b::fill(y, 2.0f);
  scale<float>(y, 3.0f);
  host(d);
}

// CHECK: template <class T> void host(view<T, 1> y) { (::intent::rt::detail::set_call_site(__FILE__, __LINE__), scale(y, T(2))); }
// CHECK: (::intent::rt::detail::set_call_site(__FILE__, __LINE__), fill(y, 1.0f));
// CHECK-NEXT: (::intent::rt::detail::set_call_site(__FILE__, __LINE__), a::b::fill(y, 2.0f));
// CHECK-NEXT: (::intent::rt::detail::set_call_site(__FILE__, __LINE__), scale<float>(y, 3.0f));
