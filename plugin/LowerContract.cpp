//===- LowerContract.cpp - intent::matmul -> parallel_for + ordered fold --===//
//
// `matmul(C, A, B)` is the contract op of the header (include/intent/
// matmul.hpp): C(b, i, j) = sum over k of Acc(A(b, i, k)) * Acc(B(b, k, j)),
// summed in increasing k from Acc(0), Acc = accumulator_t<T> (float for
// intent::half / intent::bfloat16, T otherwise), then converted to T. The
// front end records it as one KIR op (docs/kir.md):
//
//   contract %C, %A, %B {acc = "f32", batched = false}
//
// with acc = accumulator_t<T> and batched = (rank 3). Construction expands it
// (lowering/KIR/Contract.h) into a parallel_for over the batch and free axes
// of C with an ordered (reassociate = false) reduce over k inside each
// instance, so results are bit for bit those of the header's serial matmul
// (on the GPU, up to nvcc's FMA contraction). Sub-views (transpose, slice,
// row, broadcast) give the strided operands; any view works.
//
//===----------------------------------------------------------------------===//

#include "KernelLowering.h"

#include "KIR/Contract.h"

using namespace clang;
using namespace intent;
using namespace intent::plugin;

namespace {

std::string typeText(const kir::Type &t) {
  return "'" + kir::scalarKindName(t.elem).str() + "'";
}

} // namespace

kir::Value *KernelLowering::matmulCall(const CallExpr *e) {
  SourceLocation loc = e->getExprLoc();
  for (const CaptureScope &s : raceScopes)
    if (s.callback)
      return fail(loc, msg::ContractInCallback);
  if (e->getNumArgs() != 3)
    return unsupported(e);
  kir::Value *c = expr(e->getArg(0));
  kir::Value *a = c ? expr(e->getArg(1)) : nullptr;
  kir::Value *bv = a ? expr(e->getArg(2)) : nullptr;
  if (!bv)
    return nullptr;
  if (!c->type.isView() || !a->type.isView() || !bv->type.isView())
    return unsupported(e);
  const int rank = c->type.rank; // the header's overloads: 2 or 3, all equal
  if (rank < 2 || rank > 3 || a->type.rank != rank || bv->type.rank != rank)
    return unsupported(e);
  if (a->type.elem != c->type.elem || bv->type.elem != c->type.elem)
    return fail(loc, msg::ContractTypes,
                {typeText(c->type), typeText(a->type), typeText(bv->type)});
  if (c->type.elem == kir::ScalarKind::Bool)
    return fail(loc, msg::ContractElement, {typeText(c->type)});
  if (c->type.constElem)
    return unsupported(e);
  at(loc);
  kir::Op *op = b->create(kir::Opcode::Contract, {c, a, bv}, {});
  op->setAttr("acc", kir::scalarKindName(
                         kir::contractAccumulator(c->type.elem)).str());
  op->setAttr("batched", rank == 3);
  return &voidValue;
}
