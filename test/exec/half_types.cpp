// Execution test: intent::half and intent::bfloat16 in kernels. Loads and
// stores of 16-bit views, arithmetic through float (as C++ does), locals,
// scalar parameters, comparisons, conversions to and from integers and
// double, a transposed half view. Every result must equal the serial
// computation bit for bit (the same header conversions run everywhere).
#include "../../examples/support.hpp"

#include <cstdint>

namespace kernels {
using intent::bfloat16;
using intent::half;
using intent::index;
using intent::parallel_for;
using intent::view;

[[intent::kernel]] void half_ops(view<half, 1> h, view<bfloat16, 1> b,
                                 view<float, 1> f, view<std::int32_t, 1> n,
                                 view<const half, 1> x,
                                 view<const bfloat16, 1> y, half scale) {
  parallel_for(x.extent(0), [&](index i) {
    half a = x[i];
    float s = a * scale + y[i];
    half t = s;               // rounds to half
    h[i] = t > a ? t : half(0.5f * s);
    b[i] = static_cast<bfloat16>(s * 3.0f);
    double d = y[i];
    f[i] = static_cast<float>(d * 2.0) + static_cast<float>(h[i]);
    n[i] = static_cast<std::int32_t>(b[i]) + static_cast<std::int32_t>(i);
  });
}

[[intent::kernel]] void half_transpose(view<half, 2> out,
                                       view<const half, 2> in) {
  view<const half, 2> t = in.transpose();
  parallel_for(out.extent(0), out.extent(1), [&](index r, index c) {
    out(r, c) = t(r, c) + half(static_cast<float>(r));
  });
}

} // namespace kernels

template <class T> static std::vector<std::uint16_t> bits(const std::vector<T> &V) {
  std::vector<std::uint16_t> B;
  for (const T &X : V)
    B.push_back(X.bits);
  return B;
}

static bool runSize(support::shape S, std::mt19937 &Rng) {
  using intent::bfloat16;
  using intent::half;
  const intent::index N = S.n0, M = S.n1 ? S.n1 : 1;
  std::vector<float> FX = support::randomFloats(N, Rng, -300.0f, 300.0f);
  std::vector<float> FY = support::randomFloats(N, Rng, -1e4f, 1e4f);
  std::vector<half> HX(FX.begin(), FX.end());
  std::vector<bfloat16> HY(FY.begin(), FY.end());
  const half Scale = 1.375f;
  std::vector<half> WantH(N);
  std::vector<bfloat16> WantB(N);
  std::vector<float> WantF(N);
  std::vector<std::int32_t> WantN(N);
  for (intent::index I = 0; I < N; ++I) {
    half A = HX[I];
    float S2 = A * Scale + HY[I];
    half T = S2;
    WantH[I] = T > A ? T : half(0.5f * S2);
    WantB[I] = static_cast<bfloat16>(S2 * 3.0f);
    double D = HY[I];
    WantF[I] = static_cast<float>(D * 2.0) + static_cast<float>(WantH[I]);
    WantN[I] = static_cast<std::int32_t>(WantB[I]) + static_cast<std::int32_t>(I);
  }
  std::vector<float> FT = support::randomFloats(N * M, Rng, -100.0f, 100.0f);
  std::vector<half> HT(FT.begin(), FT.end()); // M x N, read transposed
  std::vector<half> WantT(N * M);
  for (intent::index R = 0; R < N; ++R)
    for (intent::index C = 0; C < M; ++C)
      WantT[R * M + C] = HT[C * N + R] + half(static_cast<float>(R));

  mem::array<half> H(N), X(HX), T(HT), Out(N * M);
  mem::array<bfloat16> B(N), Y(HY);
  mem::array<float> F(N);
  mem::array<std::int32_t> Nn(N);
  unsigned long long Before = support::launches();
  kernels::half_ops(H.view(), B.view(), F.view(), Nn.view(), X.view(),
                    Y.view(), Scale);
  bool Launches = support::oneLaunch(support::launches() - Before);
  Before = support::launches();
  kernels::half_transpose(Out.view(N, M), T.view(M, N));
  Launches = support::oneLaunch(support::launches() - Before) && Launches;
  long Bad = support::exactMismatches(bits(H.to_vector()), bits(WantH)) +
             support::exactMismatches(bits(B.to_vector()), bits(WantB)) +
             support::exactMismatches(F.to_vector(), WantF) +
             support::exactMismatches(Nn.to_vector(), WantN) +
             support::exactMismatches(bits(Out.to_vector()), bits(WantT));
  bool Ok = Bad == 0 && Launches;
  std::printf("half_types n=%lld m=%lld: %s (mismatches %ld)\n",
              static_cast<long long>(N), static_cast<long long>(M),
              Ok ? "ok" : "FAIL", Bad);
  return Ok;
}

int main(int argc, char **argv) {
  return support::runShapes(argc, argv, 2,
                            {{0, 0}, {1, 1}, {17, 3}, {1000, 7}, {65537, 2}},
                            runSize);
}
