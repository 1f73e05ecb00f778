//===- AtomicsTest.cpp - Host side of the scoped atomics and vector ops --===//
//
// cpu mode runs generated programs on several host threads, so the host
// implementation of intent::rt atomics must be truly atomic and must match
// the user API's serial semantics (intent/atomic.hpp): old values, NaN
// propagation in min/max, bitwise compare in cas.
//
//===----------------------------------------------------------------------===//

#include <intent/runtime/device.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <thread>
#include <vector>

namespace {

using intent::cas_result;
using intent::memory_order;
namespace rt = intent::rt;
using rt::atomic_scope;

/// Runs Body(thread, i) for i in [0, PerThread) on Threads threads.
template <class F> void hammer(int Threads, int PerThread, F Body) {
  std::vector<std::thread> Pool;
  for (int T = 0; T < Threads; ++T)
    Pool.emplace_back([=] {
      for (int I = 0; I < PerThread; ++I)
        Body(T, I);
    });
  for (std::thread &T : Pool)
    T.join();
}

template <class T> bool sameBits(T A, T B) {
  return std::memcmp(&A, &B, sizeof(T)) == 0;
}

TEST(Atomics, ConcurrentAddIsExact) {
  float F = 0.0f;
  double D = 0.0;
  int I = 0;
  long long L = 0;
  unsigned U = 0;
  hammer(4, 20000, [&](int, int) {
    rt::atomic_add<atomic_scope::gpu>(&F, 1.0f);
    rt::atomic_add<atomic_scope::cta, memory_order::acq_rel>(&D, 0.5);
    rt::atomic_add<atomic_scope::sys>(&I, -1);
    rt::atomic_add<atomic_scope::gpu>(&L, 3LL);
    rt::atomic_add<atomic_scope::gpu>(&U, 2u);
  });
  EXPECT_EQ(F, 80000.0f);
  EXPECT_EQ(D, 40000.0);
  EXPECT_EQ(I, -80000);
  EXPECT_EQ(L, 240000LL);
  EXPECT_EQ(U, 160000u);
}

TEST(Atomics, AddReturnsOldAndWraps) {
  unsigned U = 0xffffffffu;
  EXPECT_EQ(rt::atomic_add<atomic_scope::gpu>(&U, 2u), 0xffffffffu);
  EXPECT_EQ(U, 1u);
  double D = 1.5;
  EXPECT_EQ(rt::atomic_add<atomic_scope::gpu>(&D, 2.0), 1.5);
  EXPECT_EQ(D, 3.5);
}

TEST(Atomics, ConcurrentMinMax) {
  int Lo = 0, Hi = 0;
  float FLo = 0.0f, FHi = 0.0f;
  hammer(4, 10000, [&](int T, int K) {
    int V = (K * 7919 + T * 104729) % 100003 - 50000;
    rt::atomic_min<atomic_scope::gpu>(&Lo, V);
    rt::atomic_max<atomic_scope::gpu>(&Hi, V);
    rt::atomic_min<atomic_scope::sys>(&FLo, static_cast<float>(V));
    rt::atomic_max<atomic_scope::cta>(&FHi, static_cast<float>(V));
  });
  int WantLo = 0, WantHi = 0;
  for (int T = 0; T < 4; ++T)
    for (int K = 0; K < 10000; ++K) {
      int V = (K * 7919 + T * 104729) % 100003 - 50000;
      WantLo = std::min(WantLo, V);
      WantHi = std::max(WantHi, V);
    }
  EXPECT_EQ(Lo, WantLo);
  EXPECT_EQ(Hi, WantHi);
  EXPECT_EQ(FLo, static_cast<float>(WantLo));
  EXPECT_EQ(FHi, static_cast<float>(WantHi));
}

TEST(Atomics, MinMaxMatchSerialSemantics) {
  const float NaN = std::numeric_limits<float>::quiet_NaN();
  // NaN propagates into the location, and a NaN location stays NaN.
  float X = 1.0f;
  EXPECT_EQ(rt::atomic_max<atomic_scope::gpu>(&X, NaN), 1.0f);
  EXPECT_TRUE(std::isnan(X));
  EXPECT_TRUE(std::isnan(rt::atomic_min<atomic_scope::gpu>(&X, -5.0f)));
  EXPECT_TRUE(std::isnan(X));
  // Equal operands keep the stored one (the left operand): -0.0 stays.
  float Z = -0.0f;
  rt::atomic_max<atomic_scope::gpu>(&Z, 0.0f);
  EXPECT_TRUE(std::signbit(Z));
  // Unsigned and 64-bit signed use their own order.
  unsigned long long U = 5;
  EXPECT_EQ(rt::atomic_min<atomic_scope::gpu>(&U, 3ULL), 5ULL);
  EXPECT_EQ(U, 3ULL);
  long long S = -5;
  EXPECT_EQ(rt::atomic_max<atomic_scope::gpu>(&S, -7LL), -5LL);
  EXPECT_EQ(S, -5LL);
  // The serial reference agrees.
  float Ref = 1.0f;
  intent::atomic_max(Ref, NaN);
  EXPECT_TRUE(std::isnan(Ref));
}

TEST(Atomics, CasIsBitwise) {
  float F = -0.0f;
  cas_result<float> R = rt::atomic_cas<atomic_scope::gpu>(&F, 0.0f, 1.0f);
  EXPECT_FALSE(R.success);
  EXPECT_TRUE(sameBits(R.old, -0.0f));
  R = rt::atomic_cas<atomic_scope::gpu, memory_order::acq_rel>(&F, -0.0f, 1.0f);
  EXPECT_TRUE(R.success);
  EXPECT_EQ(F, 1.0f);
  double D = std::numeric_limits<double>::quiet_NaN();
  cas_result<double> RD = rt::atomic_cas<atomic_scope::sys, memory_order::release>(
      &D, D, 2.0);
  EXPECT_TRUE(RD.success);
  EXPECT_EQ(D, 2.0);
}

TEST(Atomics, ConcurrentCasCounter) {
  long long Counter = 0;
  hammer(4, 5000, [&](int, int) {
    long long Old = rt::atomic_load<atomic_scope::gpu>(&Counter);
    while (!rt::atomic_cas<atomic_scope::gpu>(&Counter, Old, Old + 1).success)
      Old = rt::atomic_load<atomic_scope::gpu>(&Counter);
  });
  EXPECT_EQ(Counter, 20000);
}

TEST(Atomics, ExchLoadStore) {
  double D = 1.0;
  EXPECT_EQ(rt::atomic_exch<atomic_scope::gpu>(&D, 2.0), 1.0);
  EXPECT_EQ(D, 2.0);
  int I = 4;
  rt::atomic_store<atomic_scope::cta, memory_order::release>(&I, 9);
  EXPECT_EQ((rt::atomic_load<atomic_scope::cta, memory_order::acquire>(&I)), 9);
}

TEST(Vector, LoadStoreRoundTrip) {
  alignas(32) float Src[8] = {1, 2, 3, 4, 5, 6, 7, 8};
  alignas(32) float Dst[8] = {};
  rt::vec<float, 4> V = rt::load_vec<4>(static_cast<const float *>(Src + 4));
  EXPECT_EQ(V[0], 5.0f);
  EXPECT_EQ(V[3], 8.0f);
  rt::store_vec<4>(Dst, V);
  EXPECT_EQ(Dst[0], 5.0f);
  EXPECT_EQ(Dst[3], 8.0f);
  EXPECT_EQ(Dst[4], 0.0f);
  static_assert(sizeof(rt::vec<float, 4>) == 16 &&
                    alignof(rt::vec<float, 4>) == 16,
                "vec<float, 4> is one 128-bit access");
  static_assert(alignof(rt::vec<unsigned char, 16>) == 16, "u8 x 16");
}

TEST(VectorDeathTest, MisalignedLoadAsserts) {
  alignas(16) float Src[8] = {};
  EXPECT_DEATH((void)rt::load_vec<4>(Src + 1), "misaligned");
}

} // namespace
