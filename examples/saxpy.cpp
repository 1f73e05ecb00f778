// saxpy: y = a*x + y. The smallest Intent program: one kernel, one launch,
// checked against the serial reference computed on the host.
#include <intent/intent.hpp>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <vector>

using namespace intent;

[[intent::kernel]] void saxpy(view<float, 1> y, view<const float, 1> x, float a) {
  parallel_for(y.extent(0), [&](index i) { y[i] = a * x[i] + y[i]; });
}

int main(int argc, char **argv) {
  long n = argc > 1 ? std::atol(argv[1]) : 1000003;
  std::mt19937 rng(42);
  std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
  std::vector<float> hx(n), hy(n);
  for (long i = 0; i < n; ++i) {
    hx[i] = dist(rng);
    hy[i] = dist(rng);
  }
  array<float> x(hx), y(hy);
  saxpy(y.view(), x.view(), 2.0f);
  std::vector<float> out = y.to_vector();

  long bad = 0;
  for (long i = 0; i < n; ++i)
    if (std::fabs(out[i] - (2.0f * hx[i] + hy[i])) > 1e-6f)
      ++bad;
  std::printf("saxpy n=%ld: %s\n", n, bad ? "MISMATCH" : "ok");
  return bad ? 1 : 0;
}
