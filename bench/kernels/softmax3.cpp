// softmax3: softmax over the last axis of a rank-3 tensor [B, R, N] (a batch
// of matrices, e.g. attention scores), written as a user writes it: one
// parallel_for instance per (b, r), two reduces, a nested parallel_for.
#include "entry.hpp"

#include <intent/intent.hpp>

#include <cmath>

namespace kernels {
using intent::index;
using intent::parallel_for;
using intent::reduce;
using intent::view;
namespace ops = intent::ops;

[[intent::kernel]] void softmax_last_axis(view<float, 3> out,
                                          view<const float, 3> in) {
  parallel_for(in.extent(0), in.extent(1), [&](index b, index r) {
    float m = reduce(in.extent(2), -INFINITY, ops::max{},
                     [&](index c) { return in(b, r, c); });
    float s = reduce(in.extent(2), 0.0f, ops::plus{},
                     [&](index c) { return expf(in(b, r, c) - m); });
    parallel_for(in.extent(2),
                 [&](index c) { out(b, r, c) = expf(in(b, r, c) - m) / s; });
  });
}
} // namespace kernels

void bench_entry::softmax3(float *out, const float *in, long long b,
                           long long r, long long n) {
  kernels::softmax_last_axis(intent::view<float, 3>(out, {b, r, n}),
                             intent::view<const float, 3>(in, {b, r, n}));
}
