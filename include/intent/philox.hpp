//===- intent/philox.hpp - Counter-based Philox4x32-10 random numbers ----===//
//
// Philox4x32-10 (Salmon et al., "Parallel Random Numbers: As Easy as 1, 2,
// 3", SC'11), bit-exact with Random123's philox4x32_10. Being counter-based,
// the k-th random number is a pure function of (seed, stream, k), so every
// parallel iteration draws its own numbers without shared state and the
// reference, CPU and GPU executions agree bit for bit on u32 and uniform.
// Callable in CUDA device code.
//
//===----------------------------------------------------------------------===//

#ifndef INTENT_PHILOX_HPP
#define INTENT_PHILOX_HPP

#include "intent/core.hpp"

#include <cmath>
#include <cstdint>

namespace intent {

/// Four 32-bit words: a Philox counter block or output block.
struct philox_block {
  std::uint32_t w[4];
};

/// The two 32-bit words of a Philox4x32 key.
struct philox_key {
  std::uint32_t w[2];
};

/// The raw Philox4x32-10 bijection: 10 rounds over Counter under Key, with
/// the Random123 multipliers and Weyl key increments.
INTENT_HD inline philox_block philox4x32_10(philox_block Counter,
                                            philox_key Key) {
  const std::uint32_t M0 = 0xD2511F53u, M1 = 0xCD9E8D57u;
  const std::uint32_t W0 = 0x9E3779B9u, W1 = 0xBB67AE85u;
  std::uint32_t *C = Counter.w;
  for (int Round = 0; Round < 10; ++Round) {
    if (Round > 0) {
      Key.w[0] += W0;
      Key.w[1] += W1;
    }
    std::uint64_t P0 = static_cast<std::uint64_t>(M0) * C[0];
    std::uint64_t P1 = static_cast<std::uint64_t>(M1) * C[2];
    std::uint32_t Hi0 = static_cast<std::uint32_t>(P0 >> 32);
    std::uint32_t Lo0 = static_cast<std::uint32_t>(P0);
    std::uint32_t Hi1 = static_cast<std::uint32_t>(P1 >> 32);
    std::uint32_t Lo1 = static_cast<std::uint32_t>(P1);
    philox_block Next = {
        {Hi1 ^ C[1] ^ Key.w[0], Lo1, Hi0 ^ C[3] ^ Key.w[1], Lo0}};
    C[0] = Next.w[0];
    C[1] = Next.w[1];
    C[2] = Next.w[2];
    C[3] = Next.w[3];
  }
  return Counter;
}

namespace detail {

// Deterministic float arithmetic for philox::normal. Every operation is a
// single correctly rounded IEEE-754 binary32 operation (round to nearest
// even) that cannot be contracted with a neighbour: additions and products
// are written as fma (a fused op is already one rounding; nothing is left
// for -ffp-contract / -fmad to merge), division and square root use the
// round-to-nearest intrinsics on the device, which --use_fast_math does not
// replace. No value here is subnormal. The host needs SSE float arithmetic
// (any x86-64 or AArch64 compiler) and no -ffast-math.

INTENT_HD inline float det_fma(float A, float B, float C) {
#if defined(__CUDA_ARCH__)
  return __fmaf_rn(A, B, C);
#else
  return std::fma(A, B, C);
#endif
}
/// A * B, exact sign of zero: fma(A, B, -0) is A * B rounded once.
INTENT_HD inline float det_mul(float A, float B) {
  return det_fma(A, B, -0.0f);
}
INTENT_HD inline float det_add(float A, float B) {
  return det_fma(A, 1.0f, B);
}
INTENT_HD inline float det_div(float A, float B) {
#if defined(__CUDA_ARCH__)
  return __fdiv_rn(A, B);
#else
  return A / B;
#endif
}
INTENT_HD inline float det_sqrt(float A) {
#if defined(__CUDA_ARCH__)
  return __fsqrt_rn(A);
#else
  return std::sqrt(A);
#endif
}

/// ln(A * 2^-24) for A in [1, 2^24], i.e. the log of a draw in (0, 1].
/// A = 2^e * m with m in [sqrt(1/2), sqrt(2)) (exact integer shifts), then
/// ln m = 2 atanh(s), s = (m - 1) / (m + 1), |s| <= 0.1716, by its odd
/// series to s^11 (the next term is below 2^-30 relative), and
/// ln u = (e - 24) ln 2 + ln m with ln 2 split in a 16-bit head (so (e-24) *
/// head is exact) and a tail.
INTENT_HD inline float det_log_unit(std::uint32_t A) {
  int E = 0; // invariant A = Mant * 2^E; at the end Mant in [2^23, 2^24)
  std::uint32_t Mant = A;
  if (Mant >= (1u << 24)) { // only A == 2^24
    Mant >>= 1;
    E = 1;
  }
  while (Mant < (1u << 23)) { // at most 23 steps; A >= 1
    Mant <<= 1;
    --E;
  }
  // Mant * 2^-23 in [1, 2); above sqrt(2) take half of it (exact).
  float M = static_cast<float>(Mant) * (1.0f / 8388608.0f); // exact
  if (Mant > 11863283u) { // sqrt(2) * 2^23 = 11863283.2
    M = M * 0.5f;                                           // exact
    ++E;
  }
  // Now A = M * 2^(23 + E), so u = A * 2^-24 = M * 2^(E - 1).
  const float F = det_add(M, -1.0f); // exact (Sterbenz)
  const float S = det_div(F, det_add(M, 1.0f));
  const float Z = det_mul(S, S);
  float P = 2.0f / 11.0f;
  P = det_fma(P, Z, 2.0f / 9.0f);
  P = det_fma(P, Z, 2.0f / 7.0f);
  P = det_fma(P, Z, 2.0f / 5.0f);
  P = det_fma(P, Z, 2.0f / 3.0f);
  // ln M = 2 S + S * Z * P
  const float LnM = det_fma(det_mul(S, Z), P, det_add(S, S));
  const float K = static_cast<float>(E - 1); // exact small integer
  const float Ln2Hi = 0.693145751953125f;     // 16 significant bits
  const float Ln2Lo = 1.4286068203094172e-06f; // ln 2 - Ln2Hi
  return det_fma(K, Ln2Hi, det_fma(K, Ln2Lo, LnM));
}

/// cos(2 pi J / 2^24) for J in [0, 2^24): the quadrant and the octant come
/// from J's bits (exact), the remaining angle Y in [0, pi/4] = R * (2 pi /
/// 2^24) with integer R <= 2^21 is one rounded product, then Taylor
/// polynomials of cos (to Y^12) and sin (to Y^13) on it.
INTENT_HD inline float det_cos_turns(std::uint32_t J) {
  const std::uint32_t Quadrant = J >> 22;       // 0..3
  const std::uint32_t R = J & ((1u << 22) - 1); // angle within the quadrant
  const bool Upper = R > (1u << 21);            // past pi/4: use the sine
  const std::uint32_t Rr = Upper ? (1u << 22) - R : R;
  const float Y = det_mul(static_cast<float>(Rr), 3.7450702e-07f); // 2pi/2^24
  const float Y2 = det_mul(Y, Y);
  // cos Y = 1 - Y2/2 + Y2^2/24 - ... (Horner in Y2)
  float C = 1.0f / 479001600.0f;
  C = det_fma(C, Y2, -1.0f / 3628800.0f);
  C = det_fma(C, Y2, 1.0f / 40320.0f);
  C = det_fma(C, Y2, -1.0f / 720.0f);
  C = det_fma(C, Y2, 1.0f / 24.0f);
  C = det_fma(C, Y2, -0.5f);
  C = det_fma(C, Y2, 1.0f);
  // sin Y = Y + Y * Y2 * (-1/6 + Y2/120 - ...)
  float S = 1.0f / 6227020800.0f;
  S = det_fma(S, Y2, -1.0f / 39916800.0f);
  S = det_fma(S, Y2, 1.0f / 362880.0f);
  S = det_fma(S, Y2, -1.0f / 5040.0f);
  S = det_fma(S, Y2, 1.0f / 120.0f);
  S = det_fma(S, Y2, -1.0f / 6.0f);
  S = det_fma(det_mul(Y, Y2), S, Y);
  // cos of (quadrant * pi/2 + X), X = Upper ? pi/2 - Y : Y.
  const float CosX = Upper ? S : C;
  const float SinX = Upper ? C : S;
  switch (Quadrant) {
  case 0:
    return CosX;
  case 1:
    return -SinX;
  case 2:
    return -CosX;
  default:
    return SinX;
  }
}

} // namespace detail

/// A stream of random numbers indexed by a 64-bit counter. The key is the
/// seed (low word, high word); the counter block of draw `counter` is
/// (counter low, counter high, stream low, stream high), so distinct streams
/// and distinct counters never share a block.
class philox {
public:
  /// The generator for (Seed, StreamId).
  INTENT_HD philox(std::uint64_t Seed, std::uint64_t StreamId)
      : Key{{static_cast<std::uint32_t>(Seed),
             static_cast<std::uint32_t>(Seed >> 32)}},
        Stream(StreamId) {}

  /// All four output words of draw Counter.
  INTENT_HD philox_block block(std::uint64_t Counter) const {
    philox_block In = {{static_cast<std::uint32_t>(Counter),
                        static_cast<std::uint32_t>(Counter >> 32),
                        static_cast<std::uint32_t>(Stream),
                        static_cast<std::uint32_t>(Stream >> 32)}};
    return philox4x32_10(In, Key);
  }

  /// A uniform 32-bit word: word 0 of block(Counter).
  INTENT_HD std::uint32_t u32(std::uint64_t Counter) const {
    return block(Counter).w[0];
  }

  /// A uniform float in [0, 1): (u32(Counter) >> 8) * 2^-24, exact.
  INTENT_HD float uniform(std::uint64_t Counter) const {
    return static_cast<float>(u32(Counter) >> 8) * (1.0f / 16777216.0f);
  }

  /// A standard normal float by Box-Muller on words 0 and 1 of
  /// block(Counter): u1 = ((w0 >> 8) + 1) * 2^-24 in (0, 1] (never 0, so the
  /// log is finite), u2 = (w1 >> 8) * 2^-24 in [0, 1),
  /// result = sqrt(-2 ln u1) * cos(2 pi u2). ln and cos are our own
  /// (detail::det_log_unit, detail::det_cos_turns below): integer range
  /// reduction, then only correctly rounded IEEE float operations that no
  /// compiler may fuse or reorder (explicit fma, one division, sqrt), so the
  /// result is bit-identical on the host, in CPU mode and on the GPU, with
  /// or without -fmad / --use_fast_math. Within 2 ulp of the exactly rounded
  /// Box-Muller value (test/unit/header/philox_test.cpp measures it).
  INTENT_HD float normal(std::uint64_t Counter) const {
    philox_block B = block(Counter);
    const std::uint32_t A = (B.w[0] >> 8) + 1u; // u1 = A * 2^-24
    const float MinusTwoLn = detail::det_mul(-2.0f, detail::det_log_unit(A));
    return detail::det_mul(detail::det_sqrt(MinusTwoLn),
                           detail::det_cos_turns(B.w[1] >> 8));
  }

  /// The key words (the seed).
  INTENT_HD philox_key key() const { return Key; }
  /// The stream number.
  INTENT_HD std::uint64_t stream() const { return Stream; }

private:
  philox_key Key;
  std::uint64_t Stream;
};

} // namespace intent

#endif // INTENT_PHILOX_HPP
