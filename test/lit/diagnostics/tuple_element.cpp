// std::pair and std::tuple are scalar-replaced only when every element is a
// scalar, a struct of scalars or such a pair or tuple: a view, reference or
// class element is reported where the pair or tuple appears, and std::tie
// (a tuple of references) is reported at the call.
// RUN: %intent_syntax -Xclang -verify %s

#include <intent/intent.hpp>

#include <tuple>
#include <utility>
using namespace intent;

[[intent::kernel]] void views_acc(view<float, 1> out, view<const float, 1> in) {
  using P = std::pair<view<const float, 1>, float>;
  P p = reduce(in.extent(0),
               // expected-error@+1 {{'std::pair<intent::view<const float, 1>, float>' has the element type 'intent::view<const float, 1>', which is not supported in an Intent kernel; std::pair and std::tuple elements must be scalars, structs of scalars or such pairs and tuples (no views, references or classes)}}
               P{in, 0.0f},
               [](P a, P b) { return P{a.first, a.second + b.second}; },
               [&](index i) { return P{in, in[i]}; });
}

[[intent::kernel]] void class_local(view<float, 1> out) {
  // expected-error@+1 {{'std::tuple<int, float *>' has the element type 'float *', which is not supported in an Intent kernel}}
  std::tuple<int, float *> t(1, nullptr);
  out[0] = 1.0f;
}

[[intent::kernel]] void tie(view<float, 1> out) {
  float a = 0.0f, b = 0.0f;
  // expected-error@+1 {{'std::tie' is not supported in an Intent kernel; build pairs and tuples with their constructors, std::make_pair or std::make_tuple, and read them with .first/.second, std::get<I> or a structured binding}}
  std::tie(a, b) = std::make_pair(1.0f, 2.0f);
  out[0] = a + b;
}
