//===- Coop.h - Cooperative constructs: shared layout facts -----*- C++ -*-===//
//
// Facts about cooperative constructs shared by the passes that create them,
// the verifier, the interpreter and the CUDA emitter: the loads a vector
// load can serve, exchangeable accumulator kinds, cta-rows' scratch and
// register rows, the placement of cta_shared buffer records. (Grid
// reductions lay out their workspace and shared buffers as buffer records
// themselves: Passes/GridReduce.cpp.)
//
//===----------------------------------------------------------------------===//

#ifndef INTENT_PHYSICAL_COOP_H
#define INTENT_PHYSICAL_COOP_H

#include "Physical/IR.h"

#include <optional>
#include <set>

namespace intent::phys {

/// Whether `p` spreads its work over its threads itself: it uses a
/// cooperative primitive, a cta_shared buffer or a spread segment
/// (Physical/Dispatch.h). Such a program runs its threads as fibers in the
/// interpreter and in cpu mode, and its accesses may be each thread's own
/// (active `thread`) anywhere.
bool spreadsOverThreads(const Program &p);

/// The loads of a reduction's value region that run for every member and
/// address a rank-1 view at exactly the member index k (top-level in the
/// region, unguarded): the ones a vector load can serve.
std::vector<const Op *> streamedLoads(const Op &target);

/// Accumulator components a cooperative reduction exchanges: the reduce's
/// components, or (value, position) for an argreduce.
unsigned gridComponents(const Op &target);

/// Scalar kinds a warp shuffle moves (4 and 8 byte integers and floats).
bool isShuffleKind(ScalarKind k);

/// cta-rows: the row coordinate r of instance block `b` (a segment's
/// region): the single result of the delinearize of b's local index; null
/// when the instance has no such single coordinate.
const Value *rowCoordinate(const Block &b);
/// cta-rows: the instance coordinates of instance block `b` (the results of
/// the delinearize of b's local index, outermost first): "row r" of a view
/// of rank rows + 1 is x(r0, ..., rk, :). Empty when b decodes none.
std::vector<const Value *> rowCoordinates(const Block &b);
/// Whether access `op` addresses the instance's row of its view: a view of
/// rank rows.size() + 1 whose first coordinates are exactly `rows`, in
/// order (the last one is the column).
bool addressesRow(const Op &op, const std::vector<const Value *> &rows);
/// Whether reduction `r` (top-level in an instance whose coordinates are
/// `coords`) walks an outer axis of a view: a load in its value region has
/// the last instance coordinate as its last coordinate and the member
/// index in an earlier one, and no load has the member index last (a row
/// reduction, read along the contiguous axis, is cta-rows'). With `scans`,
/// a scan `r` is asked the same (a cumulative sum down the columns).
bool walksOuterAxis(const Op &r, const std::vector<const Value *> &coords,
                    bool scans = false);

/// The values of instance block `body`'s top level that depend on a
/// reduction's result (reduce / argreduce results and what is computed
/// from them): what a pass that folds the reductions first must run after.
std::set<const Value *> reductionDependents(const Block &body);

/// The integer constant `v` is (through casts), if it is one.
std::optional<int64_t> constantInt(const Value *v);
/// The trip count of a reduce, argreduce, region-less `for` or region op's
/// members when both bounds are integer constants (max(end - begin, 0)).
std::optional<int64_t> constantTrip(const Op &op);
/// Constant trip counts below this are tiny: such loops run serially in
/// their instance (cta-rows leaves an instance whose reductions and
/// parallel fors are all tiny one thread; its nested loop is no lost
/// parallelism).
constexpr int64_t kTinyTrip = 16;

/// cta-rows: in an instance `body` whose top-level ops run on different
/// threads of a CTA (leader stores, distributed reductions and fors), the
/// first op that accesses memory an op since the last CTA barrier wrote,
/// or writes memory one read (two mutable views of one element type and
/// rank may be one); a distributed reduction orders what came before it
/// (its partials are combined after a barrier). Null when every such
/// pair is ordered.
const Op *firstUnorderedPhase(const Program &p, const Block &body);

/// cta-rows (docs/passes.md): the scratch bytes at shared offset 0 that a
/// CTA-distributed reduction of `components` components uses (warp
/// partials, then the broadcast result).
int64_t rowScratchBytes(unsigned components);
/// cta-rows register rows: the scratch of a register-form reduction (two
/// alternating buffers of warp partials: one barrier per reduction).
int64_t rowRegScratchBytes(unsigned components);
/// Register-row words (4 bytes) a thread may hold for one register view;
/// V views share kRowRegWords / V words each more: K * (bytes of one member
/// of every view) * V <= 4 * kRowRegWords. The 64-register cap of 1024
/// threads leaves room for one 32-word row; each further view brings its
/// own pointers and loop values (measured: two f32 views at K = 16 spilled
/// 924 bytes at 64 registers).
constexpr int64_t kRowRegWords = 32;
/// The largest K in {4, 8, 16, 32} whose rows of `bytesPerMember` bytes
/// (summed over the `views` register views) fit that budget; 0 if none.
int rowRegMaxK(int64_t bytesPerMember, unsigned views = 1);
/// The launch's choice for row length n: K (0: rows not in registers) and
/// the CTA size T (the smallest multiple of 32 in [32, 1024] with T * K >=
/// n; the cross-warp round pads its lanes with the identity). K is the
/// smallest of chunk, 2 chunk, ..., 32 (<= maxK) with n <= K *
/// rowRegMaxThreads(K): rows of up to 16 * maxK members take one warp, up
/// to 32 * maxK two warps of maxK / 2 elements, longer ones maxK elements
/// per thread and T = 32 ceil(n / (32 maxK)), so every thread holds as much of the row
/// as the budget allows and the most rows are in flight per SM. The
/// generated <kernel>_row_k / _row_threads functions compute the same.
struct RowRegChoice {
  int k = 0;
  int threads = 0;
};
RowRegChoice rowRegChoice(int64_t n, int maxK, int chunk = 4);
/// The chunk width C of a register-row program: the elements of a row one
/// thread loads at once (slot C v + q of thread t holds column (v T + t) C +
/// q). 8 when every register view's elements are 16-bit or narrower (one
/// 128-bit load of bf16 / half), else 4. K runs over C, 2C, ... <= regMaxK.
int rowRegChunk(const Program &p);
/// Threads a variant of K elements per thread runs with at most: 32 (one
/// warp) below maxK / 2, 64 for maxK / 2, 1024 for K = maxK.
int rowRegMaxThreads(int k, int maxK);

/// Bytes of one element of kind `k`.
int64_t elemBytes(ScalarKind k);

/// Places the program's CTA-shared buffers in its dynamic shared memory:
/// each at the next 16-byte boundary after Program::sharedBytes (the
/// scratch older passes reserve), in buffer order, and grows sharedBytes to
/// cover them; then the buffers sized per launch (Buffer::sizeExpr), each
/// at the next 16-byte boundary after the previous one, their offsets and
/// the launch's total (Program::sharedBytesExpr) as launch expressions.
/// Idempotent: buffers already placed keep their offsets.
void layoutSharedBuffers(Program &p);

/// Combiners a grid reduction may regroup AND reorder (commutative and, with
/// reassociate, associative up to float rounding).
bool isCommutativeCombiner(llvm::StringRef combiner);

} // namespace intent::phys

#endif // INTENT_PHYSICAL_COOP_H
