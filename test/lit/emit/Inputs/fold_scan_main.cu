// Runs the CUDA emitted for the reduce / scan / region_fold / region_scan
// kernels of test/lit/construction (included as K_SPMV, K_SEGSCAN, K_RECUR,
// K_MEANVAR, K_MIXED, K_RANGE) in the runtime's cpu mode (or gpu mode on a
// GPU machine) on random inputs
// (empty, tiny, odd and larger sizes, empty regions) and compares with the
// header's serial reduce / scan / region_fold / region_scan: integers bit
// for bit, floats within 1e-5 relative. Prints "ok" and exits 0 on success.
#include K_SPMV
#include K_SEGSCAN
#include K_RECUR
#include K_MEANVAR
#include K_MIXED
#include K_RANGE

#include "harness_mem.h"

#include <cmath>
#include <cstdio>
#include <limits>
#include <random>
#include <vector>

using I = intent::index;
template <class T, int R> using view = intent::view<T, R>;

static int failures = 0;
static std::mt19937_64 rng(7);

static void expectNear(const char *what, I i, double got, double want) {
  bool ok = (std::isnan(got) && std::isnan(want)) || got == want ||
            std::fabs(got - want) <= 1e-5 * std::fmax(1.0, std::fabs(want));
  if (!ok && ++failures <= 10)
    std::printf("mismatch %s at %lld: got %.9g want %.9g\n", what, (long long)i,
                got, want);
}

template <class T> static void expectEq(const char *what, I i, T got, T want) {
  if (got != want && ++failures <= 10)
    std::printf("mismatch %s at %lld: got %lld want %lld\n", what, (long long)i,
                (long long)got, (long long)want);
}

static float uniform() {
  return std::uniform_real_distribution<float>(-2, 2)(rng);
}

/// Non-decreasing offsets for `rows` regions, some empty.
static std::vector<int64_t> offsets(I rows, I maxPerRow) {
  std::vector<int64_t> off{0};
  for (I r = 0; r < rows; ++r)
    off.push_back(off.back() + (rng() % 4 == 0 ? 0 : rng() % (maxPerRow + 1)));
  return off;
}

static void spmv(I rows) {
  Mem<int64_t> off(offsets(rows, 9));
  I nnz = off[off.size() - 1], cols = 13;
  Mem<float> val(nnz + 1), x(cols), y(rows + 1, 0.0f);
  std::vector<float> want(rows + 1, 0.0f);
  Mem<int32_t> col(nnz + 1);
  for (I k = 0; k < nnz; ++k) {
    val[k] = uniform();
    col[k] = rng() % cols;
  }
  for (I i = 0; i < cols; ++i)
    x[i] = uniform();
  view<const int64_t, 1> rp(off.data(), {(I)off.size()});
  __intent_launch_spmv(view<float, 1>(y.data(), {rows}), rp,
                       view<const float, 1>(val.data(), {nnz}),
                       view<const int32_t, 1>(col.data(), {nnz}),
                       view<const float, 1>(x.data(), {cols}));
  sync();
  intent::region_fold(rp, 0.0f, intent::ops::plus{},
                      [&](I k) { return val[k] * x[col[k]]; },
                      [&](I r, float s) { want[r] = s; });
  for (I r = 0; r < rows; ++r)
    expectNear("spmv", r, y[r], want[r]);
}

static void segscan(I rows) {
  std::vector<int64_t> offv = offsets(rows, 40);
  Mem<int64_t> off(offv);
  Mem<int32_t> off32(std::vector<int32_t>(offv.begin(), offv.end()));
  I n = offv.back();
  Mem<int32_t> x(n + 1), y(n + 1, 0);
  std::vector<int32_t> want(n + 1, 0);
  for (I k = 0; k <= n; ++k)
    x[k] = static_cast<int32_t>(rng());
  view<const int32_t, 1> o(off32.data(), {(I)off32.size()});
  __intent_launch_segscan(view<int32_t, 1>(y.data(), {n}),
                          view<const int32_t, 1>(x.data(), {n}), o);
  sync();
  intent::region_scan(
      o, int32_t(0),
      [](int32_t a, int32_t b) {
        return static_cast<int32_t>(static_cast<uint32_t>(a) + static_cast<uint32_t>(b));
      },
      [&](I k) { return x[k]; }, [&](I k, int32_t p) { want[k] = p; });
  for (I k = 0; k < n; ++k)
    expectEq("segscan", k, y[k], want[k]);

  Mem<float> xf(n + 1), yf(n + 1, 0.0f);
  std::vector<float> wantf(n + 1, 0.0f);
  for (I k = 0; k <= n; ++k)
    xf[k] = uniform();
  view<const int64_t, 1> o64(off.data(), {(I)off.size()});
  __intent_launch_segscan_rev(view<float, 1>(yf.data(), {n}),
                              view<const float, 1>(xf.data(), {n}), o64, 0.5f);
  sync();
  intent::region_scan(
      o64, 0.5f, [](float a, float b) { return a * b + b; },
      [&](I r, I k) { return xf[k] + static_cast<float>(r); },
      [&](I k, float p) { wantf[k] = p; }, intent::scan_kind::exclusive,
      intent::direction::reverse);
  for (I k = 0; k < n; ++k)
    expectNear("segscan_rev", k, yf[k], wantf[k]);
}

static void recurrence(I r, I c) {
  Mem<float> a(r * c + 1), b(r * c + 1), h0(r + 1), h(r * c + 1, 0.0f);
  std::vector<float> want(r * c + 1, 0.0f);
  for (I k = 0; k <= r * c; ++k) {
    a[k] = uniform() / 2;
    b[k] = uniform();
  }
  for (I k = 0; k <= r; ++k)
    h0[k] = uniform();
  view<const float, 2> av(a.data(), {r, c}), bv(b.data(), {r, c});
  __intent_launch_recurrence(view<float, 2>(h.data(), {r, c}), av, bv,
                             view<const float, 1>(h0.data(), {r}));
  sync();
  struct AB {
    float a, b;
  };
  for (I i = 0; i < r; ++i)
    intent::scan(
        c, AB{1.0f, 0.0f}, [](AB p, AB q) { return AB{p.a * q.a, q.a * p.b + q.b}; },
        [&](I t) { return AB{av(i, t), bv(i, t)}; },
        [&](I t, const AB &p) { want[i * c + t] = p.a * h0[i] + p.b; });
  for (I k = 0; k < r * c; ++k)
    expectNear("recurrence", k, h[k], want[k]);
}

static void meanVar(I n) {
  Mem<float> x(n + 1), out(2, 7.0f);
  for (I k = 0; k <= n; ++k)
    x[k] = uniform();
  __intent_launch_mean_var(view<float, 1>(out.data(), {2}),
                           view<const float, 1>(x.data(), {n}));
  sync();
  double mean = 0, m2 = 0;
  for (I k = 0; k < n; ++k)
    mean += x[k];
  mean /= n;
  for (I k = 0; k < n; ++k)
    m2 += (x[k] - mean) * (x[k] - mean);
  expectNear("mean", n, out[0], n ? mean : 0.0);
  if (n)
    expectNear("var", n, out[1], m2 / n);
  else
    expectNear("var", n, out[1], std::numeric_limits<double>::quiet_NaN());
}

static void mixed(I n, I r, I c) {
  Mem<int64_t> x(n + 1), p(n + 1, 0);
  std::vector<int64_t> wantP(n + 1, 0);
  Mem<int32_t> m(r * c + 1), rowmax(r + 1, 0);
  I nz = n + 3;
  Mem<float> w(nz), z(nz, 0.0f);
  for (I k = 0; k <= n; ++k)
    x[k] = static_cast<int64_t>(rng());
  for (I k = 0; k <= r * c; ++k)
    m[k] = static_cast<int32_t>(rng());
  for (I k = 0; k < nz; ++k)
    w[k] = uniform();
  uint64_t launches = intent::rt::launch_count();
  __intent_launch_mixed(view<int64_t, 1>(p.data(), {n}),
                        view<const int64_t, 1>(x.data(), {n}),
                        view<int32_t, 1>(rowmax.data(), {r}),
                        view<const int32_t, 2>(m.data(), {r, c}),
                        view<const float, 1>(w.data(), {nz}),
                        view<float, 1>(z.data(), {nz}));
  sync();
  expectEq("mixed launches", n, intent::rt::launch_count() - launches, uint64_t(1));
  intent::scan(
      n, int64_t(0),
      [](int64_t a, int64_t b) {
        return static_cast<int64_t>(static_cast<uint64_t>(a) + static_cast<uint64_t>(b));
      },
      [&](I k) { return x[k]; }, [&](I k, int64_t s) { wantP[k] = s; },
      intent::scan_kind::exclusive);
  for (I k = 0; k < n; ++k)
    expectEq("mixed scan", k, p[k], wantP[k]);
  for (I i = 0; i < r; ++i)
    expectEq("mixed rowmax", i, rowmax[i],
             intent::reduce(c, std::numeric_limits<int32_t>::min(),
                            intent::ops::max{}, [&](I j) { return m[i * c + j]; }));
  for (I i = 0; i < nz; ++i)
    expectNear("mixed z", i, z[i], w[i] * 2.0f);
}

static void rangeReduce(I r, I c, I b, I e) {
  Mem<int64_t> m(r * c + 1), out(2, 7);
  for (I k = 0; k <= r * c; ++k)
    m[k] = static_cast<int64_t>(rng());
  view<const int64_t, 2> mv(m.data(), {r, c});
  __intent_launch_reduce_range(view<int64_t, 1>(out.data(), {2}), mv, b, e);
  sync();
  auto add = [](int64_t a, int64_t b) {
    return static_cast<int64_t>(static_cast<uint64_t>(a) + static_cast<uint64_t>(b));
  };
  auto mul = [](int64_t a, int64_t b) {
    return static_cast<int64_t>(static_cast<uint64_t>(a) * static_cast<uint64_t>(b));
  };
  expectEq("range sum", b, out[0],
           intent::reduce(intent::range{b, e}, int64_t(0), add,
                          [&](I k) { return mv(k / c, k % c); }));
  expectEq("nested", b, out[1],
           intent::reduce(r, int64_t(0), intent::ops::bit_xor{}, [&](I i) {
             return intent::reduce(c, int64_t(1), mul, [&](I j) { return mv(i, j); });
           }));
}

int main() {
  for (I rows : {0, 1, 7, 100})
    spmv(rows);
  for (I rows : {0, 1, 7, 64})
    segscan(rows);
  for (auto rc : std::vector<std::pair<I, I>>{{0, 5}, {5, 0}, {1, 1}, {3, 7}, {31, 170}}) {
    recurrence(rc.first, rc.second);
    mixed(rc.first * 3, rc.first, rc.second);
    if (rc.first && rc.second) {
      rangeReduce(rc.first, rc.second, 0, rc.first * rc.second);
      rangeReduce(rc.first, rc.second, rc.first * rc.second / 3, rc.first * rc.second);
    }
    rangeReduce(rc.first, rc.second, rc.first * rc.second, 0);
  }
  for (I n : {0, 1, 7, 1000})
    meanVar(n);
  if (failures) {
    std::printf("%d mismatches\n", failures);
    return 1;
  }
  std::printf("ok\n");
  return 0;
}
