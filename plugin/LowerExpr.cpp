//===- LowerExpr.cpp - Expressions and lvalues -> KIR ---------------------===//
//
// Scalar arithmetic follows the AST exactly: Clang has already inserted every
// integral promotion and usual arithmetic conversion as an ImplicitCastExpr,
// and each one becomes a `cast`, so the KIR computes what C++ computes.
// `&&`, `||` and `?:` become `if`s with a result so that the side that C++
// does not evaluate has no effect (a guarded load is not executed).
//
//===----------------------------------------------------------------------===//

#include "KernelLowering.h"

using namespace clang;
using namespace intent;
using namespace intent::plugin;

const Expr *KernelLowering::strip(const Expr *e) {
  while (e) {
    const Expr *next = nullptr;
    if (const auto *p = dyn_cast<ParenExpr>(e))
      next = p->getSubExpr();
    else if (const auto *c = dyn_cast<ExprWithCleanups>(e))
      next = c->getSubExpr();
    else if (const auto *m = dyn_cast<MaterializeTemporaryExpr>(e))
      next = m->getSubExpr();
    else if (const auto *t = dyn_cast<CXXBindTemporaryExpr>(e))
      next = t->getSubExpr();
    else if (const auto *d = dyn_cast<CXXDefaultArgExpr>(e))
      next = d->getExpr();
    else if (const auto *s = dyn_cast<SubstNonTypeTemplateParmExpr>(e))
      next = s->getReplacement();
    else if (const auto *ce = dyn_cast<CastExpr>(e)) {
      CastKind k = ce->getCastKind();
      if ((k == CK_NoOp || k == CK_ConstructorConversion ||
           k == CK_UserDefinedConversion) &&
          ce->getType()->isRecordType())
        next = ce->getSubExpr();
    } else if (const auto *ctor = dyn_cast<CXXConstructExpr>(e)) {
      // Copies and const-conversions of views and lambdas.
      if (ctor->getNumArgs() == 1 && ctor->getType()->isRecordType() &&
          ctor->getArg(0)->getType()->isRecordType()) {
        const auto *to = ctor->getType()->getAsCXXRecordDecl();
        const auto *from = ctor->getArg(0)->getType()->getAsCXXRecordDecl();
        if (to && from &&
            (to == from || (to->isLambda() && from->isLambda()) ||
             (to->getName() == "view" && from->getName() == "view")))
          next = ctor->getArg(0);
      }
    }
    if (!next)
      return e;
    e = next;
  }
  return e;
}

//===----------------------------------------------------------------------===//
// Values
//===----------------------------------------------------------------------===//

kir::Value *KernelLowering::expr(const Expr *e) {
  if (failed || !e)
    return nullptr;
  if (e->getType()->isRecordType() && isAggregateType(e->getType()))
    return aggregateExpr(e);
  if (kir::Value *c = tryFold(e))
    return c;
  if (failed)
    return nullptr;
  at(e->getExprLoc());
  if (e->getType()->isVoidType() && isa<CallExpr>(e))
    return call(cast<CallExpr>(e));

  switch (e->getStmtClass()) {
  case Stmt::ParenExprClass:
    return expr(cast<ParenExpr>(e)->getSubExpr());
  case Stmt::ExprWithCleanupsClass:
    return expr(cast<ExprWithCleanups>(e)->getSubExpr());
  case Stmt::MaterializeTemporaryExprClass:
    return expr(cast<MaterializeTemporaryExpr>(e)->getSubExpr());
  case Stmt::CXXBindTemporaryExprClass:
    return expr(cast<CXXBindTemporaryExpr>(e)->getSubExpr());
  case Stmt::ConstantExprClass:
    return expr(cast<ConstantExpr>(e)->getSubExpr());
  case Stmt::CXXDefaultArgExprClass:
    return expr(cast<CXXDefaultArgExpr>(e)->getExpr());
  case Stmt::CXXDefaultInitExprClass:
    return expr(cast<CXXDefaultInitExpr>(e)->getExpr());
  case Stmt::SubstNonTypeTemplateParmExprClass:
    return expr(cast<SubstNonTypeTemplateParmExpr>(e)->getReplacement());
  case Stmt::ImplicitCastExprClass:
  case Stmt::CStyleCastExprClass:
  case Stmt::CXXStaticCastExprClass:
  case Stmt::CXXFunctionalCastExprClass:
  case Stmt::CXXConstCastExprClass:
    return castExpr(cast<CastExpr>(e));
  case Stmt::CXXReinterpretCastExprClass:
    return fail(e->getExprLoc(), msg::ReinterpretCast);
  case Stmt::BinaryOperatorClass:
  case Stmt::CompoundAssignOperatorClass: {
    const auto *bo = cast<BinaryOperator>(e);
    if (bo->isAssignmentOp()) {
      LValue lv = assign(bo);
      return lv.valid() ? read(lv, e->getExprLoc()) : nullptr;
    }
    return binaryOp(bo);
  }
  case Stmt::UnaryOperatorClass:
    return unaryOp(cast<UnaryOperator>(e));
  case Stmt::ConditionalOperatorClass:
    return conditional(cast<ConditionalOperator>(e));
  case Stmt::CallExprClass:
  case Stmt::CXXMemberCallExprClass:
  case Stmt::CXXOperatorCallExprClass:
    if (isViewElementAccess(e))
      return read(lvalue(e), e->getExprLoc());
    return call(cast<CallExpr>(e));
  case Stmt::DeclRefExprClass: {
    const ValueDecl *d = cast<DeclRefExpr>(e)->getDecl();
    if (const auto *vd = dyn_cast<VarDecl>(d)) {
      if (lambdaOf(e))
        return fail(e->getExprLoc(), msg::LambdaEscape);
      return readVar(vd, e->getExprLoc());
    }
    if (const auto *ec = dyn_cast<EnumConstantDecl>(d))
      return constant(APValue(ec->getInitVal()), ec->getType(),
                      e->getExprLoc());
    // A structured binding (`auto [v, p] = argmax(...)`): a member of the
    // hidden aggregate local.
    if (const auto *bd = dyn_cast<BindingDecl>(d)) {
      // A tuple-like binding (`auto [m, n] = pair`) names a hidden
      // reference initialized with std::get<I>(e): the place it denotes.
      if (const VarDecl *hv = bd->getHoldingVar())
        return read(lvalue(hv->getInit()), e->getExprLoc());
      if (const Expr *binding = bd->getBinding())
        return expr(binding);
    }
    if (isa<FunctionDecl>(d))
      return fail(e->getExprLoc(), msg::FunctionAddress,
                  {d->getNameAsString()});
    return unsupported(e);
  }
  case Stmt::CXXConstructExprClass:
  case Stmt::CXXTemporaryObjectExprClass: {
    const Expr *s = strip(e);
    if (s != e)
      return expr(s);
    if (halfKind(e->getType()))
      return halfConstruct(cast<CXXConstructExpr>(e));
    if (isViewType(e->getType()))
      return fail(e->getExprLoc(), msg::ViewConstruct);
    if (isBufferType(e->getType()))
      return fail(e->getExprLoc(), msg::BufferTemp);
    if (const CXXRecordDecl *rd = intentRecord(e->getType()))
      return fail(e->getExprLoc(), msg::NotYetSupported,
                  {"intent::" + rd->getNameAsString()});
    if (reportTupleElement(e->getType(), e->getExprLoc()))
      return nullptr;
    return fail(e->getExprLoc(), msg::ClassValue,
                {quoted(e->getType().getAsString(ctx.getPrintingPolicy()))});
  }
  case Stmt::LambdaExprClass:
    return fail(e->getExprLoc(), msg::LambdaEscape);
  case Stmt::CXXThrowExprClass:
    return fail(e->getExprLoc(), msg::Throw);
  case Stmt::CXXNewExprClass:
    return fail(e->getExprLoc(), msg::New);
  case Stmt::CXXDeleteExprClass:
    return fail(e->getExprLoc(), msg::Delete);
  case Stmt::CXXThisExprClass:
    return fail(e->getExprLoc(), msg::This);
  case Stmt::ArraySubscriptExprClass:
    return fail(e->getExprLoc(), msg::Subscript);
  case Stmt::MemberExprClass:
    return read(memberLValue(cast<MemberExpr>(e)), e->getExprLoc());
  default:
    return unsupported(e);
  }
}

void KernelLowering::discard(const Expr *e) {
  if (failed || !e)
    return;
  const Expr *s = e->IgnoreParens();
  if (const auto *c = dyn_cast<ExprWithCleanups>(s))
    return discard(c->getSubExpr());
  if (const auto *bo = dyn_cast<BinaryOperator>(s)) {
    if (bo->isAssignmentOp()) {
      at(bo->getExprLoc());
      assign(bo);
      return;
    }
    if (bo->getOpcode() == BO_Comma) {
      discard(bo->getLHS());
      discard(bo->getRHS());
      return;
    }
  }
  if (const auto *uo = dyn_cast<UnaryOperator>(s))
    if (uo->isIncrementDecrementOp()) {
      at(uo->getExprLoc());
      incDec(uo, nullptr);
      return;
    }
  if (const auto *ce = dyn_cast<CastExpr>(s))
    if (ce->getCastKind() == CK_ToVoid)
      return discard(ce->getSubExpr());
  expr(s);
}

kir::Value *KernelLowering::castExpr(const CastExpr *e) {
  const Expr *sub = e->getSubExpr();
  switch (e->getCastKind()) {
  case CK_LValueToRValue: {
    const Expr *inner = sub->IgnoreParens();
    if (const auto *co = dyn_cast<ConditionalOperator>(inner))
      return conditional(co);
    // A call returning a reference (std::min, std::max) yields its value.
    if (isa<CallExpr>(inner) && !isViewElementAccess(inner))
      return call(cast<CallExpr>(inner));
    if (const auto *bo = dyn_cast<BinaryOperator>(inner))
      if (bo->getOpcode() == BO_Comma) {
        discard(bo->getLHS());
        return expr(bo->getRHS());
      }
    LValue lv = lvalue(sub);
    return lv.valid() ? read(lv, e->getExprLoc()) : nullptr;
  }
  case CK_NoOp:
  case CK_ConstructorConversion:
  case CK_UserDefinedConversion:
    return expr(sub);
  case CK_ToVoid:
    discard(sub);
    return failed ? nullptr : &voidValue;
  case CK_IntegralCast:
  case CK_IntegralToFloating:
  case CK_FloatingToIntegral:
  case CK_FloatingCast:
  case CK_IntegralToBoolean:
  case CK_FloatingToBoolean: {
    std::optional<kir::Type> to = scalarType(e->getType());
    if (!to)
      return fail(e->getExprLoc(), msg::UnsupportedType,
                  {quoted(e->getType().getAsString(ctx.getPrintingPolicy()))});
    kir::Value *v = expr(sub);
    if (!v)
      return nullptr;
    at(e->getExprLoc());
    return convert(v, *to);
  }
  case CK_FunctionToPointerDecay: {
    const auto *dre = dyn_cast<DeclRefExpr>(sub->IgnoreParens());
    return fail(e->getExprLoc(), msg::FunctionAddress,
                {dre ? dre->getDecl()->getNameAsString() : "?"});
  }
  case CK_ArrayToPointerDecay:
  case CK_PointerToIntegral:
  case CK_PointerToBoolean:
  case CK_IntegralToPointer:
  case CK_BitCast:
  case CK_NullToPointer:
    return fail(e->getExprLoc(), msg::PointerValue);
  default:
    return fail(e->getExprLoc(), msg::GenericCast, {e->getCastKindName()});
  }
}

static std::optional<kir::Opcode> arithOpcode(BinaryOperatorKind k) {
  switch (k) {
  case BO_Add:
  case BO_AddAssign:
    return kir::Opcode::Add;
  case BO_Sub:
  case BO_SubAssign:
    return kir::Opcode::Sub;
  case BO_Mul:
  case BO_MulAssign:
    return kir::Opcode::Mul;
  case BO_Div:
  case BO_DivAssign:
    return kir::Opcode::Div;
  case BO_Rem:
  case BO_RemAssign:
    return kir::Opcode::Rem;
  case BO_Shl:
  case BO_ShlAssign:
    return kir::Opcode::Shl;
  case BO_Shr:
  case BO_ShrAssign:
    return kir::Opcode::Shr;
  case BO_And:
  case BO_AndAssign:
    return kir::Opcode::BitAnd;
  case BO_Or:
  case BO_OrAssign:
    return kir::Opcode::BitOr;
  case BO_Xor:
  case BO_XorAssign:
    return kir::Opcode::BitXor;
  default:
    return std::nullopt;
  }
}

static const char *cmpPred(BinaryOperatorKind k) {
  switch (k) {
  case BO_EQ:
    return "eq";
  case BO_NE:
    return "ne";
  case BO_LT:
    return "lt";
  case BO_LE:
    return "le";
  case BO_GT:
    return "gt";
  case BO_GE:
    return "ge";
  default:
    return nullptr;
  }
}

kir::Value *KernelLowering::binaryOp(const BinaryOperator *e) {
  BinaryOperatorKind k = e->getOpcode();
  if (k == BO_Comma) {
    discard(e->getLHS());
    return expr(e->getRHS());
  }
  if (k == BO_LAnd || k == BO_LOr)
    return logical(e);
  if (e->getLHS()->getType()->isPointerType() ||
      e->getRHS()->getType()->isPointerType() ||
      e->getType()->isPointerType())
    return fail(e->getOperatorLoc(), msg::PointerArith);
  const char *pred = cmpPred(k);
  std::optional<kir::Opcode> opc = arithOpcode(k);
  if (!pred && !opc)
    return unsupported(e);
  kir::Value *l = expr(e->getLHS());
  kir::Value *r = expr(e->getRHS());
  if (!l || !r)
    return nullptr;
  if (!l->type.isScalar() || !r->type.isScalar())
    return unsupported(e);
  at(e->getOperatorLoc());
  if (pred)
    return b->cmp(pred, l, convert(r, l->type));
  std::optional<kir::Type> t = scalarType(e->getType());
  if (!t)
    return fail(e->getOperatorLoc(), msg::UnsupportedType,
                {quoted(e->getType().getAsString(ctx.getPrintingPolicy()))});
  return b->binary(*opc, convert(l, *t), convert(r, *t));
}

LValue KernelLowering::assign(const BinaryOperator *e) {
  if (e->getLHS()->getType()->isPointerType())
    return fail(e->getOperatorLoc(), msg::PointerArith), LValue();
  // C++17: the right operand is sequenced before the left one.
  kir::Value *r = expr(e->getRHS());
  if (!r)
    return LValue();
  LValue lv = lvalue(e->getLHS());
  if (!lv.valid())
    return LValue();
  at(e->getOperatorLoc());
  if (e->getOpcode() == BO_Assign) {
    if (!write(lv, r, e->getOperatorLoc()))
      return LValue();
    return lv;
  }
  const auto *ca = cast<CompoundAssignOperator>(e);
  std::optional<kir::Type> lhsTy = scalarType(ca->getComputationLHSType());
  std::optional<kir::Type> resTy = scalarType(ca->getComputationResultType());
  std::optional<kir::Opcode> opc = arithOpcode(e->getOpcode());
  if (!lhsTy || !resTy || !opc)
    return unsupported(e), LValue();
  kir::Value *old = read(lv, e->getExprLoc());
  if (!old)
    return LValue();
  at(e->getOperatorLoc());
  kir::Value *res = b->binary(*opc, convert(old, *lhsTy), convert(r, *lhsTy));
  res = convert(res, *resTy);
  if (!write(lv, convert(res, old->type), e->getOperatorLoc()))
    return LValue();
  return lv;
}

LValue KernelLowering::incDec(const UnaryOperator *e, kir::Value **oldValue) {
  LValue lv = lvalue(e->getSubExpr());
  if (!lv.valid())
    return LValue();
  kir::Value *v = read(lv, e->getExprLoc());
  if (!v)
    return LValue();
  if (!v->type.isScalar() || v->type.isBool())
    return unsupported(e), LValue();
  at(e->getOperatorLoc());
  kir::Value *one = v->type.isFloat() ? b->constFloat(1.0, v->type)
                                      : b->constInt(1, v->type);
  kir::Value *nv = b->binary(
      e->isIncrementOp() ? kir::Opcode::Add : kir::Opcode::Sub, v, one);
  if (!write(lv, nv, e->getOperatorLoc()))
    return LValue();
  if (oldValue)
    *oldValue = e->isPrefix() ? nv : v;
  return lv;
}

kir::Value *KernelLowering::unaryOp(const UnaryOperator *e) {
  const Expr *sub = e->getSubExpr();
  switch (e->getOpcode()) {
  case UO_Plus:
  case UO_Extension:
    return expr(sub);
  case UO_Minus:
  case UO_Not:
  case UO_LNot: {
    kir::Value *v = expr(sub);
    if (!v)
      return nullptr;
    std::optional<kir::Type> t = scalarType(e->getType());
    if (!t || !v->type.isScalar())
      return unsupported(e);
    at(e->getOperatorLoc());
    kir::Opcode opc = e->getOpcode() == UO_Minus ? kir::Opcode::Neg
                      : e->getOpcode() == UO_Not ? kir::Opcode::BitNot
                                                 : kir::Opcode::Not;
    v = convert(v, *t);
    return b->create(opc, {v}, {*t})->result();
  }
  case UO_PreInc:
  case UO_PreDec:
  case UO_PostInc:
  case UO_PostDec: {
    kir::Value *result = nullptr;
    incDec(e, &result);
    return result;
  }
  case UO_AddrOf:
    return fail(e->getOperatorLoc(), msg::AddressOf);
  case UO_Deref:
    return fail(e->getOperatorLoc(), msg::Deref);
  default:
    return unsupported(e);
  }
}

kir::Value *KernelLowering::logical(const BinaryOperator *e) {
  kir::Value *l = expr(e->getLHS());
  if (!l)
    return nullptr;
  at(e->getOperatorLoc());
  l = convert(l, kir::Type::boolean());
  bool isAnd = e->getOpcode() == BO_LAnd;
  BranchFn rhs = [&]() -> llvm::SmallVector<kir::Value *, 1> {
    kir::Value *r = expr(e->getRHS());
    return {r ? convert(r, kir::Type::boolean()) : nullptr};
  };
  BranchFn fixed = [&]() -> llvm::SmallVector<kir::Value *, 1> {
    return {b->constBool(!isAnd)};
  };
  return buildIf(l, {kir::Type::boolean()}, isAnd ? rhs : fixed,
                 isAnd ? fixed : rhs)[0];
}

kir::Value *KernelLowering::conditional(const ConditionalOperator *e) {
  if (e->getType()->isVoidType()) {
    // `c ? f() : g()` for its effects: an if without results.
    kir::Value *c = expr(e->getCond());
    if (!c)
      return nullptr;
    at(e->getExprLoc());
    auto arm = [&](const Expr *x) {
      return [this, x]() -> llvm::SmallVector<kir::Value *, 1> {
        discard(x);
        return {};
      };
    };
    buildIf(convert(c, kir::Type::boolean()), {}, arm(e->getTrueExpr()),
            arm(e->getFalseExpr()));
    return failed ? nullptr : &voidValue;
  }
  if (const llvm::SmallVector<kir::Type, 4> *leaves =
          aggregateLeaves(e->getType())) {
    // `c ? s1 : s2` on structs: an if with one result per leaf.
    kir::Value *c = expr(e->getCond());
    if (!c)
      return nullptr;
    at(e->getExprLoc());
    c = convert(c, kir::Type::boolean());
    auto arm = [&](const Expr *x) {
      return [this, x, e]() -> llvm::SmallVector<kir::Value *, 1> {
        kir::Value *v = convertTo(expr(x), e->getType(), x->getExprLoc());
        if (!v)
          return {};
        Vals parts = partsOf(v);
        return llvm::SmallVector<kir::Value *, 1>(parts.begin(), parts.end());
      };
    };
    llvm::SmallVector<kir::Value *, 1> r =
        buildIf(c, *leaves, arm(e->getTrueExpr()), arm(e->getFalseExpr()));
    if (failed || llvm::is_contained(r, nullptr))
      return nullptr;
    return makeAggregate(r);
  }
  std::optional<kir::Type> t = mapType(e->getType());
  if (!t)
    return fail(e->getExprLoc(), msg::UnsupportedType,
                {quoted(e->getType().getAsString(ctx.getPrintingPolicy()))});
  kir::Value *c = expr(e->getCond());
  if (!c)
    return nullptr;
  at(e->getExprLoc());
  c = convert(c, kir::Type::boolean());
  auto arm = [&](const Expr *x) {
    return [this, x]() -> llvm::SmallVector<kir::Value *, 1> {
      return {expr(x)};
    };
  };
  return buildIf(c, {*t}, arm(e->getTrueExpr()), arm(e->getFalseExpr()))[0];
}

//===----------------------------------------------------------------------===//
// Places
//===----------------------------------------------------------------------===//

LValue KernelLowering::lvalue(const Expr *e) {
  if (failed || !e)
    return LValue();
  at(e->getExprLoc());
  switch (e->getStmtClass()) {
  case Stmt::ParenExprClass:
    return lvalue(cast<ParenExpr>(e)->getSubExpr());
  case Stmt::ImplicitCastExprClass:
    if (cast<ImplicitCastExpr>(e)->getCastKind() == CK_NoOp)
      return lvalue(cast<ImplicitCastExpr>(e)->getSubExpr());
    break;
  case Stmt::DeclRefExprClass:
    if (const auto *vd = dyn_cast<VarDecl>(cast<DeclRefExpr>(e)->getDecl())) {
      auto alias = aliases.find(vd);
      if (alias != aliases.end())
        return alias->second;
      LValue lv;
      lv.kind = LValue::Kind::Local;
      lv.var = vd;
      if (std::optional<kir::Type> t = mapType(vd->getType()))
        lv.type = *t;
      if (const auto *leaves = aggregateLeaves(vd->getType())) {
        lv.count = leaves->size();
        lv.aggregate = true;
      }
      return lv;
    }
    if (const auto *bd =
            dyn_cast<BindingDecl>(cast<DeclRefExpr>(e)->getDecl())) {
      if (const VarDecl *hv = bd->getHoldingVar())
        return lvalue(hv->getInit());
      if (const Expr *binding = bd->getBinding())
        return lvalue(binding);
    }
    break;
  case Stmt::MemberExprClass:
    return memberLValue(cast<MemberExpr>(e));
  case Stmt::CXXOperatorCallExprClass:
  case Stmt::CallExprClass:
  case Stmt::CXXMemberCallExprClass:
    if (isViewElementAccess(e))
      return viewElement(cast<CXXOperatorCallExpr>(e));
    if (const Expr *arg = identityCallArg(cast<CallExpr>(e)))
      return lvalue(arg);
    if (isTupleGet(cast<CallExpr>(e)))
      return tupleGet(cast<CallExpr>(e), cast<CallExpr>(e)->getDirectCallee());
    break;
  case Stmt::BinaryOperatorClass:
  case Stmt::CompoundAssignOperatorClass:
    if (cast<BinaryOperator>(e)->isAssignmentOp())
      return assign(cast<BinaryOperator>(e));
    if (cast<BinaryOperator>(e)->getOpcode() == BO_Comma) {
      discard(cast<BinaryOperator>(e)->getLHS());
      return lvalue(cast<BinaryOperator>(e)->getRHS());
    }
    break;
  case Stmt::UnaryOperatorClass: {
    const auto *uo = cast<UnaryOperator>(e);
    if (uo->getOpcode() == UO_PreInc || uo->getOpcode() == UO_PreDec)
      return incDec(uo, nullptr);
    if (uo->getOpcode() == UO_Deref)
      return fail(uo->getOperatorLoc(), msg::Deref), LValue();
    break;
  }
  default:
    break;
  }
  // A struct-typed temporary (a call result, a braced list): a read-only
  // place whose members can be read.
  if (isAggregateType(e->getType())) {
    kir::Value *v = aggregateExpr(e);
    if (!v)
      return LValue();
    LValue lv;
    lv.kind = LValue::Kind::Temp;
    lv.temp = partsOf(v);
    lv.count = lv.temp.size();
    lv.aggregate = true;
    return lv;
  }
  // Not a place the subset supports: report the construct itself.
  expr(e);
  if (!failed)
    unsupported(e);
  return LValue();
}
