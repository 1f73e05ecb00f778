// softmax: row softmax out(r, c) = exp(in(r, c) - m_r) / s_r with
// m_r = max_c in(r, c) (a reduce with ops::max from -INFINITY) and
// s_r = sum_c exp(in(r, c) - m_r) (a reduce with ops::plus), one
// parallel_for instance per row and a nested parallel_for normalizing the
// row. The sum may be reassociated, so the result is checked against a
// serial computation within a relative 1e-5; the call must be ONE launch.
//
//   intentc examples/softmax.cpp -o softmax && ./softmax
//   ./softmax 5 3      # one size: 5 rows, 3 columns
//
// It is also plain C++ (the header's serial semantics):
//   g++ -std=c++17 -Iinclude examples/softmax.cpp
#include "support.hpp"

namespace kernels {
using intent::index;
using intent::parallel_for;
using intent::reduce;
using intent::view;
namespace ops = intent::ops;

[[intent::kernel]] void softmax_rows(view<float, 2> out,
                                     view<const float, 2> in) {
  parallel_for(in.extent(0), [&](index r) {
    float m = reduce(in.extent(1), -INFINITY, ops::max{},
                     [&](index c) { return in(r, c); });
    float s = reduce(in.extent(1), 0.0f, ops::plus{},
                     [&](index c) { return expf(in(r, c) - m); });
    parallel_for(in.extent(1),
                 [&](index c) { out(r, c) = expf(in(r, c) - m) / s; });
  });
}

} // namespace kernels

/// Runs the kernel on a random Rows x Cols matrix; true when it matches.
static bool runSize(support::shape S, std::mt19937 &Rng) {
  const intent::index Rows = S.n0, Cols = S.n1;
  // A wide range, so that exp without the max shift would overflow.
  std::vector<float> HIn = support::randomFloats(Rows * Cols, Rng, -50.0f, 90.0f);
  std::vector<float> Want(HIn.size());
  for (intent::index R = 0; R < Rows; ++R) {
    const float *X = &HIn[R * Cols];
    float M = -INFINITY;
    for (intent::index C = 0; C < Cols; ++C)
      M = std::fmax(M, X[C]);
    float Sum = 0.0f;
    for (intent::index C = 0; C < Cols; ++C)
      Sum += std::exp(X[C] - M);
    for (intent::index C = 0; C < Cols; ++C)
      Want[R * Cols + C] = std::exp(X[C] - M) / Sum;
  }

  mem::array<float> In(HIn), Out(Rows * Cols);
  unsigned long long Before = support::launches();
  kernels::softmax_rows(Out.view(Rows, Cols), In.view(Rows, Cols));
  unsigned long long Calls = support::launches() - Before;
  long Bad = support::closeMismatches(Out.to_vector(), Want, 1e-5, 1e-37);
  bool Ok = support::oneLaunch(Calls) && Bad == 0;
  // Again through strided views (stride(1) = Rows: no vector loads or
  // stores): the input and output stored column-major.
  std::vector<float> HInT(HIn.size());
  for (intent::index R = 0; R < Rows; ++R)
    for (intent::index C = 0; C < Cols; ++C)
      HInT[C * Rows + R] = HIn[R * Cols + C];
  mem::array<float> InT(HInT), OutT(Rows * Cols);
  kernels::softmax_rows(OutT.view(Cols, Rows).transpose(0, 1),
                        InT.view(Cols, Rows).transpose(0, 1));
  std::vector<float> GotT = OutT.to_vector(), Got(GotT.size());
  for (intent::index R = 0; R < Rows; ++R)
    for (intent::index C = 0; C < Cols; ++C)
      Got[R * Cols + C] = GotT[C * Rows + R];
  long BadT = support::closeMismatches(Got, Want, 1e-5, 1e-37);
  Ok = Ok && BadT == 0;
  Bad += BadT;
  std::printf("softmax rows=%lld cols=%lld: %s (launches %llu, mismatches "
              "%ld)\n",
              static_cast<long long>(Rows), static_cast<long long>(Cols),
              Ok ? "ok" : "FAIL", Calls, Bad);
  return Ok;
}

int main(int argc, char **argv) {
  return support::runShapes(argc, argv, 2,
                            {{0, 0}, {0, 5}, {3, 0}, {1, 1}, {7, 13},
                             {1, 4096}, {1000, 1}, {513, 257}, {20000, 33},
                             {3, 30001}, {2, 60001},
                             // every register variant (K = 4, 8, 16, 32) at
                             // its bounds, aligned and not, and the fallback
                             {3, 31}, {5, 128}, {4, 129}, {3, 300}, {3, 512}, {2, 513}, {9, 1024}, {3, 1025},
                             {2, 2048}, {2, 2049}, {2, 8192}, {2, 8193},
                             {2, 32768}, {2, 32769},
                             // more rows than cpu-mode CTAs (CTAs run
                             // several rows), also of 1024 threads
                             {40, 1024}, {20, 4096}, {16, 20000}, {13, 32768}},
                            runSize);
}
