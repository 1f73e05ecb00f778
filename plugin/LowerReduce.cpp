//===- LowerReduce.cpp - reduce, scan, argmax/argmin, region fold/scan ---===//
//
// Each call of intent::reduce, scan, argmax, argmin, region_fold or
// region_scan becomes one KIR op (docs/kir.md) whose regions are the user's
// callbacks, inlined where they are called in the header's serial loop:
//
//   value    ^(%k) or ^(%r, %k)        Value(k) / Value(r, k), converted to T
//   combine  ^(%a.., %b..)             Combine(a, b), converted to T
//   emit     ^(%k, %p..) / ^(%r, %k, %p..)   scan's Emit
//   store    ^(%r, %acc..)             region_fold's Store
//
// The combine region is the combine's own call operator (an intent::ops
// functor's operator() from the header, a user lambda or function object)
// applied to the block arguments; the `combiner` attribute only records which
// one it was. A struct accumulator is flattened into one component per
// scalar leaf. tie, NaN policy, scan kind and direction must be constant
// enumerators; they become string attributes.
//
// Callbacks capture enclosing values by reference: reading them is fine,
// assigning an enclosing local is an error (they may run in any order and in
// parallel), and value/combine callbacks must not store to views.
//
//===----------------------------------------------------------------------===//

#include "KernelLowering.h"

#include "clang/AST/DeclTemplate.h"

#include "llvm/ADT/StringSwitch.h"

using namespace clang;
using namespace intent;
using namespace intent::plugin;

namespace {

enum class Algo { Reduce, Scan, ArgMax, ArgMin, RegionFold, RegionScan };

/// A callback argument: the call operator to inline.
struct Callback {
  const FunctionDecl *op = nullptr;
  std::string combiner; ///< combine only: "plus", ..., "user"
  bool ordered = false; ///< combine only: wrapped in intent::ordered
};

/// Lowers one call of a reduction algorithm.
class ReductionLowering {
public:
  ReductionLowering(KernelLowering &l, const CallExpr *e, Algo algo,
                    std::string name)
      : L(l), e(e), algo(algo), name(std::move(name)),
        loc(e->getExprLoc()) {}

  kir::Value *run();

private:
  KernelLowering &L;
  const CallExpr *e;
  Algo algo;
  std::string name; ///< "intent::reduce", for messages
  SourceLocation loc;
  QualType accTy;                       ///< T
  llvm::SmallVector<kir::Type, 4> acc;  ///< the components of T
  bool accIsAggregate = false;

  const Expr *arg(unsigned i) const { return e->getArg(i); }
  /// "the value callback of 'intent::reduce'", for messages.
  std::string what(llvm::StringRef role) const {
    return "the " + role.str() + " callback of '" + name + "'";
  }

  bool accumulator(QualType t, const Expr *at);
  kir::Value *pack(llvm::ArrayRef<kir::Value *> parts) {
    return accIsAggregate ? L.makeAggregate(parts) : parts[0];
  }
  /// Checks that `a` is a lambda (not mutable; binds its init-captures) or
  /// a function object.
  bool callable(const Expr *a, llvm::StringRef role);
  /// A callback taking one of `arities` arguments (tried in order).
  bool callback(const Expr *a, llvm::StringRef role,
                llvm::ArrayRef<unsigned> arities, llvm::StringRef expected,
                Callback &out);
  bool combine(const Expr *a, Callback &out);
  /// The function a function-typed argument names: `f`, `&f`, or a constant
  /// pointer to a function; null otherwise.
  const FunctionDecl *namedFunction(const Expr *a) const;
  bool constEnum(const Expr *a, llvm::StringRef param,
                 llvm::StringRef example, std::string &out);
  /// Adds a region to `op` taking `argTypes`, lowers `fill` into it inside
  /// a capture scope; false after an error.
  bool region(kir::Op *op, llvm::ArrayRef<kir::Type> argTypes,
              llvm::StringRef role, bool pure,
              const std::function<bool(llvm::ArrayRef<kir::Value *>)> &fill);
  /// Inlines `cb` with `args` and yields its result converted to `to` (or
  /// nothing for a void callback).
  bool callAndYield(const Callback &cb, llvm::ArrayRef<kir::Value *> args,
                    QualType to);
  bool valueRegion(kir::Op *op, const Callback &cb, QualType to);
  bool combineRegion(kir::Op *op, const Callback &cb);
  /// emit/store: block args (prefix.., acc..) after `numIndices` indices;
  /// the callback takes the last `cb.op->getNumParams() - 1` indices.
  bool sinkRegion(kir::Op *op, const Callback &cb, llvm::StringRef role,
                  unsigned numIndices);
};

} // namespace

//===----------------------------------------------------------------------===//
// Arguments
//===----------------------------------------------------------------------===//

bool KernelLowering::domainBounds(const Expr *a, kir::Value *&begin,
                                  kir::Value *&end) {
  const CXXRecordDecl *rd = intentRecord(a->getType());
  if (rd && rd->getName() == "range") {
    kir::Value *r = expr(a);
    if (!r)
      return false;
    Vals p = partsOf(r);
    if (p.size() != 2) {
      unsupported(a);
      return false;
    }
    at(a->getExprLoc());
    begin = convert(p[0], kir::Type::index());
    end = convert(p[1], kir::Type::index());
    return true;
  }
  end = indexValue(a);
  if (!end)
    return false;
  at(a->getExprLoc());
  begin = b->constInt(0, kir::Type::index());
  return true;
}

const FunctionDecl *
KernelLowering::callOperatorOf(QualType t, unsigned numArgs,
                               llvm::ArrayRef<QualType> argTypes) const {
  const CXXRecordDecl *rd =
      t.getNonReferenceType().getCanonicalType()->getAsCXXRecordDecl();
  if (!rd || !rd->hasDefinition())
    return nullptr;
  DeclarationName call = ctx.DeclarationNames.getCXXOperatorName(OO_Call);
  const FunctionDecl *any = nullptr;
  for (const NamedDecl *d : rd->getDefinition()->lookup(call)) {
    if (const auto *md = dyn_cast<CXXMethodDecl>(d)) {
      if (md->getNumParams() == numArgs)
        return md;
      continue;
    }
    const auto *ft = dyn_cast<FunctionTemplateDecl>(d);
    if (!ft)
      continue;
    for (const FunctionDecl *spec : ft->specializations()) {
      if (spec->getNumParams() != numArgs || !spec->hasBody())
        continue;
      bool match = true;
      for (unsigned i = 0; i < argTypes.size() && i < numArgs; ++i)
        if (!argTypes[i].isNull() &&
            !ctx.hasSameUnqualifiedType(
                spec->getParamDecl(i)->getType().getNonReferenceType(),
                argTypes[i].getNonReferenceType()))
          match = false;
      if (match)
        return spec;
      if (!any)
        any = spec;
    }
  }
  return any;
}

bool ReductionLowering::accumulator(QualType t, const Expr *at) {
  accTy = t.getNonReferenceType().getUnqualifiedType();
  if (const auto *leaves = L.aggregateLeaves(accTy)) {
    acc.assign(leaves->begin(), leaves->end());
    accIsAggregate = true;
    return true;
  }
  if (std::optional<kir::Type> s = L.scalarType(accTy)) {
    acc.push_back(*s);
    return true;
  }
  if (L.reportTupleElement(accTy, at->getExprLoc()))
    return false;
  L.fail(at->getExprLoc(), msg::AccumulatorType,
         {quoted(accTy.getAsString(L.ctx.getPrintingPolicy())), name});
  return false;
}

bool ReductionLowering::callable(const Expr *a, llvm::StringRef role) {
  const CXXRecordDecl *rd =
      a->getType().getNonReferenceType()->getAsCXXRecordDecl();
  if (!rd) {
    L.fail(a->getExprLoc(), msg::CallbackArg, {role.str(), name});
    return false;
  }
  if (rd->isLambda()) {
    const LambdaExpr *l = L.lambdaOf(a);
    if (!l) {
      L.fail(a->getExprLoc(), msg::CallbackArg, {role.str(), name});
      return false;
    }
    if (l->isMutable()) {
      L.fail(l->getBeginLoc(), msg::MutableLambda);
      return false;
    }
    if (isa<LambdaExpr>(KernelLowering::strip(a)) && !L.bindInitCaptures(l))
      return false;
  }
  return true;
}

bool ReductionLowering::callback(const Expr *a, llvm::StringRef role,
                                 llvm::ArrayRef<unsigned> arities,
                                 llvm::StringRef expected, Callback &out) {
  if (!callable(a, role))
    return false;
  for (unsigned n : arities)
    if ((out.op = L.callOperatorOf(a->getType(), n)))
      return true;
  L.fail(a->getExprLoc(), msg::CallbackArity, {what(role), expected.str()});
  return false;
}

bool ReductionLowering::combine(const Expr *a, Callback &out) {
  QualType t = a->getType().getNonReferenceType();
  const CXXRecordDecl *rd = t->getAsCXXRecordDecl();
  // intent::ordered(op): the combine is `op`, folded strictly in order.
  if (const CXXRecordDecl *ir = L.intentRecord(t);
      ir && ir->getName() == "ordered_op") {
    const auto *c = dyn_cast<CallExpr>(KernelLowering::strip(a));
    const FunctionDecl *fd = c ? c->getDirectCallee() : nullptr;
    if (!fd || fd->getQualifiedNameAsString() != "intent::ordered" ||
        c->getNumArgs() != 1 || out.ordered) {
      L.fail(a->getExprLoc(), msg::OrderedArg);
      return false;
    }
    out.ordered = true;
    return combine(c->getArg(0), out);
  }
  out.combiner = "user";
  if (rd && !rd->isLambda()) {
    std::string q = rd->getQualifiedNameAsString();
    if (llvm::StringRef(q).starts_with("intent::ops::"))
      out.combiner = rd->getName().str();
  }
  // A named function (`my_max`, `&my_max`) or a constant pointer to one
  // (`constexpr auto p = &my_max;`): inlined like a call operator.
  if (const FunctionDecl *fd = namedFunction(a)) {
    out.op = fd;
    if (fd->getNumParams() == 2)
      return true;
    std::string ty = accTy.getAsString(L.ctx.getPrintingPolicy());
    L.fail(a->getExprLoc(), msg::CallbackArity,
           {what("combine"), "(" + ty + ", " + ty + ")"});
    return false;
  }
  if (t->isFunctionPointerType()) {
    L.fail(a->getExprLoc(), msg::CombinePointerNotConstant, {name});
    return false;
  }
  if (!callable(a, "combine"))
    return false;
  out.op = L.callOperatorOf(t, 2, {accTy, accTy});
  if (!out.op) {
    std::string ty = accTy.getAsString(L.ctx.getPrintingPolicy());
    L.fail(a->getExprLoc(), msg::CallbackArity,
           {what("combine"), "(" + ty + ", " + ty + ")"});
    return false;
  }
  return true;
}

const FunctionDecl *ReductionLowering::namedFunction(const Expr *a) const {
  QualType t = a->getType().getNonReferenceType();
  if (!t->isFunctionPointerType() && !t->isFunctionType())
    return nullptr;
  const Expr *s = a->IgnoreParenImpCasts();
  if (const auto *u = dyn_cast<UnaryOperator>(s);
      u && u->getOpcode() == UO_AddrOf)
    s = u->getSubExpr()->IgnoreParenImpCasts();
  if (const auto *d = dyn_cast<DeclRefExpr>(s))
    if (const auto *fd = dyn_cast<FunctionDecl>(d->getDecl()))
      return fd;
  Expr::EvalResult r;
  if (a->isValueDependent() || !a->EvaluateAsRValue(r, L.ctx) ||
      !r.Val.isLValue() || r.Val.getLValueOffset().getQuantity() != 0)
    return nullptr;
  const auto *vd = r.Val.getLValueBase().dyn_cast<const ValueDecl *>();
  return dyn_cast_or_null<FunctionDecl>(vd);
}

bool ReductionLowering::constEnum(const Expr *a, llvm::StringRef param,
                                  llvm::StringRef example, std::string &out) {
  Expr::EvalResult r;
  const auto *et = a->getType()->getAs<EnumType>();
  if (et && !a->isValueDependent() && a->EvaluateAsInt(r, L.ctx) &&
      !r.HasSideEffects) {
    for (const EnumConstantDecl *c : et->getDecl()->enumerators())
      if (llvm::APSInt::isSameValue(c->getInitVal(), r.Val.getInt())) {
        out = c->getName().str();
        return true;
      }
  }
  L.fail(a->getExprLoc(), msg::ConstEnumArg,
         {param.str(), name, example.str()});
  return false;
}

//===----------------------------------------------------------------------===//
// Regions
//===----------------------------------------------------------------------===//

bool ReductionLowering::region(
    kir::Op *op, llvm::ArrayRef<kir::Type> argTypes, llvm::StringRef role,
    bool pure, const std::function<bool(llvm::ArrayRef<kir::Value *>)> &fill) {
  kir::Block *outer = L.b->block;
  kir::Loc savedLoc = L.b->loc;
  kir::Region *r = L.b->addRegion(op);
  for (kir::Type t : argTypes)
    L.b->addBlockArg(&r->block, t);
  L.b->setInsertionBlock(&r->block);

  KernelLowering::CaptureScope scope;
  for (auto &kv : L.env)
    scope.outer.insert(kv.first.first);
  scope.message = msg::RegionCapture;
  scope.what = what(role);
  scope.pure = pure;
  scope.callback = true;
  L.raceScopes.push_back(std::move(scope));
  size_t mark = L.env.size();
  auto savedAliases = L.aliases;

  bool ok = fill(r->block.args) && !L.failed;

  L.popEnv(mark);
  L.aliases = std::move(savedAliases);
  L.raceScopes.pop_back();
  L.b->setInsertionBlock(outer);
  L.b->loc = savedLoc;
  return ok;
}

bool ReductionLowering::callAndYield(const Callback &cb,
                                     llvm::ArrayRef<kir::Value *> args,
                                     QualType to) {
  kir::Value *v = L.inlineWithValues(cb.op, args, loc);
  if (!v)
    return false;
  llvm::SmallVector<kir::Value *, 4> yields;
  if (!to.isNull()) {
    L.at(cb.op->getBody()->getEndLoc());
    v = L.convertTo(v, to, loc);
    if (!v)
      return false;
    yields = L.partsOf(v);
  }
  L.at(cb.op->getBody()->getEndLoc());
  L.b->create(kir::Opcode::Yield, yields, {});
  return true;
}

bool ReductionLowering::valueRegion(kir::Op *op, const Callback &cb,
                                    QualType to) {
  bool overRegions = algo == Algo::RegionFold || algo == Algo::RegionScan;
  llvm::SmallVector<kir::Type, 2> args(overRegions ? 2 : 1,
                                       kir::Type::index());
  return region(op, args, "value", /*pure=*/true,
                [&](llvm::ArrayRef<kir::Value *> a) {
                  // Value(k), or Value(r, k) over regions.
                  return callAndYield(cb, a.take_back(cb.op->getNumParams()),
                                      to);
                });
}

bool ReductionLowering::combineRegion(kir::Op *op, const Callback &cb) {
  llvm::SmallVector<kir::Type, 8> args(acc.begin(), acc.end());
  args.append(acc.begin(), acc.end());
  return region(op, args, "combine", /*pure=*/true,
                [&](llvm::ArrayRef<kir::Value *> a) {
                  unsigned n = acc.size();
                  return callAndYield(
                      cb, {pack(a.take_front(n)), pack(a.drop_front(n))},
                      accTy);
                });
}

bool ReductionLowering::sinkRegion(kir::Op *op, const Callback &cb,
                                   llvm::StringRef role, unsigned numIndices) {
  llvm::SmallVector<kir::Type, 8> args(numIndices, kir::Type::index());
  args.append(acc.begin(), acc.end());
  return region(op, args, role, /*pure=*/false,
                [&](llvm::ArrayRef<kir::Value *> a) {
                  llvm::SmallVector<kir::Value *, 4> callArgs(
                      a.take_front(numIndices)
                          .take_back(cb.op->getNumParams() - 1));
                  callArgs.push_back(pack(a.drop_front(numIndices)));
                  return callAndYield(cb, callArgs, QualType());
                });
}

//===----------------------------------------------------------------------===//
// The algorithms
//===----------------------------------------------------------------------===//

kir::Value *ReductionLowering::run() {
  const kir::Type i64 = kir::Type::index();
  unsigned nargs = e->getNumArgs();
  bool overRegions = algo == Algo::RegionFold || algo == Algo::RegionScan;
  bool isScan = algo == Algo::Scan || algo == Algo::RegionScan;
  bool isArg = algo == Algo::ArgMax || algo == Algo::ArgMin;
  unsigned expectedArgs = isScan                       ? 7
                          : algo == Algo::RegionFold ? 5
                                                     : 4;
  if (nargs != expectedArgs)
    return L.unsupported(e);

  // Operands: the domain (or offsets), then the init.
  llvm::SmallVector<kir::Value *, 6> operands;
  if (overRegions) {
    kir::Value *offsets = L.expr(arg(0));
    if (!offsets)
      return nullptr;
    const kir::Type &t = offsets->type;
    if (!t.isView() || t.rank != 1 || !kir::elementType(t).isInteger())
      return L.fail(arg(0)->getExprLoc(), msg::RegionOffsets, {name});
    operands.push_back(offsets);
  } else {
    kir::Value *begin, *end;
    if (!L.domainBounds(arg(0), begin, end))
      return nullptr;
    operands.append({begin, end});
  }

  QualType valueTy; // argmax/argmin: T of arg_result<T>
  if (isArg) {
    const auto *rd = e->getType()->getAsCXXRecordDecl();
    if (rd && !rd->field_empty())
      valueTy = rd->field_begin()->getType();
    std::optional<kir::Type> s =
        valueTy.isNull() ? std::nullopt : L.scalarType(valueTy);
    if (!s) {
      std::string ty = valueTy.isNull()
                           ? std::string("?")
                           : valueTy.getAsString(L.ctx.getPrintingPolicy());
      return L.fail(arg(1)->getExprLoc(), msg::ArgValueType,
                    {quoted(ty), name});
    }
    acc.push_back(*s);
  } else {
    const FunctionDecl *fd = e->getDirectCallee();
    if (!accumulator(fd->getParamDecl(1)->getType(), arg(1)))
      return nullptr;
    kir::Value *init = L.convertTo(L.expr(arg(1)), accTy, arg(1)->getExprLoc());
    if (!init)
      return nullptr;
    KernelLowering::Vals parts = L.partsOf(init);
    operands.append(parts.begin(), parts.end());
  }

  // Callbacks and constant policies.
  Callback value, comb, sink;
  std::string kind, dir, tie, nan;
  unsigned valueArg = isArg ? 1 : 3;
  if (!isArg && !combine(arg(2), comb))
    return nullptr;
  // Over regions the header prefers Value(r, k) when it compiles.
  static const unsigned regionValueArities[] = {2, 1}, valueArities[] = {1};
  if (!callback(arg(valueArg), "value",
                overRegions ? llvm::ArrayRef(regionValueArities)
                            : llvm::ArrayRef(valueArities),
                overRegions ? "(index k) or (index r, index k)" : "(index k)",
                value))
    return nullptr;
  if (algo == Algo::Scan &&
      !callback(arg(4), "emit", {2}, "(index k, T prefix)", sink))
    return nullptr;
  if (algo == Algo::RegionFold &&
      !callback(arg(4), "store", {2}, "(index r, T total)", sink))
    return nullptr;
  if (algo == Algo::RegionScan &&
      !callback(arg(4), "emit", {3, 2},
                "(index k, T prefix) or (index r, index k, T prefix)", sink))
    return nullptr;
  if (isScan &&
      (!constEnum(arg(5), "scan_kind", "scan_kind::inclusive", kind) ||
       !constEnum(arg(6), "direction", "direction::forward", dir)))
    return nullptr;
  if (isArg && (!constEnum(arg(2), "tie", "tie::first", tie) ||
                !constEnum(arg(3), "nan_policy", "nan_policy::propagate", nan)))
    return nullptr;

  // The op.
  static const kir::Opcode opcodes[] = {
      kir::Opcode::Reduce,    kir::Opcode::Scan,       kir::Opcode::ArgReduce,
      kir::Opcode::ArgReduce, kir::Opcode::RegionFold, kir::Opcode::RegionScan};
  llvm::SmallVector<kir::Type, 4> resultTypes;
  if (algo == Algo::Reduce)
    resultTypes = acc;
  if (isArg)
    resultTypes = {acc[0], i64};
  L.at(loc);
  kir::Op *op =
      L.b->create(opcodes[static_cast<unsigned>(algo)], operands, resultTypes);
  if (isArg) {
    op->setAttr("which", std::string(algo == Algo::ArgMax ? "max" : "min"));
    op->setAttr("tie", tie);
    op->setAttr("nan", nan);
  } else {
    if (isScan) {
      op->setAttr("kind", kind);
      op->setAttr("direction", dir);
    }
    op->setAttr("combiner", comb.combiner);
    // The API requires an associative combine (docs/kir.md): the user's
    // contract, for builtin and user combines alike, unless the combine is
    // wrapped in intent::ordered.
    op->setAttr("reassociate", !comb.ordered);
  }

  if (!valueRegion(op, value, isArg ? valueTy : accTy))
    return nullptr;
  if (!isArg && !combineRegion(op, comb))
    return nullptr;
  if (algo == Algo::Scan || algo == Algo::RegionFold)
    if (!sinkRegion(op, sink, algo == Algo::Scan ? "emit" : "store", 1))
      return nullptr;
  if (algo == Algo::RegionScan && !sinkRegion(op, sink, "emit", 2))
    return nullptr;

  if (algo == Algo::Reduce)
    return accIsAggregate ? L.makeAggregate(op->results) : op->result(0);
  if (isArg)
    return L.makeAggregate(op->results);
  return &L.voidValue;
}

kir::Value *KernelLowering::reductionCall(const CallExpr *e,
                                          const FunctionDecl *fd,
                                          bool &handled) {
  std::string n = fd->getQualifiedNameAsString();
  std::optional<Algo> algo =
      llvm::StringSwitch<std::optional<Algo>>(n)
          .Case("intent::reduce", Algo::Reduce)
          .Case("intent::scan", Algo::Scan)
          .Case("intent::argmax", Algo::ArgMax)
          .Case("intent::argmin", Algo::ArgMin)
          .Case("intent::region_fold", Algo::RegionFold)
          .Case("intent::region_scan", Algo::RegionScan)
          .Default(std::nullopt);
  handled = algo.has_value();
  if (!algo)
    return nullptr;
  return ReductionLowering(*this, e, *algo, n).run();
}
