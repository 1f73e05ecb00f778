// A kernel template dispatches itself through a launch-traits template,
// declared before it and specialised after it per instantiation the TU
// compiled, which picks the launcher. Calls, also from a host function
// template (whose text all instantiations share), keep their text and record
// their call site.
// RUN: rm -rf %t && %intent_syntax -I%intent_runtime_include -fplugin-arg-intent-out=%t %s
// RUN: FileCheck %s < %t/template_call.intent.cpp
// RUN: %clangxx -std=c++17 -fsyntax-only -I%intent_include -I%intent_runtime_include %t/template_call.intent.cpp
#include <intent/intent.hpp>
using namespace intent;

namespace k {
template <class T>
[[intent::kernel]] void scale(view<T, 1> y, T s) {
  parallel_for(y.extent(0), [&](intent::index i) { y[i] = y[i] * s; });
}
} // namespace k

template <class T> void host(view<T, 1> y) { k::scale<T>(y, T(2)); }
void both(view<float, 1> f, view<double, 1> d) {
  host(f);
  host(d);
  k::scale(f, 3.0f);
}

// CHECK: void __intent_launch_template_call_k_scale__double(intent::view<double, 1> y, double s); void __intent_launch_template_call_k_scale__float(intent::view<float, 1> y, float s); namespace k {
// CHECK-NEXT: template <class T> struct __intent_traits_template_call_scale; template <class T>
// CHECK-NEXT: void scale(view<T, 1> y, T s) { if (::intent::rt::mode() != ::intent::rt::device_mode::reference) { __intent_traits_template_call_scale<T>::launch(y, s); return; } ::intent::rt::note_reference_call();
// CHECK: } template <> struct __intent_traits_template_call_scale<double> { static void launch(intent::view<double, 1> y, double s) { ::__intent_launch_template_call_k_scale__double(y, s); } };
// CHECK-SAME: template <> struct __intent_traits_template_call_scale<float> { static void launch(intent::view<float, 1> y, float s) { ::__intent_launch_template_call_k_scale__float(y, s); } };
// CHECK: template <class T> void host(view<T, 1> y) { (::intent::rt::detail::set_call_site(__FILE__, __LINE__), k::scale<T>(y, T(2))); }
// CHECK: (::intent::rt::detail::set_call_site(__FILE__, __LINE__), k::scale(f, 3.0f));
