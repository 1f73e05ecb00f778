// softmax_fast: softmax.cpp compiled with intentc --fast-math (approximate
// expf and division in the kernel: __expf, __fdividef), the mode Triton's
// fused softmax runs in (ex2.approx.f32, div.full.f32).
// INTENTC-FLAGS: --fast-math
#include "entry.hpp"

#include <intent/intent.hpp>

#include <cmath>

namespace kernels {
using intent::index;
using intent::parallel_for;
using intent::reduce;
using intent::view;
namespace ops = intent::ops;

[[intent::kernel]] void softmax_rows_fast(view<float, 2> out,
                                     view<const float, 2> in) {
  parallel_for(in.extent(0), [&](index r) {
    float m = reduce(in.extent(1), -INFINITY, ops::max{},
                     [&](index c) { return in(r, c); });
    float s = reduce(in.extent(1), 0.0f, ops::plus{},
                     [&](index c) { return expf(in(r, c) - m); });
    parallel_for(in.extent(1),
                 [&](index c) { out(r, c) = expf(in(r, c) - m) / s; });
  });
}
} // namespace kernels

void bench_entry::softmax_fast(float *out, const float *in, long long rows,
                               long long cols) {
  kernels::softmax_rows_fast(intent::view<float, 2>(out, {rows, cols}),
                             intent::view<const float, 2>(in, {rows, cols}));
}
