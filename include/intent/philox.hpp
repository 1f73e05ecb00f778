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
  /// result = sqrt(-2 ln u1) * cos(2 pi u2), in float arithmetic. Device math
  /// may differ from the host's in the last bits.
  INTENT_HD float normal(std::uint64_t Counter) const {
    philox_block B = block(Counter);
    float U1 = static_cast<float>((B.w[0] >> 8) + 1u) * (1.0f / 16777216.0f);
    float U2 = static_cast<float>(B.w[1] >> 8) * (1.0f / 16777216.0f);
    const float TwoPi = 6.28318530717958647692f;
    return sqrtf(-2.0f * logf(U1)) * cosf(TwoPi * U2);
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
