// compact: stream compaction (keep x > 0) as a scan + scatter: an exclusive
// count of the kept members, each kept member written at its count, the
// total written by the last member.
#include "entry.hpp"

#include <cstdint>
#include <intent/intent.hpp>

namespace kernels {
using intent::index;
using intent::scan;
using intent::view;
namespace ops = intent::ops;

[[intent::kernel]] void keep_positive(view<float, 1> out,
                                      view<std::int64_t, 1> count,
                                      view<const float, 1> x) {
  index n = x.extent(0);
  scan(
      n, std::int64_t(0), ops::plus{},
      [&](index k) { return x[k] > 0.0f ? std::int64_t(1) : std::int64_t(0); },
      [&](index k, std::int64_t pos) {
        if (x[k] > 0.0f)
          out[pos] = x[k];
        if (k == n - 1)
          count[0] = pos + (x[k] > 0.0f ? 1 : 0);
      },
      intent::scan_kind::exclusive);
}
} // namespace kernels

void bench_entry::compact(float *out, long long *count, const float *x,
                          long long n) {
  kernels::keep_positive(intent::view<float, 1>(out, {n}),
                         intent::view<std::int64_t, 1>(
                             reinterpret_cast<std::int64_t *>(count), {1}),
                         intent::view<const float, 1>(x, {n}));
}
