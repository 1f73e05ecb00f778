// Dropout with a counter-based RNG: y[i] = keep ? x[i] / (1 - p) : 0 with
// keep = philox(seed, 0).uniform(i) >= p. Because the i-th draw is a pure
// function of (seed, stream, i), the mask is the same in every execution mode
// (reference, CPU, GPU) and equal bit for bit to the host header's values.
// Also checks g.u32 and g.normal (exact everywhere, GPU included: the header
// computes normal() with float operations it pins down; its mean and
// variance roughly), and generators created inside a parallel_for with the
// row as stream.
#include "support.hpp"

#include <cstdint>

namespace kernels {
using intent::index;
using intent::parallel_for;
using intent::view;

[[intent::kernel]] void dropout(view<float, 1> y, view<std::uint8_t, 1> mask,
                                view<const float, 1> x, float p,
                                std::uint64_t seed) {
  intent::philox g(seed, 0);
  parallel_for(x.extent(0), [&](index i) {
    bool keep = g.uniform(i) >= p;
    mask[i] = keep;
    y[i] = keep ? x[i] / (1.0f - p) : 0.0f;
  });
}

[[intent::kernel]] void noise(view<float, 1> z, view<std::uint32_t, 1> bits,
                              std::uint64_t seed, int stream) {
  intent::philox g(seed ^ 0x9e3779b97f4a7c15ull, stream + 1);
  parallel_for(z.extent(0), [&](index i) {
    z[i] = g.normal(i);
    bits[i] = g.u32(i + 7);
  });
}

[[intent::kernel]] void row_uniform(view<float, 2> w, std::uint64_t seed) {
  parallel_for(w.extent(0), w.extent(1), [&](index r, index c) {
    intent::philox h(seed, r);
    w(r, c) = h.uniform(c) + intent::philox(seed + 1, r).uniform(2 * c);
  });
}

} // namespace kernels

static bool runSize(support::shape S, std::mt19937 &Rng) {
  const intent::index N = S.n0, Cols = S.n1;
  const float P = 0.3f;
  const std::uint64_t Seed = 0x123456789abcull + static_cast<std::uint64_t>(N);
  std::vector<float> HX = support::randomFloats(N, Rng, -2.0f, 2.0f);

  // Serial reference with the header's generator on the host.
  intent::philox G(Seed, 0);
  std::vector<float> WantY(N);
  std::vector<std::uint8_t> WantMask(N);
  for (intent::index I = 0; I < N; ++I) {
    bool Keep = G.uniform(static_cast<std::uint64_t>(I)) >= P;
    WantMask[I] = Keep;
    WantY[I] = Keep ? HX[I] / (1.0f - P) : 0.0f;
  }
  intent::philox G2(Seed ^ 0x9e3779b97f4a7c15ull, 4);
  std::vector<float> WantZ(N);
  std::vector<std::uint32_t> WantBits(N);
  for (intent::index I = 0; I < N; ++I) {
    WantZ[I] = G2.normal(static_cast<std::uint64_t>(I));
    WantBits[I] = G2.u32(static_cast<std::uint64_t>(I + 7));
  }
  std::vector<float> WantW(N * Cols);
  for (intent::index R = 0; R < N; ++R)
    for (intent::index C = 0; C < Cols; ++C)
      WantW[R * Cols + C] =
          intent::philox(Seed, R).uniform(C) +
          intent::philox(Seed + 1, R).uniform(2 * C);

  mem::array<float> X(HX), Y(N), Z(N), W(N * Cols);
  mem::array<std::uint8_t> Mask(N);
  mem::array<std::uint32_t> Bits(N);
  // Each kernel call must be exactly one launch.
  bool Launches = true;
  unsigned long long Before = support::launches();
  kernels::dropout(Y.view(), Mask.view(), X.view(), P, Seed);
  Launches = support::oneLaunch(support::launches() - Before) && Launches;
  Before = support::launches();
  kernels::noise(Z.view(), Bits.view(), Seed, 3);
  Launches = support::oneLaunch(support::launches() - Before) && Launches;
  Before = support::launches();
  kernels::row_uniform(W.view(N, Cols), Seed);
  Launches = support::oneLaunch(support::launches() - Before) && Launches;

  long Bad = support::exactMismatches(Mask.to_vector(), WantMask) +
             support::exactMismatches(Y.to_vector(), WantY) +
             support::exactMismatches(Bits.to_vector(), WantBits) +
             support::exactMismatches(W.to_vector(), WantW);
  std::vector<float> GotZ = Z.to_vector();
  Bad += support::exactMismatches(GotZ, WantZ);
  double Mean = 0, Var = 0;
  for (float V : GotZ)
    Mean += V;
  Mean = N ? Mean / N : 0;
  for (float V : GotZ)
    Var += (V - Mean) * (V - Mean);
  Var = N > 1 ? Var / (N - 1) : 1;
  long Kept = 0;
  for (std::uint8_t M : Mask.to_vector())
    Kept += M;
  // Rough distribution checks only where the sample is large.
  bool Stats = N < 10000 ||
               (std::fabs(Mean) < 0.05 && std::fabs(Var - 1) < 0.05 &&
                std::fabs(static_cast<double>(Kept) / N - (1 - P)) < 0.02);
  bool Ok = Bad == 0 && Stats && Launches;
  std::printf("dropout n=%lld cols=%lld: %s (one launch per call: %s, "
              "mismatches %ld, normal mean %.4f var %.4f, kept %ld)\n",
              static_cast<long long>(N), static_cast<long long>(Cols),
              Ok ? "ok" : "FAIL", Launches ? "yes" : "no", Bad, Mean, Var,
              Kept);
  return Ok;
}

int main(int argc, char **argv) {
  return support::runShapes(argc, argv, 2,
                            {{0, 0}, {1, 1}, {7, 3}, {1001, 5}, {200003, 2}},
                            runSize);
}
