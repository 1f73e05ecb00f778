// The rewritten TU keeps the user's lines: the dispatch prologue goes on the
// line of the body's `{`, each call records its site on its own line, and the
// file maps back to the original with #line. The generated .cu has one __global__ and the
// launcher the wrapper calls; both compile.
// RUN: rm -rf %t && %intent_syntax -I%intent_runtime_include -fplugin-arg-intent-out=%t %s
// RUN: FileCheck %s --check-prefix=TU < %t/saxpy_call.intent.cpp
// RUN: FileCheck %s --check-prefix=CU < %t/saxpy_call.kernels.cu
// RUN: %clangxx -std=c++17 -fsyntax-only -I%intent_include -I%intent_runtime_include %t/saxpy_call.intent.cpp
// RUN: %nvcc_kernels %t/saxpy_call.kernels.cu -o %t/k.o
// REQUIRES: nvcc
#include <intent/intent.hpp>
using namespace intent;

[[intent::kernel]] void saxpy(view<float, 1> y, view<const float, 1> x, float a) {
  parallel_for(y.extent(0), [&](intent::index i) { y[i] = a * x[i] + y[i]; });
}

void host(view<float, 1> y, view<const float, 1> x) {
  saxpy(y, x, 2.0f);
  ::saxpy(y, x, 3.0f);
}

// TU: #include <intent/runtime/api.hpp>
// TU-NEXT: #if !defined(INTENT_ABI_VERSION) || INTENT_ABI_VERSION != 3
// TU-NEXT: #error "this file was generated for Intent's generated-code ABI version 3, {{.*}}: regenerate it {{.*}}"
// TU-NEXT: #endif
// TU-NEXT: #line 1 "{{.*}}saxpy_call.cpp"
// TU: void saxpy(view<float, 1> y, view<const float, 1> x, float a) { void __intent_launch_saxpy_call_saxpy(intent::view<float, 1> y, intent::view<const float, 1> x, float a); if (::intent::rt::mode() != ::intent::rt::device_mode::reference) { __intent_launch_saxpy_call_saxpy(y, x, a); return; } ::intent::rt::note_reference_call(); ::intent::detail::reference_kernel __intent_reference("saxpy", __FILE__);
// TU-NEXT: parallel_for(y.extent(0), [&](intent::index i) { (::intent::detail::reference_access(15, "y"), y[i]) = a * (::intent::detail::reference_access(15, "x"), x[i]) + (::intent::detail::reference_access(15, "y"), y[i]); });
// TU-NEXT: }
// TU: void host(view<float, 1> y, view<const float, 1> x) {
// TU-NEXT:   (::intent::rt::detail::set_call_site(__FILE__, __LINE__), saxpy(y, x, 2.0f));
// TU-NEXT:   (::intent::rt::detail::set_call_site(__FILE__, __LINE__), ::saxpy(y, x, 3.0f));

// CU: #include <intent/runtime/kernel.hpp>
// CU-NEXT: #if !defined(INTENT_ABI_VERSION) || INTENT_ABI_VERSION != 3
// CU: #line 15 "{{.*}}saxpy_call.cpp"
// CU: #line {{[0-9]+}} "{{.*}}saxpy_call.kernels.cu"
// CU: __global__ void
// CU-NOT: __global__
// CU: void __intent_launch_saxpy_call_saxpy(intent::view<float, 1> y, intent::view<const float, 1> x, float a) {
// CU: intent::rt::detail::range_of("y", y, true), intent::rt::detail::range_of("x", x, false)};
// CU-NEXT: intent::rt::detail::check_aliasing(__intent_info, __intent_views, 2);
