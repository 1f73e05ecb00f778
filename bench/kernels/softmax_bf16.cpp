// softmax_bf16: softmax over the last axis in bfloat16 (f32 math), written as
// a user would: the row max, the sum of exp(x - max), then each element
// exp(x - max) / sum converted back to bf16.
#include "entry.hpp"

#include <intent/intent.hpp>

#include <cmath>

namespace kernels {
using intent::bfloat16;
using intent::index;
using intent::parallel_for;
using intent::reduce;
using intent::view;
namespace ops = intent::ops;

[[intent::kernel]] void softmax_bf16(view<bfloat16, 2> y,
                                     view<const bfloat16, 2> x) {
  parallel_for(x.extent(0), [&](index r) {
    float m = reduce(x.extent(1), -INFINITY, ops::max{},
                     [&](index c) { return float(x(r, c)); });
    float s = reduce(x.extent(1), 0.0f, ops::plus{},
                     [&](index c) { return expf(float(x(r, c)) - m); });
    parallel_for(x.extent(1), [&](index c) {
      y(r, c) = bfloat16(expf(float(x(r, c)) - m) / s);
    });
  });
}
} // namespace kernels

void bench_entry::softmax_bf16(unsigned short *y, const unsigned short *x,
                               long long rows, long long cols) {
  using intent::bfloat16;
  kernels::softmax_bf16(
      intent::view<bfloat16, 2>(reinterpret_cast<bfloat16 *>(y), {rows, cols}),
      intent::view<const bfloat16, 2>(reinterpret_cast<const bfloat16 *>(x),
                                      {rows, cols}));
}
