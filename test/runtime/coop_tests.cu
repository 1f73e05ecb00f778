// Cooperative launches (exec scope warp and cta, intent/runtime/coop.hpp)
// driven directly through the launch helper, in every mode: every program
// runs exactly once with all threads of its warp/CTA, the identity helpers
// agree with each other, the shuffles have the hardware's semantics for
// every supported type (including out-of-range lanes), shared memory needs
// its barriers (a transpose without one must fail in cpu mode: the negative
// self-test proving that the fiber barrier is not a no-op), barrier-heavy
// ping-pong rounds, the kept-zero workspace, a persistent launch running the
// cross-row prefetch pattern with async copies (and, in cpu mode, failing
// without its barrier), and the errors: a bad block
// size, an exception inside a fiber, a barrier not reached uniformly, a
// barrier outside a cooperative launch, a kernel breaking the kept-zero
// promise.
#include <intent/runtime/kernel.hpp>

#include "check.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>

namespace {

using intent::index;
namespace rt = intent::rt;
using rt::exec_scope;

template <class Args> using KernelFn = void (*)(Args, index);

/// Runs programs of scope S: the __global__ program-id loop of COOP_API.
#define COOP_KERNEL(Name, Program, Args, S)                                    \
  __global__ void Name(Args a, index total) {                                  \
    for (index pid = rt::program_begin<S>(); pid < total;                      \
         pid += rt::program_stride<S>())                                       \
      Program(pid, a);                                                         \
  }

/// Runs Statement and expects an rt::error whose message contains Text.
template <class F>
void expectError(check::suite &S, F Statement, const std::string &Text) {
  try {
    Statement();
    S.expect(false, "no rt::error; expected '" + Text + "'");
  } catch (const rt::error &E) {
    S.expect(std::string(E.what()).find(Text) != std::string::npos,
             std::string("error '") + E.what() + "' lacks '" + Text + "'");
  }
}

rt::launch_config coopConfig(index Total, int Block, exec_scope Scope,
                             std::size_t Shared = 0) {
  rt::launch_config Config;
  Config.total = Total;
  Config.block = Block;
  Config.scope = Scope;
  Config.shared_bytes = Shared;
  return Config;
}

//===--- Coverage and identity ---------------------------------------------===//

struct CoverArgs {
  intent::view<int, 1> threads;   // threads that ran the program
  intent::view<int, 1> idsum;     // sum of their indices within the program
  intent::view<int, 1> bad;       // identity inconsistencies seen
  int per_program;                // 32 (warp) or the block (cta)
  void *workspace;
};

INTENT_PROGRAM void coverProgram(index pid, const CoverArgs &a) {
  const int t = a.per_program == 32 ? rt::lane() : rt::cta_thread();
  rt::atomic_add<rt::atomic_scope::gpu>(&a.threads[pid], 1);
  rt::atomic_add<rt::atomic_scope::gpu>(&a.idsum[pid], t);
  int bad = 0;
  if (rt::warp_in_cta() * 32 + rt::lane() != rt::cta_thread())
    bad |= 1;
  if (rt::cta_thread() < 0 || rt::cta_thread() >= rt::cta_size())
    bad |= 2;
  if (rt::cta_id() < 0 || rt::cta_id() >= rt::cta_count())
    bad |= 4;
  // The program's id is where the loop of its scope says it is.
  if (a.per_program != 32 && (pid - rt::cta_id()) % rt::cta_count() != 0)
    bad |= 8;
  if (a.per_program == 32 &&
      (pid - (rt::cta_id() * (rt::cta_size() / 32) + rt::warp_in_cta())) %
              (rt::cta_count() * (rt::cta_size() / 32)) != 0)
    bad |= 16;
  if (bad)
    rt::atomic_add<rt::atomic_scope::gpu>(&a.bad[0], bad);
}
COOP_KERNEL(coverWarpKernel, coverProgram, CoverArgs, exec_scope::warp)
COOP_KERNEL(coverCtaKernel, coverProgram, CoverArgs, exec_scope::cta)

const rt::kernel_info CoverInfo{"coop_cover", "coop_tests.cu", 66};

void testCoverage(check::suite &S) {
  for (exec_scope Scope : {exec_scope::warp, exec_scope::cta})
    for (int Block : {32, 64, 256, 1024})
      for (index Total : {index(0), index(1), index(7), index(100),
                          index(1001)}) {
        if (Scope == exec_scope::cta && Block == 1024 && Total > 100)
          continue; // keep cpu mode quick
        const int Per = Scope == exec_scope::warp ? 32 : Block;
        std::string What = std::string(Scope == exec_scope::warp ? "warp" : "cta") +
                           " block=" + std::to_string(Block) +
                           " total=" + std::to_string(Total);
        intent::array<int> Threads(Total + 1), IdSum(Total + 1), Bad(1);
        CoverArgs A{intent::view<int, 1>(Threads.data(), {Total + 1}),
                    intent::view<int, 1>(IdSum.data(), {Total + 1}), Bad.view(),
                    Per, nullptr};
        check::counters Before = check::now();
        rt::launch<coverProgram>(CoverInfo, coopConfig(Total, Block, Scope), A,
                                 Scope == exec_scope::warp ? coverWarpKernel
                                                           : coverCtaKernel);
        S.expectOneLaunch(Before, Total, What);
        std::vector<int> WantThreads(Total + 1, Per), WantSum(Total + 1,
                                                              Per * (Per - 1) / 2);
        WantThreads[Total] = WantSum[Total] = 0;
        S.expectNear(Threads.to_vector(), WantThreads, 0.0, What + " threads");
        S.expectNear(IdSum.to_vector(), WantSum, 0.0, What + " thread ids");
        S.expectNear(Bad.to_vector(), std::vector<int>{0}, 0.0, What + " identity");
      }
}

//===--- Shuffles ----------------------------------------------------------===//

/// A 4-byte aggregate: shuffled as its representation.
struct Pair16 {
  short lo, hi;
};

constexpr int ShuffleCases = 20;

struct ShuffleArgs {
  intent::view<long long, 1> out; // [pid * 32 + lane][case]
  void *workspace;
};

/// The value lane L of warp program pid contributes.
INTENT_HD inline long long shuffleValue(index pid, int L) {
  return pid * 1000 + L * 7 + 3;
}

INTENT_PROGRAM void shuffleProgram(index pid, const ShuffleArgs &a) {
  const int L = rt::lane();
  const long long v = shuffleValue(pid, L);
  long long *o = &a.out[(pid * 32 + L) * ShuffleCases];
  o[0] = rt::warp_shfl_xor(static_cast<int>(v), 1);
  o[1] = rt::warp_shfl_xor(static_cast<unsigned>(v), 16);
  o[2] = rt::warp_shfl_xor(v, 33);                        // mask 33 % 32 = 1
  o[3] = static_cast<long long>(rt::warp_shfl(static_cast<double>(v), (L + 5) % 32));
  o[4] = static_cast<long long>(rt::warp_shfl(static_cast<float>(v), 37)); // lane 5
  o[5] = rt::warp_shfl(static_cast<unsigned long long>(v), -1);             // lane 31
  o[6] = rt::warp_shfl_down(v, 1);
  o[7] = rt::warp_shfl_down(static_cast<int>(v), 3);
  o[8] = rt::warp_shfl_down(v, 32);                       // delta 32 % 32 = 0
  o[9] = rt::warp_shfl_xor(L % 3 == 0, 2) ? 1 : 0;        // bool
  Pair16 p{static_cast<short>(L), static_cast<short>(-L)};
  Pair16 q = rt::warp_shfl_down(p, 4);
  o[10] = q.lo * 100 + q.hi;
  // A reduction tree: every lane ends with the warp's sum.
  long long s = v;
  for (int m = 16; m >= 1; m /= 2)
    s += rt::warp_shfl_xor(s, m);
  o[11] = s;
  // Operands at and past the boundary: shfl.sync reads only their low 5 bits
  // (PTX ISA, shfl.sync: bval[4:0] = b[4:0]), for 4- and 8-byte values.
  o[12] = rt::warp_shfl_xor(static_cast<int>(v), 32);     // mask 0: own
  o[13] = rt::warp_shfl_xor(v, -1);                       // mask 31
  o[14] = rt::warp_shfl(v, 32);                           // lane 0
  o[15] = rt::warp_shfl(static_cast<int>(v), -33);        // lane 31
  o[16] = rt::warp_shfl_down(static_cast<int>(v), 31);    // lane 0 only moves
  o[17] = rt::warp_shfl_down(v, 33);                      // delta 1
  o[18] = rt::warp_shfl_down(v, -1);                      // delta 31
  o[19] = static_cast<long long>(
      rt::warp_shfl_down(static_cast<double>(v), 63));     // delta 31
}
COOP_KERNEL(shuffleKernel, shuffleProgram, ShuffleArgs, exec_scope::warp)

const rt::kernel_info ShuffleInfo{"coop_shuffle", "coop_tests.cu", 126};

void testShuffles(check::suite &S) {
  const index Total = 21; // 64-thread CTAs: two warps each, one CTA half idle
  intent::array<long long> Out(Total * 32 * ShuffleCases);
  ShuffleArgs A{Out.view(), nullptr};
  rt::launch<shuffleProgram>(ShuffleInfo, coopConfig(Total, 64, exec_scope::warp),
                             A, shuffleKernel);
  std::vector<long long> Want(Out.size());
  for (index pid = 0; pid < Total; ++pid)
    for (int L = 0; L < 32; ++L) {
      auto v = [&](int Src) { return shuffleValue(pid, Src); };
      long long *w = &Want[(pid * 32 + L) * ShuffleCases];
      w[0] = v(L ^ 1);
      w[1] = v(L ^ 16);
      w[2] = v(L ^ 1);
      w[3] = v((L + 5) % 32);
      w[4] = v(5);
      w[5] = v(31);
      w[6] = L + 1 < 32 ? v(L + 1) : v(L);
      w[7] = L + 3 < 32 ? v(L + 3) : v(L);
      w[8] = v(L);
      w[9] = ((L ^ 2) % 3 == 0) ? 1 : 0;
      int Src = L + 4 < 32 ? L + 4 : L;
      w[10] = Src * 100 - Src;
      long long Sum = 0;
      for (int K = 0; K < 32; ++K)
        Sum += v(K);
      w[11] = Sum;
      w[12] = v(L);
      w[13] = v(L ^ 31);
      w[14] = v(0);
      w[15] = v(31);
      w[16] = w[18] = w[19] = L == 0 ? v(31) : v(L);
      w[17] = L + 1 < 32 ? v(L + 1) : v(L);
    }
  S.expectNear(Out.to_vector(), Want, 0.0, "warp shuffles");
}

//===--- Shared memory and barriers ----------------------------------------===//

constexpr int Tile = 32;

struct TransposeArgs {
  intent::view<float, 2> out; // cols x rows
  intent::view<const float, 2> in; // rows x cols
  index tiles_x;
  void *workspace;
};

/// One CTA (256 threads) per 32 x 32 tile: the tile is read row by row into
/// shared memory (coalesced), and written out column by column. A thread
/// writes elements that other threads loaded, so the barrier between the two
/// phases is needed; the barrier at the end protects the tile from the next
/// program of the loop. Without them (Barrier = false) cpu mode runs thread
/// 0 to its end before thread 1 starts, so thread 0 reads shared slots no
/// other thread has written yet (the poison of a fresh CTA, or the previous
/// tile's values): the negative self-test checks that this fails.
template <bool Barrier>
INTENT_PROGRAM void transposeProgram(index pid, const TransposeArgs &a) {
  float *tile = rt::cta_shared<float>(); // [Tile][Tile + 1]
  const index rows = a.in.extent(0), cols = a.in.extent(1);
  const index r0 = (pid / a.tiles_x) * Tile, c0 = (pid % a.tiles_x) * Tile;
  const int tx = rt::cta_thread() % Tile, ty0 = rt::cta_thread() / Tile;
  for (int ty = ty0; ty < Tile; ty += rt::cta_size() / Tile)
    if (r0 + ty < rows && c0 + tx < cols)
      tile[ty * (Tile + 1) + tx] = a.in(r0 + ty, c0 + tx);
  if (Barrier)
    rt::cta_barrier();
  for (int ty = ty0; ty < Tile; ty += rt::cta_size() / Tile)
    if (c0 + ty < cols && r0 + tx < rows)
      a.out(c0 + ty, r0 + tx) = tile[tx * (Tile + 1) + ty];
  if (Barrier)
    rt::cta_barrier();
}
COOP_KERNEL(transposeKernel, transposeProgram<true>, TransposeArgs, exec_scope::cta)
COOP_KERNEL(transposeNoBarrierKernel, transposeProgram<false>, TransposeArgs,
            exec_scope::cta)

const rt::kernel_info TransposeInfo{"coop_transpose", "coop_tests.cu", 200};

/// Transposes a rows x cols matrix; returns whether it matched.
template <bool Barrier>
bool runTranspose(check::suite &S, index Rows, index Cols, bool Record) {
  std::vector<float> In = S.floats(static_cast<std::size_t>(Rows * Cols));
  std::vector<float> Want(In.size());
  for (index R = 0; R < Rows; ++R)
    for (index C = 0; C < Cols; ++C)
      Want[C * Rows + R] = In[R * Cols + C];
  intent::array<float> DIn(In), DOut(Rows * Cols);
  const index TilesX = (Cols + Tile - 1) / Tile, TilesY = (Rows + Tile - 1) / Tile;
  TransposeArgs A{DOut.view(Cols, Rows), intent::view<const float, 2>(DIn.view(Rows, Cols)),
                  TilesX, nullptr};
  check::counters Before = check::now();
  rt::launch<transposeProgram<Barrier>>(
      TransposeInfo,
      coopConfig(TilesX * TilesY, 256, exec_scope::cta,
                 sizeof(float) * Tile * (Tile + 1)),
      A, Barrier ? transposeKernel : transposeNoBarrierKernel);
  std::vector<float> Got = DOut.to_vector();
  std::string What = "transpose " + std::to_string(Rows) + "x" + std::to_string(Cols);
  if (Record) {
    S.expectOneLaunch(Before, TilesX * TilesY, What);
    S.expectNear(Got, Want, 0.0, What);
  }
  return Got == Want;
}

void testTranspose(check::suite &S) {
  for (auto [R, C] : {std::pair<index, index>{0, 5}, {1, 1}, {31, 33}, {32, 32},
                      {100, 257}, {513, 70}})
    runTranspose<true>(S, R, C, true);
  // The negative self-test: the same program without its barriers must fail
  // in cpu mode (on the GPU the race may go either way).
  if (rt::mode() == rt::device_mode::cpu)
    S.expect(!runTranspose<false>(S, 100, 257, false),
             "the transpose without cta_barrier() fails in cpu mode");
}

struct ShiftArgs {
  intent::view<int, 1> out; // [pid * block + thread]
  void *workspace;
};

/// Data flowing one way only: thread t reads what thread t - 1 wrote. A run
/// in increasing thread order gets it right even without the barrier; cpu
/// mode runs odd CTAs in decreasing order, so the barrier-free variant
/// fails there too (the second negative self-test).
template <bool Barrier>
INTENT_PROGRAM void shiftProgram(index pid, const ShiftArgs &a) {
  int *cell = rt::cta_shared<int>();
  const int t = rt::cta_thread();
  cell[t] = static_cast<int>(pid) * 1000 + t;
  if (Barrier)
    rt::cta_barrier();
  a.out[pid * rt::cta_size() + t] = cell[t > 0 ? t - 1 : 0];
  if (Barrier)
    rt::cta_barrier();
}
COOP_KERNEL(shiftKernel, shiftProgram<true>, ShiftArgs, exec_scope::cta)
COOP_KERNEL(shiftNoBarrierKernel, shiftProgram<false>, ShiftArgs, exec_scope::cta)
const rt::kernel_info ShiftInfo{"coop_shift", "coop_tests.cu", 246};

template <bool Barrier> bool runShift(index Total) {
  const int Block = 64;
  intent::array<int> Out(Total * Block);
  ShiftArgs A{Out.view(), nullptr};
  rt::launch<shiftProgram<Barrier>>(
      ShiftInfo, coopConfig(Total, Block, exec_scope::cta, sizeof(int) * Block), A,
      Barrier ? shiftKernel : shiftNoBarrierKernel);
  std::vector<int> Want(Out.size());
  for (index P = 0; P < Total; ++P)
    for (int T = 0; T < Block; ++T)
      Want[P * Block + T] = static_cast<int>(P) * 1000 + (T > 0 ? T - 1 : 0);
  return Out.to_vector() == Want;
}

void testShift(check::suite &S) {
  S.expect(runShift<true>(9), "shift through shared memory");
  if (rt::mode() == rt::device_mode::cpu)
    // Two programs, two CTAs of one program each (even: increasing order,
    // odd: decreasing), so only the order can break it.
    S.expect(!runShift<false>(2),
             "the one-way shift without cta_barrier() fails in cpu mode");
}

constexpr int PingRounds = 40;

struct PingArgs {
  intent::view<int, 1> out; // [pid * block + thread]
  void *workspace;
};

/// Barrier-heavy: PingRounds rounds in which every thread reads its right
/// neighbour's value, then (after a barrier) overwrites its own; two
/// barriers per round. Any reordering across a barrier changes the result.
INTENT_PROGRAM void pingProgram(index pid, const PingArgs &a) {
  unsigned *cell = rt::cta_shared<unsigned>();
  const int t = rt::cta_thread(), n = rt::cta_size();
  cell[t] = static_cast<unsigned>(pid * 131 + t);
  rt::cta_barrier();
  for (int r = 0; r < PingRounds; ++r) {
    unsigned right = cell[(t + 1) % n];
    rt::cta_barrier();
    cell[t] = right * 3u + r + (t & 7);
    rt::cta_barrier();
  }
  a.out[pid * n + t] = static_cast<int>(cell[t]);
  rt::cta_barrier();
}
COOP_KERNEL(pingKernel, pingProgram, PingArgs, exec_scope::cta)

const rt::kernel_info PingInfo{"coop_ping", "coop_tests.cu", 262};

void testPing(check::suite &S) {
  // The last three: more dynamic shared memory than the 48 KiB default,
  // then less (still above it), then more again: the runtime's opt-in must
  // only ever raise the kernel's maximum (lowering it made the third launch
  // fail with "invalid argument" on the H200).
  const std::size_t Extra[] = {0, 0, 100000, 60000, 100000};
  for (int Run = 0; Run < 5; ++Run) {
    const int Block = Run == 1 ? 256 : 32;
    const index Total = 50;
    intent::array<int> Out(Total * Block);
    PingArgs A{Out.view(), nullptr};
    rt::launch<pingProgram>(PingInfo,
                            coopConfig(Total, Block, exec_scope::cta,
                                       std::max(sizeof(int) * Block, Extra[Run])),
                            A, pingKernel);
    std::vector<int> Want(Out.size());
    for (index P = 0; P < Total; ++P) {
      std::vector<unsigned> Cell(Block), Next(Block);
      for (int T = 0; T < Block; ++T)
        Cell[T] = static_cast<unsigned>(P * 131 + T);
      for (int R = 0; R < PingRounds; ++R) {
        for (int T = 0; T < Block; ++T)
          Next[T] = Cell[(T + 1) % Block] * 3u + R + (T & 7);
        Cell = Next;
      }
      for (int T = 0; T < Block; ++T)
        Want[P * Block + T] = static_cast<int>(Cell[T]);
    }
    S.expectNear(Out.to_vector(), Want, 0.0,
                 "ping block=" + std::to_string(Block) + " shared=" +
                     std::to_string(std::max(sizeof(int) * Block, Extra[Run])));
  }
}

//===--- Errors ------------------------------------------------------------===//

struct PlainArgs {
  intent::view<int, 1> out;
  void *workspace;
};

/// Thread 5 of program 3 throws (cpu mode only).
INTENT_PROGRAM void throwingProgram(index pid, const PlainArgs &a) {
  rt::cta_barrier();
#if !defined(__CUDA_ARCH__)
  if (pid == 3 && rt::cta_thread() == 5)
    throw std::runtime_error("boom in a fiber");
#endif
  rt::cta_barrier();
  if (rt::cta_thread() == 0)
    a.out[pid] = 1;
}
COOP_KERNEL(throwingKernel, throwingProgram, PlainArgs, exec_scope::cta)
const rt::kernel_info ThrowingInfo{"coop_thrower", "coop_tests.cu", 300};

/// Thread 0 skips the barrier the others wait at (cpu mode only).
INTENT_PROGRAM void nonUniformProgram(index pid, const PlainArgs &a) {
  if (rt::cta_thread() != 0)
    rt::cta_barrier();
  a.out[pid] = 1;
}
COOP_KERNEL(nonUniformKernel, nonUniformProgram, PlainArgs, exec_scope::cta)
const rt::kernel_info NonUniformInfo{"coop_nonuniform", "coop_tests.cu", 311};

/// Lanes 0..15 wait at a warp barrier, 16..31 at a CTA barrier.
INTENT_PROGRAM void mixedProgram(index pid, const PlainArgs &a) {
  if (rt::lane() < 16)
    rt::warp_barrier();
  else
    rt::cta_barrier();
  a.out[pid] = 1;
}
COOP_KERNEL(mixedKernel, mixedProgram, PlainArgs, exec_scope::warp)
const rt::kernel_info MixedInfo{"coop_mixed", "coop_tests.cu", 321};

/// A thread-scope program calling a CTA barrier.
INTENT_PROGRAM void threadScopeBarrierProgram(index pid, const PlainArgs &a) {
  rt::cta_barrier();
  a.out[pid] = 1;
}
__global__ void threadScopeBarrierKernel(PlainArgs a, index total) {
  for (index pid = rt::global_thread_id(); pid < total; pid += rt::global_thread_count())
    threadScopeBarrierProgram(pid, a);
}
const rt::kernel_info ThreadScopeInfo{"coop_thread_barrier", "coop_tests.cu", 330};

void testErrors(check::suite &S) {
  intent::array<int> Out(64);
  PlainArgs A{Out.view(), nullptr};
  expectError(S,
              [&] {
                rt::launch<throwingProgram>(ThrowingInfo,
                                            coopConfig(8, 48, exec_scope::cta), A,
                                            throwingKernel);
              },
              "intent: kernel 'coop_thrower' (coop_tests.cu:300) has block "
              "size 48, not a multiple of 32, for exec scope cta");
  if (rt::mode() != rt::device_mode::cpu)
    return;
  expectError(S,
              [&] {
                rt::launch<throwingProgram>(ThrowingInfo,
                                            coopConfig(64, 128, exec_scope::cta),
                                            A, throwingKernel);
              },
              "intent: kernel 'coop_thrower' (coop_tests.cu:300) failed on the "
              "host: boom in a fiber");
  expectError(S,
              [&] {
                rt::launch<nonUniformProgram>(NonUniformInfo,
                                              coopConfig(1, 64, exec_scope::cta),
                                              A, nonUniformKernel);
              },
              "intent: kernel 'coop_nonuniform' (coop_tests.cu:311) failed on "
              "the host: the threads of CTA 0 cannot proceed: 63 wait at "
              "cta_barrier(), 0 at warp_barrier() or a warp shuffle, 1 finished");
  expectError(S,
              [&] {
                rt::launch<mixedProgram>(MixedInfo,
                                         coopConfig(1, 32, exec_scope::warp), A,
                                         mixedKernel);
              },
              "intent: kernel 'coop_mixed' (coop_tests.cu:321) failed on the "
              "host: the threads of CTA 0 cannot proceed: 16 wait at "
              "cta_barrier(), 16 at warp_barrier()");
  expectError(S,
              [&] {
                rt::launch<threadScopeBarrierProgram>(
                    ThreadScopeInfo, rt::launch_config{4}, A,
                    threadScopeBarrierKernel);
              },
              "intent: kernel 'coop_thread_barrier' (coop_tests.cu:330) failed "
              "on the host: intent::rt::cta_barrier() called outside a "
              "cooperative (warp or cta scope) launch");
  // After all these failures the fibers still work.
  intent::array<int> Again(64);
  PlainArgs B{Again.view(), nullptr};
  rt::launch<throwingProgram>(ThrowingInfo, coopConfig(3, 128, exec_scope::cta),
                              B, throwingKernel);
  std::vector<int> Want(64, 0);
  Want[0] = Want[1] = Want[2] = 1;
  S.expectNear(Again.to_vector(), Want, 0.0, "a cooperative launch after errors");
}

//===--- The kept-zero workspace -------------------------------------------===//

struct KeptArgs {
  intent::view<int, 1> seen; // non-zero workspace words seen by each program
  int dirty;                 // leave the workspace dirty (breaking the promise)
  index programs;
  void *workspace;
};

constexpr int KeptWords = 64;

/// Each CTA checks that the kept-zero words are zero, increments them, and
/// (after everyone's increments, through an arrival counter) the last CTA
/// resets them; with dirty set it does not.
INTENT_PROGRAM void keptProgram(index pid, const KeptArgs &a) {
  auto *words = static_cast<unsigned *>(a.workspace);
  unsigned *counter = words + KeptWords;
  const int t = rt::cta_thread();
  if (t < KeptWords)
    if (rt::atomic_load<rt::atomic_scope::gpu>(&words[t]) != 0u)
      a.seen[pid] = 1;
  rt::cta_barrier();
  if (t == 0) {
    unsigned arrived =
        rt::atomic_add<rt::atomic_scope::gpu, intent::memory_order::acq_rel>(counter, 1u);
    if (arrived + 1 == static_cast<unsigned>(a.programs)) {
      if (a.dirty)
        words[0] = 77u;
      rt::atomic_store<rt::atomic_scope::gpu>(counter, 0u);
    }
  }
}
COOP_KERNEL(keptKernel, keptProgram, KeptArgs, exec_scope::cta)
const rt::kernel_info KeptInfo{"coop_kept", "coop_tests.cu", 420};

void testKeptZero(check::suite &S) {
  for (int Round = 0; Round < 3; ++Round) {
    const index Total = 5 + Round * 40;
    intent::array<int> Seen(Total);
    KeptArgs A{Seen.view(), 0, Total, nullptr};
    rt::launch_config Config = coopConfig(Total, 64, exec_scope::cta);
    Config.workspace_bytes = sizeof(unsigned) * (KeptWords + 1) * (Round + 1);
    Config.workspace_kept_zero = true;
    rt::launch<keptProgram>(KeptInfo, Config, A, keptKernel);
    S.expect(A.workspace != nullptr && rt::is_aligned(A.workspace, 256),
             "kept-zero workspace aligned");
    S.expectNear(Seen.to_vector(), std::vector<int>(Total, 0), 0.0,
                 "kept-zero workspace reads zero, round " + std::to_string(Round));
  }
  if (rt::mode() != rt::device_mode::cpu)
    return;
  intent::array<int> Seen(3);
  KeptArgs A{Seen.view(), 1, 3, nullptr};
  rt::launch_config Config = coopConfig(3, 64, exec_scope::cta);
  Config.workspace_bytes = sizeof(unsigned) * (KeptWords + 1);
  Config.workspace_kept_zero = true;
  expectError(S, [&] { rt::launch<keptProgram>(KeptInfo, Config, A, keptKernel); },
              "intent: kernel 'coop_kept' (coop_tests.cu:420) left its "
              "kept-zero workspace (workspace_kept_zero) non-zero");
  // The runtime restores the zeros after a broken promise.
  A.dirty = 0;
  rt::launch<keptProgram>(KeptInfo, Config, A, keptKernel);
  S.expectNear(Seen.to_vector(), std::vector<int>(3, 0), 0.0,
               "kept-zero workspace zero again after a broken promise");
}

//===--- Persistent launch, asynchronous copies ---------------------------===//

struct PrefetchArgs {
  intent::view<const int, 2> in; // rows x 64
  intent::view<int, 2> out;      // out(r, c) = in(r, 63 - c) + 1
  void *workspace;
};

/// The cross-row prefetch pattern of cta-rows (docs/passes.md §3) on a
/// persistent grid: row r comes from the shared buffer the CTA's previous
/// program filled with async copies; the next row is copied in meanwhile.
/// Without the barrier after the buffer's reads (B2), the next copies
/// overwrite elements other threads have not read yet: the negative
/// self-test (cpu mode, where a copy is immediate).
template <bool B2>
INTENT_PROGRAM void prefetchProgram(index pid, const PrefetchArgs &a) {
  const int t = rt::cta_thread();
  const index S = rt::program_stride<exec_scope::cta>();
  int *buf = rt::cta_shared<int>();
  int v;
  if (pid >= S) {
    rt::async_copy_wait_all();
    rt::cta_barrier();
    v = buf[63 - t];
    if (B2)
      rt::cta_barrier();
  } else {
    v = a.in(pid, 63 - t);
  }
  if (pid + S < a.in.extent(0) && t < 16) {
    rt::async_copy16(buf + 4 * t, &a.in(pid + S, 4 * t));
    rt::async_copy_commit();
  }
  a.out(pid, t) = v + 1;
}
COOP_KERNEL(prefetchKernel, prefetchProgram<true>, PrefetchArgs, exec_scope::cta)
COOP_KERNEL(prefetchNoB2Kernel, prefetchProgram<false>, PrefetchArgs,
            exec_scope::cta)
const rt::kernel_info PrefetchInfo{"coop_prefetch", "coop_tests.cu", 580};

template <bool B2> bool runPrefetch(check::suite &S, index Rows) {
  std::vector<int> HIn(Rows * 64), Want(Rows * 64);
  for (index I = 0; I < Rows * 64; ++I)
    HIn[I] = static_cast<int>(I * 7 % 1001);
  for (index R = 0; R < Rows; ++R)
    for (index C = 0; C < 64; ++C)
      Want[R * 64 + C] = HIn[R * 64 + 63 - C] + 1;
  intent::array<int> In(HIn), Out(Rows * 64);
  PrefetchArgs A{intent::view<const int, 2>(In.data(), {Rows, 64}),
                 intent::view<int, 2>(Out.data(), {Rows, 64}), nullptr};
  rt::launch_config Config = coopConfig(Rows, 64, exec_scope::cta, 256);
  Config.persistent = true;
  check::counters Before = check::now();
  rt::launch<prefetchProgram<B2>>(PrefetchInfo, Config, A,
                                  B2 ? prefetchKernel : prefetchNoB2Kernel);
  if (B2) {
    const std::string What = "persistent prefetch rows=" + std::to_string(Rows);
    S.expectOneLaunch(Before, Rows, What);
    S.expectNear(Out.to_vector(), Want, 0.0, What);
  }
  return Out.to_vector() == Want;
}

void testPersistentPrefetch(check::suite &S) {
  for (index Rows : {index(0), index(1), index(5), index(300)})
    runPrefetch<true>(S, Rows);
  if (rt::mode() == rt::device_mode::cpu)
    S.expect(!runPrefetch<false>(S, 300),
             "the prefetch without the barrier after the buffer's reads fails "
             "in cpu mode");
}

} // namespace

int main() {
  check::suite S("coop_tests");
  if (check::reference()) {
    // The helper refuses in reference mode, cooperative or not.
    intent::array<int> Out(1);
    PlainArgs A{Out.view(), nullptr};
    expectError(S,
                [&] {
                  rt::launch<nonUniformProgram>(NonUniformInfo,
                                                coopConfig(1, 32, exec_scope::cta),
                                                A, nonUniformKernel);
                },
                "reached the launch helper in reference mode");
    return S.finish();
  }
  testCoverage(S);
  testShuffles(S);
  testTranspose(S);
  testShift(S);
  testPing(S);
  testKeptZero(S);
  testPersistentPrefetch(S);
  testErrors(S);
  return S.finish();
}
