//===- Fibers.cpp - Host fibers for the physical interpreter's CTAs -------===//

#include "Interpreter/Fibers.h"

#include <sys/mman.h>

#include <cstdint>
#include <cstring>
#include <exception>
#include <new>
#include <vector>

#if !defined(__x86_64__) || defined(INTENT_INTERP_UCONTEXT_FIBERS)
#define INTENT_INTERP_USE_UCONTEXT 1
#include <ucontext.h>
#endif

using namespace intent::interp;

namespace {

constexpr std::size_t kCanaryBytes = 64;
constexpr unsigned char kCanaryByte = 0x5c;

#if !defined(INTENT_INTERP_USE_UCONTEXT)

} // namespace

// void intent_interp_fiber_switch(void **save, void *next): saves the
// callee-saved state on the current stack, stores the stack pointer in
// *save and resumes the context whose stack pointer is next.
extern "C" void intent_interp_fiber_switch(void **save, void *next);
asm(R"(
  .text
  .p2align 4
  .globl intent_interp_fiber_switch
  .hidden intent_interp_fiber_switch
  .type intent_interp_fiber_switch,@function
intent_interp_fiber_switch:
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
  .size intent_interp_fiber_switch, .-intent_interp_fiber_switch
)");

namespace {

struct Context {
  void *sp = nullptr;
};

void switchContext(Context &from, Context &to) {
  intent_interp_fiber_switch(&from.sp, to.sp);
}

/// Prepares c to start `entry` on the stack [base, base + bytes): the frame
/// the switch pops (control words, six registers) and `entry` as its return
/// address, placed so that entry starts with a called function's stack
/// alignment, above it a null return address.
void makeContext(Context &c, unsigned char *base, std::size_t bytes,
                 void (*entry)()) {
  auto top = reinterpret_cast<std::uintptr_t>(base + bytes) & ~std::uintptr_t(15);
  auto *slots = reinterpret_cast<std::uint64_t *>(top);
  slots[-1] = 0;
  slots[-2] = reinterpret_cast<std::uint64_t>(entry);
  for (int r = 3; r <= 8; ++r)
    slots[-r] = 0;
  // SSE control word (exceptions masked, round to nearest) and x87 control
  // word (extended precision, exceptions masked).
  std::uint32_t control[2] = {0x1f80, 0x037f};
  std::memcpy(&slots[-9], control, sizeof(control));
  c.sp = &slots[-9];
}

#else // ucontext

struct Context {
  ucontext_t uc;
};

void switchContext(Context &from, Context &to) {
  if (swapcontext(&from.uc, &to.uc) != 0)
    std::terminate();
}

void makeContext(Context &c, unsigned char *base, std::size_t bytes,
                 void (*entry)()) {
  if (getcontext(&c.uc) != 0)
    std::terminate();
  c.uc.uc_stack.ss_sp = base;
  c.uc.uc_stack.ss_size = bytes;
  c.uc.uc_link = nullptr;
  makecontext(&c.uc, entry, 0);
}

#endif

} // namespace

struct Fibers::Impl {
  std::vector<Context> contexts;
  std::vector<bool> finished;
  unsigned char *stacks = nullptr;
  std::size_t capacity = 0;
  Context scheduler;
  unsigned current = 0;
  std::function<void(unsigned)> body;

  ~Impl() {
    if (stacks)
      munmap(stacks, capacity * kStackBytes);
  }

  void reserve(unsigned n) {
    if (n <= capacity)
      return;
    if (stacks)
      munmap(stacks, capacity * kStackBytes);
    void *p = mmap(nullptr, n * kStackBytes, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p == MAP_FAILED)
      throw std::bad_alloc();
    stacks = static_cast<unsigned char *>(p);
    capacity = n;
    contexts.resize(n);
    finished.resize(n);
    for (unsigned i = 0; i < n; ++i)
      std::memset(stacks + i * kStackBytes, kCanaryByte, kCanaryBytes);
  }

  static void entry();
};

/// The fibers running on this host thread (entry() takes no argument).
static thread_local Fibers::Impl *activeFibers = nullptr;

void Fibers::Impl::entry() {
  Impl *f = activeFibers;
  unsigned me = f->current;
  f->body(me);
  f->finished[me] = true;
  switchContext(f->contexts[me], f->scheduler);
  std::terminate(); // a finished fiber is never resumed
}

Fibers::Fibers() : impl(std::make_unique<Impl>()) {}
Fibers::~Fibers() = default;

void Fibers::start(unsigned n, std::function<void(unsigned)> body) {
  impl->reserve(n);
  impl->body = std::move(body);
  for (unsigned i = 0; i < n; ++i) {
    impl->finished[i] = false;
    makeContext(impl->contexts[i], impl->stacks + i * kStackBytes,
                kStackBytes, &Impl::entry);
  }
}

bool Fibers::resume(unsigned i) {
  Impl *outer = activeFibers;
  activeFibers = impl.get();
  impl->current = i;
  switchContext(impl->scheduler, impl->contexts[i]);
  activeFibers = outer;
  return impl->finished[i];
}

void Fibers::suspend() {
  switchContext(impl->contexts[impl->current], impl->scheduler);
}

bool Fibers::stacksIntact(unsigned n) const {
  for (std::size_t i = 0; i < n && i < impl->capacity; ++i) {
    const unsigned char *s = impl->stacks + i * kStackBytes;
    for (std::size_t b = 0; b < kCanaryBytes; ++b)
      if (s[b] != kCanaryByte)
        return false;
  }
  return true;
}
