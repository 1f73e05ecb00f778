//===- Fibers.cpp - Host fibers for the physical interpreter's CTAs -------===//

#include "Interpreter/Fibers.h"

#include "intent/runtime/detail/fiber_context.hpp"

#include <sys/mman.h>

#include <cstdint>
#include <cstring>
#include <exception>
#include <new>
#include <vector>

using namespace intent::interp;

namespace {

constexpr std::size_t kCanaryBytes = 64;
constexpr unsigned char kCanaryByte = 0x5c;

/// The cpu runtime's fiber contexts (header-only, shared with
/// runtime/src/HostFibers.cpp).
using Context = intent::rt::detail::FiberContext;
using intent::rt::detail::makeContext;
using intent::rt::detail::switchContext;

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
