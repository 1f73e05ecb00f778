//===- ViewRelations.h - Sub-views composed onto root views -----*- C++ -*-===//
//
// Analysis used by every construction step and by the physical verifier's
// [provenance] check. Every KIR view value is a chain
// of `subview` ops over one view parameter (the root). This file composes a
// chain into coordinate and extent/stride expressions on the root (design.md
// §4.7: slice/broadcast/reshape/transpose compose into one relation), as small
// expression trees over KIR values (CExpr). The same trees are lowered to
// physical SSA (EmitPhysical), to affine forms (Dependence) and to launch
// expressions (LaunchLowering), so the three agree by construction.
//
// Requires: verified KIR. Guarantees: resolveView fails (with a message) for
// views that are not a subview chain over a parameter (e.g. a view chosen by
// an `if` at run time), which construction reports as unsupported.
//
//===----------------------------------------------------------------------===//

#ifndef INTENT_KIR_VIEWRELATIONS_H
#define INTENT_KIR_VIEWRELATIONS_H

#include "KIR/KIR.h"

#include <memory>
#include <string>
#include <vector>

namespace intent::kir {

struct CExpr;
using CExprRef = std::shared_ptr<const CExpr>;

/// An i64 expression over KIR values and root-view extents/strides.
struct CExpr {
  enum class Kind : uint8_t { Value, Const, Extent, Stride, Add, Sub, Mul, Div, Rem };
  Kind kind = Kind::Const;
  const Value *value = nullptr; ///< Value
  int64_t constant = 0;              ///< Const
  unsigned param = 0, dim = 0;       ///< Extent / Stride of a root parameter
  CExprRef lhs, rhs;

  static CExprRef of(const Value *v);
  static CExprRef ofConst(int64_t c);
  static CExprRef extent(unsigned param, unsigned dim);
  static CExprRef stride(unsigned param, unsigned dim);
  static CExprRef binary(Kind k, CExprRef a, CExprRef b);
};

/// A view value resolved onto its root parameter: `ops` are the subview ops
/// from the root outwards (ops.back() defines the view itself, if any).
struct ViewChain {
  unsigned rootParam = 0;
  /// A local buffer root (the KIR `alloc` op) instead of a parameter.
  const Op *rootAlloc = nullptr;
  std::vector<const Op *> ops;
  /// The KIR op ids of `ops` (provenance of accesses).
  std::vector<unsigned> opIds() const;
};

/// Resolves `view` to its root; on failure returns false and sets `error`.
bool resolveView(const Value *view, ViewChain &chain, std::string &error);

/// Extent `dim` of the view defined by the first `depth` ops of `chain`
/// (depth == chain.ops.size(): the view itself).
CExprRef viewExtent(const ViewChain &chain, unsigned depth, unsigned dim);
/// Stride `dim` of the view, in elements of the root.
CExprRef viewStride(const ViewChain &chain, unsigned depth, unsigned dim);
/// The root coordinates addressed by `coords` of the view itself.
std::vector<CExprRef> rootCoords(const ViewChain &chain,
                                 std::vector<CExprRef> coords);

} // namespace intent::kir

#endif // INTENT_KIR_VIEWRELATIONS_H
