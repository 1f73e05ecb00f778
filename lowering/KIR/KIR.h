//===- KIR.h - Kernel IR: the immutable semantic input ----------*- C++ -*-===//
//
// KIR is a small SSA-with-regions IR in the spirit of MLIR (design.md
// §3). A kernel has typed parameters (views and scalars) that are the block
// arguments of its body region; ops produce values, may own regions, and every
// region has exactly one block with arguments. Control flow is structured:
// `if`, `loop` (for/while/do with break/continue), `parallel_for`.
//
// Every kernel, op, value and region carries a stable origin id and a source
// location. KIR is frozen once construction starts: passes analyse it and build
// a separate physical program, they never mutate KIR.
//
// This library includes no Clang header.
//
//===----------------------------------------------------------------------===//

#ifndef INTENT_KIR_KIR_H
#define INTENT_KIR_KIR_H

#include "KIR/OpSchema.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <variant>
#include <vector>

namespace intent::kir {

//===----------------------------------------------------------------------===//
// Types
//===----------------------------------------------------------------------===//

/// Element / scalar kinds. `intent::index` is I64.
enum class ScalarKind : uint8_t {
  Bool,
  I8,
  I16,
  I32,
  I64,
  U8,
  U16,
  U32,
  U64,
  F16,
  BF16,
  F32,
  F64,
};

/// How a kernel accesses a view parameter (derived from its uses).
enum class Access : uint8_t { None, Read, Write, ReadWrite };

/// A KIR type: a scalar, or a view of scalars with a static rank.
struct Type {
  enum class Kind : uint8_t { None, Scalar, View };
  Kind kind = Kind::None;
  ScalarKind elem = ScalarKind::I64;
  int rank = 0;         ///< views only
  bool constElem = false; ///< views only: `view<const T, R>`

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

  bool isNone() const { return kind == Kind::None; }
  bool isScalar() const { return kind == Kind::Scalar; }
  bool isView() const { return kind == Kind::View; }
  bool isFloat() const;   ///< scalar f16/bf16/f32/f64
  bool isInteger() const; ///< scalar i*/u* (not bool)
  bool isSigned() const;  ///< scalar i* or float
  bool isBool() const { return isScalar() && elem == ScalarKind::Bool; }
  /// Width in bits of a scalar (bool counts as 8).
  unsigned bitWidth() const;

  bool operator==(const Type &o) const {
    return kind == o.kind && elem == o.elem && rank == o.rank &&
           constElem == o.constElem;
  }
  bool operator!=(const Type &o) const { return !(*this == o); }
};

llvm::StringRef scalarKindName(ScalarKind k);
/// A view parameter's access as the textual forms spell it: none, r, w, rw.
llvm::StringRef accessName(Access a);
void printType(llvm::raw_ostream &os, const Type &t);
std::string typeToString(const Type &t);
/// The element type of a view type, as a scalar type.
inline Type elementType(const Type &view) { return Type::scalar(view.elem); }

//===----------------------------------------------------------------------===//
// Source locations and origin
//===----------------------------------------------------------------------===//

/// A position in the user's source. Line 0 means unknown.
struct Loc {
  unsigned line = 0;
  unsigned col = 0;
  bool valid() const { return line != 0; }
};

class Op;
class Block;
class Region;
class Kernel;

//===----------------------------------------------------------------------===//
// Values
//===----------------------------------------------------------------------===//

/// An SSA value: an op result or a block argument. `id` is the stable
/// ValueID, unique within its kernel.
class Value {
public:
  unsigned id = 0;
  Type type;
  Op *def = nullptr;       ///< defining op (results) or null (block args)
  unsigned resultNo = 0;   ///< index among def's results
  Block *owner = nullptr;  ///< owning block (block args)
  unsigned argNo = 0;      ///< index among owner's args
  std::string name;        ///< source-level name hint (may be empty)

  bool isBlockArg() const { return def == nullptr; }
};

//===----------------------------------------------------------------------===//
// Ops
//===----------------------------------------------------------------------===//

enum class Opcode : uint8_t {
  // Leaves.
  Constant, ///< attrs: value (int or float or bool); result type
  // Arithmetic (operands and result have one scalar type unless noted).
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
  Not, ///< logical not on bool
  Min, ///< std::min / fminf semantics of the callee recorded in attr `nan`
  Max,
  Cmp,    ///< attr pred: eq ne lt le gt ge; result bool
  Select, ///< (bool, a, b) -> a or b; both evaluated (no effects)
  Cast,   ///< conversion to the result type (C++ static_cast semantics)
  Math,   ///< attr fn: "exp", "sqrt", ...; scalar float math
  // Views.
  Extent,  ///< (view) attr dim -> i64
  Stride,  ///< (view) attr dim -> i64
  Load,    ///< (view, i0..iR-1) -> element
  Store,   ///< (view, value, i0..iR-1)
  SubView, ///< attr kind: row|slice|transpose|reshape|broadcast; see printer
  // Structured control.
  If,          ///< (cond) regions then, else; results from yields
  Loop,        ///< (init...) regions cond, body, step; attr test_first
  ParallelFor, ///< (extent...) region body with one i64 arg per extent
  Yield,       ///< terminator of if branches, loop body/step, parallel body
  Condition,   ///< terminator of loop cond region: (bool)
  Break,       ///< (carried...) leave the innermost loop
  Continue,    ///< (carried...) go to the innermost loop's step region
  Return,      ///< terminator of the kernel body
  // Structured reductions: the regions hold the user's callbacks.
  Reduce,     ///< (begin, end, init...) -> acc...; regions value, combine
  Scan,       ///< (begin, end, init...); regions value, combine, emit
  ArgReduce,  ///< (begin, end) -> (value, pos); region value
  RegionFold, ///< (offsets, init...); regions value, combine, store
  RegionScan, ///< (offsets, init...); regions value, combine, emit
  // Random numbers.
  Rng, ///< (seed: u64, stream: u64, counter: u64) attr fn -> u32 | f32
  // Atomic read-modify-writes of one memory element (KIR/Atomic.h).
  Atomic,    ///< (mem, value, i0..) -> old; attrs kind, order
  AtomicCas, ///< (mem, expected, desired, i0..) -> (old, success); attr order
  // Local buffers (intent::buffer<T, N>).
  Alloc, ///< () attrs size, init ("value" | "first_write"), value -> view<T, 1>
  // Contractions (intent::matmul).
  Contract, ///< (C, A, B) attrs acc (scalar kind name), batched
  // Console output (printf in a kernel).
  Print, ///< (arg...) attr format: printf(format, arg...)
};

/// The last opcode (for iterating over all of them).
inline constexpr Opcode LastOpcode = Opcode::Print;

// Op reference (the full list with textual forms is docs/kir.md):
//
// - `constant {value = V} : T`. Integer constants of unsigned 64-bit types
//   store the bit pattern in the int64_t attribute.
// - Arithmetic/bitwise ops take operands of the result type. `div`, `rem` and
//   `shr` are signed or unsigned (arithmetic or logical shift) per the type;
//   `shl`/`shr` take the shift amount in the result type too (the front end
//   casts it). `not` is logical not on bool.
// - `min`/`max` {nan = "std"}: std::min(a, b) is `b < a ? b : a`, std::max(a,
//   b) is `a < b ? b : a` (so a NaN in `a` is returned, a NaN in `b` is not).
// - `cmp {pred = eq|ne|lt|le|gt|ge}`: signedness from the operand type.
// - `cast`: C++ static_cast between scalar types (to bool: `!= 0`).
// - `math {fn = NAME}`: NAME is the double-precision C name ("exp", "sqrt",
//   "pow", "fabs", "fmin", "isnan", ...); operand and result types are those
//   of the call in the source (`expf(x)` is fn "exp" on f32). fn "abs" on an
//   integer type is the integer absolute value; "isnan"/"isinf"/"isfinite"/
//   "signbit" return bool.
// - `subview` %view, %runtime... {kind = K, ...}: the result is a view over the
//   same elements. Kinds (operands after the view; attrs):
//     row       (%i)              rank R-1, fixes coordinate 0 to %i
//     slice     (%begin, %end)    {dim}: narrows dim to [begin, end)
//     transpose ()                {dim0, dim1}: swaps two dimensions
//     reshape   (%e0..%e{R2-1})   {rank}: row-major view with new extents
//     broadcast (%n)              {dim}: inserts a dimension of extent n,
//                                 stride 0, at position dim (rank R+1)
//     expand    (%n)              {dim}: dim (extent 1) gets extent n, stride 0
// - `if %c`: two regions (then, else) ending in `yield` of the results (or in
//   `break`/`continue` of an enclosing loop). `a && b`, `a || b` and `c ? x :
//   y` are `if`s with a result, so the unevaluated side has no effect.
// - `loop %init... {test_first = B}`: regions cond, body, step, each with one
//   block arg per carried value. cond ends in `condition %bool`; body ends in
//   `yield` of the carried values (to step); `break %carried...` anywhere in
//   the body (also inside nested `if`s) leaves the loop with those values as
//   the results; `continue %carried...` goes to step; step ends in `yield` of
//   the next carried values (to cond). test_first is true for for/while,
//   false for do-while (the body runs before the first cond).
// - `parallel_for %n0[, %n1[, %n2]]`: one i64 block arg per extent; the body
//   runs once per point of [0,n0) x [0,n1) x [0,n2), unordered, and ends in
//   `yield`. A `return` in the C++ body of a parallel_for (or of the kernel)
//   is expressed structurally: the rest of the body goes into the else branch
//   of an `if`, so no extra op is needed.
// - `return`: terminator of the kernel body.
//
// Structured reductions. T0..T{N-1} are the scalar components of the
// accumulator (a struct accumulator is flattened field by field); each
// callback is a region ending in `yield`. Attrs: combiner = "plus" | "mul" |
// "max" | "min" | "bit_and" | "bit_or" | "bit_xor" | "user" (which functor the
// combine region was lowered from; informative only, the region is the
// semantics) and reassociate = bool (false: later passes must fold strictly
// left to right).
// - `%r0.. = reduce %begin, %end, %init0.. {combiner, reassociate} : T0..`
//   regions value ^(%k: i64) -> yield T0..; combine ^(%a0: T0.., %b0: T0..)
//   -> yield T0... acc = init; for k in [begin, end): acc = combine(acc,
//   value(k)); the results are acc.
// - `scan %begin, %end, %init0.. {kind, direction, combiner, reassociate}`
//   kind = "inclusive" | "exclusive", direction = "forward" | "reverse";
//   regions value, combine, emit ^(%k: i64, %p0: T0..) -> yield. Walks k
//   upward (forward) or from end-1 down (reverse); acc stays the left operand
//   of combine; emit gets acc after (inclusive) or before (exclusive) the
//   update with value(k).
// - `%v, %pos = argreduce %begin, %end {which, tie, nan} : T, i64`
//   which = "max" | "min", tie = "first" | "last", nan = "propagate" |
//   "ignore"; region value ^(%k: i64) -> yield T. Exactly intent::argmax /
//   argmin (include/intent/argreduce.hpp); nothing considered gives pos -1
//   and the identity (lowest / highest value of T, -inf / +inf for floats).
// - `region_fold %offsets, %init0.. {combiner, reassociate}`: offsets is a
//   rank-1 view of integers with extent n + 1 describing regions r in [0, n)
//   with members [offsets[r], offsets[r+1]); regions value ^(%r: i64, %k:
//   i64) -> yield T0..; combine; store ^(%r: i64, %acc0: T0..) -> yield.
//   For each r: store(r, reduce of value(r, k) over its members).
// - `region_scan %offsets, %init0.. {kind, direction, combiner,
//   reassociate}`: regions value ^(%r, %k), combine, emit ^(%r: i64, %k: i64,
//   %p0: T0..) -> yield; a scan per region, restarting from init.
// - `%r = rng %seed, %stream, %counter {fn = F} : T` (all operands u64):
//   intent::philox(seed, stream).F(counter) from include/intent/philox.hpp;
//   fn "u32" gives u32, "uniform" and "normal" give f32. Pure.
// - `%b = alloc {size = N, init = "value", value = V} : view<T, 1>`: a local
//   buffer (intent::buffer<T, N>): a fresh array of N elements of T each time
//   the op executes (its lexical allocation instance). init = "value" fills it
//   with V (an int bit pattern or a double); init = "first_write" leaves it
//   uninitialized (the author must write an element before reading it). The
//   result is a rank-1 memory value addressed by load/store like a view; it
//   is never a subview operand and never crosses a parallel_for boundary by
//   value (a parallel_for body that uses an outer buffer shares it).
// Callback regions are verified at loop depth 0 (no break/continue out of
// them); value and combine regions have no stores, no atomics and no
// parallel_for.
//
// Atomics (KIR/Atomic.h). The location is a memory value plus one i64-typed
// integer coordinate per dimension, as for load/store (a view or a local
// buffer):
// - `%old = atomic %mem, %v, %i0.. {kind = "add"|"min"|"max"|"exch", order =
//   "relaxed"|"acquire"|"release"|"acq_rel"|"seq_cst"} : T` is intent::
//   atomic_add/min/max/exch: element = op(element, v) (min/max with
//   ops::min/max's NaN propagation), the result is the old element.
// - `%old, %ok = atomic_cas %mem, %expected, %desired, %i0.. {order} : T,
//   bool`: stores desired when the element's bits equal expected's; the
//   results are the old element and whether it stored.
// T is the element type (i32, u32, i64, u64, f32, f64) and the type of the
// value operands. The hardware scope is not KIR: a physical pass chooses it.
//
// Contractions (intent::matmul, include/intent/matmul.hpp):
// - `contract %C, %A, %B {acc = "f32", batched = false}`: C, A, B are views
//   of one element type T (not bool), all of rank 2 (batched = false) or all
//   of rank 3 (batched = true); C is written. For every (b,) i, j of C:
//   s = Acc(0); for k in [0, A.extent(R-1)) ascending: s = s + Acc(A(.., i,
//   k)) * Acc(B(.., k, j)); C(.., i, j) = T(s). Acc (attr acc) is f32 for
//   f16 / bf16 and T otherwise. No result. Construction expands it
//   (KIR/ExpandContract.h) into a parallel_for over the batch and free axes
//   with an ordered (reassociate = false) reduce over k inside.
//
// Console output:
// - `print %a0.. {format = "..."}`: C printf(format, a0, ...). Every operand
//   is a scalar that is not bool; the front end has converted each argument
//   as C varargs promote it (float -> f64, narrow integers -> i32) and
//   checked the format's conversions against the operands (KIR/Print.h).
//   No result. An effect on the console only: it orders nothing and
//   serializes nothing; the order of lines printed by different instances
//   of a parallel_for is unspecified (as with CUDA's device printf).
//   Not allowed in value/combine callbacks.
llvm::StringRef opcodeName(Opcode op);
bool isTerminator(Opcode op);
/// Ops without memory or control effects: scalar arithmetic, constants,
/// extents/strides and sub-views (safe to recompute or to hoist).
bool isPure(Opcode op);
/// True for reduce, scan, argreduce, region_fold and region_scan.
bool isReductionOp(Opcode op);
/// reduce, scan, region_fold, region_scan: the init operands, one per
/// accumulator component (the operands after begin/end, or after offsets).
/// Empty for other ops.
llvm::ArrayRef<Value *> accumulatorInits(const Op &op);

/// Attribute values: integers, floats, bools, strings (KIR/OpSchema.h).
using AttrValue = schema::AttrValue;
using NamedAttr = schema::NamedAttr;

/// A region holds exactly one block (structured control flow).
class Block {
public:
  Region *parent = nullptr;
  llvm::SmallVector<Value *, 4> args;
  std::vector<std::unique_ptr<Op>> ops;

  Op *terminator() const { return ops.empty() ? nullptr : ops.back().get(); }
};

class Region {
public:
  unsigned id = 0; ///< stable RegionID within the kernel
  Op *parent = nullptr; ///< null for the kernel body
  Block block;
  Region() { block.parent = this; }
};

/// An op; its attributes and their reads are schema::OpAttrs'.
class Op : public schema::OpAttrs {
public:
  unsigned id = 0; ///< stable OpID within the kernel
  Opcode opcode;
  Loc loc;
  Block *parent = nullptr;
  llvm::SmallVector<Value *, 4> operands;
  llvm::SmallVector<Value *, 1> results;
  llvm::SmallVector<std::unique_ptr<Region>, 1> regions;

  explicit Op(Opcode opc) : opcode(opc) {}

  Value *result(unsigned i = 0) const { return results[i]; }
  Region *region(unsigned i) const { return regions[i].get(); }
};

//===----------------------------------------------------------------------===//
// Kernels and modules
//===----------------------------------------------------------------------===//

/// One kernel parameter: a block argument of the body plus ABI facts.
struct Param {
  std::string name;
  Type type;
  Access access = Access::None; ///< views: what the kernel does with it
  /// For non-type template arguments that became constants: the value.
  bool isConstexpr = false;
};

/// A kernel specialization: exactly one launch per call.
class Kernel {
public:
  unsigned id = 0;          ///< stable KernelID within the module
  std::string name;         ///< source name, e.g. "saxpy"
  std::string mangledName;  ///< unique C identifier for this specialization
  std::string displayName;  ///< e.g. "scale<float>"
  std::string file;         ///< source file of the definition
  Loc loc;
  std::vector<Param> params;
  /// Template arguments of this specialization, as "name = value" text.
  std::vector<std::string> templateArgs;
  std::unique_ptr<Region> body;

  Kernel();
  Value *param(unsigned i) const { return body->block.args[i]; }

  // Id allocation (used by the builder; ids are dense and deterministic).
  unsigned nextValueId = 0;
  unsigned nextOpId = 0;
  unsigned nextRegionId = 0;
  /// Owns every Value of the kernel.
  std::vector<std::unique_ptr<Value>> values;
};

/// A translation unit's kernels, in source order.
class Module {
public:
  std::string sourceFile;
  std::vector<std::unique_ptr<Kernel>> kernels;
};

//===----------------------------------------------------------------------===//
// Builder
//===----------------------------------------------------------------------===//

/// Creates ops at the end of a block, assigning ids in creation order.
class Builder {
public:
  explicit Builder(Kernel &k) : kernel(k) {}

  Kernel &kernel;
  Block *block = nullptr; ///< insertion block (ops are appended)
  Loc loc;                ///< location given to new ops

  void setInsertionBlock(Block *b) { block = b; }

  Value *newValue(Type t, llvm::StringRef name = "");
  Value *addBlockArg(Block *b, Type t, llvm::StringRef name = "");
  Region *newRegion(Op *parent);

  /// Creates an op with the given operands and result types, appended to the
  /// insertion block. Regions are added with addRegion.
  Op *create(Opcode opc, llvm::ArrayRef<Value *> operands,
             llvm::ArrayRef<Type> resultTypes);
  Region *addRegion(Op *op);
  /// Appends a result of type `t` to `op`. For ops such as `if` whose
  /// results are only known once their regions have been built.
  Value *addResult(Op *op, Type t);

  Value *constInt(int64_t v, Type t);
  Value *constFloat(double v, Type t);
  Value *constBool(bool v);
  Value *binary(Opcode opc, Value *a, Value *b);
  Value *cmp(llvm::StringRef pred, Value *a, Value *b);
  Value *cast(Value *v, Type to);
};

//===----------------------------------------------------------------------===//
// Printing and verification
//===----------------------------------------------------------------------===//

/// Prints a float so that it reads back exactly (shortest round-trip form,
/// `inf`, `-inf`, `nan`); shared by the KIR and physical printers.
void printFloat(llvm::raw_ostream &os, double d);
/// Prints an attribute value as the textual forms do (strings quoted).
void printAttr(llvm::raw_ostream &os, const AttrValue &v);

/// Prints a kernel in KIR's textual form. Locations are printed as
/// `loc(line:col)` when `withLocs` is true.
void printKernel(llvm::raw_ostream &os, const Kernel &k, bool withLocs = true);
void printModule(llvm::raw_ostream &os, const Module &m, bool withLocs = true);

/// Checks KIR's structural invariants (types, dominance of uses by defs,
/// terminators, break/continue inside loops, ids unique). Returns false and
/// appends a message per violation to `errors`.
bool verifyKernel(const Kernel &k, std::vector<std::string> &errors);

/// Walks every op of a region tree in program order (pre-order).
void walk(const Region &r, const std::function<void(const Op &)> &fn);

/// Sets Param::access of every view parameter from the loads and stores that
/// reach it: directly, through sub-views, and through view values carried by
/// `if` results and `loop` region arguments/results. Scalars get None.
void inferParamAccess(Kernel &k);

} // namespace intent::kir

#endif // INTENT_KIR_KIR_H
