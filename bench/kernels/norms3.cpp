// norms3: the Euclidean norm of every point of an n x 3 array
// (torch.linalg.vector_norm(p, dim=1)): a row reduction of a constant
// three members, written as a user would.
#include "entry.hpp"

#include <intent/intent.hpp>

#include <cmath>

namespace kernels {
using intent::index;
using intent::parallel_for;
using intent::reduce;
using intent::view;
namespace ops = intent::ops;

[[intent::kernel]] void point_norms(view<float, 1> out,
                                    view<const float, 2> p) {
  parallel_for(p.extent(0), [&](index i) {
    out[i] = std::sqrt(reduce(3, 0.0f, ops::plus{},
                              [&](index j) { return p(i, j) * p(i, j); }));
  });
}
} // namespace kernels

void bench_entry::norms3(float *out, const float *p, long long n) {
  kernels::point_norms(intent::view<float, 1>(out, {n}),
                       intent::view<const float, 2>(p, {n, 3}));
}
