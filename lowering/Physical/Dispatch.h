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

} // namespace intent::phys

#endif // INTENT_PHYSICAL_DISPATCH_H
