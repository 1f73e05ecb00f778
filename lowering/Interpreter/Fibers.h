//===- Fibers.h - Host fibers for the physical interpreter's CTAs -*- C++ -*-===//
//
// The physical interpreter runs every thread of a CTA-scope program instance
// as a fiber (docs/physical-ir.md §5.8): a context with its own stack on the
// interpreter's host thread, resumed by a scheduler in a deterministic order
// and suspended where the thread waits for others (barrier, shuffle). The
// interpreter is a recursive tree walker, so a thread that waits in the
// middle of a loop nest keeps its whole interpreter state on its own stack
// without turning the walker into a state machine.
//
// Context switch: the cpu runtime's, from the header-only
// intent/runtime/detail/fiber_context.hpp (a dozen instructions of x86-64
// assembly; ucontext elsewhere). glibc's swapcontext makes a signal-mask
// system call per switch, which would dominate a CTA of 256 threads meeting
// at a few barriers.
//
// Stacks are mapped once (lazily committed) and reused for every CTA; a
// canary at the bottom of each stack reports an overflow that did not crash
// first.
//
//===----------------------------------------------------------------------===//

#ifndef INTENT_INTERPRETER_FIBERS_H
#define INTENT_INTERPRETER_FIBERS_H

#include <cstddef>
#include <functional>
#include <memory>

namespace intent::interp {

class Fibers {
public:
  Fibers();
  ~Fibers();
  Fibers(const Fibers &) = delete;
  Fibers &operator=(const Fibers &) = delete;

  /// Prepares fibers 0..n-1; fiber i runs body(i) when first resumed.
  /// Every earlier fiber must have finished.
  void start(unsigned n, std::function<void(unsigned)> body);
  /// Runs fiber i until it suspends or returns; true when it returned.
  bool resume(unsigned i);
  /// From inside a fiber: back to the caller of resume().
  void suspend();
  /// Whether the canaries of fibers 0..n-1 are intact (no stack overflow).
  bool stacksIntact(unsigned n) const;

  /// Stack bytes of one fiber: the interpreter's recursion per nested
  /// region is a few hundred bytes, so this is deep nesting to spare.
  static constexpr std::size_t kStackBytes = 256 * 1024;

  /// The contexts and stacks (Fibers.cpp); public only so that the fiber
  /// entry point, which takes no argument, can find the running set.
  struct Impl;

private:
  std::unique_ptr<Impl> impl;
};

} // namespace intent::interp

#endif // INTENT_INTERPRETER_FIBERS_H
