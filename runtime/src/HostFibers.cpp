//===- HostFibers.cpp - cpu mode: cooperative CTAs as host fibers --------===//
//
// A kernel of exec scope warp or cta runs, in cpu mode, one CTA at a time per
// host thread of the pool (HostPool.cpp): the CTAs of the capped cpu grid are
// independent and are handed out one at a time. Inside a CTA every CUDA
// thread is a fiber with its own stack, all on the host thread running the
// CTA. A scheduler context on that thread runs every ready fiber (in
// increasing thread order in even CTAs, decreasing in odd ones) until it
// finishes or suspends at a barrier (coop.hpp:
// cta_barrier(), warp_barrier(), and the two warp barriers of a shuffle);
// when every fiber of the CTA (of a warp) waits at a CTA (warp) barrier, the
// scheduler releases them. When nothing can run and nothing can be released
// the barrier is not reached uniformly: that is reported as an error instead
// of hanging. An exception thrown by a fiber abandons the CTA (the other
// fibers' frames are dropped without unwinding: generated programs hold only
// trivially destructible locals) and is rethrown on the host thread, which
// the launch reports like any host failure.
//
// Context switch: intent/runtime/detail/fiber_context.hpp (a dozen
// instructions of x86-64 assembly; elsewhere ucontext), shared with the
// physical interpreter's fibers. Stacks: StackBytes per fiber, mapped once per host thread (lazily
// committed) and reused for every CTA; a canary at the bottom of each stack,
// checked when the CTA ends, reports an overflow that did not crash first (no
// guard pages: two memory mappings per fiber would exhaust the kernel's map
// count on machines with many host threads).
//
//===----------------------------------------------------------------------===//

#include "Internal.h"

#include "intent/runtime/detail/fiber_context.hpp"

#include <sys/mman.h>

#include <algorithm>
#include <cstring>
#include <exception>
#include <memory>
#include <new>
#include <stdexcept>
#include <string>
#include <vector>

namespace intent {
namespace rt {
namespace detail {

thread_local HostCta CurrentHostCta;

namespace {

/// Stack bytes of one fiber (one CUDA thread): plenty for generated code,
/// and only the pages a fiber touches are ever committed.
constexpr std::size_t StackBytes = 256 * 1024;

/// Bytes at the bottom of each stack that must keep their pattern.
constexpr std::size_t CanaryBytes = 64;
constexpr unsigned char CanaryByte = 0x5c;

/// What cpu mode fills a CTA's shared memory with before the CTA starts, as
/// the device leaves it undefined: reading it before writing yields NaN
/// floats and -1 integers, which the tests notice.
constexpr unsigned char SharedPoison = 0xff;

//===--- Contexts ---------------------------------------------------------===//

/// Created and switched by intent/runtime/detail/fiber_context.hpp, which
/// the physical interpreter's fibers use too.
using Context = FiberContext;

//===--- The per-thread fiber runner --------------------------------------===//

/// One cooperative launch as the host threads see it.
struct CoopJob {
  FiberBodyFn Body;
  const void *Args;
  index Total;
  index Grid;
  int Block;
  std::size_t SharedBytes;
};

enum class FiberState : unsigned char { Ready, AtCta, AtWarp, Done };

/// Runs CTAs on one host thread; its stacks, shared memory and exchange
/// slots are allocated once and grown when a launch needs more.
class Runner {
public:
  ~Runner() {
    if (Stacks)
      munmap(Stacks, StackCapacity * StackBytes);
    ::operator delete(Shared, std::align_val_t(64));
  }

  /// Runs every fiber of CTA CtaId of Job to completion.
  void runCta(const CoopJob &Job, index CtaId);

  /// The running fiber reached a barrier: suspend it until released.
  void suspendAt(FiberState State);

  /// Leaves fiber Me (no longer ready) for the next ready fiber after it in
  /// the CTA's order, or for the scheduler when there is none.
  void passOn(int Me);

  /// The fiber entry: runs the body, then reports and switches back for
  /// good.
  [[noreturn]] static void fiberMain();

private:
  void reserve(const CoopJob &Job);
  int nextReady(int Start) const;
  std::string deadlockMessage() const;

  // Per fiber.
  std::vector<Context> Contexts;
  std::vector<FiberState> States;
  unsigned char *Stacks = nullptr;
  std::size_t StackCapacity = 0;
  std::vector<unsigned long long> Exchange;
  unsigned char *Shared = nullptr;
  std::size_t SharedCapacity = 0;

  // The CTA being run.
  Context Scheduler;
  const CoopJob *Job = nullptr;
  index CtaId = 0;
  int Current = 0;
  /// Odd CTAs run their fibers in decreasing thread order.
  bool Reverse = false;
  int AtCta = 0;
  int Done = 0;
  std::vector<int> AtWarp;
  std::exception_ptr Error;
};

/// The runner of the CTA this host thread is running, null outside one.
thread_local Runner *ActiveRunner = nullptr;

Runner &threadRunner() {
  thread_local std::unique_ptr<Runner> Mine(new Runner);
  return *Mine;
}

void Runner::reserve(const CoopJob &J) {
  std::size_t Block = static_cast<std::size_t>(J.Block);
  if (Block > StackCapacity) {
    if (Stacks)
      munmap(Stacks, StackCapacity * StackBytes);
    Stacks = nullptr;
    StackCapacity = 0;
    void *P = mmap(nullptr, Block * StackBytes, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (P == MAP_FAILED)
      throw std::runtime_error("cannot map " + std::to_string(Block) +
                               " fiber stacks for a cooperative CTA");
    Stacks = static_cast<unsigned char *>(P);
    StackCapacity = Block;
    Contexts.resize(Block);
    States.resize(Block);
    Exchange.resize(Block);
    AtWarp.resize((Block + warp_size - 1) / warp_size);
  }
  if (J.SharedBytes > SharedCapacity) {
    ::operator delete(Shared, std::align_val_t(64));
    Shared = nullptr;
    SharedCapacity = 0;
    Shared = static_cast<unsigned char *>(
        ::operator new(J.SharedBytes, std::align_val_t(64)));
    SharedCapacity = J.SharedBytes;
  }
}

void Runner::fiberMain() {
  Runner *R = ActiveRunner;
  try {
    R->Job->Body(R->Job->Args, R->Job->Total);
  } catch (...) {
    if (!R->Error)
      R->Error = std::current_exception();
  }
  int Me = R->Current;
  R->States[Me] = FiberState::Done;
  ++R->Done;
  if (R->Error)
    switchContext(R->Contexts[Me], R->Scheduler);
  else
    R->passOn(Me);
  std::terminate(); // a finished fiber is never resumed
}

void Runner::suspendAt(FiberState State) {
  int Me = Current;
  States[Me] = State;
  if (State == FiberState::AtCta)
    ++AtCta;
  else
    ++AtWarp[Me / warp_size];
  passOn(Me);
}

/// The first ready fiber from Start on, in the CTA's order (Block: none).
int Runner::nextReady(int Start) const {
  const int Block = Job->Block;
  if (Reverse) {
    for (int I = Start; I < Block; ++I)
      if (States[Block - 1 - I] == FiberState::Ready)
        return I;
    return Block;
  }
  for (int I = Start; I < Block; ++I)
    if (States[I] == FiberState::Ready)
      return I;
  return Block;
}

void Runner::passOn(int Me) {
  const int Block = Job->Block;
  // Positions in the CTA's order.
  int Next = nextReady((Reverse ? Block - 1 - Me : Me) + 1);
  if (Next == Block) {
    switchContext(Contexts[Me], Scheduler);
    return;
  }
  if (Reverse)
    Next = Block - 1 - Next;
  Current = Next;
  CurrentHostCta.Thread = Next;
  switchContext(Contexts[Me], Contexts[Next]);
}

std::string Runner::deadlockMessage() const {
  int Waiting[3] = {0, 0, 0};
  for (int I = 0; I < Job->Block; ++I)
    if (States[I] != FiberState::Ready)
      ++Waiting[static_cast<int>(States[I]) - 1];
  return "the threads of CTA " + std::to_string(CtaId) +
         " cannot proceed: " + std::to_string(Waiting[0]) +
         " wait at cta_barrier(), " + std::to_string(Waiting[1]) +
         " at warp_barrier() or a warp shuffle, " + std::to_string(Waiting[2]) +
         " finished, of " + std::to_string(Job->Block) +
         " (every thread of the CTA must reach cta_barrier(), every thread "
         "of a warp its warp barriers and shuffles, uniformly)";
}

void Runner::runCta(const CoopJob &J, index Cta) {
  reserve(J);
  const int Block = J.Block;
  Job = &J;
  CtaId = Cta;
  Reverse = (Cta & 1) != 0;
  AtCta = 0;
  Done = 0;
  Error = nullptr;
  std::fill(AtWarp.begin(), AtWarp.end(), 0);
  if (J.SharedBytes)
    std::memset(Shared, SharedPoison, J.SharedBytes);
  for (int I = 0; I < Block; ++I) {
    unsigned char *Base = Stacks + static_cast<std::size_t>(I) * StackBytes;
    std::memset(Base, CanaryByte, CanaryBytes);
    makeContext(Contexts[I], Base, StackBytes, &Runner::fiberMain);
    States[I] = FiberState::Ready;
  }

  HostCta &Cur = CurrentHostCta;
  Cur.Thread = 0;
  Cur.Size = Block;
  Cur.Id = Cta;
  Cur.Count = J.Grid;
  Cur.Shared = J.SharedBytes ? Shared : nullptr;
  Cur.Exchange = Exchange.data();
  struct Restore {
    ~Restore() {
      ActiveRunner = nullptr;
      CurrentHostCta = HostCta();
    }
  } RestoreOnExit;
  ActiveRunner = this;

  // Each round runs the ready fibers in the CTA's order (increasing thread
  // index in even CTAs, decreasing in odd ones, so that a missing barrier
  // shows whichever way the data flows between threads), each passing control
  // to the next (passOn) until the last returns here; then none is ready,
  // and the barriers every fiber of the CTA (of a warp) reached release.
  while (true) {
    int First = nextReady(0);
    if (First < Block) {
      if (Reverse)
        First = Block - 1 - First;
      Current = First;
      Cur.Thread = First;
      switchContext(Scheduler, Contexts[First]);
      if (Error)
        std::rethrow_exception(Error);
    }
    if (Done == Block)
      break;
    bool Released = false;
    if (AtCta == Block) {
      std::fill(States.begin(), States.begin() + Block, FiberState::Ready);
      AtCta = 0;
      Released = true;
    }
    for (std::size_t W = 0; W < AtWarp.size(); ++W) {
      if (AtWarp[W] != warp_size)
        continue;
      std::fill(States.begin() + W * warp_size,
                States.begin() + (W + 1) * warp_size, FiberState::Ready);
      AtWarp[W] = 0;
      Released = true;
    }
    if (!Released)
      throw std::runtime_error(deadlockMessage());
  }

  for (int I = 0; I < Block; ++I) {
    const unsigned char *Base =
        Stacks + static_cast<std::size_t>(I) * StackBytes;
    for (std::size_t B = 0; B < CanaryBytes; ++B)
      if (Base[B] != CanaryByte)
        throw std::runtime_error(
            "thread " + std::to_string(I) + " of CTA " + std::to_string(Cta) +
            " overflowed its fiber stack (" + std::to_string(StackBytes / 1024) +
            " KiB per CUDA thread in cpu mode)");
  }
}

/// The host pool's entry for a cooperative launch: CTAs [Begin, End).
void runCtaRange(const void *JobPtr, index Begin, index End) {
  const CoopJob &J = *static_cast<const CoopJob *>(JobPtr);
  Runner &R = threadRunner();
  for (index Cta = Begin; Cta < End; ++Cta)
    R.runCta(J, Cta);
}

Runner &activeRunner(const char *Call) {
  if (!ActiveRunner)
    throw std::logic_error(std::string("intent::rt::") + Call +
                           " called outside a cooperative (warp or cta scope) "
                           "launch");
  return *ActiveRunner;
}

} // namespace

void hostCtaBarrier() { activeRunner("cta_barrier()").suspendAt(FiberState::AtCta); }

void hostWarpBarrier() {
  activeRunner("warp_barrier()").suspendAt(FiberState::AtWarp);
}

index programsPerCta(exec_scope Scope, int Block) {
  switch (Scope) {
  case exec_scope::thread:
    return Block;
  case exec_scope::warp:
    return Block / warp_size;
  case exec_scope::cta:
    return 1;
  }
  return 1;
}

index cpuCooperativeGrid(index Total, exec_scope Scope, int Block) {
  index PerCta = programsPerCta(Scope, Block);
  index Cap = 4 * static_cast<index>(cpuThreads());
  if (maxGridOverride() > 0 && maxGridOverride() < Cap)
    Cap = maxGridOverride();
  return gridSize(Total, static_cast<int>(PerCta), Cap);
}

void runCooperativeOnHost(const LaunchRequest &Request) {
  const launch_config &Config = Request.Config;
  CoopJob Job{Request.FiberEntry,
              Request.Args,
              Config.total,
              cpuCooperativeGrid(Config.total, Config.scope, Config.block),
              Config.block,
              Config.shared_bytes};
  runOnHost(&runCtaRange, &Job, Job.Grid, /*Grain=*/1);
}

} // namespace detail
} // namespace rt
} // namespace intent
