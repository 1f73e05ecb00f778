// Every integer spelling is a view element and a scalar parameter: KIR keeps
// the canonical width and signedness (long long and long are i64, char is i8
// on this target, std::size_t is u64, ...). The launcher takes the user's own
// spelling (test/lit/rewrite/int_spellings_call.cpp).
// RUN: %intent_syntax %s -fplugin-arg-intent-dump=kir -fplugin-arg-intent-stop-after=kir | FileCheck %s

#include <cstddef>
#include <cstdint>
#include <intent/intent.hpp>
using namespace intent;

[[intent::kernel]] void wide(view<long long, 1> a, view<const unsigned long long, 2> b,
                             view<long, 1> c, view<unsigned long, 1> d,
                             view<std::int64_t, 1> e, view<std::size_t, 1> f,
                             view<std::ptrdiff_t, 1> g, long long s,
                             unsigned long long u, std::size_t z) {
  a[0] = s + b(0, 0) + u + z;
}

// CHECK-LABEL: kernel @wide (%0 a: view<i64, 1> w, %1 b: view<const u64, 2> r, %2 c: view<i64, 1> none, %3 d: view<u64, 1> none, %4 e: view<i64, 1> none, %5 f: view<u64, 1> none, %6 g: view<i64, 1> none, %7 s: i64, %8 u: u64, %9 z: u64)

[[intent::kernel]] void narrow(view<short, 1> a, view<unsigned short, 1> b,
                               view<signed char, 1> c, view<unsigned char, 1> d,
                               view<char, 1> e, view<const char, 1> f,
                               short s, unsigned short us, signed char sc,
                               unsigned char uc, char ch) {
  e[0] = f[0] + ch;
}

// CHECK-LABEL: kernel @narrow (%0 a: view<i16, 1> none, %1 b: view<u16, 1> none, %2 c: view<i8, 1> none, %3 d: view<u8, 1> none, %4 e: view<i8, 1> w, %5 f: view<const i8, 1> r, %6 s: i16, %7 us: u16, %8 sc: i8, %9 uc: u8, %10 ch: i8)

[[intent::kernel]] void fixed(view<std::int8_t, 1> a, view<std::uint8_t, 1> b,
                              view<std::int16_t, 1> c, view<std::uint16_t, 1> d,
                              view<std::int32_t, 1> e, view<std::uint32_t, 1> f,
                              view<std::int64_t, 1> g, view<std::uint64_t, 1> h,
                              int i, unsigned j) {}

// CHECK-LABEL: kernel @fixed (%0 a: view<i8, 1> none, %1 b: view<u8, 1> none, %2 c: view<i16, 1> none, %3 d: view<u16, 1> none, %4 e: view<i32, 1> none, %5 f: view<u32, 1> none, %6 g: view<i64, 1> none, %7 h: view<u64, 1> none, %8 i: i32, %9 j: u32)
