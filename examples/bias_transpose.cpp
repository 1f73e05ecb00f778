// bias_transpose: nested 2-D parallel iteration over a strided input.
// out(r, c) = in(r, c) + bias[c] is written by a parallel_for over rows with
// a parallel_for over columns nested inside; the transpose out_t(c, r) =
// in(r, c) goes through a transposed sub-view of the output. The input's rows
// are not contiguous (its row stride exceeds its width). Results are
// checked exactly (one rounding per element) against a serial computation on
// random inputs of several shapes.
//
//   intentc examples/bias_transpose.cpp -o bias_transpose && ./bias_transpose
//   ./bias_transpose 5 3   # one shape: 5 rows, 3 columns
//
// It is also plain C++ (the header's serial semantics):
//   g++ -std=c++17 -Iinclude examples/bias_transpose.cpp
#include "support.hpp"

#include <cstdio>
#include <cstdlib>
#include <random>
#include <vector>

namespace kernels {
using intent::index;
using intent::parallel_for;
using intent::view;

[[intent::kernel]] void bias_transpose(view<float, 2> out,
                                       view<float, 2> out_t,
                                       view<const float, 2> in,
                                       view<const float, 1> bias) {
  parallel_for(in.extent(0), [&](index r) {
    parallel_for(in.extent(1),
                 [&](index c) { out(r, c) = in(r, c) + bias[c]; });
  });
  // t(r, c) is out_t(c, r).
  view<float, 2> t = out_t.transpose();
  parallel_for(in.extent(0), in.extent(1),
               [&](index r, index c) { t(r, c) = in(r, c); });
}

} // namespace kernels

/// Runs the kernel on a random Rows x Cols input; returns true when both
/// outputs equal the serial computation exactly.
static bool runShape(intent::index Rows, intent::index Cols,
                     std::mt19937 &Rng) {
  // The input is element (R, C) = HBuf[1 + R * Width + C]: rows of Cols
  // elements, Width apart, after one leading element (never null, even for
  // an empty shape).
  const intent::index Width = Cols + 3;
  std::uniform_real_distribution<float> Dist(-10.0f, 10.0f);
  std::vector<float> HBuf(1 + Rows * Width), HBias(Cols);
  for (float &V : HBuf)
    V = Dist(Rng);
  for (float &V : HBias)
    V = Dist(Rng);

  std::vector<float> Want(Rows * Cols), WantT(Cols * Rows);
  for (intent::index R = 0; R < Rows; ++R)
    for (intent::index C = 0; C < Cols; ++C) {
      float In = HBuf[R * Width + 1 + C];
      Want[R * Cols + C] = In + HBias[C];
      WantT[C * Rows + R] = In;
    }

  mem::array<float> Buf(HBuf), Bias(HBias), Out(Rows * Cols),
      OutT(Cols * Rows);
  intent::view<const float, 2> In(Buf.view().data() + 1, {Rows, Cols},
                                  {Width, 1});
  kernels::bias_transpose(Out.view(Rows, Cols), OutT.view(Cols, Rows), In,
                          Bias.view());
  std::vector<float> Got = Out.to_vector(), GotT = OutT.to_vector();
  long Bad = 0, BadT = 0;
  for (std::size_t I = 0; I < Want.size(); ++I) {
    Bad += Got[I] != Want[I];
    BadT += GotT[I] != WantT[I];
  }
  bool Ok = Bad == 0 && BadT == 0;
  std::printf("bias_transpose %lldx%lld: %s (mismatches: out %ld, out_t %ld)\n",
              static_cast<long long>(Rows), static_cast<long long>(Cols),
              Ok ? "ok" : "FAIL", Bad, BadT);
  return Ok;
}

int main(int argc, char **argv) {
  std::mt19937 Rng(7);
  if (argc == 3)
    return runShape(std::atol(argv[1]), std::atol(argv[2]), Rng) ? 0 : 1;
  const intent::index Shapes[][2] = {{0, 0},  {0, 5},  {5, 0},    {1, 1},
                                     {7, 13}, {33, 1}, {1, 257}, {701, 513}};
  bool Ok = true;
  for (const auto &S : Shapes)
    Ok = runShape(S[0], S[1], Rng) && Ok;
  return Ok ? 0 : 1;
}
