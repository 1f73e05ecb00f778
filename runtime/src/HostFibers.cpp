//===- HostFibers.cpp - cpu mode: cooperative CTAs as host fibers --------===//
//
// A kernel of exec scope warp or cta runs, in cpu mode, one CTA at a time per
// host thread of the pool (HostPool.cpp): the CTAs of the capped cpu grid are
// independent and are handed out one at a time. Inside a CTA every CUDA
// thread is a fiber with its own stack, all on the host thread running the
// CTA. A scheduler context on that thread runs every ready fiber, in thread
// order, until it finishes or suspends at a barrier (coop.hpp:
// cta_barrier(), warp_barrier(), and the two warp barriers of a shuffle);
// when every fiber of the CTA (of a warp) waits at a CTA (warp) barrier, the
// scheduler releases them. When nothing can run and nothing can be released
// the barrier is not reached uniformly: that is reported as an error instead
// of hanging. An exception thrown by a fiber abandons the CTA (the other
// fibers' frames are dropped without unwinding: generated programs hold only
// trivially destructible locals) and is rethrown on the host thread, which
// the launch reports like any host failure.
//
// Context switch: a dozen instructions of x86-64 assembly (callee-saved
// registers, the SSE and x87 control words, the stack pointer); elsewhere
// ucontext. Stacks: StackBytes per fiber, mapped once per host thread (lazily
// committed) and reused for every CTA; a canary at the bottom of each stack
// turns an overflow into an error.
//
//===----------------------------------------------------------------------===//

#include "Internal.h"

#include <sys/mman.h>

#include <algorithm>
#include <cstring>
#include <exception>
#include <memory>
#include <new>
#include <stdexcept>
#include <string>
#include <vector>

#if !defined(__x86_64__) || defined(INTENT_RT_UCONTEXT_FIBERS)
#define INTENT_RT_USE_UCONTEXT 1
#include <ucontext.h>
#endif

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

#if !defined(INTENT_RT_USE_UCONTEXT)

} // namespace
} // namespace detail
} // namespace rt
} // namespace intent

// void intent_rt_fiber_switch(void **Save, void *Next): saves the
// callee-saved state on the current stack, stores the stack pointer in
// *Save, and resumes the context whose stack pointer is Next.
extern "C" void intent_rt_fiber_switch(void **Save, void *Next);
asm(R"(
  .text
  .p2align 4
  .globl intent_rt_fiber_switch
  .hidden intent_rt_fiber_switch
  .type intent_rt_fiber_switch,@function
intent_rt_fiber_switch:
  pushq %rbp
  pushq %rbx
  pushq %r12
  pushq %r13
  pushq %r14
  pushq %r15
  subq $8, %rsp
  stmxcsr (%rsp)
  fnstcw 4(%rsp)
  movq %rsp, (%rdi)
  movq %rsi, %rsp
  ldmxcsr (%rsp)
  fldcw 4(%rsp)
  addq $8, %rsp
  popq %r15
  popq %r14
  popq %r13
  popq %r12
  popq %rbx
  popq %rbp
  ret
  .size intent_rt_fiber_switch, .-intent_rt_fiber_switch
)");

namespace intent {
namespace rt {
namespace detail {
namespace {

struct Context {
  void *Sp = nullptr;
};

void switchContext(Context &From, Context &To) {
  intent_rt_fiber_switch(&From.Sp, To.Sp);
}

/// Prepares C to start Entry on the stack [Base, Base + Bytes): the frame
/// intent_rt_fiber_switch pops (control words, six registers) and Entry as
/// its return address, placed so that Entry starts with the stack alignment
/// of a called function, above it a null return address.
void makeContext(Context &C, unsigned char *Base, std::size_t Bytes,
                 void (*Entry)()) {
  auto Top = reinterpret_cast<std::uintptr_t>(Base + Bytes) & ~std::uintptr_t(15);
  auto *Slots = reinterpret_cast<std::uint64_t *>(Top);
  Slots[-1] = 0;                                        // Entry's return address
  Slots[-2] = reinterpret_cast<std::uint64_t>(Entry);   // popped by ret
  for (int R = 3; R <= 8; ++R)                          // rbp rbx r12..r15
    Slots[-R] = 0;
  // The SSE control word (all exceptions masked, round to nearest) and the
  // x87 control word (extended precision, all exceptions masked).
  std::uint32_t Control[2] = {0x1f80, 0x037f};
  std::memcpy(&Slots[-9], Control, sizeof(Control));
  C.Sp = &Slots[-9];
}

#else // ucontext

struct Context {
  ucontext_t Uc;
};

void switchContext(Context &From, Context &To) {
  if (swapcontext(&From.Uc, &To.Uc) != 0)
    std::terminate();
}

void makeContext(Context &C, unsigned char *Base, std::size_t Bytes,
                 void (*Entry)()) {
  if (getcontext(&C.Uc) != 0)
    std::terminate();
  C.Uc.uc_stack.ss_sp = Base;
  C.Uc.uc_stack.ss_size = Bytes;
  C.Uc.uc_link = nullptr;
  makecontext(&C.Uc, Entry, 0);
}

#endif

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

  /// The fiber entry: runs the body, then reports and switches back for
  /// good.
  [[noreturn]] static void fiberMain();

private:
  void reserve(const CoopJob &Job);
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
  switchContext(R->Contexts[Me], R->Scheduler);
  std::terminate(); // a finished fiber is never resumed
}

void Runner::suspendAt(FiberState State) {
  int Me = Current;
  States[Me] = State;
  if (State == FiberState::AtCta)
    ++AtCta;
  else
    ++AtWarp[Me / warp_size];
  switchContext(Contexts[Me], Scheduler);
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

  while (true) {
    bool Progress = false;
    for (int I = 0; I < Block; ++I) {
      if (States[I] != FiberState::Ready)
        continue;
      Current = I;
      Cur.Thread = I;
      switchContext(Scheduler, Contexts[I]);
      Progress = true;
      if (Error)
        std::rethrow_exception(Error);
    }
    if (Done == Block)
      break;
    if (AtCta == Block) {
      std::fill(States.begin(), States.begin() + Block, FiberState::Ready);
      AtCta = 0;
      Progress = true;
    }
    for (std::size_t W = 0; W < AtWarp.size(); ++W) {
      if (AtWarp[W] != warp_size)
        continue;
      std::fill(States.begin() + W * warp_size,
                States.begin() + (W + 1) * warp_size, FiberState::Ready);
      AtWarp[W] = 0;
      Progress = true;
    }
    if (!Progress)
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
