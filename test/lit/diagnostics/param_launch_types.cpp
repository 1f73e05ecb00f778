// The generated launcher spells parameters with the standard types (int8_t,
// int64_t, ...) or, for a view, the user's own integer spelling. A view of an
// enum, a scoped enum scalar and a half-precision parameter cannot be spelled
// by it: errors at the parameter. (They used to pass phase 1 and break the
// phase-2 compile: found while hardening the front end against bad input.)
// RUN: %intent_syntax -Xclang -verify %s

#include <cstdint>
#include <intent/intent.hpp>
using namespace intent;

// Other spellings of the standard integer types are taken as written (the
// launcher takes the user's element type; test/lit/frontend/int_spellings.cpp).
[[intent::kernel]] void ll(view<long long, 1> y) {}
[[intent::kernel]] void ull(view<int, 1> y, view<const unsigned long long, 2> x) {}
[[intent::kernel]] void ch(view<char, 1> c) {}

// expected-error@+1 {{parameter 'h' of type 'view<_Float16, 1>' is not supported in an Intent kernel; use a scalar (bool, integer, float, double) or an intent::view passed by value}}
[[intent::kernel]] void half_view(view<_Float16, 1> h) {}

// expected-error@+1 {{parameter 's' of type '_Float16' is not supported in an Intent kernel; use a scalar (bool, integer, float, double) or an intent::view passed by value}}
[[intent::kernel]] void half_scalar(view<float, 1> y, _Float16 s) {}

enum class Mode { A, B };
// expected-error@+1 {{parameter 'm' of type 'Mode' cannot be passed to the kernel's generated launcher, which takes 'int32_t'; declare the parameter as 'int32_t'}}
[[intent::kernel]] void scoped(view<int, 1> y, Mode m) {}

enum Color { Red, Green };
// expected-error@+1 {{parameter 'c' of type 'view<Color, 1>' cannot be passed to the kernel's generated launcher, which takes 'intent::view<uint32_t, 1>'; declare the parameter as 'intent::view<uint32_t, 1>'}}
[[intent::kernel]] void enum_view(view<Color, 1> c) {}

// Scalars of any integer spelling convert; views of the standard types pass.
enum Plain { P0, P1 };
[[intent::kernel]] void fine(view<int64_t, 1> a, view<const std::uint8_t, 1> b,
                             view<signed char, 1> c, long long n, char k,
                             Plain p) {
  parallel_for(a.extent(0), [&](intent::index i) { a(i) = n + k + p; });
}
