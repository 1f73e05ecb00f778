//===- IR.h - Physical IR: the GPU program built from KIR -------*- C++ -*-===//
//
// The physical IR describes ONE GPU program (one `__global__` per kernel
// specialization): its ABI parameters, an execution scope per program
// instance, a table of typed launch expressions, the segmented program space
// (one segment per execution group), the buffers it touches, and a body in
// SSA-with-regions form whose ops are close to C++ statements. See
// docs/physical-ir.md for the full reference (the CUDA emitter is written
// from that document).
//
// The physical program is self-contained: it is interpreted and emitted
// without KIR. Origin references (KIR KernelID/OpID/ValueID/RegionID) are
// carried for diagnostics and legality checks only.
//
//===----------------------------------------------------------------------===//

#ifndef INTENT_PHYSICAL_IR_H
#define INTENT_PHYSICAL_IR_H

#include "KIR/KIR.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <variant>
#include <vector>

namespace intent::phys {

/// Scalar element kinds are shared with KIR (they are plain C++ types).
using ScalarKind = kir::ScalarKind;
using Loc = kir::Loc;

//===----------------------------------------------------------------------===//
// Types
//===----------------------------------------------------------------------===//

/// A physical type: a scalar, an ABI view (a parameter only), or a buffer
/// handle produced by `alloc`.
struct Type {
  enum class Kind : uint8_t { None, Scalar, View, Buffer };
  Kind kind = Kind::None;
  ScalarKind elem = ScalarKind::I64;
  int rank = 0;         ///< views and buffers
  bool constElem = false; ///< views only
  int64_t size = 0;     ///< buffers: element count (rank 1)

  static Type none() { return {}; }
  static Type scalar(ScalarKind k) {
    Type t;
    t.kind = Kind::Scalar;
    t.elem = k;
    return t;
  }
  static Type index() { return scalar(ScalarKind::I64); }
  static Type boolean() { return scalar(ScalarKind::Bool); }
  static Type view(ScalarKind elem, int rank, bool constElem) {
    Type t;
    t.kind = Kind::View;
    t.elem = elem;
    t.rank = rank;
    t.constElem = constElem;
    return t;
  }
  static Type buffer(ScalarKind elem, int64_t size) {
    Type t;
    t.kind = Kind::Buffer;
    t.elem = elem;
    t.rank = 1;
    t.size = size;
    return t;
  }
  /// Converts a KIR type (scalars and views).
  static Type fromKIR(const kir::Type &t);

  bool isNone() const { return kind == Kind::None; }
  bool isScalar() const { return kind == Kind::Scalar; }
  bool isView() const { return kind == Kind::View; }
  bool isBuffer() const { return kind == Kind::Buffer; }
  /// Views and buffers: things a load/store addresses.
  bool isMemory() const { return isView() || isBuffer(); }
  bool isBool() const { return isScalar() && elem == ScalarKind::Bool; }
  bool isInteger() const;
  bool isFloat() const;
  bool isIndex() const { return isScalar() && elem == ScalarKind::I64; }

  bool operator==(const Type &o) const {
    return kind == o.kind && elem == o.elem && rank == o.rank &&
           constElem == o.constElem && size == o.size;
  }
  bool operator!=(const Type &o) const { return !(*this == o); }
};

void printType(llvm::raw_ostream &os, const Type &t);
std::string typeToString(const Type &t);

//===----------------------------------------------------------------------===//
// Origin (diagnostics and legality checks only; never read to execute)
//===----------------------------------------------------------------------===//

/// A reference to the KIR entity a physical entity came from. -1 = none.
/// An op that stands for no KIR op (the dispatch skeleton: program_id, the
/// round-up guard, return) names the stage that synthesized it in `synth`
/// instead; the verifier requires one of the two on every op ([origin]).
struct Origin {
  int kernel = -1;
  int op = -1;     ///< KIR OpID
  int value = -1;  ///< KIR ValueID
  int region = -1; ///< KIR RegionID
  int arg = -1;    ///< block argument position in `region`
  /// "construction" or a pass name: the op was synthesized there and has no
  /// KIR op. Empty when `op` names one.
  std::string synth;
  bool empty() const { return op < 0 && value < 0 && region < 0; }
};

//===----------------------------------------------------------------------===//
// Execution scope, launch expressions, segments, buffers
//===----------------------------------------------------------------------===//

/// What one program instance is. Only Thread is produced today; the others
/// are reserved for later passes (cooperative fragments).
enum class ExecScope : uint8_t { Thread, Warp, Warpgroup, CTA };
llvm::StringRef execScopeName(ExecScope s);

/// One node of a launch expression: a typed integer expression over ABI
/// scalar parameters, constexpr values and view extents/strides, evaluated
/// identically by the host wrapper (to size the grid) and the kernel (to
/// dispatch). Nodes live in Program::exprs and only refer to earlier nodes.
struct LaunchExpr {
  enum class Kind : uint8_t {
    Const,  ///< `value`
    Param,  ///< scalar ABI parameter number `param`
    Extent, ///< extent `dim` of view parameter number `param`
    Stride, ///< stride `dim` of view parameter number `param`
    Cast,   ///< operand converted to `type` (C++ static_cast)
    Add,
    Sub,
    Mul,
    Div, ///< C++ truncating division
    Rem,
    Shr, ///< arithmetic right shift by operand 1 (in [0, 63])
    Min,
    Max,
    Neg,
    Cmp,    ///< `pred` in eq ne lt le gt ge; result bool
    Select, ///< (bool, a, b)
    /// The device's streaming multiprocessors (intent::rt::sm_count(): 1
    /// in cpu mode); a launch-time mapping choice, never a result.
    SmCount,
  };
  Kind kind = Kind::Const;
  ScalarKind type = ScalarKind::I64;
  int64_t value = 0;
  unsigned param = 0;
  unsigned dim = 0;
  std::string pred;
  llvm::SmallVector<unsigned, 3> operands; ///< indices into Program::exprs

  bool operator==(const LaunchExpr &o) const {
    return kind == o.kind && type == o.type && value == o.value &&
           param == o.param && dim == o.dim && pred == o.pred &&
           operands == o.operands;
  }
};
llvm::StringRef launchExprKindName(LaunchExpr::Kind k);

/// One execution group's slice of the program space. Program ids in
/// [offset, offset + length) run this group; `id - offset` is decoded
/// row-major into `extents.size()` coordinates. An ordered (single-instance)
/// segment has no extents and length 1.
struct Segment {
  unsigned group = 0;
  std::vector<unsigned> extents; ///< launch exprs of the instance domain
  unsigned length = 0;           ///< launch expr: prod_d max(extents[d], 0)
  unsigned offset = 0;           ///< launch expr: sum of earlier lengths
  bool ordered = false;          ///< single instance, work traversed inside
  Loc loc;                       ///< first KIR op of the group
  std::vector<Origin> covers;    ///< KIR top-level ops of the group
  std::string reason;            ///< why the group is ordered (if it is)
  /// Threads of a cta program that share the segment's instances
  /// (Physical/Dispatch.h spreadSegment): program q of the segment runs
  /// instance q * spread + thread_id when that is below `instances`, so a
  /// thread-style group (one instance per thread) sits in a cta program
  /// next to a group another pass gave whole CTAs. 0: one instance per
  /// program (`length` instances).
  int spread = 0;
  unsigned instances = 0; ///< launch expr: the instance count when spread
  /// A team segment (Physical/Dispatch.h teamSegment): each of a program's
  /// `spread` instances is shared by ctaThreads / spread of its threads,
  /// and `parts` programs (a launch expr, >= 1) share each group of
  /// `spread` instances; every thread enters the region, with (instance,
  /// worker, active) (docs/physical-ir.md §4).
  bool team = false;
  unsigned parts = 0;
  /// A lane-team segment (Physical/Dispatch.h laneTeamSegment), a team
  /// segment whose teams are 2^shift consecutive threads (`shift` a launch
  /// expr in [0, log2 ctaThreads]): program q serves instances q *
  /// (ctaThreads >> shift) + thread_id >> shift, worker thread_id & (2^shift
  /// - 1); `spread` is ctaThreads and `parts` unused.
  bool lanes = false;
  unsigned shift = 0;
  /// A tile segment (Physical/Dispatch.h tileSegment): >= 0 is the
  /// instance dimension `a` that, with the last one, spans the tiles of
  /// R x TX instances a program serves; every thread enters the region with
  /// an (instance, active) pair for each of its `tileRows` direct and
  /// `tileRows` transposed instances. `instances` is the instance count,
  /// `length` the tile count. -1: none.
  int tile = -1;
  /// A tile segment's instances per thread along `tile` (K): the tile has
  /// K * TY rows, the region 4K arguments.
  int tileRows = 1;
};

/// A precondition the launcher checks before the kernel runs (it raises
/// rt::error otherwise): the launch expression `extent` is at most
/// indexLimit(type). Construction records one when it treats the
/// conversion of an instance coordinate in [0, extent) to the narrower
/// integer `type` (a C `int i` index) as the identity, which holds exactly
/// when every coordinate fits the type (docs/construction.md §4).
struct LaunchCheck {
  unsigned extent = 0;               ///< launch expr
  ScalarKind type = ScalarKind::I32; ///< the index's integer type
  Loc loc;                           ///< the parallel_for (or region op)
};
/// The largest extent whose coordinates [0, extent) all fit `type`
/// (max(type) + 1); INT64_MAX for 64-bit types.
int64_t indexLimit(ScalarKind type);

/// Allocation scope of a logical buffer (design.md §4.5).
enum class BufferScope : uint8_t {
  ProgramPrivate,      ///< one copy per program instance
  IterationPrivate,    ///< one copy per dynamic execution of its region
  InvocationWorkspace, ///< one per launch, a hidden ABI argument
  ExternalView,        ///< an ABI view: allocation and contents owned by host
  CTAShared, ///< one copy per CTA in its shared memory, shared by its threads
};
llvm::StringRef bufferScopeName(BufferScope s);

/// How a buffer's contents are initialised.
enum class InitMode : uint8_t {
  Host,       ///< external view: contents provided by the host program
  Value,      ///< every element set to `initValue` once per allocation
  FirstWrite, ///< uninitialised: the author's write-before-read obligation
};
llvm::StringRef initModeName(InitMode m);

/// Who may write a buffer's elements.
enum class Ownership : uint8_t {
  None,           ///< never written
  InstanceUnique, ///< each element written by at most one instance of its group
  SingleInstance, ///< written only by single-instance (ordered) groups
  Private,        ///< owned by the allocating instance / iteration
  Atomic,         ///< elements updated by several instances of one parallel
                  ///< group, only through atomics (closed by atomic semantics)
};
llvm::StringRef ownershipName(Ownership o);

/// The set of program instances that may access a buffer's element
/// concurrently (design.md §4.9: recorded for every buffer an atomic updates);
/// the atomic-scopes pass picks the hardware scope from it.
enum class Sharing : uint8_t {
  None,     ///< not recorded (no atomic addresses the buffer)
  Instance, ///< one program instance (private storage)
  CTA,      ///< the instances of one CTA (CTA-shared memory)
  Launch,   ///< every instance of the launch (external views, workspaces)
  System,   ///< also the host or other devices while the kernel runs
};
llvm::StringRef sharingName(Sharing s);

/// A logical buffer with its physical obligations.
struct Buffer {
  unsigned id = 0;
  std::string name;
  BufferScope scope = BufferScope::ExternalView;
  ScalarKind elem = ScalarKind::F32;
  int rank = 1;
  int64_t size = 0;  ///< non-external buffers: element count
  int param = -1;    ///< external views: ABI parameter number
  InitMode init = InitMode::Host;
  double initValue = 0;
  Ownership ownership = Ownership::None;
  std::vector<unsigned> readerGroups; ///< groups that load from it
  std::vector<unsigned> writerGroups; ///< groups that store to it
  Origin origin;
  /// Buffers updated by atomics: who shares their elements.
  Sharing sharing = Sharing::None;
  /// Invocation workspace: byte offset of the slice in the hidden
  /// `workspace` argument (a multiple of kWorkspaceAlign); -1 otherwise.
  int64_t workspaceOffset = -1;
  /// Invocation workspace that the kernel itself leaves all-zero when it
  /// ends (grid-reduce's partials and arrival counter), so the runtime
  /// zeroes it once per allocation instead of once per launch. Printed
  /// `kept_zero`.
  bool keptZero = false;
  /// CTA-shared buffers: byte offset in the CTA's dynamic shared memory
  /// (layoutSharedBuffers); -1 otherwise. Printed `shared_offset N`.
  int64_t sharedOffset = -1;
  /// A CTA-shared buffer whose size is decided per launch (cta-rows' staged
  /// rows: a row's length, or 0 when the rows do not fit): the launch
  /// expression of its element count (`size` is then 0), and the launch
  /// expression of its byte offset (dynamic buffers follow every static one,
  /// layoutSharedBuffers). -1: a static buffer. Printed `size eK` and
  /// `shared_offset eK`. An invocation workspace may be sized per launch
  /// too (grid-scan's tile statuses, one per program): its slice is the
  /// last one, at a static offset, and the launch asks for offset + eK
  /// elements (workspaceBytesExpr).
  int sizeExpr = -1;
  int sharedOffsetExpr = -1;
  /// A CTA-shared copy of view parameter number `privatizes` that the CTA
  /// updates by atomics in its place and merges into the view at its end
  /// (privatize-atomics, docs/passes.md §11): the merge's atomics on the
  /// view implement the KIR atomics the copy's updates stand for. -1: none.
  /// Printed `privatizes N`.
  int privatizes = -1;
};

/// Alignment of every buffer slice in the invocation workspace (the
/// runtime's workspace is 256-byte aligned, docs/runtime.md §4).
inline constexpr int64_t kWorkspaceAlign = 256;


//===----------------------------------------------------------------------===//
// SSA: values, ops, blocks, regions
//===----------------------------------------------------------------------===//

class Op;
class Block;
class Region;

/// An SSA value: an op result or a block argument; `id` is unique in the
/// program.
class Value {
public:
  unsigned id = 0;
  Type type;
  Op *def = nullptr;
  unsigned resultNo = 0;
  Block *owner = nullptr;
  unsigned argNo = 0;
  std::string name; ///< printing hint only
  Origin origin;    ///< the KIR value it computes, if any
  /// Further origins: a coordinate shared by fused parallel_fors stands for
  /// the iteration of each of them.
  std::vector<Origin> alsoFrom;
  bool isBlockArg() const { return def == nullptr; }
};

enum class Opcode : uint8_t {
  // Program structure.
  ProgramId,   ///< () -> i64: the global program index
  LaunchValue, ///< () attr expr -> the value of launch expression `expr`
  Segment,     ///< (pid, offset, length) attr group; region(local: i64)
  Delinearize, ///< (local, n0..nr-1) -> r coordinates, row-major
  // Scalars.
  Constant, ///< attr value
  Add,
  Sub,
  Mul,
  Div,
  Rem,
  Neg,
  BitAnd,
  BitOr,
  BitXor,
  BitNot,
  Shl,
  Shr,
  Not,
  Min,
  Max,
  Cmp,    ///< attr pred
  Select, ///< (bool, a, b)
  Cast,
  Math, ///< attr fn
  // Memory.
  Extent, ///< (view) attr dim -> i64
  Stride, ///< (view) attr dim -> i64
  Alloc,  ///< () attr buffer -> buffer handle
  Load,   ///< (mem, coords..., [guard]) -> element; AccessInfo
  Store,  ///< (mem, value, coords..., [guard]); AccessInfo
  // Control.
  If,   ///< (cond) regions then, else
  Loop, ///< (init...) regions cond, body, step; attr test_first
  For,  ///< (lb, ub) region(iv: i64); ordered counted loop, step 1
  // Structured ops (docs/physical-ir.md §5.5); accumulator schema in Op::acc.
  Reduce,     ///< (begin, end, init...) -> acc...; regions value, combine
  Scan,       ///< (begin, end, init...); regions value, combine, emit
  ArgReduce,  ///< (begin, end) -> (T, i64); region value; which/tie/nan
  RegionFold, ///< (r, begin, end, init...); regions value, combine, store
  RegionScan, ///< (r, begin, end, init...); regions value, combine, emit
  Yield,
  Condition,
  Break,
  Continue,
  Return,
  // Random numbers.
  Rng, ///< (seed: u64, stream: u64, counter: u64) attr fn -> u32 | f32
  // Atomics (same operands and attributes as KIR's, plus `scope`, set by
  // the atomic-scopes pass: "cta" | "gpu" | "sys"); AccessInfo.
  Atomic,    ///< (mem, value, coords..., [guard]) -> old; kind, order, scope
  AtomicCas, ///< (mem, expected, desired, coords..., [guard]) -> (old, ok)
  /// (arg...) attr format: printf(format, arg...), as KIR's `print`
  /// (KIR/Print.h). An effect on the console only; passes that distribute
  /// an instance's top-level code (cta-rows, grid-reduce before the
  /// reduction, widen) do not apply to an instance that prints there.
  Print,
  // Cooperative primitives (docs/physical-ir.md §5.7): what a pass that
  // maps an instance onto several threads writes. They are meaningful in a
  // program of exec scope cta (Program::ctaThreads threads per program);
  // in a thread-scope program the CTA is one thread.
  ThreadId,  ///< () -> i32: the executing thread's index in the CTA
  LaneId,    ///< () -> i32: its lane in its warp (thread_id % 32)
  WarpId,    ///< () -> i32: its warp in the CTA (thread_id / 32)
  CtaSize,   ///< () -> i32: threads per CTA
  /// () -> i32: the CTAs of the launch that run a split segment's instance
  /// together (all resident: a cooperative launch); 1 where CTAs run one
  /// at a time (the interpreter, cpu mode).
  GridCtas,
  /// () attr scope = cta | warp: every thread of the scope waits;
  /// (counter) attr scope = grid: every thread of the cooperating CTAs
  /// waits (the counter a kept-zero workspace word).
  Barrier,
  Shuffle,   ///< (value, i32) -> value attr mode = xor | down | idx
  /// (mem, coords..., [guard]) attr width -> `width` elements: the elements
  /// at coords, coords + 1, ... along the last dimension, loaded as one
  /// aligned vector (the caller guarantees unit stride and alignment with
  /// `aligned`).
  VectorLoad,
  /// (mem, values[width]..., coords..., [guard]) attr width: the inverse.
  VectorStore,
  /// (view, i64 offset) attr bytes -> bool: the view's last dimension has
  /// stride 1 and the address of element `offset` of its data is a
  /// multiple of `bytes`.
  Aligned,
  /// () -> bool: true in the bounds-checked variant of the kernel
  /// (INTENT_CHECK=bounds), where the vector paths give way to checked
  /// scalar accesses.
  CheckedLaunch,
  Bitcast, ///< (value) -> the same bits as the result type (equal size)
};
/// The op's printed name (its op table row, Physical/OpTable.h, which also
/// has its operand/result/region arity and attribute schema).
llvm::StringRef opcodeName(Opcode op);
/// atomic and atomic_cas.
bool isAtomic(Opcode op);
/// thread_id, lane_id, warp_id, cta_size, barrier, shuffle: the ops whose
/// meaning depends on the CTA of threads executing the program.
bool isCooperative(Opcode op);
/// Whether a `print` op is anywhere in the region tree.
bool containsPrint(const Region &r);
/// From the op table.
bool isTerminator(Opcode op);
/// Ops without memory or control effects (safe to recompute); from the op
/// table.
bool isPure(Opcode op);

/// How an access is known to stay inside its resource.
enum class Bounds : uint8_t {
  Unknown,  ///< invalid in a verified program
  Assumed,  ///< the author's contract (the header asserts it; checked at run
            ///< time under INTENT_CHECK=bounds); canonical assume_in_bounds
  Guarded,  ///< the access's guard operand implies in-bounds
  Proven,   ///< every coordinate's range lies inside the resource's extent
            ///< (Physical/InBounds.h); the verifier re-proves it
};
llvm::StringRef boundsName(Bounds b);

/// The active member set of an access: which members of the executing scope
/// (Program::scope) perform it. A thread-scope program has one member per
/// instance, so its accesses are `Self`; the others exist only in
/// cooperative (cta) programs, where every thread runs the instance's code
/// (docs/physical-ir.md §5.3 gives the verifier's rules).
enum class ActiveSet : uint8_t {
  Self,   ///< the single member of a thread-scope instance
  All,    ///< every thread of the CTA performs the same load (uniform)
  Thread, ///< each thread its own members, in a distributed region
  Leader, ///< thread 0 of the CTA only (cta-rows' stores)
};
llvm::StringRef activeSetName(ActiveSet a);

/// The explicit access relation of a load/store (design.md §4.4).
struct AccessInfo {
  Bounds bounds = Bounds::Unknown;
  bool hasGuard = false; ///< last operand is a bool validity predicate
  /// Active member set of the execution scope performing the access. For
  /// exec scope thread it is `self`: the single program instance.
  ActiveSet active = ActiveSet::Self;
  /// Provenance: the KIR load/store op, the KIR values that were its
  /// coordinates, and the KIR subview ops composed into the coordinates.
  int kirOp = -1;
  std::vector<unsigned> kirCoords;
  std::vector<unsigned> kirViewChain;
};

/// An op attribute's value; its name, kind and allowed values are in the
/// op's table row (Physical/OpTable.h).
using AttrValue = schema::AttrValue;
using NamedAttr = schema::NamedAttr;

/// One component of a structured op's accumulator (a struct accumulator is
/// flattened per field): its type and its identity, the value `e` with
/// combine(e, x) == x that later passes start partial accumulators from.
struct AccComponent {
  enum class Identity : uint8_t {
    None,  ///< invalid in a verified program
    Value, ///< the constant `value` (built-in combiners, arg-reduce)
    Init,  ///< the op's init operand (user combiners: the API contract)
  };
  Type type;
  Identity identity = Identity::None;
  AttrValue value = int64_t(0); ///< Identity::Value: int bit pattern or double
};

class Block {
public:
  Region *parent = nullptr;
  llvm::SmallVector<Value *, 4> args;
  std::vector<std::unique_ptr<Op>> ops;
  Op *terminator() const { return ops.empty() ? nullptr : ops.back().get(); }
};

class Region {
public:
  Op *parent = nullptr;
  Block block;
  Region() { block.parent = this; }
};

/// An op; its attributes and their reads are schema::OpAttrs' (shared with
/// KIR).
class Op : public schema::OpAttrs {
public:
  unsigned id = 0;
  Opcode opcode;
  Loc loc;
  Origin origin;
  Block *parent = nullptr;
  llvm::SmallVector<Value *, 4> operands;
  llvm::SmallVector<Value *, 1> results;
  llvm::SmallVector<std::unique_ptr<Region>, 1> regions;
  AccessInfo access; ///< Load/Store only
  /// Structured ops: the accumulator schema, one entry per component.
  std::vector<AccComponent> acc;

  explicit Op(Opcode opc) : opcode(opc) {}
  Value *result(unsigned i = 0) const { return results[i]; }
  Region *region(unsigned i) const { return regions[i].get(); }
  Op *parentOp() const;

  /// Load/Store/atomics: the addressed view/buffer, the coordinates, the
  /// guard.
  Value *memory() const { return operands[0]; }
  llvm::ArrayRef<Value *> coords() const;
  Value *guard() const {
    return access.hasGuard ? operands.back() : nullptr;
  }
  Value *storedValue() const { return operands[1]; }
};

/// One ABI parameter of the program.
struct Param {
  std::string name;
  Type type;
  kir::Access access = kir::Access::None;
  bool isConstexpr = false;
  Origin origin;
};

/// A remark for the user (turned into clang remarks by the plugin).
struct Remark {
  Loc loc;
  std::string text;
};

/// The physical program of one kernel specialization.
class Program {
public:
  std::string name;
  std::string mangledName;
  Loc loc;
  Origin origin; ///< the KIR kernel
  ExecScope scope = ExecScope::Thread;
  /// Threads per CTA of a cooperative program (exec scope cta): fixed by
  /// the pass that chose the scope, because partitions depend on it. 0 for
  /// exec scope thread (the emitter's default block size).
  int ctaThreads = 0;
  /// CTAs per multiprocessor the program asks to fit at once (the
  /// `__launch_bounds__` minimum: the compiler keeps each thread's
  /// registers within 65536 / (ctaThreads x minCtasPerSm)); 0: no ask.
  /// Printed `min_ctas N` after the shared bytes. grid-scan's one-pass
  /// scan sets it: its tiles wait on each other, so more of them must be
  /// in flight per multiprocessor to keep the memory busy.
  int minCtasPerSm = 0;
  /// Dynamic shared memory per CTA in bytes (cooperative programs): the
  /// scratch of the cooperative reductions, at offset 0.
  int64_t sharedBytes = 0;
  /// With CTA-shared buffers sized per launch (Buffer::sizeExpr): the
  /// launch expression of the launch's dynamic shared bytes (sharedBytes
  /// plus those buffers); -1 otherwise. Printed `shared S dynamic eK`.
  int sharedBytesExpr = -1;
  /// Row staging (docs/passes.md, cta-rows): rank-2 const view parameters
  /// whose row `r` (the instance coordinate) is copied into shared memory
  /// after the scratch when all their rows together take at most
  /// `stageLimitBytes`; loads with the `staged` attribute then read the
  /// copy. The decision is made per launch from the extents.
  std::vector<unsigned> stagedParams;
  int64_t stageLimitBytes = 0;
  /// Register rows (docs/passes.md §3, cta-rows). When regMaxK > 0, every
  /// distributed op ranges over [0, n) with n = extent(regLengthParam,
  /// regLengthDim); a launch picks K (elements per thread, C..regMaxK, a
  /// power of two) and the CTA size T from n alone (rowRegChoice, Coop.h),
  /// keeps row r of every `regParams` view in a K-element register array
  /// per thread (element k = (v T + t) C + q in slot C v + q of thread t,
  /// the chunk C = rowRegChunk: 8 for 16-bit views, else 4)
  /// and `reg` loads read that array; rows longer than regMaxK * 1024 take
  /// the staged / global form above.
  std::vector<unsigned> regParams;
  int regMaxK = 0;
  unsigned regLengthParam = 0;
  unsigned regLengthDim = 0;
  std::vector<Param> params;
  std::vector<LaunchExpr> exprs; ///< hash-consed: equal nodes share an index
  std::vector<Segment> segments; ///< one per group, in group order
  unsigned total = 0;            ///< launch expr: sum of segment lengths
  /// Checked by the launcher before the kernel runs, in order.
  std::vector<LaunchCheck> launchChecks;
  std::vector<Buffer> buffers;
  /// Entry block: one arg per param (views and scalars); ends in `return`.
  std::unique_ptr<Region> body;
  /// cpu mode's serial form of a program that spreads its work over
  /// threads itself (Coop.h spreadsOverThreads): the same kernel as the
  /// physical passes found it (thread scope, no cooperative code, no
  /// workspace), which the emitter prints as the host entry so that cpu
  /// mode runs one host thread per instance instead of a fiber per CUDA
  /// thread (docs/runtime.md §5). Set by the pipeline; not printed.
  std::shared_ptr<const Program> serialTwin;
  /// A launch-time alternative: when launch expression `alternativeWhen`
  /// (bool, >= 0) is true, the launch wrapper runs `alternative` instead of
  /// this program. region-teams sets the condition when it gives rows of a
  /// runtime length teams of threads (true when such a row has kShortRow
  /// members or more, where cta-rows' CTA per row is faster); the pipeline
  /// then builds the alternative: the kernel through the same passes with
  /// `longRows` set. Set by passes and the pipeline; not printed.
  int alternativeWhen = -1;
  std::shared_ptr<const Program> alternative;
  /// Which alternative the pass asked for: the long-row one (region-teams)
  /// or the split-row one (cta-rows: few rows, each spread over several
  /// CTAs; built with `splitRows` set). An alternative may have its own.
  enum class AlternativeKind : uint8_t { LongRows, SplitRows };
  AlternativeKind alternativeKind = AlternativeKind::LongRows;
  /// This program is the long-row alternative: region-teams leaves rows of
  /// a runtime length to cta-rows.
  bool longRows = false;
  /// This program is the split-row alternative: cta-rows gives each row
  /// instance a group of CTAs (cta-rows-ops' split form, docs/passes.md §3).
  bool splitRows = false;
  /// region-teams is among the passes that run (set by the pipeline):
  /// cta-rows leaves it the rows it takes only then.
  bool rowTeams = true;

  Program();
  Value *param(unsigned i) const { return body->block.args[i]; }

  /// Adds (or finds) a launch expression node and returns its index.
  unsigned addExpr(const LaunchExpr &e);
  unsigned constExpr(int64_t v);
  unsigned binaryExpr(LaunchExpr::Kind k, unsigned a, unsigned b);
  /// `a pred b` (pred: eq ne lt le gt ge), of type bool.
  unsigned cmpExpr(llvm::StringRef pred, unsigned a, unsigned b);
  /// `c ? a : b`, of a's type.
  unsigned selectExpr(unsigned c, unsigned a, unsigned b);
  /// Renders a launch expression as C-like infix text over parameter names.
  std::string exprToString(unsigned e) const;

  // Id allocation; the program owns its values.
  unsigned nextValueId = 0;
  unsigned nextOpId = 0;
  std::vector<std::unique_ptr<Value>> values;
};

/// Appends ops to a block, assigning ids in creation order.
class Builder {
public:
  explicit Builder(Program &p) : program(p) {}
  Program &program;
  Block *block = nullptr;
  Loc loc;
  Origin origin;

  void setInsertionBlock(Block *b) { block = b; }
  Value *newValue(Type t);
  Value *addBlockArg(Block *b, Type t, llvm::StringRef name = "");
  Op *create(Opcode opc, llvm::ArrayRef<Value *> operands,
             llvm::ArrayRef<Type> resultTypes);
  Region *addRegion(Op *op);

  Value *constInt(int64_t v, Type t = Type::index());
  Value *binary(Opcode opc, Value *a, Value *b);
  Value *cmp(llvm::StringRef pred, Value *a, Value *b);
  Value *launchValue(unsigned expr);
  Op *yield(llvm::ArrayRef<Value *> vals = {});
};

/// Size in bytes of one element of a scalar kind (bool: 1).
int64_t scalarBytes(ScalarKind k);
/// Bytes of invocation workspace the program needs: the end of its last
/// workspace slice (0 without workspace buffers).
int64_t workspaceBytes(const Program &p);
/// The workspace buffer sized per launch (Buffer::sizeExpr), or null: the
/// launch's workspace bytes are then its offset plus its elements' bytes.
const Buffer *launchSizedWorkspace(const Program &p);
/// True when some workspace buffer must read as zero at the start of the
/// launch (init value 0: the runtime's zero_workspace).
bool workspaceZeroed(const Program &p);
/// The view parameters (argument numbers) that some store, vector store or
/// atomic of the program writes: two of them never overlap (the aliasing
/// contract, Conflict.h's mayAlias).
std::set<int> writtenParams(const Program &p);

/// Whether `op` is the merge of a privatized copy (privatize-atomics): an
/// atomic a pass synthesized on a view parameter, whose value it loads
/// from a cta_shared buffer that `privatizes` that parameter. It
/// implements no KIR atomic by itself: the copy's updates stand for them.
bool isPrivatizedMerge(const Program &p, const Op &op);

/// True when a workspace buffer is kept zero by the kernel itself
/// (Buffer::keptZero): the launch asks for workspace_kept_zero instead.
bool workspaceKeptZero(const Program &p);

/// Prints the program in its textual form (docs/physical-ir.md).
void printProgram(llvm::raw_ostream &os, const Program &p,
                  bool withLocs = true);
std::string programToString(const Program &p, bool withLocs = true);

/// A conversion from integer type `from` to `to` that keeps every value.
bool keepsEveryValue(ScalarKind from, ScalarKind to);

/// Whether `v` is computed inside op `op`: a result of an op nested in one
/// of its regions, or an argument of one of those regions' blocks.
bool definedInside(const Value *v, const Op &op);
/// Whether `v` depends on an argument of block `blk` through ops defined
/// inside `op` (e.g. a region's value computed from its member index).
bool dependsOnArgs(const Value *v, const Block &blk, const Op &op);

/// Walks every op in pre-order.
void walk(const Region &r, const std::function<void(const Op &)> &fn);
void walkMutable(Region &r, const std::function<void(Op &)> &fn);

} // namespace intent::phys

#endif // INTENT_PHYSICAL_IR_H
