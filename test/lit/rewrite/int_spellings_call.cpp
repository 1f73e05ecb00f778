// A kernel over views of `long long`, `unsigned long long` and `char`: the
// wrapper in the rewritten TU and the launcher in the .cu take the user's
// element types, so the call passes its views unchanged; the launcher hands
// the program the same memory seen as int64_t / uint64_t / int8_t
// (intent::detail::view_as). Both files compile.
// RUN: rm -rf %t && %intent_syntax -I%intent_runtime_include -fplugin-arg-intent-out=%t %s
// RUN: FileCheck %s --check-prefix=TU < %t/int_spellings_call.intent.cpp
// RUN: FileCheck %s --check-prefix=CU < %t/int_spellings_call.kernels.cu
// RUN: %clangxx -std=c++17 -fsyntax-only -I%intent_include -I%intent_runtime_include %t/int_spellings_call.intent.cpp
// RUN: %nvcc_kernels %t/int_spellings_call.kernels.cu -o %t/k.o
// REQUIRES: nvcc
#include <intent/intent.hpp>
using namespace intent;

[[intent::kernel]] void count(view<long long, 1> y, view<const unsigned long long, 2> x,
                              view<char, 1> c, long long a) {
  parallel_for(y.extent(0), [&](intent::index i) {
    y[i] = a * static_cast<long long>(x(i, 0)) + c[i];
  });
}

template <class T>
[[intent::kernel]] void fill(view<T, 1> y, T v) {
  parallel_for(y.extent(0), [&](intent::index i) { y[i] = v; });
}

void host(view<long long, 1> y, view<const unsigned long long, 2> x,
          view<char, 1> c, view<unsigned long long, 1> u) {
  count(y, x, c, 3);
  fill(u, 7ull);
}

// TU: void __intent_launch_int_spellings_call_count(intent::view<long long, 1> y, intent::view<const unsigned long long, 2> x, intent::view<char, 1> c, int64_t a); inline void __intent_call_int_spellings_call_count(intent::view<long long, 1> y, intent::view<const unsigned long long, 2> x, intent::view<char, 1> c, int64_t a) {
// TU: template <> struct __intent_launch_int_spellings_call_fill<unsigned long long> { static void launch(intent::view<unsigned long long, 1> y, uint64_t v) {
// TU: __intent_call_int_spellings_call_count(y, x, c, 3);
// TU-NEXT: __intent_call_int_spellings_call_fill(u, 7ull);

// CU-LABEL: void __intent_launch_int_spellings_call_count(intent::view<long long, 1> y, intent::view<const unsigned long long, 2> x, intent::view<char, 1> c, int64_t a) {
// CU: __intent_args{::intent::detail::view_as<int64_t>(y), ::intent::detail::view_as<const uint64_t>(x), ::intent::detail::view_as<int8_t>(c), a, nullptr, nullptr};
// CU-LABEL: void __intent_launch_int_spellings_call_fill{{.*}}(intent::view<unsigned long long, 1> y, uint64_t v) {
// CU: __intent_args{::intent::detail::view_as<uint64_t>(y), v, nullptr, nullptr};
