//===- CoopBuild.h - Building cooperative code as physical ops --*- C++ -*-===//
//
// A pass that maps an instance onto the threads of a CTA writes its
// traversal with the cooperative primitives (docs/physical-ir.md §5.8).
// CoopBuilder is the shared vocabulary for that: scalars, structured
// control (if / loop with carried values), the thread's identity, barriers,
// shuffles, accesses to a pass's own buffers, and the reduction trees every
// such pass needs:
//
//   warpTreeDown: acc of lane l combined with lane l + o's for o = 1, 2,
//     4, 8, 16 (a shuffle-down tree, the lower lane's value first, ascending
//     offsets: lane 0 ends with lanes 0..31 combined in lane order, so it is
//     exact for user combines that are only associative);
//   ctaReduce: warpTreeDown in every warp, lane 0 writes its warp's partial
//     to a cta_shared buffer, barrier, every warp folds the partials (warp
//     order) with a second tree (so shuffles and barriers stay in control
//     flow uniform over the CTA), thread 0 finishes the result (e.g.
//     combine(init, acc)) into a one-element cta_shared buffer, barrier,
//     every thread reads it.
//
// Combines are callbacks that emit ops at the builder's insertion point, so
// a reduce's combine region (inlined), an arg-merge or a built-in operator
// all fit. Used by cta-rows-ops (Passes/CtaRowsOps.cpp); grid-reduce can
// switch its CTA tree to ctaReduce / warpTreeDown.
//
//===----------------------------------------------------------------------===//

#ifndef INTENT_PHYSICAL_COOPBUILD_H
#define INTENT_PHYSICAL_COOPBUILD_H

#include "Physical/Clone.h"
#include "Physical/IR.h"

#include <functional>
#include <vector>

namespace intent::phys {

class CoopBuilder {
public:
  using Values = std::vector<Value *>;
  /// Emits the combine of `lo` and `hi` (lo's members come first) and
  /// returns the combined components.
  using Combine = std::function<Values(const Values &lo, const Values &hi)>;

  /// Ops are created with origin(synth `pass`) at `loc`.
  CoopBuilder(Program &p, llvm::StringRef pass, Loc loc);

  Program &p;
  Builder b;

  // --- Scalars ---------------------------------------------------------------
  /// A constant of type `t` (an int attribute becomes a double for floats).
  Value *constant(AttrValue v, Type t);
  Value *i32(int64_t v);
  Value *i64(int64_t v);
  Value *boolean(bool v);
  /// `a` converted to `k` (itself when it already is a `k`).
  Value *cast(Value *a, ScalarKind k);
  Value *select(Value *c, Value *x, Value *y);
  Value *both(Value *x, Value *y);
  Value *either(Value *x, Value *y);
  Value *negate(Value *x);
  /// `v` (4 or 8 bytes) as the u64 word a workspace holds, and back.
  Value *toBits(Value *v);
  Value *fromBits(Value *bits, Type t);
  Value *add(Value *x, Value *y) { return b.binary(Opcode::Add, x, y); }
  Value *mul(Value *x, Value *y) { return b.binary(Opcode::Mul, x, y); }
  Value *cmp(llvm::StringRef pred, Value *x, Value *y) {
    return b.cmp(pred, x, y);
  }

  // --- The CTA -----------------------------------------------------------------
  /// thread_id, lane_id, warp_id, cta_size (i32).
  Value *threadId();
  Value *laneId();
  Value *warpId();
  Value *ctaSize();
  void barrier(llvm::StringRef scope = "cta");
  /// The CTAs that run a split segment's instance together (i32).
  Value *gridCtas();
  /// Every thread of the cooperating CTAs waits; `counter` is the arrival
  /// word (a kept-zero workspace buffer, element 0).
  void gridBarrier(Value *counter);
  /// Every thread of the `ctas` (i64) CTAs of one group waits (a split
  /// instance's CTAs); `counter[word]` (i64 word) is the group's arrival
  /// word, `first` (bool) whether this CTA is the group's first.
  void groupBarrier(Value *counter, Value *word, Value *ctas, Value *first);
  /// A read-modify-write of element `index` of workspace buffer `mem` at
  /// gpu scope (`kind` add / exch, `order` relaxed / acq_rel ...); returns
  /// the old value.
  /// True unless the bounds-checked kernel variant runs (vector paths
  /// leave the scalar, checked accesses to it).
  Value *uncheckedLaunch();
  /// Whether view `mem` has unit stride in its last dimension and its
  /// element `at` (an element offset, or one coordinate per dimension) is
  /// aligned to `bytes`.
  Value *aligned(Value *mem, llvm::ArrayRef<Value *> at, int64_t bytes);
  /// Gives `op` (an access a pass wrote in place of the access `like`)
  /// like's location, origin and access record, bounds assumed (the pass's
  /// arithmetic is beyond the [bounds] prover), unguarded, each thread's
  /// own.
  static void standsFor(Op *op, const Op &like);
  /// `width` elements of `mem` from `coords` (the last one the first
  /// element's) as one vector load standing for the scalar load `like`
  /// (standsFor). Returns the lanes.
  Values vectorLoad(const Op &like, Value *mem, llvm::ArrayRef<Value *> coords,
                    int64_t width);
  Value *atomic(llvm::StringRef kind, llvm::StringRef order, Value *mem,
                Value *index, Value *v);
  /// `shuffle %x, %k {mode}`.
  Value *shuffle(Value *x, Value *k, llvm::StringRef mode);

  // --- The pass's own buffers (origin synth, no provenance) -------------------
  Value *alloc(unsigned buffer);
  /// `mem[index]`, performed by each thread that reaches it.
  Value *load(Value *mem, Value *index);
  void store(Value *mem, Value *index, Value *v);

  // --- Control ---------------------------------------------------------------
  /// `if %cond` whose branches build and return values of types `types`.
  Values branch(Value *cond, const std::vector<Type> &types,
                const std::function<Values()> &then,
                const std::function<Values()> &otherwise);
  /// `if %cond` yielding then() or else `otherwise` unchanged.
  Values ifThen(Value *cond, const Values &otherwise,
                const std::function<Values()> &then);
  /// `if %cond` without results.
  void when(Value *cond, const std::function<void()> &then);
  /// `loop` (test first) over carried values `init`: `cond` tests them,
  /// `body` returns the next ones before `step` advances them. `unroll` > 0
  /// asks the emitter for `#pragma unroll N`. Returns the values at exit.
  Values loop(const Values &init,
              const std::function<Value *(const Values &)> &cond,
              const std::function<Values(const Values &)> &body,
              const std::function<Values(const Values &)> &step,
              int64_t unroll = 0);

  // --- Reduction trees ---------------------------------------------------------
  /// The ordered shuffle-down tree over one warp (file header); lane 0
  /// holds the warp's value, the other lanes partial ones. With `width` (an
  /// i32 power of two <= 32, uniform over the warp) the tree stops below
  /// it: lane l, a multiple of width, holds lanes [l, l + width) combined
  /// in order (the teams of a lane-team segment).
  Values warpTreeDown(const Values &acc, const Combine &combine,
                      Value *width = nullptr);
  /// The ordered inclusive scan over the lanes of a warp, by index
  /// shuffles (Hillis-Steele, lane l - o's value on the left): after offset
  /// o, lane `lane` holds lanes (lane - 2o, lane] combined in order. With
  /// `width` (an i32 power of two <= 32, uniform over the warp) and `place`
  /// (the lane's index in its team of `width` consecutive lanes) each team
  /// is scanned on its own; by default the whole warp (`place` = `lane`).
  Values warpScanUp(const Values &acc, const Combine &combine, Value *lane,
                    Value *place = nullptr, Value *width = nullptr);
  /// The CTA's threads combine their accumulators (file header): `warpSlots`
  /// are the allocated cta_shared buffers of the warps' partials (one per
  /// component, 32 elements), `resultSlots` one-element buffers; `identity`
  /// fills the partials of missing warps; `finish` turns the CTA's value
  /// into the result thread 0 publishes. Every thread gets the result.
  Values ctaReduce(const Values &acc, const Values &warpSlots,
                   const Values &resultSlots,
                   const std::function<Values()> &identity,
                   const Combine &combine,
                   const std::function<Values(const Values &)> &finish);

  /// The arg-merge of (value, position) pairs: keeps the better of (bv, q)
  /// and (x, k) under one strict total order (NaN first under nan =
  /// propagate, never under ignore; then by value; equal values by
  /// position, first or last; a negative position is "no member"), so any
  /// merge order keeps the serial loop's pair. `increasing`: k follows
  /// every position (bv, q) holds (one thread's own stream).
  Values argMerge(bool isMax, bool tieLast, bool ignoreNaN, Value *bv,
                  Value *q, Value *x, Value *k, bool increasing);
};

/// Writes the callbacks of structured ops (reduce, argreduce, region_fold)
/// into a pass's cooperative code at `cb`'s insertion point, through the
/// pass's value map: the vocabulary col-reduce and region-teams share.
class FoldInliner {
public:
  using Values = CoopBuilder::Values;
  FoldInliner(CoopBuilder &cb, ValueMap &map) : cb(cb), map(map) {}

  /// Copies `op`; its accesses become each thread's own. With `proven`
  /// false (a callback's ops, whose member index no longer carries the
  /// structured op's range) proven bounds become assumed.
  Op *copy(const Op &op, bool proven = false);
  /// Binds region `r` of `op` to `args`, copies its ops and returns the
  /// values its yield gives.
  Values inlineRegion(const Op &op, unsigned r, const Values &args);
  /// The identity of `op`'s accumulator (component types `types`): an
  /// arg-reduction's (lowest / highest, position -1), otherwise per
  /// component its schema constant or (a user combine's) init operand.
  Values identity(const Op &op, const std::vector<Type> &types);
  /// The combine of `lo` and `hi` (lo's members first) for `op`: its
  /// combine region, or an arg-reduction's argMerge (`increasing`: hi is
  /// one member after every one in lo).
  Values combine(const Op &op, const Values &lo, const Values &hi,
                 bool increasing = false);

private:
  CoopBuilder &cb;
  ValueMap &map;
};

} // namespace intent::phys

#endif // INTENT_PHYSICAL_COOPBUILD_H
