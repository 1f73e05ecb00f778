// Reductions as cooperative programs (docs/runtime.md §5, coop.hpp): the
// generated code in gen/coop_sums.kernels.cu maps
//  - row_sums to one CTA per row (strided loads, a warp_shfl_xor tree,
//    per-warp partials in cta_shared, cta_barrier),
//  - warp_row_sums to one warp per row (a warp_shfl_down tree),
//  - grand_total to one launch of CTA programs over chunks of x: per-program
//    partials and an acq_rel arrival counter in a kept-zero workspace; the
//    last program to arrive folds the partials in program order and resets
//    the workspace to zero.
// Each is compared with a serial loop on random inputs with rows of length
// 0, 1, 31, 33, 1000 and 5000; grand_total runs twice per input to show the
// kept-zero workspace stays reusable.
#include <intent/array.hpp>
#include <intent/intent.hpp>

#include "check.hpp"

using namespace intent;

[[intent::kernel]] void row_sums(view<float, 1> out, view<const float, 2> x) {
  parallel_for(x.extent(0), [&](index r) {
    out[r] = reduce(x.extent(1), 0.0f, ops::plus{}, [&](index c) { return x(r, c); });
  });
}

[[intent::kernel]] void warp_row_sums(view<long long, 1> out, view<const int, 2> x) {
  parallel_for(x.extent(0), [&](index r) {
    out[r] = reduce(x.extent(1), 0LL, ops::plus{},
                    [&](index c) { return static_cast<long long>(x(r, c)); });
  });
}

[[intent::kernel]] void grand_total(view<long long, 1> out, view<const int, 1> x) {
  out[0] = reduce(x.extent(0), 0LL, ops::plus{},
                  [&](index k) { return static_cast<long long>(x[k]); });
}

int main() {
  check::suite S("coop_sums");
  for (index Cols : {0, 1, 31, 33, 1000, 5000}) {
    for (index Rows : {0, 1, 67}) {
      std::string What = std::to_string(Rows) + "x" + std::to_string(Cols);
      std::vector<float> X = S.floats(Rows * Cols);
      std::vector<int> XI = S.ints(Rows * Cols, -1000000, 1000000);
      std::vector<float> Want(Rows);
      std::vector<long long> WantI(Rows);
      for (index R = 0; R < Rows; ++R) {
        double Acc = 0.0;
        long long AccI = 0;
        for (index C = 0; C < Cols; ++C) {
          Acc += X[R * Cols + C];
          AccI += XI[R * Cols + C];
        }
        Want[R] = static_cast<float>(Acc);
        WantI[R] = AccI;
      }
      array<float> DX(X), Out(std::vector<float>(Rows + 1, 42.0f));
      array<int> DXI(XI);
      array<long long> OutI(std::vector<long long>(Rows + 1, 42));
      check::counters Before = check::now();
      row_sums(view<float, 1>(Out.data(), {Rows}), DX.view(Rows, Cols));
      S.expectOneLaunch(Before, Rows, "row_sums " + What);
      Want.push_back(42.0f); // the sentinel past the rows is untouched
      S.expectNear(Out.to_vector(), Want, 1e-4, "row_sums " + What);

      Before = check::now();
      warp_row_sums(view<long long, 1>(OutI.data(), {Rows}), DXI.view(Rows, Cols));
      S.expectOneLaunch(Before, Rows, "warp_row_sums " + What);
      WantI.push_back(42);
      S.expectNear(OutI.to_vector(), WantI, 0.0, "warp_row_sums " + What);
    }
  }

  array<long long> Total(1);
  for (index N : {0, 1, 255, 2048, 2049, 100003, 1 << 20, 3, 0, 70000}) {
    std::vector<int> X = S.ints(N, -1000000, 1000000);
    long long Want = 0;
    for (int V : X)
      Want += V;
    array<int> DX(X);
    const index Chunks = (N + 2047) / 2048;
    for (int Call = 0; Call < 2; ++Call) {
      std::string What = "grand_total n=" + std::to_string(N) + " call " +
                         std::to_string(Call);
      Total.copy_from({-1});
      check::counters Before = check::now();
      grand_total(Total.view(), DX.view());
      S.expectOneLaunch(Before, Chunks > 0 ? Chunks : 1, What);
      long long Got = Total.to_vector()[0];
      S.expect(Got == Want, What + ": " + std::to_string(Got) + ", expected " +
                                std::to_string(Want));
    }
  }
  return S.finish();
}
