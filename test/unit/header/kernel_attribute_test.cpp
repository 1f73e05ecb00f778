// Tests that [[intent::kernel]] functions run serially without the plugin.

#include "intent/intent.hpp"
#include "test_util.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

// Kernels live in a namespace of their own: with `using namespace intent` at
// global scope, `index` would be ambiguous with POSIX ::index() from
// <strings.h>, which gtest includes.
namespace app {
using namespace intent;
using intent::index;

[[intent::kernel]] void saxpy(view<float, 1> y, view<const float, 1> x,
                              float a) {
  parallel_for(y.extent(0), [&](index i) { y[i] = a * x[i] + y[i]; });
}

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

/// A kernel template: each specialization is its own kernel.
template <class T> [[intent::kernel]] void scale(view<T, 1> y, T factor) {
  parallel_for(y.extent(0), [&](index i) { y[i] *= factor; });
}

} // namespace app

namespace {
using intent::index;

TEST(KernelAttribute, SaxpyRunsSerially) {
  for (index N : intent_test::sizes()) {
    std::vector<float> X = intent_test::randomFloats(N, 121);
    std::vector<float> Y = intent_test::randomFloats(N, 122);
    std::vector<float> Expected = Y;
    for (index I = 0; I < N; ++I)
      Expected[I] = 2.0f * X[I] + Expected[I];
    app::saxpy(intent_test::viewOf(Y), intent_test::viewOf(X), 2.0f);
    EXPECT_EQ(Y, Expected) << "N = " << N;
  }
}

TEST(KernelAttribute, SoftmaxRowsMatchesLoop) {
  const index Shapes[][2] = {{0, 5}, {3, 0}, {1, 1}, {4, 7}, {33, 129}};
  for (const auto &S : Shapes) {
    index Rows = S[0], Cols = S[1];
    std::vector<float> In =
        intent_test::randomFloats(Rows * Cols, 123, -20, 20);
    std::vector<float> Out(In.size(), -1.0f);
    app::softmax_rows(intent::view<float, 2>(Out.data(), {Rows, Cols}),
                      intent::view<const float, 2>(In.data(), {Rows, Cols}));
    for (index R = 0; R < Rows; ++R) {
      double M = -INFINITY, Sum = 0;
      for (index C = 0; C < Cols; ++C)
        M = std::max<double>(M, In[R * Cols + C]);
      for (index C = 0; C < Cols; ++C)
        Sum += std::exp(In[R * Cols + C] - M);
      double RowTotal = 0;
      for (index C = 0; C < Cols; ++C) {
        float Got = Out[R * Cols + C];
        EXPECT_NEAR(Got, std::exp(In[R * Cols + C] - M) / Sum, 1e-6);
        RowTotal += Got;
      }
      EXPECT_NEAR(RowTotal, Cols > 0 ? 1.0 : 0.0, 1e-5);
    }
  }
}

TEST(KernelAttribute, TemplateKernelsRunSerially) {
  std::vector<int> I = {1, 2, 3};
  std::vector<double> D = {0.5, 1.5};
  app::scale(intent_test::viewOf(I), 3);
  app::scale(intent_test::viewOf(D), 2.0);
  EXPECT_EQ(I, (std::vector<int>{3, 6, 9}));
  EXPECT_EQ(D, (std::vector<double>{1.0, 3.0}));
}

} // namespace
