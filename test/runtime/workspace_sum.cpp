// A whole-array reduction in one launch through the invocation workspace:
// the generated program adds its element into a per-chunk partial sum in a
// zeroed workspace, and the last program to arrive (an acq_rel counter)
// folds the partials. Repeated calls check that the pool hands out a zeroed
// buffer every time, growing and shrinking; an empty input still writes the
// init (its segment has length max(n, 1)).
#include <intent/array.hpp>
#include <intent/intent.hpp>

#include "check.hpp"

using namespace intent;

[[intent::kernel]] void total(view<long long, 1> out, view<const int, 1> x) {
  out[0] = reduce(x.extent(0), 0LL, ops::plus{},
                  [&](index k) { return static_cast<long long>(x[k]); });
}

int main() {
  check::suite S("workspace_sum");
  array<long long> Out(1);
  for (index N : {0, 1, 255, 256, 257, 100003, 1 << 20, 3, 0, 70000}) {
    std::string What = "n=" + std::to_string(N);
    std::vector<int> X = S.ints(N, -1000000, 1000000);
    long long Want = 0;
    for (int V : X)
      Want += V;
    array<int> DX(X);
    Out.copy_from({-1});
    for (int Call = 0; Call < 2; ++Call) {
      check::counters Before = check::now();
      total(Out.view(), DX.view());
      S.expectOneLaunch(Before, N > 0 ? N : 1, What);
      std::vector<long long> Got = Out.to_vector();
      S.expect(Got[0] == Want, What + " call " + std::to_string(Call) +
                                   ": sum " + std::to_string(Got[0]) +
                                   ", expected " + std::to_string(Want));
    }
  }
  return S.finish();
}
