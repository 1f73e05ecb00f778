//===- PhysInterpreter.h - Executes a physical program on the host -*- C++ -*-===//
//
// Runs a physical program from the physical IR alone (no KIR, no side
// records) over real host memory: the grid is `total` rounded up to a block
// size (so the round-up guard is exercised), every program id runs the body
// once, in a chosen order (forward, reverse or shuffled: a legal program
// gives the same result in every order). Optionally detects races: two
// different programs touching one element with at least one write.
//
// A CTA-scope program written with the cooperative primitives
// (docs/physical-ir.md §5.8: thread_id, barrier, shuffle, cta_shared
// buffers, ...) runs each program instance as Program::ctaThreads threads,
// each a fiber (Fibers.h) with its own values, in a deterministic order;
// barriers and shuffles suspend a thread until its CTA / warp arrives at
// the same op, and one that cannot complete is an error. The race check
// then also covers two threads of one instance with no barrier between
// them, in shared and in global memory. Other programs (thread scope, the
// annotated cta programs of cta-rows) run every instance as
// one thread.
//
//===----------------------------------------------------------------------===//

#ifndef INTENT_INTERPRETER_PHYSINTERPRETER_H
#define INTENT_INTERPRETER_PHYSINTERPRETER_H

#include "Interpreter/Values.h"
#include "Physical/IR.h"

#include <optional>

namespace intent::interp {

struct PhysRunOptions {
  enum class Order { Forward, Reverse, Shuffled };
  Order order = Order::Forward;
  uint64_t seed = 1;
  /// Programs per block; the grid is total rounded up to a multiple.
  int64_t blockSize = 32;
  bool detectRaces = true;
  /// Check assumed-in-bounds accesses (the author's contract).
  bool checkBounds = true;
  /// Upper bound on executed ops (guards against non-terminating loops).
  int64_t maxOps = 200000000;
  /// `aligned` is false for every view (as if no view base were 16-byte
  /// aligned), so programs take their scalar paths; by default view bases
  /// count as 16-byte aligned.
  bool misalignedViews = false;
  /// What `checked_launch` returns: the INTENT_CHECK=bounds variant runs.
  bool checkedLaunch = false;
};

struct PhysRunResult {
  bool ok = true;
  std::string error;
  int64_t total = 0;    ///< sum of segment lengths
  int64_t programs = 0; ///< grid size after round-up
  std::vector<int64_t> segmentLengths;
  /// Aggregated atomics (aggregate = warp | ticket) performed once for a
  /// group of several lanes of a warp.
  int64_t combinedAtomics = 0;
};

/// Evaluates launch expression `e` for the given arguments (what the host
/// wrapper does before the launch).
std::optional<Scalar> evalLaunchExpr(const phys::Program &p, unsigned e,
                                     const std::vector<Arg> &args,
                                     std::string &error);

PhysRunResult runProgram(const phys::Program &p, const std::vector<Arg> &args,
                         const PhysRunOptions &opts = {});

} // namespace intent::interp

#endif // INTENT_INTERPRETER_PHYSINTERPRETER_H
