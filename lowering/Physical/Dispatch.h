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

/// Sets segment `index`'s length to launch expression `length`, re-derives
/// every segment's offset and the program's total from the lengths, and
/// points the dispatch's launch values (each segment op's offset and length
/// operands, the round-up guard's total) at the new expressions.
void resizeSegment(Program &p, unsigned index, unsigned length);

} // namespace intent::phys

#endif // INTENT_PHYSICAL_DISPATCH_H
