//===- LowerContract.cpp - intent::matmul -> parallel_for + ordered fold --===//
//
// `matmul(C, A, B)` is the contract op of the header (include/intent/
// matmul.hpp): C(b, i, j) = sum over k of Acc(A(b, i, k)) * Acc(B(b, k, j)),
// summed in increasing k from Acc(0), Acc = accumulator_t<T> (float for
// intent::half / intent::bfloat16, T otherwise), then converted to T. The
// front end lowers it to the KIR that has exactly these semantics:
//
//   parallel_for C.extent(0), .. (batch and free axes of C) {
//     %s = reduce 0, A.extent(R-1), Acc(0) {combiner = "plus",
//                                           reassociate = false} : Acc
//       { ^(%k): yield cast(A(.., i, k)) * cast(B(.., k, j)) }
//       { ^(%x, %y): yield %x + %y }
//     store C, cast %s : T, (.., i, j)
//   }
//
// so construction maps the batch and free axes to the workset and keeps k as
// an ordered loop inside each instance (the initial mapping), and the
// physical reduce is what the emitter and interpreters execute. With
// reassociate = false no pass may regroup the sum: results are bit for bit
// those of the header's serial matmul (on the GPU, up to nvcc's FMA
// contraction). Sub-views (transpose, slice, row, broadcast) give the
// strided operands; any view works.
//
//===----------------------------------------------------------------------===//

#include "KernelLowering.h"

using namespace clang;
using namespace intent;
using namespace intent::plugin;

namespace {

/// accumulator_t<T> of the header.
kir::Type accumulatorOf(kir::ScalarKind k) {
  if (k == kir::ScalarKind::F16 || k == kir::ScalarKind::BF16)
    return kir::Type::scalar(kir::ScalarKind::F32);
  return kir::Type::scalar(k);
}

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
  if (a->type.elem != c->type.elem || bv->type.elem != c->type.elem)
    return fail(loc, msg::ContractTypes,
                {typeText(c->type), typeText(a->type), typeText(bv->type)});
  if (c->type.elem == kir::ScalarKind::Bool)
    return fail(loc, msg::ContractElement, {typeText(c->type)});
  const kir::Type elem = kir::elementType(c->type);
  const kir::Type acc = accumulatorOf(c->type.elem);
  const kir::Type i64 = kir::Type::index();

  at(loc);
  auto extent = [&](kir::Value *v, int d) {
    kir::Op *op = b->create(kir::Opcode::Extent, {v}, {i64});
    op->setAttr("dim", static_cast<int64_t>(d));
    return op->result();
  };
  llvm::SmallVector<kir::Value *, 3> extents;
  for (int d = 0; d < rank; ++d)
    extents.push_back(extent(c, d));
  kir::Value *kEnd = extent(a, rank - 1);

  kir::Op *pf = b->create(kir::Opcode::ParallelFor, extents, {});
  kir::Region *body = b->addRegion(pf);
  kir::Block *outer = b->block;
  llvm::SmallVector<kir::Value *, 3> idx;
  for (int d = 0; d < rank; ++d)
    idx.push_back(b->addBlockArg(&body->block, i64,
                                 d == rank - 2 ? "i"
                                 : d == rank - 1 ? "j"
                                                 : "batch"));
  b->setInsertionBlock(&body->block);
  kir::Value *zero = b->constInt(0, i64);
  kir::Value *init = acc.isFloat() ? b->constFloat(0.0, acc) : b->constInt(0, acc);
  kir::Op *red = b->create(kir::Opcode::Reduce, {zero, kEnd, init}, {acc});
  red->setAttr("combiner", std::string("plus"));
  red->setAttr("reassociate", false);

  // value(k) = Acc(A(.., i, k)) * Acc(B(.., k, j))
  kir::Region *value = b->addRegion(red);
  kir::Value *k = b->addBlockArg(&value->block, i64, "k");
  b->setInsertionBlock(&value->block);
  llvm::SmallVector<kir::Value *, 4> aOps = {a}, bOps = {bv};
  for (int d = 0; d < rank - 2; ++d) {
    aOps.push_back(idx[d]);
    bOps.push_back(idx[d]);
  }
  aOps.append({idx[rank - 2], k});
  bOps.append({k, idx[rank - 1]});
  kir::Value *x = b->create(kir::Opcode::Load, aOps, {elem})->result();
  kir::Value *y = b->create(kir::Opcode::Load, bOps, {elem})->result();
  kir::Value *xa = b->cast(x, acc);
  kir::Value *ya = b->cast(y, acc);
  kir::Value *prod = b->binary(kir::Opcode::Mul, xa, ya);
  b->create(kir::Opcode::Yield, {prod}, {});

  // combine(s, p) = s + p
  kir::Region *combine = b->addRegion(red);
  kir::Value *s = b->addBlockArg(&combine->block, acc, "s");
  kir::Value *p = b->addBlockArg(&combine->block, acc, "p");
  b->setInsertionBlock(&combine->block);
  b->create(kir::Opcode::Yield, {b->binary(kir::Opcode::Add, s, p)}, {});

  // C(.., i, j) = T(sum)
  b->setInsertionBlock(&body->block);
  llvm::SmallVector<kir::Value *, 5> cOps = {c, b->cast(red->result(), elem)};
  cOps.append(idx.begin(), idx.end());
  b->create(kir::Opcode::Store, cOps, {});
  b->create(kir::Opcode::Yield, {}, {});
  b->setInsertionBlock(outer);
  return &voidValue;
}
