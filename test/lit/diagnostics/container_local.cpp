// A std::vector (or std::array, std::string) local is rejected with a pointer
// to intent::buffer<T, N>, the kernel's local array.
// RUN: %intent_syntax -Xclang -verify %s

#include <intent/intent.hpp>
#include <array>
#include <vector>
using namespace intent;

[[intent::kernel]] void vec(view<float, 1> y) {
  parallel_for(y.extent(0), [&](index i) {
    // expected-error@+1 {{local variable 'tmp' of type 'std::vector<float>' is not supported in an Intent kernel (kernels do not allocate); for a small local array of a size known at compile time use 'intent::buffer<T, N>' (e.g. 'intent::buffer<float, 8> b;'), for data of any size pass an intent::view}}
    std::vector<float> tmp(4);
    y[i] = 0.0f;
  });
}

[[intent::kernel]] void arr(view<float, 1> y) {
  // expected-error@+1 {{local variable 'a' of type 'std::array<float, 4>' is not supported in an Intent kernel (kernels do not allocate); for a small local array of a size known at compile time use 'intent::buffer<T, N>' (e.g. 'intent::buffer<float, 8> b;'), for data of any size pass an intent::view}}
  std::array<float, 4> a{};
  y[0] = 0.0f;
}
