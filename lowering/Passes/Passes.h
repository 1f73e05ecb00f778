//===- Passes.h - The physical passes after construction --------*- C++ -*-===//
//
// Each physical pass rewrites the constructed program in place (one file
// per pass, docs/passes.md), reports remarks saying what it did or why it
// did not apply (and any parallelism it could not recover) to a RemarkSink,
// and is followed by the construction verifier (Pipeline.cpp). A pass sees
// the program and the sink only, never the construction state: this layer
// sits beside Construction, not above it (docs/architecture.md, "Layers").
// Passes/Registry.h names them and fixes the default order.
//
//===----------------------------------------------------------------------===//

#ifndef INTENT_PASSES_PASSES_H
#define INTENT_PASSES_PASSES_H

#include "Physical/IR.h"
#include "Physical/Remarks.h"

#include <optional>
#include <string>

namespace intent::passes {

/// Device-wide scan (GridScan.cpp): a kernel whose one group is a single
/// instance running one reassociable scan (forward or reverse) becomes a cooperative
/// grid of CTAs: each CTA's aggregate over a contiguous run of tiles, a
/// grid barrier, the aggregates before it folded in order, then its tiles
/// scanned (in shared memory, warp shuffles) and emitted.
void gridScan(phys::Program &p, phys::RemarkSink &sink);
std::string applyGridScan(phys::Program &p, std::string &what);

/// Device-wide single-launch reduction (GridReduce.cpp): a program whose one
/// segment is a single instance computing a reassociable reduce/argreduce
/// becomes a cooperative (exec scope cta) program of many CTAs that compute
/// partials, and the last arriving CTA folds them and runs the rest. A
/// reassociable reduction it cannot split is reported to `sink` as lost
/// parallelism unless construction already reported its group.
void gridReduce(phys::Program &p, phys::RemarkSink &sink);

/// The rewrite itself: returns why it does not apply ("" when it did, with
/// `what` describing it). With gate = false only the shape is required (no
/// combiner/type legality): tests use it to build programs the verifier
/// must reject.
std::string applyGridReduce(phys::Program &p, std::string &what,
                            bool gate = true);

/// One CTA per row instance (CtaRows.cpp): a parallel segment whose
/// instance has top-level reductions and parallel fors becomes a cooperative
/// program; its reductions and fors are spread over the CTA's threads and
/// rows read in several passes are staged in shared memory.
void ctaRows(phys::Program &p, phys::RemarkSink &sink);
/// applyCtaRows: "" when at least one segment takes a CTA per instance
/// (the others are spread over the threads), else the first reason;
/// `perSegment` receives each segment's reason ("" for those that do).
std::string applyCtaRows(phys::Program &p, std::string &what,
                         std::vector<std::string> *perSegment = nullptr);
/// cta-rows-ops (CtaRowsOps.cpp): a cta-rows program without register rows
/// written as cooperative ops, every annotated segment; returns why not
/// (empty: applied).
void ctaRowsOps(phys::Program &p, phys::RemarkSink &sink);
std::string applyCtaRowsOps(phys::Program &p);
/// Split rows (docs/passes.md §3): the launch expression of the CTAs each
/// instance of cta-rows segment `segment` (annotated, one instance per row)
/// gets when its rows are spread over `threads`-thread CTAs: min(sm_count,
/// 1024) / rows, at most one CTA per kSplitMembers members of its widest
/// distributed op, at least 1; nullopt when a trip count is not known at
/// launch.
std::optional<unsigned> splitRowParts(phys::Program &p, unsigned segment,
                                      int threads);
/// The launch condition of the split-row alternative for segment
/// `segment` (rows of kPhaseThreads-thread CTAs): 2 x rows <= sm_count and
/// splitRowParts >= 2; nullopt when the parts are not known at launch.
std::optional<unsigned> splitRowsWhen(phys::Program &p, unsigned segment);

/// Reductions along an outer axis (ColReduce.cpp): a team segment of 32
/// instances per CTA, 8 threads per instance and a launch-time number of
/// CTAs per 32 instances splitting the members, combined in member order
/// (workspace + last-arriving CTA). applyColReduceSegment maps one segment.
void colReduce(phys::Program &p, phys::RemarkSink &sink);
std::string applyColReduceSegment(phys::Program &p, unsigned segment,
                                  std::string &what);

/// Folds on teams (RegionTeams.cpp): a segment whose instance is one region
/// of a top-level region_fold, or reduces rows of a constant length below
/// 256, becomes a lane-team segment, 2^S consecutive threads per instance
/// with S chosen at launch from the average member count, combined by warp
/// shuffles (shared memory past a warp).
/// applyRegionTeamsSegment maps one segment.
void regionTeams(phys::Program &p, phys::RemarkSink &sink);
std::string applyRegionTeamsSegment(phys::Program &p, unsigned segment,
                                    std::string &what);
/// Why region-teams would not map segment `segment` ("" when it would):
/// cta-rows leaves it the short constant rows it takes.
std::string regionTeamsRejection(const phys::Program &p, unsigned segment);

/// Scans on teams (ScanTeams.cpp): a parallel segment whose instance runs
/// one top-level scan or region_scan (a row cumsum, a segmented prefix sum)
/// becomes a lane-team segment, 2^S <= 32 consecutive threads per instance
/// with S chosen at launch from the average member count; the team walks
/// the members in tiles, scanned by warp shuffles, with the carry between
/// tiles. applyScanTeamsSegment maps one segment.
void scanTeams(phys::Program &p, phys::RemarkSink &sink);
std::string applyScanTeamsSegment(phys::Program &p, unsigned segment,
                                  std::string &what);

/// Team shapes (TeamShape.cpp), shared by region-teams and scan-teams. The
/// launch expression of a member count structured op `op`'s value region
/// bounds: the extent of a root view it indexes by the member (block
/// argument `memberArg` of the value region, or a cast of it); nullopt when
/// none.
std::optional<unsigned> memberExtentExpr(phys::Program &p, const phys::Op &op,
                                         unsigned memberArg);
/// The team shift S from the average member count `members / instances`:
/// the largest k <= maxShift with avg >= perLane * 2^k (0 when none).
unsigned teamShiftExpr(phys::Program &p, unsigned members, unsigned instances,
                       int maxShift, int64_t perLane);
/// Why segment `seg` cannot become a lane-team segment ("" when it can):
/// it must be parallel, one instance per thread (a thread program's, or
/// spread over a power-of-two cta program of a fixed CTA size), with a
/// segment op (returned in `segOp`) whose instance does not print.
std::string laneTeamRejection(const phys::Program &p, const phys::Segment &seg,
                              phys::Op *&segOp);

/// Tiles of N-D pointwise segments (Tile.cpp): each thread-style parallel
/// segment of rank >= 2 whose instance is pure code, loads, stores and ifs
/// becomes a tile segment (T / 32 x 32 instances per CTA, no division per
/// thread); transposed accesses go through a shared tile, a warp along
/// the view's last coordinate. applyTileSegment maps one segment.
void tile(phys::Program &p, phys::RemarkSink &sink);
std::string applyTileSegment(phys::Program &p, unsigned segment,
                             std::string &what);

/// Row values kept in registers (RowCache.cpp): in a register-row program,
/// an expression of a row element that a distributed op computes and the
/// later ones repeat is written into the element's register slot once and
/// read from it afterwards (`row_cache` / `row_cached`, Physical/RowCache.h).
void rowCache(phys::Program &p, phys::RemarkSink &sink);
std::string applyRowCache(phys::Program &p, std::string &what);

/// Ownership widening (Widen.cpp): every pointwise parallel 1-D segment of
/// a thread-scope program gets chunks of 16 bytes per program step, a
/// capped program count and a grid-stride traversal, written as explicit
/// ops (vector loads/stores on the aligned path). applyWiden widens every
/// eligible segment ("" when at least one was, else the first reason);
/// applyWidenSegment one.
void widen(phys::Program &p, phys::RemarkSink &sink);
std::string applyWiden(phys::Program &p, std::string &what);
std::string applyWidenSegment(phys::Program &p, unsigned segment,
                              std::string &what);

/// Privatized atomics (PrivatizeAtomics.cpp): a parallel segment of a
/// thread program that updates views only through relaxed add / min / max
/// atomics whose old value is unused (histograms) becomes a cta program of
/// CTAs striding over the instances, each accumulating into a copy of those
/// views in shared memory (sized and chosen per launch) merged into the
/// views at its end; the program's other groups keep one instance per
/// thread. applyPrivatizeAtomics returns "" when some group was mapped;
/// `what` gets each segment's remark (or why it was not mapped).
void privatizeAtomics(phys::Program &p, phys::RemarkSink &sink);
std::string applyPrivatizeAtomics(phys::Program &p,
                                  std::vector<std::string> &what);

/// Atomic scopes (AtomicScopes.cpp, Physical/AtomicScope.h): every atomic
/// gets the hardware scope that covers its buffer's sharing domain. Runs
/// after the mapping passes, whose choices can change that domain.
void atomicScopes(phys::Program &p, phys::RemarkSink &sink);

/// Warp-aggregated atomics (AggregateAtomics.cpp, docs/passes.md §14):
/// global atomic add / min / max whose lanes may update one element (not
/// indexed by the instance) combine over a warp's lanes first, one atomic
/// per element and warp. Runs after atomic-scopes (it needs the scope).
void aggregateAtomics(phys::Program &p, phys::RemarkSink &sink);

/// counted-loops (CountedLoops.cpp): a counted loop at the top of a
/// parallel instance whose iterations touch disjoint memory and each
/// compute a reduction becomes a `for` (cta-rows may then spread it).
void countedLoops(phys::Program &p, phys::RemarkSink &sink);

/// Threads per CTA of the cooperative programs the passes create.
constexpr int kCtaThreads = 256;
/// Threads of the one CTA that runs a single-instance group's phases.
constexpr int kPhaseThreads = 1024;

/// The launch expression computing a scalar SSA value of the body, when the
/// value is launch-visible (constants, scalar parameters, extents, strides,
/// launch values and integer arithmetic on them); nullopt otherwise.
std::optional<unsigned> launchExprOf(phys::Program &p, const phys::Value *v);
/// Whether launchExprOf would give `v` an expression (the same rules), for
/// a question asked of a program the asker may not change.
bool isLaunchVisible(const phys::Program &p, const phys::Value *v);

} // namespace intent::passes

#endif // INTENT_PASSES_PASSES_H
