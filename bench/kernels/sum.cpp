// sum: the total of a vector, one reduce in a kernel with no parallel_for
// (the whole vector is one reduction; one launch).
#include "entry.hpp"

#include <intent/intent.hpp>

namespace kernels {
using intent::index;
using intent::reduce;
using intent::view;
namespace ops = intent::ops;

[[intent::kernel]] void sum(view<float, 1> out, view<const float, 1> x) {
  out[0] = reduce(x.extent(0), 0.0f, ops::plus{},
                  [&](index i) { return x[i]; });
}
} // namespace kernels

void bench_entry::sum(float *out, const float *x, long long n) {
  kernels::sum(intent::view<float, 1>(out, {1}),
               intent::view<const float, 1>(x, {n}));
}
