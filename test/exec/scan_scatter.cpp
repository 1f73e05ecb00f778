// Execution test: scan + scatter in one kernel (issue 18, item 3; grid-scan,
// docs/passes.md §12). The emit writes at the scanned position: stream
// compaction (keep x > 0, exclusive i64 count, the count written by the
// last member), an inclusive count (positions from 1: out[pos - 1]), a
// predicate on integers with an i32 count spelled as a bool converted,
// indices of the kept members ("where"), a reverse compaction (the count
// written by member 0, the last visited), and a compaction into an offset
// window (out[base + pos]). Each output must equal the serial loop's
// exactly; the elements past the count keep their initial values. Sizes 0,
// 1, a tile's edge (2048) +-1, several tiles and, on the GPU, thousands.
#include "../../examples/support.hpp"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

namespace kernels {
using intent::index;
using intent::scan;
using intent::view;
namespace ops = intent::ops;

[[intent::kernel]] void compact(view<float, 1> out, view<std::int64_t, 1> count,
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

/// Inclusive counts: a kept member's position is its count minus one.
[[intent::kernel]] void compact_inclusive(view<float, 1> out,
                                          view<std::int64_t, 1> count,
                                          view<const float, 1> x) {
  index n = x.extent(0);
  scan(
      n, std::int64_t(0), ops::plus{},
      [&](index k) { return x[k] > 0.5f ? std::int64_t(1) : std::int64_t(0); },
      [&](index k, std::int64_t c) {
        if (x[k] > 0.5f)
          out[c - 1] = x[k] * 2.0f;
        if (k == n - 1)
          count[0] = c;
      });
}

/// Multiples of 3, an i32 count of bools converted.
[[intent::kernel]] void multiples(view<std::int32_t, 1> out,
                                  view<std::int32_t, 1> count,
                                  view<const std::int32_t, 1> x) {
  index n = x.extent(0);
  scan(
      n, 0, ops::plus{}, [&](index k) { return std::int32_t(x[k] % 3 == 0); },
      [&](index k, std::int32_t pos) {
        if (x[k] % 3 == 0)
          out[pos] = x[k];
        if (k == n - 1)
          count[0] = pos + std::int32_t(x[k] % 3 == 0);
      },
      intent::scan_kind::exclusive);
}

/// The indices of the negative members.
[[intent::kernel]] void where_negative(view<std::int64_t, 1> idx,
                                       view<const float, 1> x) {
  scan(
      x.extent(0), std::int64_t(0), ops::plus{},
      [&](index k) { return x[k] < 0.0f ? std::int64_t(1) : std::int64_t(0); },
      [&](index k, std::int64_t pos) {
        if (x[k] < 0.0f)
          idx[pos] = k;
      },
      intent::scan_kind::exclusive);
}

/// From the end: out[0] is the last kept member; member 0 writes the count.
[[intent::kernel]] void compact_reverse(view<float, 1> out,
                                        view<std::int64_t, 1> count,
                                        view<const float, 1> x) {
  scan(
      x.extent(0), std::int64_t(0), ops::plus{},
      [&](index k) { return x[k] > 0.0f ? std::int64_t(1) : std::int64_t(0); },
      [&](index k, std::int64_t pos) {
        if (x[k] > 0.0f)
          out[pos] = x[k];
        if (k == 0)
          count[0] = pos + (x[k] > 0.0f ? 1 : 0);
      },
      intent::scan_kind::exclusive, intent::direction::reverse);
}

/// Into a window of out starting at base.
[[intent::kernel]] void compact_at(view<float, 1> out, view<const float, 1> x,
                                   index base) {
  scan(
      x.extent(0), std::int64_t(0), ops::plus{},
      [&](index k) { return x[k] > 0.0f ? std::int64_t(1) : std::int64_t(0); },
      [&](index k, std::int64_t pos) {
        if (x[k] > 0.0f)
          out[base + pos] = x[k];
      },
      intent::scan_kind::exclusive);
}
} // namespace kernels

namespace {

void run(long N, std::mt19937 &Rng) {
  using support::expect;
  std::vector<float> X = support::randomFloats(N, Rng, -1.0f, 1.0f);
  mem::array<float> DX(X);
  {
    mem::array<float> Out(std::vector<float>(N + 1, -7.0f));
    mem::array<std::int64_t> Count(std::vector<std::int64_t>(1, -1));
    kernels::compact(intent::view<float, 1>(Out.data(), {N + 1}),
                     intent::view<std::int64_t, 1>(Count.data(), {1}),
                     intent::view<const float, 1>(DX.data(), {N}));
    std::vector<float> Want(N + 1, -7.0f);
    std::int64_t C = 0;
    for (long K = 0; K < N; ++K)
      if (X[K] > 0.0f)
        Want[C++] = X[K];
    expect(Out.to_vector() == Want, "compact", N);
    expect(Count.to_vector()[0] == (N ? C : -1), "compact count", N);
  }
  {
    mem::array<float> Out(std::vector<float>(N + 1, -7.0f));
    mem::array<std::int64_t> Count(std::vector<std::int64_t>(1, -1));
    kernels::compact_inclusive(intent::view<float, 1>(Out.data(), {N + 1}),
                               intent::view<std::int64_t, 1>(Count.data(), {1}),
                               intent::view<const float, 1>(DX.data(), {N}));
    std::vector<float> Want(N + 1, -7.0f);
    std::int64_t C = 0;
    for (long K = 0; K < N; ++K)
      if (X[K] > 0.5f)
        Want[C++] = X[K] * 2.0f;
    expect(Out.to_vector() == Want, "compact_inclusive", N);
    expect(Count.to_vector()[0] == (N ? C : -1), "compact_inclusive count", N);
  }
  {
    std::vector<int> I = support::randomInts(N, Rng, -1000, 1000);
    std::vector<std::int32_t> I32(I.begin(), I.end());
    mem::array<std::int32_t> DI(I32), Out(std::vector<std::int32_t>(N + 1, 99)),
        Count(std::vector<std::int32_t>(1, -1));
    kernels::multiples(intent::view<std::int32_t, 1>(Out.data(), {N + 1}),
                       intent::view<std::int32_t, 1>(Count.data(), {1}),
                       intent::view<const std::int32_t, 1>(DI.data(), {N}));
    std::vector<std::int32_t> Want(N + 1, 99);
    std::int32_t C = 0;
    for (long K = 0; K < N; ++K)
      if (I32[K] % 3 == 0)
        Want[C++] = I32[K];
    expect(Out.to_vector() == Want, "multiples", N);
    expect(Count.to_vector()[0] == (N ? C : -1), "multiples count", N);
  }
  {
    mem::array<std::int64_t> Idx(std::vector<std::int64_t>(N + 1, -5));
    kernels::where_negative(intent::view<std::int64_t, 1>(Idx.data(), {N + 1}),
                            intent::view<const float, 1>(DX.data(), {N}));
    std::vector<std::int64_t> Want(N + 1, -5);
    std::int64_t C = 0;
    for (long K = 0; K < N; ++K)
      if (X[K] < 0.0f)
        Want[C++] = K;
    expect(Idx.to_vector() == Want, "where_negative", N);
  }
  {
    mem::array<float> Out(std::vector<float>(N + 1, -7.0f));
    mem::array<std::int64_t> Count(std::vector<std::int64_t>(1, -1));
    kernels::compact_reverse(intent::view<float, 1>(Out.data(), {N + 1}),
                             intent::view<std::int64_t, 1>(Count.data(), {1}),
                             intent::view<const float, 1>(DX.data(), {N}));
    std::vector<float> Want(N + 1, -7.0f);
    std::int64_t C = 0;
    for (long K = N - 1; K >= 0; --K)
      if (X[K] > 0.0f)
        Want[C++] = X[K];
    expect(Out.to_vector() == Want, "compact_reverse", N);
    expect(Count.to_vector()[0] == (N ? C : -1), "compact_reverse count", N);
  }
  {
    const long Base = 5;
    mem::array<float> Out(std::vector<float>(N + Base, -7.0f));
    kernels::compact_at(intent::view<float, 1>(Out.data(), {N + Base}),
                        intent::view<const float, 1>(DX.data(), {N}), Base);
    std::vector<float> Want(N + Base, -7.0f);
    std::int64_t C = 0;
    for (long K = 0; K < N; ++K)
      if (X[K] > 0.0f)
        Want[Base + C++] = X[K];
    expect(Out.to_vector() == Want, "compact_at", N);
  }
}

} // namespace

int main() {
  std::mt19937 Rng(1819);
  for (long N : {0L, 1L, 2L, 2047L, 2048L, 2049L, 6000L, 100003L})
    run(N, Rng);
  // On the GPU, thousands of tiles in flight (INTENT_QUICK, the sanitizer
  // runs, skips them).
  if (intent::rt::mode() == intent::rt::device_mode::gpu &&
      !std::getenv("INTENT_QUICK"))
    for (long N : {(1L << 22) + 3, (1L << 24) + 5})
      run(N, Rng);
  if (support::mismatches())
    return 1;
  std::printf("scan_scatter: ok\n");
  return 0;
}
