// Execution test: C-style integer indices (issue 15, item 15). Kernels take
// their parallel_for indices as int, unsigned, short and long, and an int
// reduce index; construction analyses the conversion of an index as the
// index itself (the launcher checks that the extent fits the type), so each
// kernel runs one program instance per element (cpu and gpu modes) instead
// of one instance for the whole loop. Sizes 0, 1, odd and large; checked
// exactly against a serial computation. With the runtime, a short index
// over 40000 elements must be refused at launch with an intent::rt::error
// naming the kernel, the extent and the type (cpu and gpu modes; reference
// mode runs the serial body, which has no launch to check).
#include "../../examples/support.hpp"

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

namespace kernels {
using intent::index;
using intent::parallel_for;
using intent::view;

[[intent::kernel]] void saxpy_int(view<float, 1> y, view<const float, 1> x,
                                  float a, int n) {
  parallel_for(n, [&](int i) { y[i] = a * x[i] + y[i]; });
}

[[intent::kernel]] void shift_unsigned(view<std::int32_t, 1> out,
                                       view<const std::int32_t, 1> in) {
  parallel_for(out.extent(0), [&](unsigned i) { out[i] = in[i] + 2 * i; });
}

[[intent::kernel]] void neg_short(view<std::int32_t, 1> out,
                                  view<const std::int32_t, 1> in) {
  parallel_for(out.extent(0), [&](short i) { out[i] = -in[i]; });
}

[[intent::kernel]] void add_2d(view<std::int64_t, 2> c,
                               view<const std::int64_t, 2> a, long m,
                               long n) {
  parallel_for(m, n, [&](int i, int j) { c(i, j) = a(i, j) + i - j; });
}

[[intent::kernel]] void row_sums(view<std::int64_t, 1> out,
                                 view<const std::int64_t, 2> a) {
  parallel_for(a.extent(0), [&](int i) {
    out[i] = intent::reduce(a.extent(1), std::int64_t(0), intent::ops::plus{},
                            [&](int k) { return a(i, k); });
  });
}

} // namespace kernels

using support::programsSince;

using support::expect;

/// Parallel kernels launch one program per element (or fewer, widened):
/// more than one for n >= 2, where a serialized kernel launches one.
static void expectParallel(const char *What, long N) {
  long P = programsSince();
  if (P >= 0 && N >= 2)
    expect(P >= 2, What, N);
}

/// A 2-D pointwise kernel runs tiles of at most 1024 instances per program
/// (the tile pass, docs/passes.md §9): more than one program beyond that.
static void expectTiled(const char *What, long N) {
  long P = programsSince();
  if (P >= 0 && N > 1024)
    expect(P >= 2, What, N);
}

/// Row reductions of a runtime length run on lane teams, up to 256 rows per
/// program (region-teams, docs/passes.md §10), or a CTA per row for rows of
/// 256 members or more: more than one program beyond 256 rows.
static void expectRowTeams(const char *What, long Rows) {
  long P = programsSince();
  if (P >= 0 && Rows > 256)
    expect(P >= 2, What, Rows);
}

static void run1d(long N) {
  std::vector<float> HX(N), HY(N);
  std::vector<std::int32_t> HI(N);
  for (long I = 0; I < N; ++I) {
    HX[I] = static_cast<float>(I % 17) - 8.0f;
    HY[I] = static_cast<float>(I % 5);
    HI[I] = static_cast<std::int32_t>(I * 7 % 1001) - 500;
  }
  mem::array<float> X(HX), Y(HY);
  programsSince();
  kernels::saxpy_int(intent::view<float, 1>(Y.data(), {N}),
                     intent::view<const float, 1>(X.data(), {N}), 2.0f,
                     static_cast<int>(N));
  expectParallel("saxpy_int programs", N);
  std::vector<float> GY = Y.to_vector();
  for (long I = 0; I < N; ++I)
    expect(GY[I] == 2.0f * HX[I] + HY[I], "saxpy_int", N);

  mem::array<std::int32_t> In(HI), Out(N + 1);
  kernels::shift_unsigned(intent::view<std::int32_t, 1>(Out.data(), {N}),
                          intent::view<const std::int32_t, 1>(In.data(), {N}));
  expectParallel("shift_unsigned programs", N);
  std::vector<std::int32_t> G = Out.to_vector();
  for (long I = 0; I < N; ++I)
    expect(G[I] == static_cast<std::int32_t>(HI[I] + 2 * I), "shift_unsigned",
           N);
  expect(G[N] == 0, "shift_unsigned past the end", N);

  if (N <= 32767) {
    kernels::neg_short(intent::view<std::int32_t, 1>(Out.data(), {N}),
                       intent::view<const std::int32_t, 1>(In.data(), {N}));
    expectParallel("neg_short programs", N);
    G = Out.to_vector();
    for (long I = 0; I < N; ++I)
      expect(G[I] == -HI[I], "neg_short", N);
  }
}

static void run2d(long M, long N) {
  std::vector<std::int64_t> HA(M * N);
  for (long I = 0; I < M * N; ++I)
    HA[I] = (I * 131) % 977 - 400;
  mem::array<std::int64_t> A(HA), C(M * N + 1), S(M + 1);
  intent::view<const std::int64_t, 2> AV(A.data(), {M, N});
  programsSince();
  kernels::add_2d(intent::view<std::int64_t, 2>(C.data(), {M, N}), AV, M, N);
  expectTiled("add_2d programs", M * N);
  std::vector<std::int64_t> G = C.to_vector();
  for (long I = 0; I < M; ++I)
    for (long J = 0; J < N; ++J)
      expect(G[I * N + J] == HA[I * N + J] + I - J, "add_2d", M * N);
  kernels::row_sums(intent::view<std::int64_t, 1>(S.data(), {M}), AV);
  expectRowTeams("row_sums programs", M);
  G = S.to_vector();
  for (long I = 0; I < M; ++I) {
    std::int64_t Want = 0;
    for (long J = 0; J < N; ++J)
      Want += HA[I * N + J];
    expect(G[I] == Want, "row_sums", M);
  }
}

/// A short index cannot number 40000 elements: the launch is refused.
static void runTooLarge() {
#if EXAMPLE_HAS_RUNTIME
  if (intent::rt::mode() == intent::rt::device_mode::reference)
    return;
  const long N = 40000;
  mem::array<std::int32_t> In(N), Out(N);
  try {
    kernels::neg_short(intent::view<std::int32_t, 1>(Out.data(), {N}),
                       intent::view<const std::int32_t, 1>(In.data(), {N}));
    expect(false, "short index over 40000 elements was not refused", N);
  } catch (const intent::rt::error &E) {
    std::string W = E.what();
    bool Named = W.find("neg_short") != std::string::npos &&
                 W.find("40000") != std::string::npos &&
                 W.find("int16_t") != std::string::npos;
    if (!Named)
      std::printf("unexpected message: %s\n", W.c_str());
    expect(Named, "the refusal names the kernel, the extent and the type", N);
  }
#endif
}

int main() {
  for (long N : {0L, 1L, 7L, 1001L, 1000003L})
    run1d(N);
  run2d(0, 5);
  run2d(1, 1);
  run2d(3, 7);
  run2d(129, 257);
  run2d(300, 5);   // lane teams: 256 rows per program
  run2d(300, 300); // the long-row alternative: a CTA per row
  runTooLarge();
  std::printf("int_index: %s\n", support::mismatches() ? "MISMATCH" : "ok");
  return support::mismatches() ? 1 : 0;
}
