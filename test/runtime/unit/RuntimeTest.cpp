//===- RuntimeTest.cpp - Unit tests of the runtime library (host modes) --===//
//
// Runs with INTENT_DEVICE=cpu or reference (host memory); see
// test/runtime/CMakeLists.txt.
//
//===----------------------------------------------------------------------===//

#include "Internal.h"

#include <intent/array.hpp>
#include <intent/runtime/device.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <vector>

namespace {

// Not `using namespace intent`: <cstring> declares POSIX ::index.
using intent::array;
using intent::index;
using intent::view;
namespace rt = intent::rt;

std::string modeFromEnvironment() {
  const char *Value = std::getenv("INTENT_DEVICE");
  return Value ? Value : "";
}

/// Expects Statement to throw rt::error whose message contains Text.
#define EXPECT_RT_ERROR(Statement, Text)                                       \
  do {                                                                         \
    try {                                                                      \
      Statement;                                                               \
      ADD_FAILURE() << "no rt::error from " #Statement;                        \
    } catch (const rt::error &E) {                                             \
      EXPECT_NE(std::string(E.what()).find(Text), std::string::npos)           \
          << E.what();                                                         \
      EXPECT_EQ(std::string(E.what()).rfind("intent: ", 0), 0u) << E.what(); \
    }                                                                          \
  } while (0)

TEST(Mode, FollowsEnvironment) {
  std::string Env = modeFromEnvironment();
  ASSERT_TRUE(Env == "cpu" || Env == "reference")
      << "runtime_unit runs in host modes only";
  EXPECT_EQ(rt::mode_name(rt::mode()), Env);
  EXPECT_EQ(rt::stream_handle(), nullptr);
  rt::synchronize(); // A no-op without a GPU.
  // Host modes count one multiprocessor: mappings sized by it (split rows)
  // give each row one CTA there.
  EXPECT_EQ(rt::sm_count(), 1);
}

TEST(Counters, ReferenceCallsCountAsLaunches) {
  std::uint64_t Launches = rt::launch_count(), Programs = rt::program_count();
  rt::note_reference_call();
  rt::note_reference_call();
  EXPECT_EQ(rt::launch_count(), Launches + 2);
  EXPECT_EQ(rt::program_count(), Programs);
}

TEST(Launch, GridSize) {
  using rt::detail::gridSize;
  const index Max = (index(1) << 31) - 1;
  EXPECT_EQ(gridSize(0, 256, Max), 0);
  EXPECT_EQ(gridSize(-5, 256, Max), 0);
  EXPECT_EQ(gridSize(1, 256, Max), 1);
  EXPECT_EQ(gridSize(256, 256, Max), 1);
  EXPECT_EQ(gridSize(257, 256, Max), 2);
  EXPECT_EQ(gridSize(index(1) << 40, 256, Max), Max);
  EXPECT_EQ(gridSize(Max * 256, 256, Max), Max);
  EXPECT_EQ(gridSize(Max * 256 + 1, 256, Max), Max);
  EXPECT_EQ(gridSize(100, 1, 3), 3);
  EXPECT_EQ(gridSize(100, 7, 0), 15);
}

TEST(Launch, Describe) {
  rt::kernel_info Info{"saxpy", "app.cpp", 12};
  EXPECT_EQ(rt::detail::describe(Info), "kernel 'saxpy' (app.cpp:12)");
}

TEST(Segments, PrefixEnds) {
  rt::segments<3> S = rt::make_segments<3>({3, -2, 5});
  EXPECT_EQ(S.end[0], 3);
  EXPECT_EQ(S.end[1], 3);
  EXPECT_EQ(S.end[2], 8);
  EXPECT_EQ(S.total(), 8);
  EXPECT_EQ(S.begin(0), 0);
  EXPECT_EQ(S.begin(2), 3);
  EXPECT_EQ(S.length(1), 0);
  EXPECT_EQ(S.length(2), 5);
  EXPECT_EQ(rt::make_segments<1>({0}).total(), 0);
}

TEST(Segments, DelinearizeIsRowMajor) {
  const index Ext[3] = {4, 3, 5};
  index Linear = 0;
  for (index I = 0; I < 4; ++I)
    for (index J = 0; J < 3; ++J)
      for (index K = 0; K < 5; ++K, ++Linear) {
        rt::coords<3> C = rt::delinearize<3>(Linear, Ext);
        ASSERT_EQ(C[0], I);
        ASSERT_EQ(C[1], J);
        ASSERT_EQ(C[2], K);
      }
}

TEST(Device, ElementPtrFollowsStrides) {
  std::vector<int> Data(24);
  view<int, 2> V(Data.data(), {4, 3}, {1, 8}); // column-major-ish
  EXPECT_EQ(rt::element_ptr(V, 2, 1), Data.data() + 2 + 8);
  EXPECT_EQ(rt::element_ptr(V.transpose(), 1, 2), Data.data() + 2 + 8);
}

TEST(Array, ZeroFilledAndViews) {
  array<float> A(12);
  EXPECT_EQ(A.size(), 12);
  std::vector<float> V = A.to_vector();
  EXPECT_EQ(V, std::vector<float>(12, 0.0f));
  view<float, 1> R1 = A.view();
  EXPECT_EQ(R1.extent(0), 12);
  EXPECT_EQ(R1.data(), A.data());
  view<float, 2> R2 = A.view(3, 4);
  EXPECT_EQ(R2.extent(0), 3);
  EXPECT_EQ(R2.extent(1), 4);
  EXPECT_EQ(R2.stride(0), 4);
  EXPECT_EQ(R2.stride(1), 1);
  view<float, 3> R3 = A.view(2, 3, 2);
  EXPECT_EQ(R3.stride(0), 6);
  EXPECT_TRUE(rt::is_aligned(A.data(), 256));
}

TEST(Array, RoundTripAndCopyFrom) {
  std::vector<int> Values = {5, -1, 7};
  array<int> A(Values);
  EXPECT_EQ(A.to_vector(), Values);
  A.copy_from({1, 2, 3});
  EXPECT_EQ(A.to_vector(), (std::vector<int>{1, 2, 3}));
  EXPECT_RT_ERROR(A.copy_from({1, 2}), "2 values for an array of 3");
}

TEST(Array, ShapeErrors) {
  array<double> A(6);
  EXPECT_RT_ERROR(A.view(4, 2), "shape of 8 elements");
  EXPECT_RT_ERROR(A.view(-2, -3), "negative extent");
  EXPECT_RT_ERROR(array<int>(-1), "array size must be >= 0, got -1");
}

TEST(Array, EmptyAndMove) {
  array<int> Empty(0);
  EXPECT_EQ(Empty.data(), nullptr);
  EXPECT_TRUE(Empty.to_vector().empty());
  EXPECT_EQ(Empty.view(0, 7).extent(1), 7);

  array<int> A(std::vector<int>{1, 2, 3});
  int *Data = A.data();
  array<int> B(std::move(A));
  EXPECT_EQ(B.data(), Data);
  EXPECT_EQ(A.data(), nullptr);
  EXPECT_EQ(A.size(), 0);
  array<int> C(1);
  C = std::move(B);
  EXPECT_EQ(C.data(), Data);
  EXPECT_EQ(C.to_vector(), (std::vector<int>{1, 2, 3}));
}

TEST(Workspace, AlignedZeroedGrownAndReused) {
  std::lock_guard<std::mutex> Lock(rt::detail::launchMutex());
  EXPECT_EQ(rt::detail::workspace(0, true), nullptr);
  auto *P = static_cast<unsigned char *>(rt::detail::workspace(100, true));
  ASSERT_NE(P, nullptr);
  EXPECT_TRUE(rt::is_aligned(P, 256));
  std::memset(P, 0xff, 100);
  // Same capacity: the same buffer, zeroed again on request.
  auto *Q = static_cast<unsigned char *>(rt::detail::workspace(64, true));
  EXPECT_EQ(Q, P);
  for (int I = 0; I < 100; ++I)
    ASSERT_EQ(Q[I], I < 64 ? 0 : 0xff) << I;
  // Without zeroing, the contents are left alone.
  Q[0] = 7;
  EXPECT_EQ(static_cast<unsigned char *>(rt::detail::workspace(8, false))[0],
            7);
  // Larger: a new, zeroed buffer of at least that size.
  const std::size_t Big = 1 << 20;
  auto *R = static_cast<unsigned char *>(rt::detail::workspace(Big, true));
  ASSERT_NE(R, nullptr);
  EXPECT_TRUE(rt::is_aligned(R, 256));
  for (std::size_t I = 0; I < Big; I += 4093)
    ASSERT_EQ(R[I], 0);
  R[Big - 1] = 1;
  // Smaller again: reused.
  EXPECT_EQ(rt::detail::workspace(10, false), R);
}

TEST(Workspace, KeptZeroPoolZeroedOnceAndSeparate) {
  std::lock_guard<std::mutex> Lock(rt::detail::launchMutex());
  EXPECT_EQ(rt::detail::keptZeroWorkspace(0), nullptr);
  auto *P = static_cast<unsigned char *>(rt::detail::keptZeroWorkspace(100));
  ASSERT_NE(P, nullptr);
  EXPECT_TRUE(rt::is_aligned(P, 256));
  EXPECT_NE(static_cast<void *>(P), rt::detail::workspace(100, false));
  for (int I = 0; I < 100; ++I)
    ASSERT_EQ(P[I], 0) << I;
  // No memset per launch: what a (misbehaving) kernel leaves stays.
  P[3] = 9;
  auto *Q = static_cast<unsigned char *>(rt::detail::keptZeroWorkspace(64));
  EXPECT_EQ(Q, P);
  EXPECT_EQ(Q[3], 9);
  EXPECT_FALSE(rt::detail::keptZeroIsZero(64));
  EXPECT_TRUE(rt::detail::keptZeroIsZero(3));
  // After a failed launch the runtime zeroes it again, once.
  rt::detail::markKeptZeroDirty();
  Q = static_cast<unsigned char *>(rt::detail::keptZeroWorkspace(64));
  EXPECT_EQ(Q, P);
  EXPECT_EQ(Q[3], 0);
  EXPECT_TRUE(rt::detail::keptZeroIsZero(100));
  // Larger: a new buffer, zero in full.
  const std::size_t Big = 1 << 20;
  auto *R = static_cast<unsigned char *>(rt::detail::keptZeroWorkspace(Big));
  ASSERT_NE(R, nullptr);
  EXPECT_TRUE(rt::is_aligned(R, 256));
  EXPECT_TRUE(rt::detail::keptZeroIsZero(Big));
}

TEST(Coop, ProgramsPerCtaAndCpuGrid) {
  using rt::exec_scope;
  using rt::detail::programsPerCta;
  EXPECT_EQ(programsPerCta(exec_scope::thread, 256), 256);
  EXPECT_EQ(programsPerCta(exec_scope::warp, 256), 8);
  EXPECT_EQ(programsPerCta(exec_scope::warp, 32), 1);
  EXPECT_EQ(programsPerCta(exec_scope::cta, 1024), 1);
  const index Cap = 4 * rt::detail::cpuThreads();
  using rt::detail::cpuCooperativeGrid;
  EXPECT_EQ(cpuCooperativeGrid(0, exec_scope::cta, 256), 0);
  EXPECT_EQ(cpuCooperativeGrid(1, exec_scope::cta, 256), 1);
  EXPECT_EQ(cpuCooperativeGrid(1, exec_scope::warp, 256), 1);
  EXPECT_EQ(cpuCooperativeGrid(9, exec_scope::warp, 256), std::min<index>(2, Cap));
  EXPECT_EQ(cpuCooperativeGrid(index(1) << 40, exec_scope::cta, 64), Cap);
}

TEST(Coop, HostHelpersOutsideACooperativeLaunch) {
  // A CTA of one thread; barriers are errors, not hangs.
  EXPECT_EQ(rt::cta_thread(), 0);
  EXPECT_EQ(rt::cta_size(), 1);
  EXPECT_EQ(rt::cta_id(), 0);
  EXPECT_EQ(rt::cta_count(), 1);
  EXPECT_EQ(rt::program_begin<rt::exec_scope::thread>(), 0);
  EXPECT_EQ(rt::program_stride<rt::exec_scope::thread>(), 1);
  EXPECT_THROW(rt::cta_barrier(), std::logic_error);
  EXPECT_THROW(rt::warp_barrier(), std::logic_error);
  EXPECT_THROW(rt::warp_shfl_xor(1, 1), std::logic_error);
}

/// Counts how often each id ran.
struct Coverage {
  std::vector<std::atomic<int>> *Hits;
};

void countRange(const void *Args, index Begin, index End) {
  const Coverage &C = *static_cast<const Coverage *>(Args);
  for (index Id = Begin; Id < End; ++Id)
    (*C.Hits)[Id].fetch_add(1);
}

TEST(HostPool, EveryIdExactlyOnce) {
  for (index Total : {index(0), index(1), index(5), index(1023), index(1024),
                      index(1025), index(100000)}) {
    std::vector<std::atomic<int>> Hits(Total);
    Coverage C{&Hits};
    rt::detail::runOnHost(countRange, &C, Total);
    for (index Id = 0; Id < Total; ++Id)
      ASSERT_EQ(Hits[Id].load(), 1) << "id " << Id << " of " << Total;
  }
}

void throwAt77(const void *, index Begin, index End) {
  if (Begin <= 77 && 77 < End)
    throw std::runtime_error("program 77 failed");
}

TEST(HostPool, RethrowsProgramException) {
  for (int Repeat = 0; Repeat < 3; ++Repeat) {
    try {
      rt::detail::runOnHost(throwAt77, nullptr, 50000);
      ADD_FAILURE() << "no exception";
    } catch (const std::runtime_error &E) {
      EXPECT_STREQ(E.what(), "program 77 failed");
    }
  }
  // The pool still works afterwards.
  std::vector<std::atomic<int>> Hits(3000);
  Coverage C{&Hits};
  rt::detail::runOnHost(countRange, &C, 3000);
  for (auto &H : Hits)
    ASSERT_EQ(H.load(), 1);
}

} // namespace
