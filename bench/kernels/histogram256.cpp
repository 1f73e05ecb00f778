// histogram256: 256 equal bins over [0, 1): bins[b] counts the x[i] with
// int(x[i] * 256) == b (intent::histogram drops out-of-range bins).
#include "entry.hpp"

#include <intent/intent.hpp>

namespace kernels {
using intent::index;
using intent::view;

[[intent::kernel]] void histogram256(view<int, 1> bins,
                                     view<const float, 1> x) {
  intent::histogram(bins, x.extent(0), [&](index i) {
    return static_cast<int>(x[i] * 256.0f);
  });
}
} // namespace kernels

void bench_entry::histogram256(int *bins, const float *x, long long n) {
  kernels::histogram256(intent::view<int, 1>(bins, {256}),
                        intent::view<const float, 1>(x, {n}));
}
