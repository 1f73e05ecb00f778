//===- LowerAggregate.cpp - Structs of scalars, scalar-replaced -----------===//
//
// A local of struct type (an "aggregate": a trivially copyable class without
// bases whose fields are scalars or aggregates, e.g. a Welford accumulator
// {count, mean, m2} or intent::arg_result<T>) has no KIR type of its own: it
// is scalar-replaced, one SSA value per scalar leaf in field order. `env`
// holds one slot per leaf, so if-results and loop-carried values work per
// leaf without special cases. An aggregate rvalue travels through the
// expression lowering as a placeholder kir::Value (type none, never an
// operand) whose leaves are recorded in `aggParts`.
//
// Supported: brace and aggregate initialization (also with default member
// initializers), default initialization, copies, member access (nested
// too), assignment of a whole struct or a member, `c ? s1 : s2`, passing to
// and returning from inlined helpers and lambdas (by value, const & and
// non-const &). Constructors with a body and member functions are not.
//
//===----------------------------------------------------------------------===//

#include "KernelLowering.h"

using namespace clang;
using namespace intent;
using namespace intent::plugin;

//===----------------------------------------------------------------------===//
// Layout
//===----------------------------------------------------------------------===//

const llvm::SmallVector<kir::Type, 4> *
KernelLowering::aggregateLeaves(QualType t) const {
  const CXXRecordDecl *rd =
      t.getNonReferenceType().getCanonicalType()->getAsCXXRecordDecl();
  if (!rd)
    return nullptr;
  auto it = aggLayouts.find(rd);
  if (it != aggLayouts.end())
    return it->second ? &*it->second : nullptr;

  // Mark as "not an aggregate" while computing, so that a (malformed)
  // self-reference cannot recurse forever.
  aggLayouts[rd] = std::nullopt;
  // std::pair / std::tuple (LowerTuple.cpp): the leaves of the elements.
  if (std::optional<llvm::SmallVector<QualType, 4>> elems = tupleElements(t)) {
    llvm::SmallVector<kir::Type, 4> leaves;
    for (QualType e : *elems) {
      if (e->isReferenceType())
        return nullptr;
      if (std::optional<kir::Type> s = scalarType(e)) {
        leaves.push_back(*s);
        continue;
      }
      const llvm::SmallVector<kir::Type, 4> *inner = aggregateLeaves(e);
      if (!inner)
        return nullptr;
      leaves.append(inner->begin(), inner->end());
    }
    if (leaves.empty())
      return nullptr;
    std::optional<llvm::SmallVector<kir::Type, 4>> &slot = aggLayouts[rd];
    slot = std::move(leaves);
    return &*slot;
  }
  const CXXRecordDecl *def = rd->getDefinition();
  if (!def || def->isUnion() || def->isLambda() || def->getNumBases() ||
      def->isPolymorphic() || !def->isTriviallyCopyable() ||
      def->isDependentType())
    return nullptr;
  // intent's own classes keep their dedicated handling (views, buffers,
  // philox); only the plain structs are aggregates.
  if (intentRecord(t) && def->getName() != "range" &&
      def->getName() != "arg_result" && def->getName() != "cas_result")
    return nullptr;
  llvm::SmallVector<kir::Type, 4> leaves;
  for (const FieldDecl *f : def->fields()) {
    QualType ft = f->getType();
    if (f->isBitField() || ft->isReferenceType())
      return nullptr;
    if (std::optional<kir::Type> s = scalarType(ft)) {
      leaves.push_back(*s);
      continue;
    }
    const llvm::SmallVector<kir::Type, 4> *inner = aggregateLeaves(ft);
    if (!inner)
      return nullptr;
    leaves.append(inner->begin(), inner->end());
  }
  if (leaves.empty())
    return nullptr;
  std::optional<llvm::SmallVector<kir::Type, 4>> &slot = aggLayouts[rd];
  slot = std::move(leaves);
  return &*slot;
}

std::pair<unsigned, unsigned>
KernelLowering::fieldLeaves(const FieldDecl *fd) const {
  // std::pair's first and second are its elements 0 and 1.
  QualType parent = ctx.getRecordType(fd->getParent());
  if (tupleElements(parent) && fd->getIdentifier())
    return elementLeaves(parent, fd->getName() == "first" ? 0 : 1);
  unsigned first = 0;
  for (const FieldDecl *f : fd->getParent()->fields()) {
    const llvm::SmallVector<kir::Type, 4> *inner =
        aggregateLeaves(f->getType());
    unsigned n = inner ? inner->size() : 1;
    if (f == fd)
      return {first, n};
    first += n;
  }
  llvm_unreachable("field not in its parent");
}

//===----------------------------------------------------------------------===//
// Aggregate values
//===----------------------------------------------------------------------===//

kir::Value *KernelLowering::makeAggregate(llvm::ArrayRef<kir::Value *> parts) {
  aggPool.emplace_back();
  kir::Value *v = &aggPool.back();
  aggParts[v] = Vals(parts.begin(), parts.end());
  return v;
}

KernelLowering::Vals KernelLowering::partsOf(kir::Value *v) const {
  auto it = aggParts.find(v);
  if (it != aggParts.end())
    return it->second;
  return {v};
}

kir::Value *KernelLowering::convertTo(kir::Value *v, QualType t,
                                      SourceLocation loc) {
  if (!v)
    return nullptr;
  if (const llvm::SmallVector<kir::Type, 4> *leaves = aggregateLeaves(t)) {
    Vals parts = partsOf(v);
    if (!isAggregateValue(v) || parts.size() != leaves->size())
      return fail(loc, msg::ClassValue,
                  {quoted(t.getNonReferenceType().getAsString(
                      ctx.getPrintingPolicy()))});
    for (unsigned i = 0; i < parts.size(); ++i)
      parts[i] = convert(parts[i], (*leaves)[i]);
    return makeAggregate(parts);
  }
  if (isAggregateValue(v))
    return fail(loc, msg::UnsupportedType,
                {quoted(t.getNonReferenceType().getAsString(
                    ctx.getPrintingPolicy()))});
  if (std::optional<kir::Type> s = scalarType(t))
    return convert(v, *s);
  return v;
}

kir::Value *KernelLowering::defaultValue(QualType t, SourceLocation loc) {
  if (std::optional<kir::Type> s = scalarType(t))
    return zero(*s);
  const CXXRecordDecl *rd =
      t.getNonReferenceType().getCanonicalType()->getAsCXXRecordDecl();
  if (!rd || !isAggregateType(t))
    return fail(loc, msg::UnsupportedType,
                {quoted(t.getAsString(ctx.getPrintingPolicy()))});
  Vals parts;
  // A value-initialized pair or tuple: every element value-initialized.
  if (std::optional<llvm::SmallVector<QualType, 4>> elems = tupleElements(t)) {
    for (QualType e : *elems) {
      kir::Value *v = defaultValue(e, loc);
      if (!v)
        return nullptr;
      Vals ep = partsOf(v);
      parts.append(ep.begin(), ep.end());
    }
    return makeAggregate(parts);
  }
  for (const FieldDecl *f : rd->fields()) {
    kir::Value *v = nullptr;
    if (const Expr *init = f->getInClassInitializer())
      v = convertTo(expr(init), f->getType(), init->getExprLoc());
    else
      v = defaultValue(f->getType(), loc);
    if (!v)
      return nullptr;
    Vals fp = partsOf(v);
    parts.append(fp.begin(), fp.end());
  }
  return makeAggregate(parts);
}

/// The record type a constructor builds, for messages.
static std::string recordName(const CXXConstructExpr *c, ASTContext &ctx) {
  return quoted(c->getType().getAsString(ctx.getPrintingPolicy()));
}

kir::Value *KernelLowering::aggregateExpr(const Expr *e) {
  if (failed)
    return nullptr;
  e = strip(e);
  at(e->getExprLoc());
  QualType t = e->getType();
  switch (e->getStmtClass()) {
  case Stmt::DeclRefExprClass:
  case Stmt::MemberExprClass:
    return read(lvalue(e), e->getExprLoc());
  case Stmt::ConstantExprClass:
    return aggregateExpr(cast<ConstantExpr>(e)->getSubExpr());
  case Stmt::CXXDefaultInitExprClass:
    return aggregateExpr(cast<CXXDefaultInitExpr>(e)->getExpr());
  case Stmt::ImplicitValueInitExprClass:
    return defaultValue(t, e->getExprLoc());
  case Stmt::InitListExprClass: {
    const auto *il = cast<InitListExpr>(e);
    if (il->getNumInits() == 1 && !il->getInit(0)->getType()->isRecordType()
            ? false
            : il->getNumInits() == 1 &&
                  ctx.hasSameUnqualifiedType(il->getInit(0)->getType(), t))
      return convertTo(expr(il->getInit(0)), t, e->getExprLoc());
    const CXXRecordDecl *rd = t->getAsCXXRecordDecl();
    Vals parts;
    unsigned i = 0;
    for (const FieldDecl *f : rd->fields()) {
      kir::Value *v = nullptr;
      if (i < il->getNumInits()) {
        const Expr *init = il->getInit(i);
        v = convertTo(expr(init), f->getType(), init->getExprLoc());
      } else if (const Expr *init = f->getInClassInitializer()) {
        v = convertTo(expr(init), f->getType(), init->getExprLoc());
      } else {
        v = defaultValue(f->getType(), e->getExprLoc());
      }
      ++i;
      if (!v)
        return nullptr;
      Vals fp = partsOf(v);
      parts.append(fp.begin(), fp.end());
    }
    return makeAggregate(parts);
  }
  case Stmt::CXXConstructExprClass:
  case Stmt::CXXTemporaryObjectExprClass: {
    const auto *c = cast<CXXConstructExpr>(e);
    if (tupleElements(t))
      return tupleConstruct(c);
    const CXXConstructorDecl *ctor = c->getConstructor();
    if (ctor->isCopyOrMoveConstructor() && ctor->isTrivial() &&
        c->getNumArgs() == 1)
      return convertTo(expr(c->getArg(0)), t, e->getExprLoc());
    if (c->getNumArgs() == 0 && ctor->isDefaultConstructor() &&
        !ctor->isUserProvided())
      return defaultValue(t, e->getExprLoc());
    return fail(e->getExprLoc(), msg::ClassConstructor, {recordName(c, ctx)});
  }
  case Stmt::ImplicitCastExprClass:
  case Stmt::CStyleCastExprClass:
  case Stmt::CXXFunctionalCastExprClass:
  case Stmt::CXXStaticCastExprClass:
  case Stmt::CXXConstCastExprClass: {
    const auto *ce = cast<CastExpr>(e);
    if (ce->getCastKind() == CK_NoOp ||
        ce->getCastKind() == CK_LValueToRValue ||
        ce->getCastKind() == CK_ConstructorConversion)
      return convertTo(expr(ce->getSubExpr()), t, e->getExprLoc());
    return fail(e->getExprLoc(), msg::GenericCast, {ce->getCastKindName()});
  }
  case Stmt::BinaryOperatorClass: {
    const auto *bo = cast<BinaryOperator>(e);
    if (bo->getOpcode() != BO_Comma)
      return unsupported(e);
    discard(bo->getLHS());
    return expr(bo->getRHS());
  }
  case Stmt::ConditionalOperatorClass:
    return conditional(cast<ConditionalOperator>(e));
  case Stmt::CXXOperatorCallExprClass:
  case Stmt::CallExprClass:
  case Stmt::CXXMemberCallExprClass: {
    kir::Value *v = call(cast<CallExpr>(e));
    return v ? convertTo(v, t, e->getExprLoc()) : nullptr;
  }
  default:
    return unsupported(e);
  }
}

//===----------------------------------------------------------------------===//
// Members and assignment
//===----------------------------------------------------------------------===//

LValue KernelLowering::memberLValue(const MemberExpr *e) {
  const Expr *base = e->getBase();
  if (e->isArrow()) {
    if (isa<CXXThisExpr>(base->IgnoreParenImpCasts()))
      fail(base->getExprLoc(), msg::This);
    else
      fail(e->getOperatorLoc(), msg::Deref);
    return LValue();
  }
  const ValueDecl *member = e->getMemberDecl();
  if (const auto *vd = dyn_cast<VarDecl>(member)) {
    // A static data member: a global (constexpr ones read as constants).
    LValue lv;
    lv.kind = LValue::Kind::Local;
    lv.var = vd;
    if (std::optional<kir::Type> t = mapType(vd->getType()))
      lv.type = *t;
    return lv;
  }
  const auto *field = dyn_cast<FieldDecl>(member);
  if (reportTupleElement(base->getType(), e->getExprLoc()))
    return LValue();
  if (!field || !isAggregateType(base->getType())) {
    fail(e->getExprLoc(), msg::ClassMember,
         {quoted(base->getType()
                     .getNonReferenceType()
                     .getUnqualifiedType()
                     .getAsString(ctx.getPrintingPolicy()))});
    return LValue();
  }
  LValue lv = lvalue(base);
  if (!lv.valid())
    return LValue();
  assert((lv.kind == LValue::Kind::Local || lv.kind == LValue::Kind::Temp) &&
         lv.aggregate && "an aggregate place");
  auto [first, count] = fieldLeaves(field);
  lv.leaf += first;
  lv.count = count;
  lv.aggregate = isAggregateType(field->getType());
  lv.type = kir::Type();
  if (std::optional<kir::Type> t = scalarType(field->getType()))
    lv.type = *t;
  return lv;
}

kir::Value *KernelLowering::aggregateAssign(const CXXOperatorCallExpr *e) {
  const auto *md = dyn_cast_or_null<CXXMethodDecl>(e->getDirectCallee());
  // std::pair/std::tuple's assignment operators are user-provided, but
  // assign elementwise (converting).
  bool tuple = tupleElements(e->getArg(0)->getType()).has_value();
  if (!md || (!md->isTrivial() && !tuple) || e->getNumArgs() != 2)
    return fail(e->getExprLoc(), msg::MethodCall,
                {"operator=", quoted(md ? md->getParent()->getNameAsString()
                                        : std::string("?"))});
  // C++17: the right operand is sequenced before the left one.
  kir::Value *r = expr(e->getArg(1));
  if (r && tuple)
    r = convertTo(r, e->getArg(0)->getType(), e->getExprLoc());
  if (!r)
    return nullptr;
  LValue lv = lvalue(e->getArg(0));
  if (!lv.valid() || !write(lv, r, e->getExprLoc()))
    return nullptr;
  return read(lv, e->getExprLoc());
}
