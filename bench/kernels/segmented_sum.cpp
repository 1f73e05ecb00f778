// segmented_sum: the sum of every CSR row, y[r] = sum of x over
// [offsets[r], offsets[r + 1]), as a region_fold over the row offsets.
#include "entry.hpp"

#include <intent/intent.hpp>

namespace kernels {
using intent::index;
using intent::region_fold;
using intent::view;
namespace ops = intent::ops;

[[intent::kernel]] void row_sums(view<float, 1> y, view<const int, 1> offsets,
                                 view<const float, 1> x) {
  region_fold(offsets, 0.0f, ops::plus{}, [&](index k) { return x[k]; },
              [&](index r, float s) { y[r] = s; });
}
} // namespace kernels

void bench_entry::segmented_sum(float *y, const int *offsets, const float *x,
                                long long rows, long long n) {
  kernels::row_sums(intent::view<float, 1>(y, {rows}),
                    intent::view<const int, 1>(offsets, {rows + 1}),
                    intent::view<const float, 1>(x, {n}));
}
