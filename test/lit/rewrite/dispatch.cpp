// Every kernel definition dispatches itself, wherever it is: at global scope
// (the launcher is declared inside the body), in a namespace (declared before
// the outermost namespace), `static`, in an anonymous namespace. So calls the
// plugin does not annotate still launch: through a macro, through a function
// pointer. Calls in the main file record their call site.
// RUN: rm -rf %t && %intent_syntax -I%intent_runtime_include -fplugin-arg-intent-out=%t -Xclang -verify %s
// RUN: FileCheck %s < %t/dispatch.intent.cpp
// RUN: %clangxx -std=c++17 -fsyntax-only -Wall -Werror -I%intent_include -I%intent_runtime_include %t/dispatch.intent.cpp
// expected-no-diagnostics
#include <intent/intent.hpp>
using namespace intent;

[[intent::kernel]] void fill(view<float, 1> y, float v) {
  parallel_for(y.extent(0), [&](intent::index i) { y[i] = v; });
}

namespace outer {
inline namespace v1 {
[[intent::kernel]] static void twice(view<float, 1> y) {
  parallel_for(y.extent(0), [&](intent::index i) { y[i] = 2 * y[i]; });
}
} // namespace v1
} // namespace outer

namespace {
[[intent::kernel]] void inc(view<int, 1> y) {
  parallel_for(y.extent(0), [&](intent::index i) { y[i] = y[i] + 1; });
}
} // namespace

#define FILL(y) fill(y, 1.0f)

void host(view<float, 1> y, view<int, 1> n) {
  FILL(y);
  auto *p = &fill;
  p(y, 3.0f);
  outer::twice(y);
  inc(n);
}

// CHECK: void fill(view<float, 1> y, float v) { void __intent_launch_dispatch_fill(intent::view<float, 1> y, float v); if (::intent::rt::mode() != ::intent::rt::device_mode::reference) { __intent_launch_dispatch_fill(y, v); return; } ::intent::rt::note_reference_call();
// CHECK-NEXT: parallel_for(
// CHECK: void __intent_launch_dispatch_outer_twice(intent::view<float, 1> y); namespace outer {
// CHECK: static void twice(view<float, 1> y) { if (::intent::rt::mode() != ::intent::rt::device_mode::reference) { ::__intent_launch_dispatch_outer_twice(y); return; } ::intent::rt::note_reference_call();
// CHECK: void __intent_launch_dispatch_{{.*}}inc(intent::view<{{.*}}, 1> y); namespace {
// CHECK: void inc(view<int, 1> y) { if (::intent::rt::mode() != ::intent::rt::device_mode::reference) { ::__intent_launch_dispatch_{{.*}}inc(y); return; } ::intent::rt::note_reference_call();
// CHECK: void host(view<float, 1> y, view<int, 1> n) {
// CHECK-NEXT: FILL(y);
// CHECK-NEXT: auto *p = &fill;
// CHECK-NEXT: p(y, 3.0f);
// CHECK-NEXT: (::intent::rt::detail::set_call_site(__FILE__, __LINE__), outer::twice(y));
// CHECK-NEXT: (::intent::rt::detail::set_call_site(__FILE__, __LINE__), inc(n));
