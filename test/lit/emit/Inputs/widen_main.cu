// Runs the CUDA emitted for test/lit/emit/widen.kir (the widen pass):
// pointwise kernels whose programs own chunks of 16 bytes and stride over
// them. Sizes from empty to beyond the program cap times the chunk width
// (so programs own several chunks), with every remainder n % W; views
// aligned (vector path), with a base off by one element or stride 2 (scalar
// path), and mixed (one view misaligned); results must equal the serial
// semantics bit for bit, elements outside the views must stay untouched,
// one launch per call. Prints "ok" and exits 0 on success.
#include KERNELS

#include "harness_mem.h"

#include <cstdio>
#include <cstring>
#include <random>

static int failures = 0;

static void fail(const char *what, long long n, int variant, long long at) {
  if (++failures <= 12)
    std::printf("mismatch %s n=%lld variant=%d at %lld\n", what, n, variant,
                at);
}

template <class T> static bool same(T a, T b) {
  return std::memcmp(&a, &b, sizeof(T)) == 0;
}

/// The layout of one view of n elements in variant v: 0 aligned unit
/// stride; 1 base off by one element; 2 stride 2; 3 aligned unit stride
/// (a misaligned partner view decides the path).
struct Layout {
  intent::index offset, stride;
  intent::index need(intent::index n) const {
    return offset + (n ? (n - 1) * stride + 1 : 0) + 1;
  }
};
static Layout layout(int variant, bool partner) {
  if (variant == 1 || (variant == 3 && partner))
    return {1, 1};
  if (variant == 2)
    return {0, 2};
  return {0, 1};
}

template <class T>
static void fill(Mem<T> &m, intent::index need, std::mt19937_64 &rng) {
  for (intent::index q = 0; q < need; ++q)
    m[q] = static_cast<T>(static_cast<int>(rng() % 2001) - 1000) /
           static_cast<T>(std::is_floating_point<T>::value ? 8 : 1);
}

template <class T>
static intent::view<T, 1> viewOf(Mem<std::remove_const_t<T>> &m,
                                 intent::index n, Layout l) {
  return intent::view<T, 1>(m.data() + l.offset, {n}, {l.stride});
}

/// Checks out (layout l) against want(k) and every other element against
/// its original value.
template <class T, class F>
static void check(const char *what, Mem<T> &out, const std::vector<T> &orig,
                  intent::index n, Layout l, int variant, F want) {
  std::vector<char> owned(orig.size(), 0);
  for (intent::index k = 0; k < n; ++k) {
    intent::index q = l.offset + k * l.stride;
    owned[q] = 1;
    if (!same(out[q], want(k)))
      return fail(what, n, variant, k);
  }
  for (size_t q = 0; q < orig.size(); ++q)
    if (!owned[q] && !same(out[q], orig[q]))
      return fail(what, n, variant, -static_cast<long long>(q) - 1);
}

template <class T>
static std::vector<T> snapshot(Mem<T> &m, intent::index need) {
  std::vector<T> v(need);
  for (intent::index q = 0; q < need; ++q)
    v[q] = m[q];
  return v;
}

int main() {
  std::mt19937_64 rng(11);
  const intent::index sizes[] = {0, 1, 2, 3, 4, 5, 15, 16, 17, 255, 4097,
                                 70001, (1 << 20) + 3, (1 << 22) + 7,
                                 (1 << 24) + 5};
  for (intent::index n : sizes)
    for (int variant = 0; variant < 4; ++variant) {
      if (n > (1 << 20) && variant != 0 && variant != 3)
        continue;
      Layout ly = layout(variant, false), lx = layout(variant, true);
      uint64_t launches = intent::rt::launch_count();
      int calls = 0;
      {
        Mem<float> y(ly.need(n)), x(lx.need(n));
        fill(y, ly.need(n), rng);
        fill(x, lx.need(n), rng);
        std::vector<float> y0 = snapshot(y, ly.need(n));
        __intent_launch_saxpy(viewOf<float>(y, n, ly),
                              viewOf<const float>(x, n, lx), 2.5f);
        ++calls;
        sync();
        check("saxpy", y, y0, n, ly, variant, [&](intent::index k) {
          return 2.5f * x[lx.offset + k * lx.stride] +
                 y0[ly.offset + k * ly.stride];
        });
      }
      {
        Mem<double> y(ly.need(n)), x(lx.need(n));
        fill(y, ly.need(n), rng);
        fill(x, lx.need(n), rng);
        std::vector<double> y0 = snapshot(y, ly.need(n));
        __intent_launch_axpy_f64(viewOf<double>(y, n, ly),
                                 viewOf<const double>(x, n, lx), -0.75);
        ++calls;
        sync();
        check("axpy_f64", y, y0, n, ly, variant, [&](intent::index k) {
          return -0.75 * x[lx.offset + k * lx.stride] +
                 y0[ly.offset + k * ly.stride];
        });
      }
      {
        Mem<int8_t> y(ly.need(n)), x(lx.need(n)), b(ly.need(n));
        for (intent::index q = 0; q < ly.need(n); ++q)
          y[q] = static_cast<int8_t>(rng()), b[q] = static_cast<int8_t>(rng());
        for (intent::index q = 0; q < lx.need(n); ++q)
          x[q] = static_cast<int8_t>(rng());
        std::vector<int8_t> y0 = snapshot(y, ly.need(n));
        __intent_launch_add_i8(viewOf<int8_t>(y, n, ly),
                               viewOf<const int8_t>(x, n, lx),
                               viewOf<const int8_t>(b, n, ly));
        ++calls;
        sync();
        check("add_i8", y, y0, n, ly, variant, [&](intent::index k) {
          return static_cast<int8_t>(x[lx.offset + k * lx.stride] +
                                     b[ly.offset + k * ly.stride]);
        });
      }
      {
        Mem<float> y(ly.need(n));
        Mem<int16_t> x(lx.need(n));
        fill(y, ly.need(n), rng);
        fill(x, lx.need(n), rng);
        std::vector<float> y0 = snapshot(y, ly.need(n));
        __intent_launch_widen_f32_from_i16(viewOf<float>(y, n, ly),
                                           viewOf<const int16_t>(x, n, lx));
        ++calls;
        sync();
        check("widen_f32_from_i16", y, y0, n, ly, variant,
              [&](intent::index k) {
                return static_cast<float>(x[lx.offset + k * lx.stride]);
              });
      }
      {
        Mem<float> y(ly.need(n)), z(ly.need(n)), x(lx.need(n));
        fill(y, ly.need(n), rng);
        fill(z, ly.need(n), rng);
        fill(x, lx.need(n), rng);
        std::vector<float> y0 = snapshot(y, ly.need(n)),
                           z0 = snapshot(z, ly.need(n));
        __intent_launch_two_outputs(viewOf<float>(y, n, ly),
                                    viewOf<float>(z, n, ly),
                                    viewOf<const float>(x, n, lx));
        ++calls;
        sync();
        check("two_outputs y", y, y0, n, ly, variant, [&](intent::index k) {
          float v = x[lx.offset + k * lx.stride];
          return v * v;
        });
        check("two_outputs z", z, z0, n, ly, variant, [&](intent::index k) {
          return x[lx.offset + k * lx.stride];
        });
      }
      uint64_t want = n ? calls : 0;
      if (intent::rt::launch_count() - launches > static_cast<uint64_t>(calls) ||
          intent::rt::launch_count() - launches < want)
        fail("launch count", n, variant, intent::rt::launch_count() - launches);
    }
  if (failures) {
    std::printf("%d failures\n", failures);
    return 1;
  }
  std::printf("ok\n");
  return 0;
}
