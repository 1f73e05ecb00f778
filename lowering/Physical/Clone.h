//===- Clone.h - Copying physical ops with a value map ----------*- C++ -*-===//
//
// A pass that re-expresses an instance's code (widen clones the pointwise
// body once per vector lane and once for the scalar path; a pass that
// splits a region over threads clones its parts) copies ops with their
// regions, attributes, access info and origins, renaming the values they
// define and substituting the values they use through one map.
//
//===----------------------------------------------------------------------===//

#ifndef INTENT_PHYSICAL_CLONE_H
#define INTENT_PHYSICAL_CLONE_H

#include "Physical/IR.h"

#include "llvm/ADT/DenseMap.h"

#include <functional>

namespace intent::phys {

/// Source value -> the value that replaces it in the copy.
using ValueMap = llvm::DenseMap<const Value *, Value *>;

/// The value `v` stands for in a copy: map[v], or `v` itself when it is not
/// in the map (defined outside the copied code, e.g. a parameter).
Value *lookup(const ValueMap &map, Value *v);

/// Appends a copy of `op` at `b`'s insertion block: operands through
/// `map`, fresh results and region block arguments (recorded in `map`),
/// regions copied recursively. Loc, origin, attributes, access info and
/// accumulator schema are copied; value names and origins too.
Op *cloneOp(Builder &b, const Op &op, ValueMap &map);

/// Decides how one op (at any depth) of a copy is written: returns true
/// when it wrote the op's replacement itself at `b`'s insertion point
/// (recording its results in the map, if any are used), false to copy it.
using CloneHook = std::function<bool(const Op &)>;

/// cloneOp with `hook` asked first for `op` and every op of its regions
/// (a pass that rewrites some nested ops of the code it copies); null when
/// the hook wrote `op` itself.
Op *cloneOp(Builder &b, const Op &op, ValueMap &map, const CloneHook &hook);

/// Appends copies of the ops of `src` (without its terminator unless
/// `withTerminator`) at `b`'s insertion block; `src`'s block arguments must
/// already be mapped.
void cloneOps(Builder &b, const Block &src, ValueMap &map,
              bool withTerminator = false);

/// A copy of the whole program (through its textual form, which prints and
/// parses back exactly, docs/physical-ir.md §11); null if that fails.
/// Program::serialTwin is not copied.
std::unique_ptr<Program> cloneProgram(const Program &p);

} // namespace intent::phys

#endif // INTENT_PHYSICAL_CLONE_H
