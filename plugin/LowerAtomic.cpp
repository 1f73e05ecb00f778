//===- LowerAtomic.cpp - atomic_add/min/max/exch/cas, histogram -----------===//
//
// intent::atomic_add / atomic_min / atomic_max / atomic_exch become one KIR
// `atomic` op {kind, order} on the element they are given (a view element:
// y[i], y(i, j), an element of a sub-view); intent::atomic_cas becomes
// `atomic_cas` {order} whose two results are the cas_result's fields (a
// cas_result is scalar-replaced like other structs of scalars). The memory
// order must be a constant enumerator; the hardware scope is not chosen
// here (a physical pass picks it from the mapping).
//
// intent::histogram(bins, n | range, bin_of) is the scatter-reduction of
// include/intent/atomic.hpp, written as what it is in parallel: one
// instance per sample, each doing one atomic add on its in-range bin:
//
//   parallel_for max(end - begin, 0) ^(%k):
//     %b = (index) bin_of(begin + k)
//     if (%b >= 0 && %b < bins.extent(0)) atomic add bins[%b], 1
//
// so construction makes the samples the workset and the atomic closes the
// collisions between samples of one bin.
//
//===----------------------------------------------------------------------===//

#include "KernelLowering.h"

#include "KIR/Atomic.h"

#include "llvm/ADT/StringSwitch.h"

using namespace clang;
using namespace intent;
using namespace intent::plugin;

namespace {

/// The enumerator name of a constant intent::memory_order argument, or "".
std::string constOrder(const Expr *a, ASTContext &ctx) {
  Expr::EvalResult r;
  const auto *et = a->getType()->getAs<EnumType>();
  if (!et || a->isValueDependent() || !a->EvaluateAsInt(r, ctx) ||
      r.HasSideEffects)
    return "";
  for (const EnumConstantDecl *c : et->getDecl()->enumerators())
    if (llvm::APSInt::isSameValue(c->getInitVal(), r.Val.getInt()))
      return c->getName().str();
  return "";
}

} // namespace

/// Value and combine callbacks must not update memory (they may run any
/// number of times); reports and returns false inside one.
static bool atomicAllowed(KernelLowering &L, SourceLocation loc) {
  for (const KernelLowering::CaptureScope &cs : L.raceScopes)
    if (cs.pure) {
      L.fail(loc, msg::AtomicInCallback, {cs.what});
      return false;
    }
  return true;
}

/// Creates `atomic` / `atomic_cas` on element `indices` of `view`.
static kir::Op *createAtomic(KernelLowering &L, kir::Value *view,
                             llvm::ArrayRef<kir::Value *> values,
                             llvm::ArrayRef<kir::Value *> indices,
                             llvm::StringRef kind, llvm::StringRef order) {
  kir::Type elem = kir::elementType(view->type);
  llvm::SmallVector<kir::Value *, 6> ops = {view};
  for (kir::Value *v : values)
    ops.push_back(L.convert(v, elem));
  ops.append(indices.begin(), indices.end());
  bool cas = kind == "cas";
  llvm::SmallVector<kir::Type, 2> results = {elem};
  if (cas)
    results.push_back(kir::Type::boolean());
  kir::Op *op = L.b->create(cas ? kir::Opcode::AtomicCas : kir::Opcode::Atomic,
                            ops, results);
  op->results[0]->name = "old";
  if (!cas)
    op->setAttr("kind", kind.str());
  op->setAttr("order", order.str());
  return op;
}

static kir::Value *lowerAtomic(KernelLowering &L, const CallExpr *e,
                               const std::string &name, llvm::StringRef kind) {
  SourceLocation loc = e->getExprLoc();
  bool cas = kind == "cas";
  unsigned values = cas ? 2 : 1;
  if (e->getNumArgs() != values + 2)
    return L.unsupported(e);
  if (!atomicAllowed(L, loc))
    return nullptr;
  const Expr *target = e->getArg(0);
  LValue lv = L.lvalue(target);
  if (L.failed)
    return nullptr;
  if (lv.kind != LValue::Kind::Element)
    return L.fail(target->getExprLoc(), msg::AtomicTarget, {name});
  if (lv.view->type.constElem)
    return L.fail(target->getExprLoc(), msg::AtomicConstView, {name});
  if (!kir::isAtomicElement(lv.view->type.elem))
    return L.fail(target->getExprLoc(), msg::AtomicType,
                  {name, quoted(kir::scalarKindName(lv.view->type.elem).str())});
  const Expr *orderArg = e->getArg(values + 1);
  std::string order = constOrder(orderArg, L.ctx);
  if (order.empty())
    return L.fail(orderArg->getExprLoc(), msg::AtomicOrder, {name});
  llvm::SmallVector<kir::Value *, 2> vals;
  for (unsigned i = 1; i <= values; ++i) {
    kir::Value *v = L.expr(e->getArg(i));
    if (!v)
      return nullptr;
    vals.push_back(v);
  }
  L.at(loc);
  kir::Op *op = createAtomic(L, lv.view, vals, lv.indices, kind, order);
  if (cas) {
    op->results[1]->name = "success";
    return L.makeAggregate(op->results);
  }
  return op->result(0);
}

static kir::Value *lowerHistogram(KernelLowering &L, const CallExpr *e) {
  SourceLocation loc = e->getExprLoc();
  if (e->getNumArgs() != 3)
    return L.unsupported(e);
  for (const KernelLowering::CaptureScope &cs : llvm::reverse(L.raceScopes))
    if (cs.callback)
      return L.fail(loc, msg::HistogramInCallback, {cs.what});
  kir::Value *bins = L.expr(e->getArg(0));
  if (!bins)
    return nullptr;
  if (!bins->type.isView() || bins->type.rank != 1 ||
      bins->type.constElem || !kir::isAtomicElement(bins->type.elem))
    return L.fail(e->getArg(0)->getExprLoc(), msg::HistogramBins);

  // bin_of: a lambda or a function object taking one index.
  const Expr *fnArg = e->getArg(2);
  const FunctionDecl *binOf = nullptr;
  if (const LambdaExpr *l = L.lambdaOf(fnArg)) {
    if (l->isMutable())
      return L.fail(l->getBeginLoc(), msg::MutableLambda);
    if (isa<LambdaExpr>(KernelLowering::strip(fnArg)) &&
        !L.bindInitCaptures(l))
      return nullptr;
    binOf = L.callOperator(l, 1);
  } else if (fnArg->getType().getNonReferenceType()->getAsCXXRecordDecl()) {
    binOf = L.callOperatorOf(fnArg->getType(), 1);
  }
  if (!binOf)
    return L.fail(fnArg->getExprLoc(), msg::HistogramBinOf);

  kir::Value *begin, *end;
  if (!L.domainBounds(e->getArg(1), begin, end))
    return nullptr;
  L.at(loc);
  kir::Type i64 = kir::Type::index();
  kir::Op *count = L.b->create(
      kir::Opcode::Max,
      {L.b->binary(kir::Opcode::Sub, end, begin), L.b->constInt(0, i64)},
      {i64});
  count->setAttr("nan", std::string("std"));

  kir::Op *pf = L.b->create(kir::Opcode::ParallelFor, {count->result()}, {});
  kir::Region *r = L.b->addRegion(pf);
  kir::Block *outer = L.b->block;
  L.b->setInsertionBlock(&r->block);
  KernelLowering::CaptureScope scope;
  for (auto &kv : L.env)
    scope.outer.insert(kv.first.first);
  scope.message = msg::ParallelRace;
  L.raceScopes.push_back(std::move(scope));
  size_t mark = L.env.size();

  kir::Value *k = L.b->addBlockArg(&r->block, i64, "sample");
  kir::Value *sample = L.b->binary(kir::Opcode::Add, k, begin);
  kir::Value *bin = L.inlineWithValues(binOf, {sample}, loc);
  if (bin && !L.failed) {
    L.at(loc);
    bin = L.convert(bin, i64);
    kir::Op *ext = L.b->create(kir::Opcode::Extent, {bins}, {i64});
    ext->setAttr("dim", int64_t(0));
    kir::Value *lo = L.b->cmp("ge", bin, L.b->constInt(0, i64));
    kir::Value *hi = L.b->cmp("lt", bin, ext->result());
    kir::Value *inRange =
        L.b->create(kir::Opcode::Select, {lo, hi, L.b->constBool(false)},
                    {kir::Type::boolean()})
            ->result();
    L.buildIf(
        inRange, {},
        [&]() -> llvm::SmallVector<kir::Value *, 1> {
          kir::Value *one = L.b->constInt(1, kir::elementType(bins->type));
          if (kir::elementType(bins->type).isFloat())
            one = L.b->constFloat(1.0, kir::elementType(bins->type));
          createAtomic(L, bins, {one}, {bin}, "add", "relaxed");
          return {};
        },
        [&]() -> llvm::SmallVector<kir::Value *, 1> { return {}; });
    if (!L.failed) {
      L.at(e->getEndLoc());
      L.b->create(kir::Opcode::Yield, {}, {});
    }
  }
  L.popEnv(mark);
  L.raceScopes.pop_back();
  L.b->setInsertionBlock(outer);
  return L.failed ? nullptr : &L.voidValue;
}

kir::Value *KernelLowering::atomicCall(const CallExpr *e,
                                       const FunctionDecl *fd, bool &handled) {
  std::string n = fd->getQualifiedNameAsString();
  if (n == "intent::histogram") {
    handled = true;
    return lowerHistogram(*this, e);
  }
  llvm::StringRef kind = llvm::StringSwitch<llvm::StringRef>(n)
                             .Case("intent::atomic_add", "add")
                             .Case("intent::atomic_min", "min")
                             .Case("intent::atomic_max", "max")
                             .Case("intent::atomic_exch", "exch")
                             .Case("intent::atomic_cas", "cas")
                             .Default("");
  handled = !kind.empty();
  if (!handled)
    return nullptr;
  return lowerAtomic(*this, e, n, kind);
}
