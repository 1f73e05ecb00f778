// Execution test: std::pair / std::tuple as locals and helper values
// inside a kernel: converting assignment from make_pair, a one-element
// tuple, nested pairs with member compound assignment, a helper returning a
// tuple through a braced return, structured bindings of a call result,
// std::get by index and by type (read and write), a pair carried around a
// loop and assigned in one branch, and a reduce over a nested pair whose
// combine destructures its operand. Integers and exactly representable
// floats, so the result is compared exactly with a serial computation.
#include "../../examples/support.hpp"

#include <tuple>
#include <utility>

namespace kernels {
using intent::index;
using NP = std::pair<std::pair<int, int>, float>;
inline std::tuple<int, float> split(float v) {
  return {static_cast<int>(v), v - static_cast<int>(v)};
}
[[intent::kernel]] void pair_locals(intent::view<float, 1> out, intent::view<const float, 1> x) {
  intent::parallel_for(x.extent(0), [&](index i) {
    std::pair<float, float> p;
    p = std::make_pair(1.0, 2);          // converting assignment
    std::tuple<int> one(7);
    NP np{{1, 2}, 3.0f};
    np.first.second += 5;
    auto [ip, fp] = split(x[i]);
    std::tuple<int, float> t = split(x[i] * 2.0f);
    std::get<float>(t) += 1.0f;
    std::get<0>(t) = std::get<0>(t) + 1;
    std::pair<int, float> acc{0, 0.0f};
    for (int k = 0; k < 3; ++k) {
      if (x[i] > 0.0f)
        acc = {acc.first + k, acc.second + x[i]};
      else
        acc.second -= 1.0f;
    }
    auto r = intent::reduce(
        4, NP{{0, 1}, 0.0f},
        [](const NP &a, const NP &b) {
          auto [ai, af] = a;
          return NP{{ai.first + b.first.first, ai.second * b.first.second}, af + b.second};
        },
        [&](index k) { return NP{{int(k), 2}, x[i] * float(k)}; });
    out[i] = p.first + p.second + float(std::get<0>(one)) + float(np.first.second) +
             np.second + float(ip) + fp + float(std::get<0>(t)) + std::get<1>(t) +
             float(acc.first) + acc.second + float(r.first.first) +
             float(r.first.second) + r.second;
  });
}
}

/// The serial value of one element, written without pairs.
static float reference(float X) {
  float P = 1.0f + 2.0f;
  int One = 7, Second = 2 + 5;
  int Ip = static_cast<int>(X);
  float Fp = X - Ip;
  int Ti = static_cast<int>(X * 2.0f);
  float Tf = X * 2.0f - Ti + 1.0f;
  Ti += 1;
  int AccI = 0;
  float AccF = 0.0f;
  for (int K = 0; K < 3; ++K) {
    if (X > 0.0f) {
      AccI += K;
      AccF += X;
    } else {
      AccF -= 1.0f;
    }
  }
  int R0 = 0, R1 = 1;
  float R2 = 0.0f;
  for (int K = 0; K < 4; ++K) {
    R0 += K;
    R1 *= 2;
    R2 += X * float(K);
  }
  return P + float(One) + float(Second) + 3.0f + float(Ip) + Fp + float(Ti) +
         Tf + float(AccI) + AccF + float(R0) + float(R1) + R2;
}

static bool runSize(support::shape S, std::mt19937 &Rng) {
  const intent::index N = S.n0;
  // Multiples of 1/4 in [-16, 16]: every sum above is exact.
  std::vector<float> HX(N);
  std::uniform_int_distribution<int> Q(-64, 64);
  for (float &V : HX)
    V = Q(Rng) / 4.0f;
  std::vector<float> Want(N);
  for (intent::index I = 0; I < N; ++I)
    Want[I] = reference(HX[I]);
  mem::array<float> X(HX), O(std::vector<float>(N, NAN));
  kernels::pair_locals(O.view(), X.view());
  long Bad = support::exactMismatches(O.to_vector(), Want);
  std::printf("pair_locals n=%lld: %s (mismatches %ld)\n",
              static_cast<long long>(N), Bad == 0 ? "ok" : "FAIL", Bad);
  return Bad == 0;
}

int main(int argc, char **argv) {
  return support::runShapes(argc, argv, 1, {{0, 0}, {1, 0}, {7, 0}, {1000, 0}},
                            runSize);
}
