// Two independent outputs of different shapes and ranks from one kernel: the
// row sums (rank 1, one program per row, an ordered loop inside) and a scaled
// copy (rank 2, one program per element). Two groups, one launch of
// rows + rows * cols programs; an empty group writes nothing and does not
// cancel the other one.
#include <intent/array.hpp>
#include <intent/intent.hpp>

#include "check.hpp"

using namespace intent;

[[intent::kernel]] void row_sums_and_scale(view<float, 1> sums,
                                           view<float, 2> scaled,
                                           view<const float, 2> in, float s) {
  parallel_for(in.extent(0), [&](index r) {
    float acc = 0.0f;
    for (index c = 0; c < in.extent(1); ++c)
      acc += in(r, c);
    sums[r] = acc;
  });
  parallel_for(in.extent(0), in.extent(1),
               [&](index i, index j) { scaled(i, j) = s * in(i, j); });
}

int main() {
  check::suite S("two_outputs");
  const index Shapes[][2] = {{0, 0}, {0, 5}, {3, 0}, {1, 1},
                             {7, 13}, {64, 1}, {300, 257}, {1, 5000}};
  for (const auto &Shape : Shapes) {
    index Rows = Shape[0], Cols = Shape[1];
    std::string What = std::to_string(Rows) + "x" + std::to_string(Cols);
    std::vector<float> In = S.floats(Rows * Cols);
    std::vector<float> WantSums(Rows), WantScaled(Rows * Cols);
    for (index R = 0; R < Rows; ++R) {
      float Acc = 0.0f;
      for (index C = 0; C < Cols; ++C) {
        Acc += In[R * Cols + C];
        WantScaled[R * Cols + C] = -3.0f * In[R * Cols + C];
      }
      WantSums[R] = Acc;
    }
    // Sentinels show that nothing outside the views is written.
    std::vector<float> Sentinel(Rows + 1, 42.0f);
    array<float> DIn(In), DSums(Sentinel), DScaled(Rows * Cols);
    view<float, 1> Sums(DSums.data(), {Rows});
    check::counters Before = check::now();
    row_sums_and_scale(Sums, DScaled.view(Rows, Cols), DIn.view(Rows, Cols),
                       -3.0f);
    S.expectOneLaunch(Before, Rows + Rows * Cols, What);
    std::vector<float> GotSums = DSums.to_vector();
    S.expect(GotSums.back() == 42.0f, What + ": wrote past the sums view");
    GotSums.pop_back();
    // Same summation order as the reference: exact.
    S.expectNear(GotSums, WantSums, 0.0, What + " sums");
    S.expectNear(DScaled.to_vector(), WantScaled, 0.0, What + " scaled");
  }
  return S.finish();
}
