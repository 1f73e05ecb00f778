// softmax: row softmax, out(r, c) = exp(in(r, c) - max_r) / sum_r, written
// as examples/softmax.cpp writes it: one parallel_for instance per row, two
// reduces, a nested parallel_for normalizing the row.
#include "entry.hpp"

#include <intent/intent.hpp>

#include <cmath>

namespace kernels {
using intent::index;
using intent::parallel_for;
using intent::reduce;
using intent::view;
namespace ops = intent::ops;

[[intent::kernel]] void softmax_rows(view<float, 2> out,
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

void bench_entry::softmax(float *out, const float *in, long long rows,
                          long long cols) {
  kernels::softmax_rows(intent::view<float, 2>(out, {rows, cols}),
                        intent::view<const float, 2>(in, {rows, cols}));
}
