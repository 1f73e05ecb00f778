// std::pair and std::tuple accumulators are flattened like structs: one
// component per element. make_tuple builds the init, std::get reads in the
// combine, a structured binding reads the result.
// RUN: %intent_syntax %s -fplugin-arg-intent-dump=kir -fplugin-arg-intent-stop-after=kir | FileCheck %s

#include <intent/intent.hpp>

#include <cstdint>
#include <tuple>
#include <utility>
using namespace intent;

using T3 = std::tuple<float, float, std::int64_t>;

[[intent::kernel]] void tup(view<float, 1> out, view<const float, 1> x) {
  auto [s, m, n] = reduce(
      x.extent(0), std::make_tuple(0.0f, -INFINITY, std::int64_t{0}),
      [](const T3 &a, const T3 &b) {
        return T3(std::get<0>(a) + std::get<0>(b),
                  fmaxf(std::get<1>(a), std::get<1>(b)),
                  std::get<2>(a) + std::get<2>(b));
      },
      [&](index i) { return T3{x[i], x[i], 1}; });
  out[0] = s + m + static_cast<float>(n);
}

[[intent::kernel]] void pr(view<float, 1> out, view<const float, 1> x) {
  std::pair<float, int> p = reduce(
      x.extent(0), std::pair<float, int>{0.0f, 0},
      [](std::pair<float, int> a, std::pair<float, int> b) {
        std::pair<float, int> c = a;
        c.first += b.first;
        c.second = c.second + b.second;
        return c;
      },
      [&](index i) { return std::make_pair(x[i], 1); });
  out[0] = p.first / static_cast<float>(p.second);
}

// CHECK-LABEL: kernel @tup
// CHECK-DAG: %[[Z:[0-9]+]] = constant {value = 0.0} : f32
// CHECK-DAG: %[[NI:[0-9]+]] = constant {value = -inf} : f32
// CHECK-DAG: %[[C0:[0-9]+]] = constant {value = 0} : i64 loc(17:53)
// CHECK: %[[S:[0-9]+]], %[[M:[0-9]+]], %[[N:[0-9]+]] = reduce %{{[0-9]+}}, %{{[0-9]+}}, %[[Z]], %[[NI]], %[[C0]] {combiner = "user", reassociate = true} : f32, f32, i64
// CHECK: ^(%{{[0-9]+}}: i64):
// CHECK: yield %{{[0-9]+}}, %{{[0-9]+}}, %{{[0-9]+}}
// CHECK: ^(%[[A0:[0-9]+]]: f32, %[[A1:[0-9]+]]: f32, %[[A2:[0-9]+]]: i64, %[[B0:[0-9]+]]: f32, %[[B1:[0-9]+]]: f32, %[[B2:[0-9]+]]: i64):
// CHECK-NEXT: %[[R0:[0-9]+]] = add %[[A0]], %[[B0]] : f32
// CHECK-NEXT: %[[R1:[0-9]+]] = math %[[A1]], %[[B1]] {fn = "fmax"} : f32
// CHECK-NEXT: %[[R2:[0-9]+]] = add %[[A2]], %[[B2]] : i64
// CHECK-NEXT: yield %[[R0]], %[[R1]], %[[R2]]
// CHECK: add %[[S]], %[[M]] : f32
// CHECK: cast %[[N]] : f32

// CHECK-LABEL: kernel @pr
// CHECK: %[[F:[0-9]+]], %[[I:[0-9]+]] = reduce {{.*}} : f32, i32
// CHECK: ^(%[[A0:[0-9]+]]: f32, %[[A1:[0-9]+]]: i32, %[[B0:[0-9]+]]: f32, %[[B1:[0-9]+]]: i32):
// CHECK-NEXT: %[[R0:[0-9]+]] = add %[[A0]], %[[B0]] : f32
// CHECK-NEXT: %[[R1:[0-9]+]] = add %[[A1]], %[[B1]] : i32
// CHECK-NEXT: yield %[[R0]], %[[R1]]
// CHECK: %[[C:[0-9]+]] = cast %[[I]] : f32
// CHECK: div %[[F]], %[[C]] : f32
