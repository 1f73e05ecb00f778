// rmsnorm: RMSNorm over the last axis in bfloat16 (f32 math), with a weight
// vector, written as a user would: a row sum of squares, then the row
// scaled by 1 / sqrt(mean + eps) and the weight, converted back to bf16.
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

[[intent::kernel]] void rmsnorm_bf16(view<bfloat16, 2> y,
                                     view<const bfloat16, 2> x,
                                     view<const bfloat16, 1> w, float eps) {
  parallel_for(x.extent(0), [&](index r) {
    float ss = reduce(x.extent(1), 0.0f, ops::plus{}, [&](index c) {
      float v = float(x(r, c));
      return v * v;
    });
    float inv = 1.0f / sqrtf(ss / float(x.extent(1)) + eps);
    parallel_for(x.extent(1), [&](index c) {
      y(r, c) = bfloat16(float(x(r, c)) * inv * float(w[c]));
    });
  });
}
} // namespace kernels

void bench_entry::rmsnorm_bf16(unsigned short *y, const unsigned short *x,
                               const unsigned short *w, long long rows,
                               long long cols, float eps) {
  using intent::bfloat16;
  kernels::rmsnorm_bf16(
      intent::view<bfloat16, 2>(reinterpret_cast<bfloat16 *>(y), {rows, cols}),
      intent::view<const bfloat16, 2>(reinterpret_cast<const bfloat16 *>(x),
                                      {rows, cols}),
      intent::view<const bfloat16, 1>(reinterpret_cast<const bfloat16 *>(w),
                                      {cols}),
      eps);
}
