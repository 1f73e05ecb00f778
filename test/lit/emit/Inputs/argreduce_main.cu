// Runs the CUDA emitted for test/lit/construction/argmax_rows.kir (included
// as KERNELS) in the runtime's cpu mode on inputs full of ties, NaN, +-inf
// and -0.0 (cpu mode, or gpu mode on a GPU machine), and compares every result bit for bit with the header's serial
// intent::argmax / argmin. Prints "ok" and exits 0 on success.
#include KERNELS

#include "harness_mem.h"

#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <random>
#include <vector>





static int failures = 0;

template <class T> static bool sameBits(T a, T b) {
  return std::memcmp(&a, &b, sizeof(T)) == 0;
}

template <class T> static void check(bool ok, const char *what, intent::index i, T got, T want) {
  if (ok)
    return;
  if (++failures <= 10)
    std::printf("mismatch %s at %lld: got %g want %g\n", what, (long long)i,
                (double)got, (double)want);
}

template <class T> static T special(std::mt19937_64 &rng, bool nan) {
  const T pool[] = {T(1), T(-1), T(0), T(-0.0), T(2.5), T(2.5), T(-2.5),
                    std::numeric_limits<T>::infinity(),
                    -std::numeric_limits<T>::infinity(),
                    std::numeric_limits<T>::quiet_NaN()};
  return pool[rng() % (nan ? 10 : 9)];
}

int main() {
  std::mt19937_64 rng(42);
  const intent::index shapes[][2] = {{0, 5}, {5, 0}, {1, 1}, {3, 7}, {31, 17}, {64, 300}};
  for (auto &s : shapes)
    for (bool nan : {false, true}) {
      intent::index r = s[0], c = s[1];
      Mem<float> x(r * c + 1), v(r + 1, 7.0f);
      Mem<int64_t> pos(r + 1, 7);
      for (size_t q = 0; q < x.size(); ++q)
        x[q] = special<float>(rng, nan);
      intent::view<const float, 2> xv(x.data(), {r, c});
      __intent_launch_argmax_rows(intent::view<float, 1>(v.data(), {r}),
                                  intent::view<int64_t, 1>(pos.data(), {r}), xv);
      sync();
      for (intent::index i = 0; i < r; ++i) {
        auto want = intent::argmax(c, [&](intent::index j) { return xv(i, j); },
                                   intent::tie::first,
                                   intent::nan_policy::propagate);
        check(sameBits(v[i], want.value), "argmax_rows value", i, v[i], want.value);
        check(pos[i] == want.pos, "argmax_rows pos", i, pos[i], want.pos);
      }
      Mem<int32_t> xi(r * c + 1);
      const int32_t ipool[] = {3, -7, 3, std::numeric_limits<int32_t>::min(),
                               std::numeric_limits<int32_t>::max(), 0};
      for (size_t q = 0; q < xi.size(); ++q)
        xi[q] = ipool[rng() % 6];
      intent::view<const int32_t, 2> xiv(xi.data(), {r, c});
      __intent_launch_argmax_int(intent::view<int64_t, 1>(pos.data(), {r}), xiv);
      sync();
      for (intent::index i = 0; i < r; ++i) {
        auto want = intent::argmax(c, [&](intent::index j) { return xiv(i, j); },
                                   intent::tie::last,
                                   intent::nan_policy::propagate);
        check(pos[i] == want.pos, "argmax_int pos", i, pos[i], want.pos);
      }
    }
  for (intent::index n : {0, 1, 8, 257})
    for (int variant = 0; variant < 4; ++variant) {
      intent::index b = variant == 1 ? n / 2 : variant == 2 ? n : 0;
      intent::index e = variant == 0 ? n : variant == 1 ? n : variant == 2 ? n / 2 : 0;
      Mem<double> x(n + 1), v(1, 7.0);
      Mem<int64_t> pos(1, 7);
      for (size_t q = 0; q < x.size(); ++q)
        x[q] = special<double>(rng, true);
      intent::view<const double, 1> xv(x.data(), {n});
      __intent_launch_argmin_last_ignore(intent::view<double, 1>(v.data(), {1}),
                                         intent::view<int64_t, 1>(pos.data(), {1}),
                                         xv, b, e);
      sync();
      auto want = intent::argmin(intent::range{b, e}, [&](intent::index j) { return xv[j]; },
                                 intent::tie::last, intent::nan_policy::ignore);
      check(sameBits(v[0], want.value), "argmin value", n, v[0], want.value);
      check(pos[0] == want.pos, "argmin pos", n, pos[0], want.pos);
    }
  if (failures) {
    std::printf("%d mismatches\n", failures);
    return 1;
  }
  std::printf("ok\n");
  return 0;
}
