//===- Dispatch.h - The program space's dispatch, re-derived ----*- C++ -*-===//
//
// Construction lays the program space out (docs/physical-ir.md §4): segment
// k covers program ids [offset_k, offset_k + length_k), offsets are the sums
// of the earlier lengths, and the body dispatches with
//
//   %pid = program_id
//   if (%pid < launch_value total) {
//     segment %pid, launch_value offset_k, launch_value length_k { ... }
//     ...
//   }
//
// A pass that changes how many programs a segment takes (widen: one
// program per chunk; grid-reduce: P cooperating programs; a thread
// segment placed into a cta program: one program per T instances) calls
// resizeSegment, the one place that knows this structure: passes never
// pattern-match the dispatch code.
//
//===----------------------------------------------------------------------===//

#ifndef INTENT_PHYSICAL_DISPATCH_H
#define INTENT_PHYSICAL_DISPATCH_H

#include "Physical/IR.h"

namespace intent::phys {

/// The `segment` op of group `group`, or null.
Op *segmentOp(const Program &p, unsigned group);

/// Gives segment `index` launch expression `instances` instances: its
/// length in programs is that (or, for a spread segment, ceil(instances /
/// spread)); re-derives every segment's offset and the program's total
/// from the lengths, and points the dispatch's launch values (each segment
/// op's offset, length and instance-count operands, the round-up guard's
/// total) at the new expressions.
void resizeSegment(Program &p, unsigned index, unsigned instances);

/// Spreads the instances of thread-style segment `index` over the
/// `threads` threads of each program of a cta program (Segment::spread):
/// program q of the segment runs instance q * threads + thread_id below the
/// instance count, each access then done by its thread (active `thread`).
/// For a pass that gives another group of the program whole CTAs: the
/// program's other segments keep one instance per thread (an ordered
/// segment's one instance runs on thread 0 of its program). The segment
/// must not be spread already nor use cooperative primitives.
void spreadSegment(Program &p, unsigned index, int threads);

/// Makes segment `index` (parallel; plain or spread) a team segment of a
/// cta program: program q of the segment, with P = `parts` (a launch
/// expression >= 1), serves instances (q / P) * width + thread_id % width
/// (those below the instance count), as part q % P of P programs; every
/// thread enters the region with (instance, worker, active): the instance
/// (clamped to the last one when not active), worker = (q % P) *
/// (threads / width) + thread_id / width in [0, P * threads / width), and
/// whether the instance is real. The region (a pass's) must keep the
/// instance's effects to active threads and its barriers uniform. Length
/// ceil(instances / width) * P programs. `width` divides ctaThreads.
void teamSegment(Program &p, unsigned index, int width, unsigned parts);

/// Makes parallel segment `index` (plain or spread, not team or tile) a
/// lane-team segment of a cta program of T threads (T a power of two): with
/// S = `shift` (a launch expression in [0, log2 T]) and G = 2^S, program q
/// of the segment serves the T / G instances q * (T >> S) + (thread_id >>
/// S), each by the G consecutive threads of a team (a warp holds 32 / G
/// teams when G <= 32); every thread enters the region with (instance,
/// worker, active): the instance (clamped to the last one when not
/// active), worker = thread_id & (G - 1), and whether the instance is real.
/// The region (a pass's) keeps the instance's effects to active threads and
/// its barriers uniform. Length ceil(instances / (T >> S)) programs, as
/// (instances + (T >> S) - 1) >> (log2 T - S).
void laneTeamSegment(Program &p, unsigned index, unsigned shift);

/// The length expression of a lane-team segment of `instances` instances
/// in a program of `threads` (a power of two) threads, team shift `shift`.
unsigned laneTeamLength(Program &p, unsigned instances, int threads,
                        unsigned shift);

/// Instances along the last dimension of a tile segment's tile, at most.
constexpr int kTileWidth = 32;

/// Makes parallel segment `index` (rank >= 2, plain or spread, not team) a
/// tile segment of a cta program of T threads (T a multiple of 32) with K =
/// `rows` instances per thread: the instances are cut into tiles of R = K *
/// TY along dimension `dim` (not the last) by TX along the last one, TX =
/// tileWidthExpr (32, or the smallest power of two >= a shorter last
/// extent, so a warp still covers 32 instances), TY = T / TX, one tile per
/// program, the tiles numbered row-major over (the other dimensions,
/// ceil(E_dim / R), ceil(E_last / TX)). Thread t of program q serves 2K
/// instances of q's tile: direct ones at (dim, last) offsets ((t / TX) K +
/// k, t % TX) (a warp along the last dimension; a thread's K direct
/// instances are consecutive along `dim`) and transposed ones at
/// (m % R, m / R), m = t + k T (a warp along `dim`), k < K. Every thread
/// enters the region with (instance_k, active_k) for k < K, then
/// (transposed instance_k, transposed active_k): the row-major index of
/// each (0 when the tile is partial and the offsets fall outside the
/// domain) and whether it is inside. The region decodes each with a
/// `delinearize` by the segment's extents; the pass keeps every store under
/// the matching `active`. Length: the tile count.
void tileSegment(Program &p, unsigned index, int dim, int rows);

/// Whether `v` is an instance index of segment op `segOp`'s region: its
/// first argument, or any of a tile segment's (its even-numbered
/// arguments). Its `delinearize` by the extents gives instance coordinates.
bool isInstanceIndex(const Op &segOp, const Value *v);

/// A tile segment region's `active` argument for instance index `v`, or
/// null when `v` is none.
const Value *tileActiveOf(const Op &segOp, const Value *v);

/// The instance index of segment op `segOp` whose `delinearize` an operand
/// of `op` is computed from (the first found; for an access, its
/// coordinates' first), or null.
const Value *decodedIndex(const Op &segOp, const Op &op);

/// A tile segment's instance slot of index argument `v`: k for the k-th
/// direct instance, K + k for the k-th transposed one; -1 for none.
int tileSlot(const Op &segOp, const Value *v);

/// TX of a tile segment whose last extent is `last` (a launch expr):
/// last > 16 ? 32 : last > 8 ? 16 : ... : 1.
unsigned tileWidthExpr(Program &p, unsigned last);

/// log2 of TX: last > 16 ? 5 : last > 8 ? 4 : ... : 0.
unsigned tileShiftExpr(Program &p, unsigned last);

/// The tile count of a tile segment of `extents` cut along `dim` in a
/// program of `threads` threads per CTA, `rows` instances per thread.
unsigned tileLength(Program &p, const std::vector<unsigned> &extents, int dim,
                    int threads, int rows);

} // namespace intent::phys

#endif // INTENT_PHYSICAL_DISPATCH_H
