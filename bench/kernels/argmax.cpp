// argmax: the largest element of a vector and its position (the first among
// equal values; a NaN wins), one argmax in a kernel with no parallel_for.
#include "entry.hpp"

#include <intent/intent.hpp>

namespace kernels {
using intent::argmax;
using intent::index;
using intent::nan_policy;
using intent::tie;
using intent::view;

[[intent::kernel]] void argmax_all(view<float, 1> value, view<index, 1> pos,
                                   view<const float, 1> x) {
  auto best = argmax(x.extent(0), [&](index i) { return x[i]; }, tie::first,
                     nan_policy::propagate);
  value[0] = best.value;
  pos[0] = best.pos;
}
} // namespace kernels

void bench_entry::argmax(float *value, long long *pos, const float *x,
                         long long n) {
  static_assert(sizeof(long long) == sizeof(intent::index),
                "positions are 64-bit");
  kernels::argmax_all(
      intent::view<float, 1>(value, {1}),
      intent::view<intent::index, 1>(reinterpret_cast<intent::index *>(pos),
                                     {1}),
      intent::view<const float, 1>(x, {n}));
}
