// Execution test: scans along rows (issue 18, item 2; the scan-teams pass,
// docs/passes.md §13). A parallel_for over rows whose instance scans its
// row, written the ways users write them: a float cumsum (within rounding),
// an exclusive integer scan with an init that is not the identity, a
// reverse scan (suffix sums), rank-3 rows with a running maximum, a user
// combine that is associative but not commutative (composition of affine
// maps, exact in wrapping 32-bit integers), a struct state, a cumsum in
// place, a side input and a per-row bias, rows of per-row lengths, an
// emit one member to the right, a cumsum down the columns (which keeps a
// thread per column) and an `intent::ordered` scan (which stays serial).
// Shapes from empty to long rows, rows of 1 to 4 members (teams of one
// lane) and row lengths around a tile's edge.
#include "../../examples/support.hpp"

#include <array>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <vector>

struct Affine {
  std::uint32_t a, b;
};
struct CountSum {
  std::int64_t count;
  double sum;
};

namespace kernels {
using intent::index;
using intent::parallel_for;
using intent::scan;
using intent::view;
namespace ops = intent::ops;
using intent::direction;
using intent::scan_kind;

[[intent::kernel]] void cumsum(view<float, 2> y, view<const float, 2> x) {
  parallel_for(x.extent(0), [&](index r) {
    scan(x.extent(1), 0.0f, ops::plus{}, [&](index k) { return x(r, k); },
         [&](index k, float p) { y(r, k) = p; });
  });
}

[[intent::kernel]] void exclusive_i32(view<std::int32_t, 2> y,
                                      view<const std::int32_t, 2> x) {
  parallel_for(x.extent(0), [&](index r) {
    scan(x.extent(1), 5, ops::plus{}, [&](index k) { return x(r, k); },
         [&](index k, std::int32_t p) { y(r, k) = p; }, scan_kind::exclusive);
  });
}

[[intent::kernel]] void suffix_i64(view<std::int64_t, 2> y,
                                   view<const std::int32_t, 2> x) {
  parallel_for(x.extent(0), [&](index r) {
    scan(x.extent(1), std::int64_t(0), ops::plus{},
         [&](index k) { return std::int64_t(x(r, k)); },
         [&](index k, std::int64_t p) { y(r, k) = p; }, scan_kind::inclusive,
         direction::reverse);
  });
}

/// Rows of a rank-3 view: the maximum of the members after each one,
/// exclusive (the last member gets the init).
[[intent::kernel]] void max_after(view<float, 3> y, view<const float, 3> x) {
  parallel_for(x.extent(0), x.extent(1), [&](index b, index r) {
    scan(x.extent(2), -1e30f, ops::max{}, [&](index k) { return x(b, r, k); },
         [&](index k, float p) { y(b, r, k) = p; }, scan_kind::exclusive,
         direction::reverse);
  });
}

/// h(r, k) = the composition of row r's maps 0..k applied to 1 (mod 2^32).
[[intent::kernel]] void compose(view<std::uint32_t, 2> h,
                                view<const std::uint32_t, 2> a,
                                view<const std::uint32_t, 2> b) {
  parallel_for(a.extent(0), [&](index r) {
    scan(
        a.extent(1), Affine{1u, 0u},
        [](const Affine &l, const Affine &q) {
          return Affine{l.a * q.a, q.a * l.b + q.b};
        },
        [&](index k) { return Affine{a(r, k), b(r, k)}; },
        [&](index k, const Affine &p) { h(r, k) = p.a + p.b; });
  });
}

[[intent::kernel]] void count_sum(view<std::int64_t, 2> c, view<double, 2> s,
                                  view<const double, 2> x) {
  parallel_for(x.extent(0), [&](index r) {
    scan(
        x.extent(1), CountSum{0, 0.0},
        [](const CountSum &l, const CountSum &q) {
          return CountSum{l.count + q.count, l.sum + q.sum};
        },
        [&](index k) { return CountSum{x(r, k) > 0 ? 1 : 0, x(r, k)}; },
        [&](index k, const CountSum &p) {
          c(r, k) = p.count;
          s(r, k) = p.sum;
        });
  });
}

[[intent::kernel]] void cumsum_in_place(view<std::int32_t, 2> x) {
  parallel_for(x.extent(0), [&](index r) {
    scan(x.extent(1), 0, ops::plus{}, [&](index k) { return x(r, k); },
         [&](index k, std::int32_t p) { x(r, k) = p; });
  });
}

/// A weighted cumsum plus a per-row bias; the weight is a side input.
[[intent::kernel]] void weighted(view<std::int64_t, 2> y,
                                 view<const std::int32_t, 2> x,
                                 view<const std::int32_t, 1> w,
                                 view<const std::int64_t, 1> bias) {
  parallel_for(x.extent(0), [&](index r) {
    const std::int64_t b = bias[r];
    scan(x.extent(1), std::int64_t(0), ops::plus{},
         [&](index k) { return std::int64_t(x(r, k)) * w[k]; },
         [&](index k, std::int64_t p) { y(r, k) = p + b; });
  });
}

/// Row r scans its first len[r] members only.
[[intent::kernel]] void ragged(view<std::int32_t, 2> y,
                               view<const std::int32_t, 2> x,
                               view<const std::int32_t, 1> len) {
  parallel_for(x.extent(0), [&](index r) {
    scan(len[r], 0, ops::plus{}, [&](index k) { return x(r, k); },
         [&](index k, std::int32_t p) { y(r, k) = p; });
  });
}

/// y(r, 0) stays; y(r, k + 1) = x(r, 0) + ... + x(r, k).
[[intent::kernel]] void shifted(view<std::int32_t, 2> y,
                                view<const std::int32_t, 2> x) {
  parallel_for(x.extent(0), [&](index r) {
    scan(x.extent(1), 0, ops::plus{}, [&](index k) { return x(r, k); },
         [&](index k, std::int32_t p) { y(r, k + 1) = p; });
  });
}

/// Down the columns: one thread per column reads coalesced across them.
[[intent::kernel]] void column_cumsum(view<std::int32_t, 2> y,
                                      view<const std::int32_t, 2> x) {
  parallel_for(x.extent(1), [&](index c) {
    scan(x.extent(0), 0, ops::plus{}, [&](index k) { return x(k, c); },
         [&](index k, std::int32_t p) { y(k, c) = p; });
  });
}

[[intent::kernel]] void ordered_cumsum(view<float, 2> y,
                                       view<const float, 2> x) {
  parallel_for(x.extent(0), [&](index r) {
    scan(x.extent(1), 0.0f, intent::ordered(ops::plus{}),
         [&](index k) { return x(r, k); },
         [&](index k, float p) { y(r, k) = p; });
  });
}

} // namespace kernels

using support::expect;
template <class T, int R> using V = intent::view<T, R>;
template <class T, int R> using C = intent::view<const T, R>;

static void run(long Rows, long N, std::mt19937 &Rng) {
  const long E = Rows * N;
  std::vector<int> Ri = support::randomInts(E, Rng, -1000, 1000);
  std::vector<std::int32_t> X(Ri.begin(), Ri.end());
  mem::array<std::int32_t> DX(X);
  const C<std::int32_t, 2> CX(DX.data(), {Rows, N});
  std::vector<float> F = support::randomFloats(E, Rng, -1.0f, 1.0f);
  mem::array<float> DF(F);
  const C<float, 2> CF(DF.data(), {Rows, N});
  {
    mem::array<float> Y(std::vector<float>(E, 0.0f));
    kernels::cumsum(V<float, 2>(Y.data(), {Rows, N}), CF);
    std::vector<float> Got = Y.to_vector();
    for (long R = 0; R < Rows; ++R) {
      double S = 0, Mag = 0;
      for (long K = 0; K < N; ++K) {
        S += F[R * N + K];
        Mag += std::fabs(F[R * N + K]);
        expect(std::fabs(Got[R * N + K] - S) <= 1e-5 * Mag + 1e-6, "cumsum",
               E);
      }
    }
    mem::array<float> O(std::vector<float>(E, 0.0f));
    kernels::ordered_cumsum(V<float, 2>(O.data(), {Rows, N}), CF);
    std::vector<float> Want(E);
    for (long R = 0; R < Rows; ++R) {
      float S = 0;
      for (long K = 0; K < N; ++K)
        Want[R * N + K] = S += F[R * N + K];
    }
    expect(O.to_vector() == Want, "ordered_cumsum", E);
  }
  {
    mem::array<std::int32_t> Y(std::vector<std::int32_t>(E, -1));
    kernels::exclusive_i32(V<std::int32_t, 2>(Y.data(), {Rows, N}), CX);
    std::vector<std::int32_t> Want(E);
    for (long R = 0; R < Rows; ++R) {
      std::int32_t S = 5;
      for (long K = 0; K < N; ++K) {
        Want[R * N + K] = S;
        S += X[R * N + K];
      }
    }
    expect(Y.to_vector() == Want, "exclusive_i32", E);
  }
  {
    mem::array<std::int64_t> Y(std::vector<std::int64_t>(E, -1));
    kernels::suffix_i64(V<std::int64_t, 2>(Y.data(), {Rows, N}), CX);
    std::vector<std::int64_t> Want(E);
    for (long R = 0; R < Rows; ++R) {
      std::int64_t S = 0;
      for (long K = N - 1; K >= 0; --K)
        Want[R * N + K] = S += X[R * N + K];
    }
    expect(Y.to_vector() == Want, "suffix_i64", E);
  }
  {
    // Rank 3: Rows split as 2 x (Rows / 2) when even, the last axis padded
    // by 3 (a row stride that is not the row length).
    const long B = Rows % 2 == 0 && Rows ? 2 : 1, RR = Rows / B,
               Pad = N + 3;
    std::vector<float> P(B * RR * Pad, 0.0f), Want(B * RR * Pad, 9.0f);
    for (long I = 0; I < B * RR; ++I)
      for (long K = 0; K < N; ++K)
        P[I * Pad + K] = F[I * N + K];
    mem::array<float> DP(P), Y(std::vector<float>(B * RR * Pad, 9.0f));
    const std::array<intent::index, 3> Ext = {B, RR, N}, Str = {RR * Pad, Pad, 1};
    kernels::max_after(V<float, 3>(Y.data(), Ext, Str),
                       C<float, 3>(DP.data(), Ext, Str));
    for (long I = 0; I < B * RR; ++I) {
      float M = -1e30f;
      for (long K = N - 1; K >= 0; --K) {
        Want[I * Pad + K] = M;
        M = std::max(M, P[I * Pad + K]);
      }
    }
    expect(Y.to_vector() == Want, "max_after", E);
  }
  {
    std::vector<std::uint32_t> A(E), Bv(E);
    for (long K = 0; K < E; ++K) {
      A[K] = static_cast<std::uint32_t>(Rng()) | 1u;
      Bv[K] = static_cast<std::uint32_t>(Rng());
    }
    mem::array<std::uint32_t> DA(A), DB(Bv), H(std::vector<std::uint32_t>(E, 0));
    kernels::compose(V<std::uint32_t, 2>(H.data(), {Rows, N}),
                     C<std::uint32_t, 2>(DA.data(), {Rows, N}),
                     C<std::uint32_t, 2>(DB.data(), {Rows, N}));
    std::vector<std::uint32_t> Want(E);
    for (long R = 0; R < Rows; ++R) {
      Affine P{1u, 0u};
      for (long K = 0; K < N; ++K) {
        const long I = R * N + K;
        P = Affine{P.a * A[I], A[I] * P.b + Bv[I]};
        Want[I] = P.a + P.b;
      }
    }
    expect(H.to_vector() == Want, "compose", E);
  }
  {
    std::vector<double> D(E);
    for (long K = 0; K < E; ++K)
      D[K] = static_cast<double>(X[K]) / 8.0; // exact sums
    mem::array<double> DD(D), S(std::vector<double>(E, 0.0));
    mem::array<std::int64_t> Cn(std::vector<std::int64_t>(E, 0));
    kernels::count_sum(V<std::int64_t, 2>(Cn.data(), {Rows, N}),
                       V<double, 2>(S.data(), {Rows, N}),
                       C<double, 2>(DD.data(), {Rows, N}));
    std::vector<std::int64_t> WC(E);
    std::vector<double> WS(E);
    for (long R = 0; R < Rows; ++R) {
      std::int64_t Cnt = 0;
      double Sum = 0;
      for (long K = 0; K < N; ++K) {
        WC[R * N + K] = Cnt += D[R * N + K] > 0;
        WS[R * N + K] = Sum += D[R * N + K];
      }
    }
    expect(Cn.to_vector() == WC, "count_sum count", E);
    expect(S.to_vector() == WS, "count_sum sum", E);
  }
  {
    mem::array<std::int32_t> Y(X);
    kernels::cumsum_in_place(V<std::int32_t, 2>(Y.data(), {Rows, N}));
    std::vector<std::int32_t> Want(X);
    for (long R = 0; R < Rows; ++R)
      for (long K = 1; K < N; ++K)
        Want[R * N + K] += Want[R * N + K - 1];
    expect(Y.to_vector() == Want, "cumsum_in_place", E);
  }
  {
    std::vector<int> W = support::randomInts(N, Rng, -3, 3);
    std::vector<std::int32_t> Wv(W.begin(), W.end());
    std::vector<std::int64_t> Bias(Rows);
    for (long R = 0; R < Rows; ++R)
      Bias[R] = static_cast<std::int64_t>(Rng() % 100000) - 50000;
    mem::array<std::int32_t> DW(Wv);
    mem::array<std::int64_t> DBias(Bias), Y(std::vector<std::int64_t>(E, 0));
    kernels::weighted(V<std::int64_t, 2>(Y.data(), {Rows, N}), CX,
                      C<std::int32_t, 1>(DW.data(), {N}),
                      C<std::int64_t, 1>(DBias.data(), {Rows}));
    std::vector<std::int64_t> Want(E);
    for (long R = 0; R < Rows; ++R) {
      std::int64_t S = 0;
      for (long K = 0; K < N; ++K)
        Want[R * N + K] = (S += std::int64_t(X[R * N + K]) * Wv[K]) + Bias[R];
    }
    expect(Y.to_vector() == Want, "weighted", E);
  }
  {
    std::vector<std::int32_t> Len(Rows);
    for (long R = 0; R < Rows; ++R)
      Len[R] = N ? static_cast<std::int32_t>(Rng() % (N + 1)) : 0;
    mem::array<std::int32_t> DL(Len), Y(std::vector<std::int32_t>(E, 77));
    kernels::ragged(V<std::int32_t, 2>(Y.data(), {Rows, N}), CX,
                    C<std::int32_t, 1>(DL.data(), {Rows}));
    std::vector<std::int32_t> Want(E, 77);
    for (long R = 0; R < Rows; ++R) {
      std::int32_t S = 0;
      for (long K = 0; K < Len[R]; ++K)
        Want[R * N + K] = S += X[R * N + K];
    }
    expect(Y.to_vector() == Want, "ragged", E);
  }
  {
    mem::array<std::int32_t> Y(std::vector<std::int32_t>(Rows * (N + 1), -4));
    kernels::shifted(V<std::int32_t, 2>(Y.data(), {Rows, N + 1}), CX);
    std::vector<std::int32_t> Want(Rows * (N + 1), -4);
    for (long R = 0; R < Rows; ++R) {
      std::int32_t S = 0;
      for (long K = 0; K < N; ++K)
        Want[R * (N + 1) + K + 1] = S += X[R * N + K];
    }
    expect(Y.to_vector() == Want, "shifted", E);
  }
  {
    mem::array<std::int32_t> Y(std::vector<std::int32_t>(E, 0));
    kernels::column_cumsum(V<std::int32_t, 2>(Y.data(), {Rows, N}), CX);
    std::vector<std::int32_t> Want(X);
    for (long R = 1; R < Rows; ++R)
      for (long K = 0; K < N; ++K)
        Want[R * N + K] += Want[(R - 1) * N + K];
    expect(Y.to_vector() == Want, "column_cumsum", E);
  }
}

int main() {
  std::mt19937 Rng(1802);
  const long Shapes[][2] = {{0, 5},   {5, 0},    {1, 1},   {3, 7},
                            {1000, 1}, {999, 3}, {100, 33}, {7, 127},
                            {9, 128}, {6, 129},  {7, 1000}, {64, 4097},
                            {2, 100003}};
  for (const auto &S : Shapes)
    run(S[0], S[1], Rng);
  if (support::mismatches())
    return 1;
  std::printf("row_scans: ok\n");
  return 0;
}
