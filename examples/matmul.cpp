// matmul (the contract op) in kernels: f32, f64, intent::half and
// intent::bfloat16 (accumulating in float), a transposed operand, a strided
// sub-view, a batched call with a broadcast operand, and matmul inside a
// parallel_for over batches. The compiler maps the batch and free axes
// (b, i, j) to program instances and keeps k as an ordered loop inside each,
// summing in increasing k like the header's serial intent::matmul, so every
// result is compared with the header's own matmul bit for bit (on the GPU
// within a tolerance instead: nvcc may fuse the multiply and add into FMA).
#include "support.hpp"

#include <cstdint>

namespace kernels {
using intent::bfloat16;
using intent::half;
using intent::index;
using intent::matmul;
using intent::parallel_for;
using intent::view;

[[intent::kernel]] void mm_f32(view<float, 2> c, view<const float, 2> a,
                               view<const float, 2> b) {
  matmul(c, a, b);
}

/// C = A * Bt^T with Bt stored N x K (a transposed operand).
[[intent::kernel]] void mm_f64_bt(view<double, 2> c, view<const double, 2> a,
                                  view<const double, 2> bt) {
  matmul(c, a, bt.transpose());
}

[[intent::kernel]] void mm_half(view<half, 2> c, view<const half, 2> a,
                                view<const half, 2> b) {
  matmul(c, a, b);
}

/// bfloat16 with A^T stored K x M and B a column slice of a wider matrix.
[[intent::kernel]] void mm_bf16(view<bfloat16, 2> c, view<const bfloat16, 2> at,
                                view<const bfloat16, 2> bwide, index col0) {
  matmul(c, at.transpose(),
         bwide.slice(1, intent::range{col0, col0 + c.extent(1)}));
}

/// Batched, one weight matrix shared by every batch (a broadcast view).
[[intent::kernel]] void mm_batched(view<float, 3> c, view<const float, 3> a,
                                   view<const float, 2> w) {
  matmul(c, a, w.broadcast(0, c.extent(0)));
}

/// The same per batch through a parallel_for over rows of rank-3 views.
[[intent::kernel]] void mm_per_batch(view<float, 3> c, view<const float, 3> a,
                                     view<const float, 3> b) {
  parallel_for(c.extent(0), [&](index n) { matmul(c.row(n), a.row(n), b.row(n)); });
}

} // namespace kernels

namespace {

bool onGpu() {
  const char *Mode = std::getenv("INTENT_DEVICE");
  return EXAMPLE_HAS_RUNTIME && Mode && std::strcmp(Mode, "gpu") == 0;
}

template <class T> std::vector<T> randomOf(intent::index N, std::mt19937 &Rng) {
  std::vector<float> F = support::randomFloats(N, Rng, -2.0f, 2.0f);
  return std::vector<T>(F.begin(), F.end());
}

template <class T> std::vector<float> asFloats(const std::vector<T> &V) {
  return std::vector<float>(V.begin(), V.end());
}

/// Exact (bit for bit) on the host; within a few accumulator ulps scaled by
/// the size of the sum on the GPU.
template <class T>
long compare(const std::vector<T> &Got, const std::vector<T> &Want,
             intent::index K, double Eps) {
  if (!onGpu())
    return support::exactMismatches(Got, Want);
  std::vector<float> G = asFloats(Got), W = asFloats(Want);
  return support::closeMismatches(G, W, Eps * (K + 1), Eps * (K + 1) * 4);
}

/// One launch per call; Fn makes the call.
template <class F> bool oneCall(F &&Fn) {
  unsigned long long Before = support::launches();
  Fn();
  return support::oneLaunch(support::launches() - Before);
}

template <class T>
intent::view<T, 2> view2(std::vector<T> &V, intent::index R, intent::index C) {
  return {V.data(), {R, C}};
}

bool runSize(support::shape S, std::mt19937 &Rng) {
  using intent::bfloat16;
  using intent::half;
  using intent::index;
  // K = 0 for the 2 x 5 shape: C becomes 0.
  const index M = S.n0, N = S.n1, K = S.n0 == 2 ? 0 : (S.n0 * 7 + S.n1 * 3) % 37 + 1;
  const index Nb = M % 4; // batch counts 0..3
  bool Launches = true;
  long Bad = 0;

  { // f32
    std::vector<float> A = randomOf<float>(M * K, Rng), B = randomOf<float>(K * N, Rng), Want(M * N);
    intent::matmul(view2(Want, M, N), intent::view<const float, 2>(view2(A, M, K)),
                   intent::view<const float, 2>(view2(B, K, N)));
    mem::array<float> DA(A), DB(B), DC(M * N);
    Launches &= oneCall([&] { kernels::mm_f32(DC.view(M, N), DA.view(M, K), DB.view(K, N)); });
    Bad += compare(DC.to_vector(), Want, K, 1.2e-7);
  }
  { // f64, transposed B
    std::vector<double> A = randomOf<double>(M * K, Rng), Bt = randomOf<double>(N * K, Rng), Want(M * N);
    intent::matmul(view2(Want, M, N), intent::view<const double, 2>(view2(A, M, K)),
                   intent::view<const double, 2>(view2(Bt, N, K)).transpose());
    mem::array<double> DA(A), DB(Bt), DC(M * N);
    Launches &= oneCall([&] { kernels::mm_f64_bt(DC.view(M, N), DA.view(M, K), DB.view(N, K)); });
    Bad += compare(DC.to_vector(), Want, K, 1e-15);
  }
  { // half
    std::vector<half> A = randomOf<half>(M * K, Rng), B = randomOf<half>(K * N, Rng), Want(M * N);
    intent::matmul(view2(Want, M, N), intent::view<const half, 2>(view2(A, M, K)),
                   intent::view<const half, 2>(view2(B, K, N)));
    mem::array<half> DA(A), DB(B), DC(M * N);
    Launches &= oneCall([&] { kernels::mm_half(DC.view(M, N), DA.view(M, K), DB.view(K, N)); });
    Bad += compare(DC.to_vector(), Want, K, 1e-3);
  }
  { // bfloat16, A^T stored, B a column slice starting at column 2
    const index Wide = N + 3;
    std::vector<bfloat16> At = randomOf<bfloat16>(K * M, Rng), Bw = randomOf<bfloat16>(K * Wide, Rng), Want(M * N);
    intent::matmul(view2(Want, M, N),
                   intent::view<const bfloat16, 2>(view2(At, K, M)).transpose(),
                   intent::view<const bfloat16, 2>(view2(Bw, K, Wide)).slice(1, intent::range{2, 2 + N}));
    mem::array<bfloat16> DA(At), DB(Bw), DC(M * N);
    Launches &= oneCall([&] { kernels::mm_bf16(DC.view(M, N), DA.view(K, M), DB.view(K, Wide), 2); });
    Bad += compare(DC.to_vector(), Want, K, 8e-3);
  }
  { // batched (broadcast weights) and per-batch parallel_for
    std::vector<float> A = randomOf<float>(Nb * M * K, Rng), W = randomOf<float>(K * N, Rng),
                       B = randomOf<float>(Nb * K * N, Rng), Want1(Nb * M * N), Want2(Nb * M * N);
    intent::view<float, 3> V1(Want1.data(), {Nb, M, N}), V2(Want2.data(), {Nb, M, N});
    intent::view<const float, 3> VA(A.data(), {Nb, M, K}), VB(B.data(), {Nb, K, N});
    intent::matmul(V1, VA, intent::view<const float, 2>(view2(W, K, N)).broadcast(0, Nb));
    intent::matmul(V2, VA, VB);
    mem::array<float> DA(A), DW(W), DB(B), DC1(Nb * M * N), DC2(Nb * M * N);
    auto v3 = [](mem::array<float> &X, index P, index Q, index R) {
      return intent::view<float, 3>(X.view().data(), {P, Q, R});
    };
    Launches &= oneCall([&] { kernels::mm_batched(v3(DC1, Nb, M, N), v3(DA, Nb, M, K), DW.view(K, N)); });
    Launches &= oneCall([&] { kernels::mm_per_batch(v3(DC2, Nb, M, N), v3(DA, Nb, M, K), v3(DB, Nb, K, N)); });
    Bad += compare(DC1.to_vector(), Want1, K, 1.2e-7) + compare(DC2.to_vector(), Want2, K, 1.2e-7);
  }
  bool Ok = Bad == 0 && Launches;
  std::printf("matmul m=%lld n=%lld k=%lld batches=%lld: %s (one launch per call: %s, mismatches %ld)\n",
              static_cast<long long>(M), static_cast<long long>(N), static_cast<long long>(K),
              static_cast<long long>(Nb), Ok ? "ok" : "FAIL", Launches ? "yes" : "no", Bad);
  return Ok;
}

} // namespace

int main(int argc, char **argv) {
  return support::runShapes(argc, argv, 2,
                            {{0, 0}, {0, 3}, {3, 0}, {2, 5}, {1, 1}, {7, 5}, {33, 17}, {130, 97}},
                            runSize);
}
