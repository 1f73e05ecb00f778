// Execution test: reads and writes through sub-views inside a kernel.
// Every sub-view of intent::view (row, slice, transpose, reshape, broadcast,
// expand) composes into one affine access relation over its allocation; the
// kernel uses each of them on strided and negatively strided inputs and
// writes through row() and transpose() sub-views of the outputs. Checked
// exactly (integers) against a serial computation on several shapes.
#if __has_include(<intent/runtime.hpp>)
#include <intent/runtime.hpp>
#define TEST_HAS_RUNTIME 1
#else
#include <intent/intent.hpp>
#define TEST_HAS_RUNTIME 0
#endif

#include <cstdint>
#include <cstdio>
#include <random>
#include <vector>

namespace kernels {
using intent::index;
using intent::parallel_for;
using intent::range;
using intent::view;

/// For an m x n input a (any strides) and a bias b of n elements:
///   rows(i, j)  = a.row(i)[j] + b.broadcast(0, m)(i, j)
///   tr(j, i)    = a(i, j) - a.slice(1, {j, n})(i, n - j - 1)  (via
///                 tr.transpose()), i.e. a(i, j) - a(i, n - 1)
///   flat[i]     = sum over j of a.transpose()(j, i) * b.reshape<2>({1, n})(0, j)
///                 + first.expand(0, m)(i, 0)
[[intent::kernel]] void subviews(view<std::int64_t, 2> rows,
                                 view<std::int64_t, 2> tr,
                                 view<std::int64_t, 1> flat,
                                 view<const std::int32_t, 2> a,
                                 view<const std::int32_t, 1> b,
                                 view<const std::int32_t, 2> first) {
  view<const std::int32_t, 2> bias = b.broadcast(0, a.extent(0));
  parallel_for(a.extent(0), [&](index i) {
    view<const std::int32_t, 1> arow = a.row(i);
    view<std::int64_t, 1> orow = rows.row(i);
    parallel_for(arow.extent(0),
                 [&](index j) { orow[j] = arow[j] + bias(i, j); });
  });
  view<std::int64_t, 2> t = tr.transpose();
  parallel_for(a.extent(0), a.extent(1), [&](index i, index j) {
    view<const std::int32_t, 2> tail = a.slice(1, range{j, a.extent(1)});
    t(i, j) = a(i, j) - tail(i, tail.extent(1) - 1);
  });
  view<const std::int32_t, 2> at = a.transpose();
  view<const std::int32_t, 2> b2 = b.reshape<2>({1, b.extent(0)});
  view<const std::int32_t, 2> f = first.expand(0, a.extent(0));
  parallel_for(a.extent(0), [&](index i) {
    std::int64_t acc = f(i, 0);
    for (index j = 0; j < at.extent(0); ++j)
      acc += at(j, i) * b2(0, j);
    flat[i] = acc;
  });
}

} // namespace kernels

namespace mem {
#if TEST_HAS_RUNTIME
template <class T> using array = intent::array<T>;
#else
/// Host memory standing in for intent::array without the runtime.
template <class T> class array {
public:
  explicit array(intent::index N) : Data(static_cast<std::size_t>(N)) {}
  explicit array(const std::vector<T> &V) : Data(V) {}
  T *data() const { return Data.data(); }
  std::vector<T> to_vector() const { return Data; }

private:
  mutable std::vector<T> Data;
};
#endif
} // namespace mem

static bool runShape(intent::index M, intent::index N, std::mt19937 &Rng) {
  std::uniform_int_distribution<std::int32_t> Dist(-1000, 1000);
  // a is stored reversed along both dimensions with padded rows: element
  // (i, j) at Base - i * (N + 2) - j.
  const intent::index Pitch = N + 2;
  std::vector<std::int32_t> HA(1 + M * Pitch), HB(N), HFirst(1);
  for (auto *V : {&HA, &HB, &HFirst})
    for (std::int32_t &X : *V)
      X = Dist(Rng);
  auto A = [&](intent::index I, intent::index J) {
    return HA[M * Pitch - I * Pitch - J];
  };

  std::vector<std::int64_t> WantRows(M * N), WantTr(N * M), WantFlat(M);
  for (intent::index I = 0; I < M; ++I) {
    std::int64_t Acc = HFirst[0];
    for (intent::index J = 0; J < N; ++J) {
      WantRows[I * N + J] = A(I, J) + HB[J];
      WantTr[J * M + I] = A(I, J) - A(I, N - 1);
      Acc += static_cast<std::int64_t>(A(I, J)) * HB[J];
    }
    WantFlat[I] = Acc;
  }

  mem::array<std::int32_t> DA(HA), DB(HB), DFirst(HFirst);
  mem::array<std::int64_t> Rows(M * N + 1), Tr(N * M + 1), Flat(M + 1);
  intent::view<const std::int32_t, 2> AV(DA.data() + M * Pitch, {M, N},
                                         {-Pitch, -1});
  kernels::subviews(intent::view<std::int64_t, 2>(Rows.data(), {M, N}),
                    intent::view<std::int64_t, 2>(Tr.data(), {N, M}),
                    intent::view<std::int64_t, 1>(Flat.data(), {M}), AV,
                    intent::view<const std::int32_t, 1>(DB.data(), {N}),
                    intent::view<const std::int32_t, 2>(DFirst.data(), {1, 1}));
  long Bad = 0;
  auto Compare = [&](const std::vector<std::int64_t> &Got,
                     const std::vector<std::int64_t> &Want) {
    for (std::size_t I = 0; I < Want.size(); ++I)
      Bad += Got[I] != Want[I];
    Bad += Got.back() != 0; // nothing written past the view
  };
  Compare(Rows.to_vector(), WantRows);
  Compare(Tr.to_vector(), WantTr);
  Compare(Flat.to_vector(), WantFlat);
  std::printf("subviews %lldx%lld: %s (%ld mismatches)\n",
              static_cast<long long>(M), static_cast<long long>(N),
              Bad ? "FAIL" : "ok", Bad);
  return Bad == 0;
}

int main() {
  std::mt19937 Rng(3);
  const intent::index Shapes[][2] = {{0, 0}, {0, 3},  {3, 0},   {1, 1},
                                     {5, 7}, {64, 1}, {1, 129}, {257, 33}};
  bool Ok = true;
  for (const auto &S : Shapes)
    Ok = runShape(S[0], S[1], Rng) && Ok;
  return Ok ? 0 : 1;
}
