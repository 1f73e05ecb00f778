//===- ProgramEmitter.h - Internal: one physical program -> CUDA C++ -*- C++ -*-===//
//
// The emitter's internal interface, shared by CudaEmitter.cpp (program
// structure, scalars, memory, control) and EmitStructured.cpp (reduce, scan,
// argreduce, region_fold, region_scan). Not a public header: use
// Emit/CudaEmitter.h.
//
// Every SSA value becomes a C++ local `v<id>`. Region results (if, loop,
// structured-op callbacks) are mutable locals declared before the construct
// and assigned by the yields; a loop's carried values are mutable locals
// `c<op>_<k>` that each region rebinds to its block arguments on entry.
//
//===----------------------------------------------------------------------===//

#ifndef INTENT_EMIT_PROGRAMEMITTER_H
#define INTENT_EMIT_PROGRAMEMITTER_H

#include "Emit/CudaEmitter.h"
#include "Physical/IR.h"

#include <set>

#include <functional>
#include <map>
#include <string>
#include <vector>

namespace intent::emit::detail {

/// The C++ spelling of a scalar kind (`float`, `int64_t`, `intent::half`, ...).
std::string scalarCxx(phys::ScalarKind k);
bool isFloatKind(phys::ScalarKind k);
bool isSignedInt(phys::ScalarKind k);
/// A C++ expression of type `k` that denotes exactly the attribute value
/// `v` (an integer bit pattern, a double or a bool), as `constant` holds it.
std::string literal(const phys::AttrValue &v, phys::ScalarKind k);

/// Writes the functions of one program (see CudaEmitter.h).
class ProgramEmitter {
public:
  ProgramEmitter(llvm::raw_ostream &os, const phys::Program &p,
                 const EmitOptions &opts)
      : os(os), p(p), opts(opts), m(emit::symbolName(p, opts)) {}

  /// Struct, evaluator, program function, __global__, wrapper.
  void emit();

  /// The serial twin (Program::serialTwin) of the program whose functions
  /// are named `owner`: `<owner>_serial_args` (the owner's struct),
  /// `<owner>_serial_eval` and `<owner>_serial_program<CK>`, the host
  /// entry cpu mode runs per program id.
  void emitSerialTwin(const std::string &owner);

private:
  llvm::raw_ostream &os;
  const phys::Program &p;
  const EmitOptions &opts;
  std::string m;
  unsigned depth = 0;
  unsigned lastLine = 0;
  /// Enclosing `loop` ops, innermost last (targets of break/continue).
  std::vector<const phys::Op *> loops;
  /// Emitting `<m>_host_program`, cpu mode's serial form of a program of
  /// exec scope cta: one host thread runs the whole CTA instance, so the
  /// distributed ops are their ordered loops (the physical IR's semantics)
  /// and there is no staging, register row, barrier or shuffle.
  bool hostSerial = false;
  /// Writing the dense variant (`<m>_dense_program`, `<m>_dense_kernel`) of
  /// a tiled program, launched when the wrapper finds every view parameter
  /// dense: its last stride is 1 (or its last extent <= 1) and every
  /// in-bounds element offset fits int32_t (rt::detail::offsets_fit_int32),
  /// and every tile coordinate fits int32_t (emitWrapper). The
  /// variant drops the last stride's multiply and computes tile coordinates
  /// and view element offsets in 32 bits (exact for in-bounds accesses).
  bool dense = false;
  /// In the dense variant: the i64 values of the tile regions whose every
  /// value fits int32_t under its launch facts (Physical/IndexRange.h),
  /// declared and computed as int32_t.
  std::set<const phys::Value *> narrow;
  /// The C++ type a value is declared with.
  std::string valueType(const phys::Value *v) const;
  /// `v` as an operand of an op whose result is not narrowed: a narrowed
  /// value is widened first, so the op computes in 64 bits as it would
  /// without the variant.
  std::string wide(const phys::Value *v) const;
  /// Whether the program gets a dense variant: it has a tile segment
  /// (Passes/Tile.cpp) and no register rows.
  bool hasDenseVariant() const;

  /// Whether `p` gets a host serial form: exec scope cta without
  /// cooperative primitives (a program written with them runs its threads
  /// as host fibers).
  bool hasHostSerial() const;
  /// Whether `p` runs its serial twin in cpu mode instead (a program that
  /// spreads over threads, with a twin the pipeline kept).
  bool hasSerialTwin() const;
  /// A region can be emitted more than once (a cta-rows reduce emits its
  /// value region in the unrolled steps, the tail and the register variant;
  /// grid-reduce once per vector step), and so can a loop in it. Labels
  /// have function scope, so each emission of a loop gets its own label
  /// suffix: the loop's id, then id_1, id_2, ... (loopEmissions counts;
  /// loopTags holds the suffix of the emission in progress).
  std::map<const phys::Op *, unsigned> loopEmissions;
  std::map<const phys::Op *, std::string> loopTags;

  void indent();
  /// One line of generated code at the current depth; open() also enters a
  /// block (depth + 1), close() leaves it and writes `text`.
  void line(const std::string &text);
  void open(const std::string &text);
  void close(const std::string &text = "}");
  static std::string name(const phys::Value *v) {
    return "v" + std::to_string(v->id);
  }
  void lineDirective(const phys::Loc &l);

  // --- ABI -------------------------------------------------------------------
  void emitArgs();
  std::string exprText(unsigned e);
  /// One evaluator serves the host wrapper (grid size) and the kernel
  /// (segment dispatch): both bind to the same expressions.
  void emitLaunchEvaluator();

  // --- Program body ------------------------------------------------------------
  void emitProgramFunction();
  void emitOps(const phys::Block &b, const std::string &pid);
  void declare(const phys::Value *v, const std::string &init);
  /// A tile segment's dispatch: the thread's two instances and the
  /// region's arguments.
  void emitTileDispatch(const phys::Op &op, const std::string &local,
                        unsigned a);
  /// `a op b` in the operand type. Signed add/sub/mul go through the
  /// unsigned type so that they wrap (physical IR semantics) instead of
  /// overflowing; float `rem` is fmod. Integer promotions of narrow operands
  /// were made explicit by the front end already.
  std::string binaryExpr(const phys::Op &op);
  std::string elementRef(const phys::Op &op);
  /// INTENT_CHECK=bounds: the condition under which load/store `op` of a
  /// view may access memory, `(a.check == nullptr || <every coordinate
  /// within its extent>)` (intent/runtime/bounds.hpp), with the access's
  /// user line and column; "" for a buffer access.
  std::string boundsCondition(const phys::Op &op);
  /// True in the emitted code when the launch does not check bounds, so the
  /// passes' unchecked fast paths (vector loads, row staging) may run: the
  /// unchecked kernel variant, or a host form called without checks.
  std::string uncheckedLaunch() const {
    return hostSerial ? "(a.check == nullptr)" : "(!CK || a.check == nullptr)";
  }
  void emitAlloc(const phys::Op &op);
  /// The cooperative primitives (thread_id ... bitcast,
  /// docs/physical-ir.md §5.7): one runtime helper call each.
  void emitCoopOp(const phys::Op &op);
  /// The address of a vector_load/vector_store's first element.
  std::string vectorAddress(const phys::Op &op);
  /// Binds a region's block arguments to `sources` (carried variables).
  void bindArgs(const phys::Block &b, llvm::ArrayRef<std::string> sources);
  std::string carried(const phys::Op &loop, unsigned k);
  void assignCarried(const phys::Op &loop, const phys::Op &term);
  /// `{ <args bound to argSources> <ops> }`.
  void emitRegion(const phys::Region &r, llvm::ArrayRef<std::string> argSources,
                  const std::string &pid);
  void emitOp(const phys::Op &op, const std::string &pid);
  /// Yields: to the enclosing if's results, a loop's carried values, a
  /// structured op's callback results, or nothing (segment / for bodies).
  void emitYield(const phys::Op &op);
  void emitIf(const phys::Op &op, const std::string &pid);
  void emitLoop(const phys::Op &op, const std::string &pid);
  /// The label suffix of the emission of `loop` in progress.
  const std::string &loopTag(const phys::Op &loop) const;

  // --- Structured ops (EmitStructured.cpp) ----------------------------------------
  /// The local that callback region `region` of `op` yields component `k`
  /// into: `y<op>_<region>_<k>`.
  static std::string callbackResult(const phys::Op &op, unsigned region,
                                    unsigned k);
  /// Declares the callback results of region `region` of `op`.
  void declareCallbackResults(const phys::Op &op, unsigned region);
  /// reduce, scan, region_fold, region_scan: an ordered loop over the
  /// members calling the value, combine and emit/store callbacks.
  void emitFold(const phys::Op &op, const std::string &pid);
  /// region_fold / region_scan with `chunk`: chunk summaries, the carried
  /// incoming state, apply and emit per chunk, then store / final.
  void emitChunkedFold(const phys::Op &op, const std::string &pid);
  /// argreduce: the comparison of include/intent/argreduce.hpp, with the
  /// op's which/tie/nan attributes folded into the generated code.
  void emitArgReduce(const phys::Op &op, const std::string &pid);

  // --- Atomics (EmitAtomic.cpp) ---------------------------------------------------
  /// atomic / atomic_cas: a call of intent::rt::atomic_* (runtime/include/
  /// intent/runtime/atomics.hpp) with the op's scope and memory order as
  /// template arguments; the old value (and CAS success) become SSA values.
  void emitAtomic(const phys::Op &op);
  void emitPrint(const phys::Op &op); // EmitPrint.cpp
  // --- Accumulators of cooperative reductions (EmitStructured.cpp) ----------
  /// One arg-reduce merge step, shared by cta-rows and register rows: (b, q)
  /// = the better of (b, q) and (x, k) under the argreduce `t`'s which / tie
  /// / nan attributes, positions compared explicitly (k < 0: nothing).
  /// `increasing`: the caller guarantees k > q whenever q >= 0 (one
  /// thread's stream of members in order), so the tie rule is a constant
  /// and the merge is one branch-free select.
  /// The accumulator components of reduce / argreduce `t` as the
  /// cooperative forms keep them: their types and identities (an argreduce:
  /// value and position -1; a user combine's component: its init operand).
  void accComponents(const phys::Op &t, std::vector<phys::Type> &types,
                     std::vector<std::string> &identity);
  /// `<prefix><id>_<c>` for the n accumulator components of one op: the
  /// locals the cooperative forms keep one accumulator in.
  static std::vector<std::string> componentNames(const std::string &prefix,
                                                 const std::string &id,
                                                 unsigned n);
  /// target = combine(target, other) for reduce / argreduce `t`: its
  /// combine region, or the arg-merge (`increasing` as in emitArgMerge).
  void emitCombineInto(const phys::Op &t,
                       const std::vector<std::string> &target,
                       const std::vector<std::string> &other,
                       const std::string &pid, bool increasing = false);
  /// What member `k` contributes once t's value region has run for it:
  /// the region's results, for an argreduce the value and position k.
  std::vector<std::string> memberValue(const phys::Op &t,
                                       const std::string &k) const;
  void emitArgMerge(const phys::Op &t, const std::string &b,
                    const std::string &q, const std::string &x,
                    const std::string &k, bool increasing = false);
  // --- cta-rows (EmitCtaRows.cpp) ---------------------------------------------
  std::string stageBytesFunction() const;
  /// `<m>_stage_bytes(args)`: the staged rows' shared bytes, 0 when they do
  /// not fit (host and kernel decide alike).
  void emitStageBytesFunction();
  /// `#pragma unroll N` for a for/loop with an `unroll` attribute.
  void printUnroll(const phys::Op &op);
  /// Copies row `rows` (the instance coordinates) of every staged param
  /// into shared memory.
  void emitRowStaging(const std::vector<const phys::Value *> &rows);
  /// `v.data() + r0 * v.stride(0) + ...`: the first element of the row
  /// x(rows..., :) of view value `v`.
  std::string rowStart(const phys::Value *v,
                       const std::vector<const phys::Value *> &rows);
  /// `.stride(d)` / `.extent(d)` of a view's last dimension (the row).
  static std::string lastStride(const phys::Type &t);
  /// phys::rowRegChunk(p) as a literal: the register rows' chunk width.
  std::string regChunk() const;
  /// The register array a row-cache op (or a copy's root) of view `param`
  /// keeps its value in: the row's own slots `rr<param>` when the value has
  /// the view's element type, else `rkc<param>` of the value's type.
  std::string rowCacheArray(const phys::Op &op, int64_t param) const;
  /// Whether a row-cache op of view `param` has the view's element type
  /// (it then overwrites the row's own slot).
  bool ownRowSlot(const phys::Op &op, int64_t param) const;
  static std::string lastExtent(const phys::Type &t);
  /// reduce / argreduce {dist = "cta"}: spread over the CTA's threads.
  void emitCtaReduce(const phys::Op &op, const std::string &pid);

  // --- cta-rows, rows in registers (EmitRowRegs.cpp) ---------------------------
  /// `<m>_row_k(args)`, `<m>_row_threads(args)`: the launch's variant.
  void emitRowRegFunctions();
  /// The __launch_bounds__ of variant RK (a C++ expression in RK).
  std::string rowRegBound() const;
  /// Loads row `rows` of every register view into its register array.
  void emitRowRegisters(const std::vector<const phys::Value *> &rows);
  /// Points the `reg` loads at the top of `b` at register slot `slot`
  /// (set) or back at memory; sets / clears regSlot.
  void overrideRegLoads(const phys::Block &b, const std::string &slot,
                        bool set);
  /// reduce / argreduce {dist = "cta"} over the register slots; assigns
  /// the result components to `out`.
  void emitCtaReduceRegs(const phys::Op &op, const std::string &pid,
                         const std::vector<std::string> &out);
  /// The chunk loop of the register slots (`rv<id>`, chunk start `rb<id>`)
  /// over a row of `n` members: `full` emits a chunk whose four members are
  /// < n, `tail` the chunk holding n; with n == RK x T (uniform over the
  /// CTA) every chunk is full and nothing is checked.
  void emitChunkLoop(const std::string &id, const std::string &n,
                     const std::function<void()> &full,
                     const std::function<void()> &tail);
  /// for {dist = "cta"} over the register slots.
  void emitCtaForRegs(const phys::Op &op, const std::string &pid);
  /// The reduction being emitted among the instance's distributed ones,
  /// and their number (alternating scratch buffers).
  unsigned regReduceIndex = 0, regReduceCount = 0;
  /// The staged / global form of a distributed reduce; assigns the result
  /// to `out`, or declares it when `out` is empty.
  void emitCtaReduceStrided(const phys::Op &op, const std::string &pid,
                            const std::vector<std::string> &out);

  /// The register slot of the member being emitted (a C++ expression),
  /// while a distributed op's member block is emitted in a register
  /// variant; empty otherwise. `row_cache` / `row_cached` act only then.
  std::string regSlot;
  /// Loads whose value comes from an already loaded vector (C++ expression).
  std::map<const phys::Op *, std::string> loadOverride;
  /// Stores written to a lane of a register vector instead of memory.
  std::map<const phys::Op *, std::string> storeOverride;

  // --- Entry points -------------------------------------------------------------
  void emitGlobal();
  /// Locals of the wrapper are `__intent_*` so they never shadow parameters.
  void emitWrapper();
};

} // namespace intent::emit::detail

#endif // INTENT_EMIT_PROGRAMEMITTER_H
