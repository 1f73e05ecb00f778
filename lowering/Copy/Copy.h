//===- Copy.h - The copy(dst, src) tile primitive ---------------*- C++ -*-===//
//
// The data a `copy(dst, src)` carries (design.md §5): two tile
// operands, each a strided layout (shape, strides, base offset, optional
// swizzle) over elements of one type in one memory space, the execution
// scope that runs the copy (its kind, thread count and active mask), the
// requested dispatch and a global-load cache hint. Physical passes that stage
// tiles in shared memory build a CopyOp, select a variant (Dispatch.h) and
// emit its CUDA C++ (Emit.h).
//
// This library depends on the C++ standard library only, so the round-trip
// generator of test/copy builds on GPU hosts without LLVM. FromPhysical.h
// converts physical IR element kinds.
//
//===----------------------------------------------------------------------===//

#ifndef INTENT_COPY_COPY_H
#define INTENT_COPY_COPY_H

#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

namespace intent::copy {

/// The element type of a tile. The copy moves bits: only the width matters
/// to the schedule, the name to reports and checks.
enum class ElemType : uint8_t {
  I8,
  U8,
  I16,
  U16,
  I32,
  U32,
  I64,
  U64,
  F16,
  BF16,
  F32,
  F64,
  FP8E4M3, ///< float8 e4m3fn
  FP8E5M2, ///< float8 e5m2
};
/// Width of one element in bits (8..64).
unsigned elemBits(ElemType t);
/// Short name: "f32", "bf16", "fp8e4m3", ...
const char *elemTypeName(ElemType t);

/// Where a tile lives. Local is per-thread storage (registers or stack).
enum class MemSpace : uint8_t { Global, Shared, Local };
const char *memSpaceName(MemSpace s);

/// A CuTe-style Swizzle<Bits, Base, Shift> on element offsets: the `Bits`
/// bits at [Base + Shift, Base + Shift + Bits) are XORed into the bits at
/// [Base, Base + Bits). The low `Base` bits (a chunk of 2^Base elements) are
/// never permuted, and the permutation stays inside an atom of
/// 2^(Base + Shift + Bits) elements, so
///   apply(x) = (x & ~(atom - 1)) + ((x & (atom - 1)) ^ (((x & (atom - 1))
///              >> Shift) & yMask)).
struct Swizzle {
  int bits = 0;
  int base = 0;
  int shift = 0;

  /// Elements of one unswizzled chunk.
  int64_t chunkElems() const { return int64_t(1) << base; }
  /// Elements of one swizzle atom (the period of the permutation).
  int64_t atomElems() const { return int64_t(1) << (base + shift + bits); }
  /// The mask of the XOR destination bits.
  int64_t yMask() const { return ((int64_t(1) << bits) - 1) << base; }
  /// The physical offset of logical offset X (X >= 0).
  int64_t apply(int64_t x) const;
  /// Why this swizzle is malformed, or "" (Bits >= 1, Shift >= Bits, atom
  /// below 2^30 elements).
  std::string invalidReason() const;
  bool operator==(const Swizzle &o) const {
    return bits == o.bits && base == o.base && shift == o.shift;
  }
};

/// A base element offset `expr + constant`: `expr` is an optional runtime
/// C++ expression (e.g. "blockIdx.x * 1024") known to be a non-negative
/// multiple of `exprAlign` elements.
struct Offset {
  int64_t constant = 0;
  std::string expr;
  int64_t exprAlign = 1;

  bool isConstant() const { return expr.empty(); }
  /// Whether every value of the offset is a multiple of V elements.
  bool isMultipleOf(int64_t v) const;
  /// "0", "3", "(blockIdx.x * 1024) + 4", ...
  std::string str() const;
};

/// One dimension of a tile: extent and stride in elements. A non-empty
/// `dynExtent` is a runtime extent (a C++ expression), which the vector
/// paths reject and the scalar fallback loops over.
struct TileDim {
  int64_t extent = 1;
  int64_t stride = 0;
  std::string dynExtent;

  bool isConstant() const { return dynExtent.empty(); }
};

/// A tile operand: the region of a buffer that a copy reads or writes.
/// Element (i_0, ..., i_{r-1}) lives at element offset
///   swizzle(base + sum_d i_d * stride_d)
/// from the buffer pointer the emitter is given, which must be aligned to
/// the widest access (16 bytes; 32 for 256-bit accesses).
struct Tile {
  std::string name;
  MemSpace space = MemSpace::Global;
  ElemType elem = ElemType::F32;
  std::vector<TileDim> dims;
  Offset base;
  std::optional<Swizzle> swizzle;

  /// A row-major contiguous tile of the given shape at base offset 0.
  static Tile rowMajor(std::string name, MemSpace space, ElemType elem,
                       const std::vector<int64_t> &shape);
  /// A tile with explicit strides.
  static Tile strided(std::string name, MemSpace space, ElemType elem,
                      const std::vector<int64_t> &shape,
                      const std::vector<int64_t> &strides);

  unsigned rank() const { return static_cast<unsigned>(dims.size()); }
  bool hasConstantExtents() const;
  /// Product of the (constant) extents.
  int64_t numElements() const;
  /// Element offset of the given coordinates, swizzle applied; the base
  /// expression, if any, counts as 0 (tests evaluate with constant bases).
  int64_t offsetOf(const std::vector<int64_t> &idx) const;
};

/// The kind of execution scope that runs a copy.
enum class ScopeKind : uint8_t { Thread, Warp, Warpgroup, CTA, Cluster };
const char *scopeKindName(ScopeKind k);

/// The threads that execute a copy together: thread (1), warp (32),
/// warpgroup (128), CTA (1..1024) or cluster. `active[t]` says whether
/// thread t of the scope runs the copy (an enclosing `if` may narrow it).
struct ExecScope {
  ScopeKind kind = ScopeKind::Thread;
  unsigned threads = 1;
  std::vector<bool> active;

  static ExecScope thread();
  static ExecScope warp();
  static ExecScope warpgroup();
  static ExecScope cta(unsigned threads);
  static ExecScope cluster(unsigned threads);

  unsigned activeCount() const;
  bool allActive() const { return activeCount() == threads; }
  /// The lowest active thread; `threads` when none is.
  unsigned lowestActive() const;
  /// Sets the active set to threads [0, n).
  void activateFirst(unsigned n);
};

/// The code generation target.
struct Target {
  enum class Kind : uint8_t { CUDA, Host };
  Kind kind = Kind::CUDA;
  /// Compute capability times ten (90 for sm_90a).
  unsigned sm = 90;

  static Target cuda(unsigned sm = 90) { return {Kind::CUDA, sm}; }
  static Target host() { return {Kind::Host, 0}; }
  bool isCUDA() const { return kind == Kind::CUDA; }
};

/// The cache operator of global loads (PTX ld.global.{ca,cg,cs,lu,cv}).
enum class CacheHint : uint8_t { None, CA, CG, CS, LU, CV };
/// "" for None, else ".cg" etc.
const char *cacheHintSuffix(CacheHint h);

/// copy(dst, src): every element of the src region is written to the same
/// coordinates of the dst region (non-unit dimensions correspond in order).
/// Synchronous per thread; making the data visible to other threads of the
/// scope is the caller's barrier.
struct CopyOp {
  Tile dst;
  Tile src;
  ExecScope scope;
  /// "" selects by priority; otherwise the one variant to use (vec_auto,
  /// vec_128b, fallback, ...).
  std::string dispatch;
  CacheHint cache = CacheHint::None;
};

/// Prints a tile: "A_smem shared f32 [32, 32] strides [32, 1] base 0
/// swizzle<3,3,3>".
void printTile(std::ostream &os, const Tile &t);
/// Prints the op on one line: "copy dst <- src, scope warp (32 threads, all
/// active)".
void printCopyOp(std::ostream &os, const CopyOp &op);

} // namespace intent::copy

#endif // INTENT_COPY_COPY_H
