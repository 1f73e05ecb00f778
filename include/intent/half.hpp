//===- intent/half.hpp - 16-bit floating-point storage types --------------===//
//
// intent::half (IEEE 754 binary16) and intent::bfloat16 (the upper half of a
// binary32) are trivially copyable 16-bit storage types. Arithmetic goes
// through float, as C++ does for any class with a conversion to float:
// `h1 + h2` converts both to float, adds in float, and a store back to a half
// rounds. Conversions from float round to nearest, ties to even; infinities
// and NaNs are preserved (a NaN stays a NaN, quieted). Every execution mode
// produces the same bits: the host computes them with integer code below; GPU
// code uses the hardware conversions (cvt.rn.f16.f32, cvt.f32.f16, and
// cvt.rn.bf16.f32 on sm_80+), which round the same way, and takes the integer
// path only for NaNs, whose payload the hardware does not keep. No CUDA header
// is needed.
//
//===----------------------------------------------------------------------===//

#ifndef INTENT_HALF_HPP
#define INTENT_HALF_HPP

#include "intent/core.hpp"

#include <cstdint>

namespace intent {

namespace detail {

/// The bits of a float (no <cstring>: it would bring POSIX ::index into
/// scope and make a bare `index` ambiguous for `using namespace intent`).
INTENT_HD inline std::uint32_t floatBits(float F) {
#if defined(__CUDA_ARCH__)
  return __float_as_uint(F);
#else
  std::uint32_t U;
  __builtin_memcpy(&U, &F, sizeof U);
  return U;
#endif
}

/// The float with bits U.
INTENT_HD inline float bitsFloat(std::uint32_t U) {
#if defined(__CUDA_ARCH__)
  return __uint_as_float(U);
#else
  float F;
  __builtin_memcpy(&F, &U, sizeof F);
  return F;
#endif
}

/// float -> binary16 bits, round to nearest even.
INTENT_HD inline std::uint16_t floatToHalfBits(float F) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 530
  if (F == F) { // not a NaN: one hardware conversion
    unsigned short R;
    asm("cvt.rn.f16.f32 %0, %1;" : "=h"(R) : "f"(F));
    return R;
  }
#endif
  std::uint32_t U = floatBits(F);
  std::uint32_t Sign = (U >> 16) & 0x8000u;
  std::uint32_t Abs = U & 0x7fffffffu;
  if (Abs >= 0x7f800000u) // inf, or NaN (quieted, top payload bits kept)
    return static_cast<std::uint16_t>(
        Sign | (Abs > 0x7f800000u ? 0x7e00u | ((Abs >> 13) & 0x3ffu)
                                  : 0x7c00u));
  if (Abs >= 0x477ff000u) // >= 65520: rounds to infinity
    return static_cast<std::uint16_t>(Sign | 0x7c00u);
  if (Abs < 0x38800000u) { // below 2^-14: a subnormal half or zero
    std::uint32_t E = Abs >> 23;
    if (E < 102) // below 2^-25: rounds to zero
      return static_cast<std::uint16_t>(Sign);
    std::uint32_t M = (Abs & 0x7fffffu) | 0x800000u;
    std::uint32_t Shift = 126 - E; // 14 .. 24
    std::uint32_t R = M >> Shift;
    std::uint32_t Rem = M & ((1u << Shift) - 1u);
    std::uint32_t Halfway = 1u << (Shift - 1);
    if (Rem > Halfway || (Rem == Halfway && (R & 1u)))
      ++R; // may carry into the smallest normal: still the right encoding
    return static_cast<std::uint16_t>(Sign | R);
  }
  std::uint32_t R = (Abs - 0x38000000u) >> 13; // rebias 127 -> 15
  std::uint32_t Rem = Abs & 0x1fffu;
  if (Rem > 0x1000u || (Rem == 0x1000u && (R & 1u)))
    ++R; // a carry into the exponent is the correct rounding
  return static_cast<std::uint16_t>(Sign | R);
}

/// binary16 bits -> float (exact).
INTENT_HD inline float halfBitsToFloat(std::uint16_t H) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 530
  if ((H & 0x7c00u) != 0x7c00u || !(H & 0x3ffu)) { // not a NaN
    float F;
    asm("cvt.f32.f16 %0, %1;" : "=f"(F) : "h"(static_cast<unsigned short>(H)));
    return F;
  }
#endif
  std::uint32_t Sign = static_cast<std::uint32_t>(H & 0x8000u) << 16;
  std::uint32_t E = (H >> 10) & 0x1fu;
  std::uint32_t M = H & 0x3ffu;
  if (E == 0x1fu)
    return bitsFloat(Sign | 0x7f800000u | (M << 13));
  if (E == 0) {
    if (M == 0)
      return bitsFloat(Sign);
    E = 113; // normalize the subnormal: value M * 2^-24
    while (!(M & 0x400u)) {
      M <<= 1;
      --E;
    }
    return bitsFloat(Sign | (E << 23) | ((M & 0x3ffu) << 13));
  }
  return bitsFloat(Sign | ((E + 112) << 23) | (M << 13));
}

/// float -> bfloat16 bits, round to nearest even.
INTENT_HD inline std::uint16_t floatToBFloat16Bits(float F) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  if (F == F) { // not a NaN: one hardware conversion
    unsigned short R;
    asm("cvt.rn.bf16.f32 %0, %1;" : "=h"(R) : "f"(F));
    return R;
  }
#endif
  std::uint32_t U = floatBits(F);
  if ((U & 0x7fffffffu) > 0x7f800000u) // NaN: keep it a (quiet) NaN
    return static_cast<std::uint16_t>((U >> 16) | 0x40u);
  U += 0x7fffu + ((U >> 16) & 1u);
  return static_cast<std::uint16_t>(U >> 16);
}

/// bfloat16 bits -> float (exact).
INTENT_HD inline float bfloat16BitsToFloat(std::uint16_t B) {
  return bitsFloat(static_cast<std::uint32_t>(B) << 16);
}

} // namespace detail

/// IEEE 754 binary16. Default construction leaves the bits uninitialized
/// (trivial); from float rounds to nearest even; to float is exact.
struct half {
  std::uint16_t bits;

  half() = default;
  INTENT_HD half(float F) : bits(detail::floatToHalfBits(F)) {}
  INTENT_HD operator float() const { return detail::halfBitsToFloat(bits); }
  /// The half with the given bit pattern.
  INTENT_HD static half fromBits(std::uint16_t B) {
    half H;
    H.bits = B;
    return H;
  }
};

/// bfloat16: 8 exponent bits like float, 7 mantissa bits.
struct bfloat16 {
  std::uint16_t bits;

  bfloat16() = default;
  INTENT_HD bfloat16(float F) : bits(detail::floatToBFloat16Bits(F)) {}
  INTENT_HD operator float() const {
    return detail::bfloat16BitsToFloat(bits);
  }
  /// The bfloat16 with the given bit pattern.
  INTENT_HD static bfloat16 fromBits(std::uint16_t B) {
    bfloat16 H;
    H.bits = B;
    return H;
  }
};

static_assert(sizeof(half) == 2 && sizeof(bfloat16) == 2,
              "16-bit storage types");
static_assert(std::is_trivially_copyable<half>::value &&
                  std::is_trivially_copyable<bfloat16>::value,
              "half types must be trivially copyable");

} // namespace intent

#endif // INTENT_HALF_HPP
