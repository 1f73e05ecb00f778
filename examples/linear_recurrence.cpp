// linear_recurrence: the first-order linear recurrence
//   h(r, t) = a(r, t) * h(r, t-1) + b(r, t),   h(r, -1) = h0[r],
// for a batch of independent sequences, as an inclusive scan whose state is
// the pair (A, B) of the affine map h -> A*h + B composed so far. Composing
// "first L, then R" gives (L.a*R.a, R.a*L.b + R.b): associative (not
// commutative), with identity (1, 0), so the steps may be regrouped. The
// emit applies the prefix to the incoming state: h = A*h0 + B. The sequences
// (the non-scan axis) are a parallel_for. The result is checked against a
// serial computation within 1e-5 of the magnitude recurrence
// |h|(t) = |a| * |h|(t-1) + |b|; the call must be ONE launch.
//
//   intentc examples/linear_recurrence.cpp -o linear_recurrence
//   ./linear_recurrence 5 3      # one size: 5 sequences of 3 steps
//
// It is also plain C++ (the header's serial semantics):
//   g++ -std=c++17 -Iinclude examples/linear_recurrence.cpp
#include "support.hpp"

/// The affine map h -> a*h + b: the scan state.
struct Affine {
  float a, b;
};

namespace kernels {
using intent::index;
using intent::parallel_for;
using intent::scan;
using intent::view;

[[intent::kernel]] void linear_recurrence(view<float, 2> h,
                                          view<const float, 2> a,
                                          view<const float, 2> b,
                                          view<const float, 1> h0) {
  parallel_for(a.extent(0), [&](index r) {
    scan(
        a.extent(1), Affine{1.0f, 0.0f},
        [](const Affine &l, const Affine &rt) {
          return Affine{l.a * rt.a, rt.a * l.b + rt.b};
        },
        [&](index t) { return Affine{a(r, t), b(r, t)}; },
        [&](index t, const Affine &p) { h(r, t) = p.a * h0[r] + p.b; },
        intent::scan_kind::inclusive);
  });
}

} // namespace kernels

/// Runs the kernel on Seqs random sequences of Steps steps; true when it
/// matches.
static bool runSize(support::shape S, std::mt19937 &Rng) {
  const intent::index Seqs = S.n0, Steps = S.n1;
  // Decay factors of both signs with |a| < 1 keep h bounded.
  std::vector<float> HA = support::randomFloats(Seqs * Steps, Rng, -0.99f, 0.99f);
  std::vector<float> HB = support::randomFloats(Seqs * Steps, Rng, -1.0f, 1.0f);
  std::vector<float> HH0 = support::randomFloats(Seqs, Rng, -5.0f, 5.0f);

  std::vector<float> Want(Seqs * Steps), Scale(Seqs * Steps);
  for (intent::index R = 0; R < Seqs; ++R) {
    float H = HH0[R], Mag = std::fabs(HH0[R]);
    for (intent::index T = 0; T < Steps; ++T) {
      intent::index I = R * Steps + T;
      H = HA[I] * H + HB[I];
      Mag = std::fabs(HA[I]) * Mag + std::fabs(HB[I]);
      Want[I] = H;
      Scale[I] = Mag;
    }
  }

  mem::array<float> A(HA), B(HB), H0(HH0),
      H(std::vector<float>(Seqs * Steps, NAN));
  unsigned long long Before = support::launches();
  kernels::linear_recurrence(H.view(Seqs, Steps), A.view(Seqs, Steps),
                             B.view(Seqs, Steps), H0.view());
  unsigned long long Calls = support::launches() - Before;
  long Bad = support::closeMismatches(H.to_vector(), Want, 1e-5, 0.0, &Scale);
  bool Ok = support::oneLaunch(Calls) && Bad == 0;
  std::printf("linear_recurrence sequences=%lld steps=%lld: %s (launches "
              "%llu, mismatches %ld)\n",
              static_cast<long long>(Seqs), static_cast<long long>(Steps),
              Ok ? "ok" : "FAIL", Calls, Bad);
  return Ok;
}

int main(int argc, char **argv) {
  return support::runShapes(argc, argv, 2,
                            {{0, 0}, {0, 5}, {3, 0}, {1, 1}, {7, 13},
                             {1, 100003}, {1000, 1}, {513, 257}, {20000, 33}},
                            runSize);
}
