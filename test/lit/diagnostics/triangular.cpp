// Mirrored writes of a symmetric matrix (issue 17, item 7): an instance i
// that writes cov(i, j) and cov(j, i) for a loop counter j that starts at i
// and only grows (or only shrinks) touches its own elements only, so the
// parallel_for stays parallel (InstanceSpace::atLeast / atMost,
// separatedAcrossInstances' triangle rule). Counters that start elsewhere,
// move both ways or can be replaced by a `continue` keep the warning.
// RUN: %intent_syntax -Xclang -verify %s

#include <intent/intent.hpp>
using namespace intent;

// The upper triangle, mirrored: parallel, no warning.
[[intent::kernel]] void covariance(view<float, 2> cov, view<const float, 2> d) {
  parallel_for(d.extent(1), [&](index i) {
    for (index j = i; j < d.extent(1); ++j) {
      float s = reduce(d.extent(0), 0.0f, ops::plus{},
                       [&](index k) { return d(k, i) * d(k, j); });
      cov(i, j) = s;
      cov(j, i) = s;
    }
  });
}

// The lower triangle, counting down from i: parallel, no warning.
[[intent::kernel]] void lower(view<float, 2> m, view<const float, 1> x) {
  parallel_for(x.extent(0), [&](index i) {
    for (index j = i; j >= 0; j -= 1) {
      m(i, j) = x[i] * x[j];
      m(j, i) = x[i] * x[j];
    }
  });
}

// j starts at 0: instance i writes m(j, i) = m(i', j') of an instance i' < i.
[[intent::kernel]] void from_zero(view<float, 2> m, view<const float, 1> x) {
  parallel_for(x.extent(0), [&](index i) {
    for (index j = 0; j <= i; ++j) {
      m(i, j) = x[i] * x[j];
      // expected-warning@+1 {{the write of m(j, i) may touch the element of the write of m(i, j) of another instance}}
      m(j, i) = x[i] * x[j];
    }
  });
}

// j starts one below i: m(i, i - 1) and m(i - 1, i) of instance i meet
// m(i', j') and m(j', i') of instance i' = i - 1.
[[intent::kernel]] void one_below(view<float, 2> m, view<const float, 1> x) {
  parallel_for(x.extent(0), [&](index i) {
    for (index j = i - 1; j < x.extent(0); ++j) {
      m(i, j) = x[i];
      // expected-warning@+1 {{the write of m(j, i) may touch the element of the write of m(i, j) of another instance}}
      m(j, i) = x[i];
    }
  });
}

// The body moves j back: no bound.
[[intent::kernel]] void restart(view<float, 2> m, view<const float, 1> x) {
  parallel_for(x.extent(0), [&](index i) {
    for (index j = i; j < x.extent(0); ++j) {
      m(i, j) = x[i];
      // expected-warning@+1 {{the write of m(j, i) may touch the element of the write of m(i, j) of another instance}}
      m(j, i) = x[i];
      if (x[j] < 0.0f) {
        j = 0;
        continue;
      }
    }
  });
}

// One counter grows, the other shrinks: m(a, b) with a < b is written by
// instance a (j = b >= a) and by instance b (k = a <= b).
[[intent::kernel]] void both_ways(view<float, 2> m, view<const float, 1> x) {
  parallel_for(x.extent(0), [&](index i) {
    for (index j = i; j < x.extent(0); ++j)
      m(i, j) = x[i];
    for (index k = i; k >= 0; --k)
      // expected-warning@+1 {{the write of m(k, i) may touch the element of the write of m(i, j) of another instance}}
      m(k, i) = x[i];
  });
}
