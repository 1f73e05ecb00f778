// histogram_even: `bins.extent(0)` equal bins over [0, 1): bins[b] counts the
// x[i] with int(x[i] * bins) == b (intent::histogram drops out-of-range
// bins). The compiler keeps a copy of the bins per CTA in shared memory
// when they fit (privatize-atomics), else updates them with global atomics.
#include "entry.hpp"

#include <intent/intent.hpp>

namespace kernels {
using intent::index;
using intent::view;

[[intent::kernel]] void histogram_even(view<int, 1> bins,
                                       view<const float, 1> x) {
  const float scale = static_cast<float>(bins.extent(0));
  intent::histogram(bins, x.extent(0), [&](index i) {
    return static_cast<int>(x[i] * scale);
  });
}
} // namespace kernels

void bench_entry::histogram_even(int *bins, const float *x, long long n,
                                 long long nbins) {
  kernels::histogram_even(intent::view<int, 1>(bins, {nbins}),
                          intent::view<const float, 1>(x, {n}));
}
