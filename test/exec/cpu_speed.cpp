// cpu_speed: cpu mode must run kernels at a usable speed (issue 15 item
// 12): within 20x of the same computation written as a serial host loop.
// Two kernels that a one-fiber-per-CUDA-thread cpu mode ran hundreds of
// times slower than that (a k-means assignment step: an argmin over the
// centroids per point, one CTA per point; a CSR SpMV over rows of about 3
// nonzeros): each is checked exactly against the host loop, and in cpu
// mode its best time of 3 calls must be at most 20x the host loop's best
// time plus a generous floor of 0.25 s (a loaded 2-core CI machine). With
// INTENT_CPU_FIBERS=1 (the cooperative code on fibers, slow on purpose)
// and in the other modes only the results are checked.
//
//   intentc test/exec/cpu_speed.cpp -o cpu_speed && INTENT_DEVICE=cpu ./cpu_speed
//   ./cpu_speed 20000    # another number of points and rows
#include "../../examples/support.hpp"

#include <algorithm>
#include <chrono>

namespace kernels {
using intent::index;
using intent::view;

[[intent::kernel]] void assign(view<index, 1> label, view<const float, 2> pts,
                               view<const float, 2> cent) {
  intent::parallel_for(pts.extent(0), [&](index i) {
    auto best = intent::argmin(
        cent.extent(0),
        [&](index c) {
          float d0 = pts(i, 0) - cent(c, 0);
          float d1 = pts(i, 1) - cent(c, 1);
          float d2 = pts(i, 2) - cent(c, 2);
          float d3 = pts(i, 3) - cent(c, 3);
          return d0 * d0 + d1 * d1 + d2 * d2 + d3 * d3;
        },
        intent::tie::first);
    label[i] = best.pos;
  });
}

[[intent::kernel]] void spmv(view<float, 1> y, view<const int, 1> rowptr,
                             view<const int, 1> col, view<const float, 1> val,
                             view<const float, 1> x) {
  intent::parallel_for(y.extent(0), [&](index r) {
    y[r] = intent::reduce(intent::range{rowptr[r], rowptr[r + 1]}, 0.0f,
                          intent::ops::plus{},
                          [&](index k) { return val[k] * x[col[k]]; });
  });
}

} // namespace kernels

namespace {

using Clock = std::chrono::steady_clock;

double seconds(Clock::time_point A, Clock::time_point B) {
  return std::chrono::duration<double>(B - A).count();
}

/// Whether the speed rule applies: cpu mode with its default host serial
/// form of cooperative programs.
bool timed() {
#if EXAMPLE_HAS_RUNTIME
  const char *Fibers = std::getenv("INTENT_CPU_FIBERS");
  return intent::rt::mode() == intent::rt::device_mode::cpu &&
         !(Fibers && Fibers[0] == '1');
#else
  return false;
#endif
}

/// Compares the kernel's and the host loop's best times; true when the
/// kernel is fast enough (or the rule does not apply).
bool fastEnough(const char *Name, double Kernel, double Host) {
  const double Limit = 20 * Host + 0.25;
  bool Ok = !timed() || Kernel <= Limit;
  std::printf("%s: kernel %.4f s, host loop %.4f s, limit %.4f s%s: %s\n",
              Name, Kernel, Host, Limit, timed() ? "" : " (not timed)",
              Ok ? "ok" : "FAIL (cpu mode too slow)");
  return Ok;
}

bool runKmeans(intent::index N, std::mt19937 &Rng) {
  const intent::index K = 16;
  std::vector<float> P = support::randomFloats(N * 4, Rng, -1, 1);
  std::vector<float> C = support::randomFloats(K * 4, Rng, -1, 1);
  std::vector<intent::index> Want(N);
  double Host = 1e30, Kernel = 1e30;
  for (int Rep = 0; Rep < 3; ++Rep) {
    auto T0 = Clock::now();
    for (intent::index I = 0; I < N; ++I) {
      float Best = 0;
      intent::index Pos = -1;
      for (intent::index J = 0; J < K; ++J) {
        float S = 0;
        for (int D = 0; D < 4; ++D) {
          float E = P[I * 4 + D] - C[J * 4 + D];
          S += E * E;
        }
        if (Pos < 0 || S < Best) {
          Best = S;
          Pos = J;
        }
      }
      Want[I] = Pos;
    }
    Host = std::min(Host, seconds(T0, Clock::now()));
  }
  mem::array<float> DP(P), DC(C);
  mem::array<intent::index> L(N);
  bool Ok = true;
  for (int Rep = 0; Rep < 3; ++Rep) {
    unsigned long long Before = support::launches();
    auto T0 = Clock::now();
    kernels::assign(L.view(), DP.view(N, 4), DC.view(K, 4));
    std::vector<intent::index> Got = L.to_vector();
    Kernel = std::min(Kernel, seconds(T0, Clock::now()));
    long Bad = support::exactMismatches(Got, Want);
    Ok = support::oneLaunch(support::launches() - Before) && Bad == 0 && Ok;
    if (Bad)
      std::printf("kmeans N=%lld: %ld mismatches\n", (long long)N, Bad);
  }
  return fastEnough("kmeans assign", Kernel, Host) && Ok;
}

bool runSpmv(intent::index Rows, std::mt19937 &Rng) {
  std::vector<int> RowPtr = support::randomOffsets(Rows, Rng, 6, 4);
  const intent::index Nnz = RowPtr.back();
  std::vector<int> Col = support::randomInts(Nnz, Rng, 0, int(Rows));
  std::vector<float> Val = support::randomFloats(Nnz, Rng, -1, 1);
  std::vector<float> X = support::randomFloats(Rows + 1, Rng, -2, 2);
  std::vector<float> Want(Rows), Scale(Rows);
  double Host = 1e30, Kernel = 1e30;
  for (int Rep = 0; Rep < 3; ++Rep) {
    auto T0 = Clock::now();
    for (intent::index R = 0; R < Rows; ++R) {
      float S = 0, M = 0;
      for (int J = RowPtr[R]; J < RowPtr[R + 1]; ++J) {
        S += Val[J] * X[Col[J]];
        M += std::fabs(Val[J] * X[Col[J]]);
      }
      Want[R] = S;
      Scale[R] = M;
    }
    Host = std::min(Host, seconds(T0, Clock::now()));
  }
  mem::array<int> DR(RowPtr), DCol(Col);
  mem::array<float> DV(Val), DX(X), Y(Rows);
  bool Ok = true;
  for (int Rep = 0; Rep < 3; ++Rep) {
    unsigned long long Before = support::launches();
    auto T0 = Clock::now();
    kernels::spmv(Y.view(), DR.view(), DCol.view(), DV.view(), DX.view());
    std::vector<float> Got = Y.to_vector();
    Kernel = std::min(Kernel, seconds(T0, Clock::now()));
    long Bad = support::closeMismatches(Got, Want, 1e-5, 0.0, &Scale);
    Ok = support::oneLaunch(support::launches() - Before) && Bad == 0 && Ok;
    if (Bad)
      std::printf("spmv rows=%lld: %ld mismatches\n", (long long)Rows, Bad);
  }
  return fastEnough("csr spmv", Kernel, Host) && Ok;
}

} // namespace

int main(int argc, char **argv) {
  std::mt19937 Rng(15);
  intent::index N = argc > 1 ? std::atol(argv[1]) : 0;
  // Under fibers only a small size: that mode is slow on purpose.
  if (N <= 0) {
    const char *Fibers = std::getenv("INTENT_CPU_FIBERS");
    N = Fibers && Fibers[0] == '1' ? 500 : 100000;
  }
  bool Ok = runKmeans(N, Rng);
  Ok = runSpmv(N, Rng) && Ok;
  Ok = runKmeans(1, Rng) && Ok;
  Ok = runSpmv(1, Rng) && Ok;
  Ok = runKmeans(0, Rng) && Ok;
  Ok = runSpmv(0, Rng) && Ok;
  return Ok ? 0 : 1;
}
