// A program space past 2^31 ids: program ids, segment bounds and the host
// chunking are 64-bit. Every 2^shift-th program records its id.
#include <intent/array.hpp>
#include <intent/intent.hpp>

#include "check.hpp"

using namespace intent;

[[intent::kernel]] void mark(view<long long, 1> hits, index n, int shift) {
  parallel_for(n, [&](index i) {
    if ((i & ((index(1) << shift) - 1)) == 0)
      hits[i >> shift] = i;
  });
}

int main() {
  check::suite S("huge");
  const int Shift = 21;
  const index N = (index(1) << 31) + (index(1) << Shift) + 7;
  const index Hits = ((N - 1) >> Shift) + 1;
  array<long long> DHits(Hits);
  check::counters Before = check::now();
  mark(DHits.view(), N, Shift);
  S.expectOneLaunch(Before, N, "n=2^31+2^21+7");
  std::vector<long long> Got = DHits.to_vector();
  index Wrong = 0;
  for (index J = 0; J < Hits; ++J)
    Wrong += Got[J] != (J << Shift);
  S.expect(Wrong == 0, std::to_string(Wrong) + " of " + std::to_string(Hits) +
                           " hits wrong; last is " +
                           std::to_string(Got[Hits - 1]));
  return S.finish();
}
