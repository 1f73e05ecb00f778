//===- fiber_context.hpp - Host fiber contexts: create and switch -*- C++ -*-===//
//
// The context switch under both kinds of host fibers: the cpu runtime's
// cooperative CTAs (runtime/src/HostFibers.cpp) and the physical
// interpreter's CTA threads (lowering/Interpreter/Fibers.cpp). Host-only and
// header-only, so that the interpreter (which may not link the runtime) and
// the runtime share one copy; it is not part of the device helpers that
// generated .kernels.cu files include.
//
// On x86-64 a switch is a dozen instructions of assembly: push the
// callee-saved registers and the SSE and x87 control words on the current
// stack, store the stack pointer, load the next one and pop the same. The
// function is emitted in a COMDAT group, like an inline function, so any
// number of translation units and libraries may include this header.
// Elsewhere, or with INTENT_UCONTEXT_FIBERS defined, ucontext (glibc's
// swapcontext makes a signal-mask system call per switch, which would
// dominate a CTA of 256 threads meeting at a few barriers).
//
//===----------------------------------------------------------------------===//

#ifndef INTENT_RUNTIME_DETAIL_FIBER_CONTEXT_HPP
#define INTENT_RUNTIME_DETAIL_FIBER_CONTEXT_HPP

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <exception>

#if !defined(__x86_64__) || defined(INTENT_UCONTEXT_FIBERS)
#define INTENT_FIBERS_USE_UCONTEXT 1
#include <ucontext.h>
#endif

#if !defined(INTENT_FIBERS_USE_UCONTEXT)

// void intent_fiber_switch(void **Save, void *Next): saves the callee-saved
// state on the current stack, stores the stack pointer in *Save, and
// resumes the context whose stack pointer is Next.
extern "C" void intent_fiber_switch(void **Save, void *Next);
asm(R"(
  .pushsection .text.intent_fiber_switch,"axG",@progbits,intent_fiber_switch,comdat
  .p2align 4
  .weak intent_fiber_switch
  .hidden intent_fiber_switch
  .type intent_fiber_switch,@function
intent_fiber_switch:
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
  .size intent_fiber_switch, .-intent_fiber_switch
  .popsection
)");

#endif

namespace intent {
namespace rt {
namespace detail {

#if !defined(INTENT_FIBERS_USE_UCONTEXT)

/// A suspended fiber: its stack pointer, the saved state on the stack below.
struct FiberContext {
  void *Sp = nullptr;
};

/// Saves the running context in From and resumes To.
inline void switchContext(FiberContext &From, FiberContext &To) {
  intent_fiber_switch(&From.Sp, To.Sp);
}

/// Prepares C to start Entry on the stack [Base, Base + Bytes): the frame
/// intent_fiber_switch pops (control words, six registers) and Entry as its
/// return address, placed so that Entry starts with the stack alignment of a
/// called function, above it a null return address. Entry must never
/// return: it ends by switching away for good.
inline void makeContext(FiberContext &C, unsigned char *Base,
                        std::size_t Bytes, void (*Entry)()) {
  auto Top =
      reinterpret_cast<std::uintptr_t>(Base + Bytes) & ~std::uintptr_t(15);
  auto *Slots = reinterpret_cast<std::uint64_t *>(Top);
  Slots[-1] = 0;                                      // Entry's return address
  Slots[-2] = reinterpret_cast<std::uint64_t>(Entry); // popped by ret
  for (int R = 3; R <= 8; ++R)                        // rbp rbx r12..r15
    Slots[-R] = 0;
  // The SSE control word (all exceptions masked, round to nearest) and the
  // x87 control word (extended precision, all exceptions masked).
  std::uint32_t Control[2] = {0x1f80, 0x037f};
  std::memcpy(&Slots[-9], Control, sizeof(Control));
  C.Sp = &Slots[-9];
}

#else // ucontext

struct FiberContext {
  ucontext_t Uc;
};

inline void switchContext(FiberContext &From, FiberContext &To) {
  if (swapcontext(&From.Uc, &To.Uc) != 0)
    std::terminate();
}

inline void makeContext(FiberContext &C, unsigned char *Base,
                        std::size_t Bytes, void (*Entry)()) {
  if (getcontext(&C.Uc) != 0)
    std::terminate();
  C.Uc.uc_stack.ss_sp = Base;
  C.Uc.uc_stack.ss_size = Bytes;
  C.Uc.uc_link = nullptr;
  makecontext(&C.Uc, Entry, 0);
}

#endif

} // namespace detail
} // namespace rt
} // namespace intent

#endif // INTENT_RUNTIME_DETAIL_FIBER_CONTEXT_HPP
