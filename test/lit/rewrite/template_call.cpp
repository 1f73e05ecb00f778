// A kernel template called from a host function template: the call's text is
// shared by all instantiations, so it names a wrapper template that forwards
// the kernel's own template and function parameters, and a launch-traits
// template specialised per instantiation picks the launcher.
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
// CHECK: } template <class T> struct __intent_launch_template_call_scale; template <class T> inline void __intent_call_template_call_scale(view<T, 1> y, T s) {
// CHECK-SAME: scale<T>(y, s); return; } __intent_launch_template_call_scale<T>::launch(y, s); }
// CHECK-SAME: template <> struct __intent_launch_template_call_scale<double> { static void launch(intent::view<double, 1> y, double s) { ::__intent_launch_template_call_k_scale__double(y, s); } };
// CHECK-SAME: template <> struct __intent_launch_template_call_scale<float> { static void launch(intent::view<float, 1> y, float s) { ::__intent_launch_template_call_k_scale__float(y, s); } };
// CHECK: template <class T> void host(view<T, 1> y) { k::__intent_call_template_call_scale<T>(y, T(2)); }
// CHECK: k::__intent_call_template_call_scale(f, 3.0f);
