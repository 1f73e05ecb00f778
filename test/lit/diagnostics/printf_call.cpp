// printf in a kernel is checked at the user's line: a literal format, the
// conversions against the (promoted) argument types, the number of
// arguments, %s only with a string literal, no %p / `*` widths, and no
// printf inside a value or combine callback. The C library's other output
// functions are errors that point to printf; another library function
// without a visible body says it is a library function.
// RUN: %intent_syntax -Wno-format -Xclang -verify %s

#include <cstdio>
#include <cstdlib>
#include <intent/intent.hpp>
using namespace intent;

const char *const kName = "abc";
const char *const kFormat = "%d\n";

[[intent::kernel]] void wrong_width(view<float, 1> y) {
  parallel_for(y.extent(0), [&](index i) {
    // expected-error@+1 {{conversion '%d' of 'printf' takes int, but the argument has type 'index'; use '%ld' or '%lld' for a 64-bit integer (or cast the argument to int)}}
    printf("%d\n", i);
  });
}

[[intent::kernel]] void wrong_class(view<float, 1> y) {
  // expected-error@+1 {{conversion '%d' of 'printf' takes int, but the argument has type 'float'; cast the argument to the type the conversion takes}}
  std::printf("%d\n", y[0]);
}

[[intent::kernel]] void too_wide(view<int, 1> y) {
  // expected-error@+1 {{conversion '%lld' of 'printf' takes a 64-bit integer, but the argument has type 'int'; drop the length modifier (or cast the argument to long long)}}
  printf("%lld\n", y[0]);
}

[[intent::kernel]] void count(view<int, 1> y) {
  // expected-error@+1 {{the format of 'printf' has 2 conversion(s) but the call passes 1 argument(s) after it}}
  printf("%d %d\n", y[0]);
}

[[intent::kernel]] void pointer(view<int, 1> y) {
  // expected-error@+1 {{'printf' format not supported in an Intent kernel: conversion '%p' is not supported in a kernel (it takes a pointer)}}
  printf("%p\n", y.data());
}

[[intent::kernel]] void star(view<int, 1> y) {
  // expected-error@+1 {{'printf' format not supported in an Intent kernel: a '*' width in conversion '%*' is not supported in a kernel (write the width into the format)}}
  printf("%*d\n", 3, y[0]);
}

[[intent::kernel]] void string_var(view<int, 1> y) {
  // expected-error@+1 {{conversion '%s' in an Intent kernel prints only a string literal argument}}
  printf("%s %d\n", kName, y[0]);
}

[[intent::kernel]] void format_var(view<int, 1> y) {
  // expected-error@+1 {{the format of 'printf' in an Intent kernel must be a string literal}}
  printf(kFormat, y[0]);
}

[[intent::kernel]] void in_value(view<const float, 1> x, view<float, 1> y) {
  y[0] = reduce(x.extent(0), 0.0f, ops::plus{}, [&](index i) {
    // expected-error@+1 {{'printf' inside the value callback of 'intent::reduce' is not supported: it may run any number of times and in any order; print from the parallel_for body or an emit/store callback instead}}
    printf("%f\n", x[i]);
    return x[i];
  });
}

[[intent::kernel]] void to_stderr(view<float, 1> y) {
  // expected-error@+1 {{'fprintf' is not supported in an Intent kernel; print with 'printf' (or 'std::printf'), which writes to standard output (device printf on the GPU)}}
  fprintf(stderr, "%f\n", y[0]);
}

[[intent::kernel]] void with_puts(view<float, 1> y) {
  // expected-error@+1 {{'puts' is not supported in an Intent kernel; print with 'printf' (or 'std::printf'), which writes to standard output (device printf on the GPU)}}
  puts("hello");
}

[[intent::kernel]] void random(view<int, 1> y) {
  // expected-error@+1 {{call to library function 'rand' is not supported in an Intent kernel: its body is not visible, so it cannot be compiled into the kernel; use <cmath> functions, intent:: helpers or your own inline functions}}
  y[0] = rand();
}
