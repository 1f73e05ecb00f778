//===- LowerTuple.cpp - std::pair and std::tuple, scalar-replaced --------===//
//
// std::pair<A, B> and std::tuple<Ts...> whose elements are scalars, structs
// of scalars or such pairs and tuples are aggregates (LowerAggregate.cpp):
// one SSA value per scalar leaf, the elements' leaves in element order. The
// standard library's implementation (bases, constructors with SFINAE,
// non-trivial assignment) is never inlined; the lowering knows the
// semantics instead:
//
//   pair<A,B>{a, b}, pair<A,B>(a, b), tuple<..>(xs..)   elementwise converts
//   pair<A,B>(), tuple<..>{}                          value-initialized (0)
//   pair<A,B>(other_pair), p = q, p = {a, b}          elementwise converts
//   std::make_pair(a, b), std::make_tuple(xs..)       elementwise
//   p.first, p.second, std::get<I>(t), std::get<T>(t)  places (read, write)
//   auto [x, y] = p                                    through std::get
//
// Anything else of the standard library on them (std::tie, swap, comparison
// operators, tuple_cat, ...) is reported (msg::TupleCall). A pair or tuple
// with a view, reference or class element is reported where it appears
// (msg::TupleElement).
//
//===----------------------------------------------------------------------===//

#include "KernelLowering.h"

#include "clang/AST/DeclTemplate.h"

using namespace clang;
using namespace intent;
using namespace intent::plugin;

std::optional<llvm::SmallVector<QualType, 4>>
KernelLowering::tupleElements(QualType t) const {
  const auto *rd = dyn_cast_or_null<ClassTemplateSpecializationDecl>(
      t.getNonReferenceType().getCanonicalType()->getAsCXXRecordDecl());
  if (!rd || !rd->isInStdNamespace() || !rd->getIdentifier() ||
      (rd->getName() != "pair" && rd->getName() != "tuple"))
    return std::nullopt;
  llvm::SmallVector<QualType, 4> elems;
  for (const TemplateArgument &a : rd->getTemplateArgs().asArray()) {
    if (a.getKind() == TemplateArgument::Type) {
      elems.push_back(a.getAsType());
      continue;
    }
    if (a.getKind() != TemplateArgument::Pack)
      return std::nullopt;
    for (const TemplateArgument &p : a.pack_elements()) {
      if (p.getKind() != TemplateArgument::Type)
        return std::nullopt;
      elems.push_back(p.getAsType());
    }
  }
  return elems;
}

std::optional<QualType> KernelLowering::badTupleElement(QualType t) const {
  std::optional<llvm::SmallVector<QualType, 4>> elems = tupleElements(t);
  if (!elems)
    return std::nullopt;
  for (QualType e : *elems) {
    if (e->isReferenceType())
      return e;
    if (scalarType(e))
      continue;
    if (std::optional<QualType> inner = badTupleElement(e))
      return inner;
    if (!isAggregateType(e))
      return e;
  }
  return std::nullopt;
}

bool KernelLowering::reportTupleElement(QualType t, SourceLocation loc) {
  std::optional<QualType> bad = badTupleElement(t);
  if (!bad)
    return false;
  const PrintingPolicy &pp = ctx.getPrintingPolicy();
  fail(loc, msg::TupleElement,
       {quoted(t.getNonReferenceType().getUnqualifiedType().getAsString(pp)),
        quoted(bad->getAsString(pp))});
  return true;
}

std::pair<unsigned, unsigned>
KernelLowering::elementLeaves(QualType t, unsigned i) const {
  std::optional<llvm::SmallVector<QualType, 4>> elems = tupleElements(t);
  assert(elems && i < elems->size() && "an element of a pair or tuple");
  unsigned first = 0;
  for (unsigned j = 0;; ++j) {
    const llvm::SmallVector<kir::Type, 4> *inner =
        aggregateLeaves((*elems)[j]);
    unsigned n = inner ? inner->size() : 1;
    if (j == i)
      return {first, n};
    first += n;
  }
}

kir::Value *KernelLowering::tupleFromElements(
    QualType t, llvm::ArrayRef<const Expr *> args, SourceLocation loc) {
  std::optional<llvm::SmallVector<QualType, 4>> elems = tupleElements(t);
  assert(elems && elems->size() == args.size());
  Vals parts;
  for (unsigned i = 0; i < args.size(); ++i) {
    kir::Value *v =
        convertTo(expr(args[i]), (*elems)[i], args[i]->getExprLoc());
    if (!v)
      return nullptr;
    Vals ep = partsOf(v);
    parts.append(ep.begin(), ep.end());
  }
  at(loc);
  return makeAggregate(parts);
}

kir::Value *KernelLowering::tupleConstruct(const CXXConstructExpr *c) {
  QualType t = c->getType();
  SourceLocation loc = c->getExprLoc();
  std::optional<llvm::SmallVector<QualType, 4>> elems = tupleElements(t);
  assert(elems && "a pair or tuple");
  unsigned n = c->getNumArgs();
  if (n == 0)
    return defaultValue(t, loc);
  // A copy, move or converting constructor from another pair or tuple.
  if (n == 1 && tupleElements(c->getArg(0)->getType())) {
    std::optional<llvm::SmallVector<QualType, 4>> from =
        tupleElements(c->getArg(0)->getType());
    if (from->size() == elems->size())
      return convertTo(expr(c->getArg(0)), t, loc);
  }
  if (n == elems->size()) {
    llvm::SmallVector<const Expr *, 4> args(c->arg_begin(), c->arg_end());
    return tupleFromElements(t, args, loc);
  }
  return fail(loc, msg::ClassConstructor,
              {quoted(t.getAsString(ctx.getPrintingPolicy()))});
}

LValue KernelLowering::tupleGet(const CallExpr *e, const FunctionDecl *fd) {
  const TemplateArgumentList *targs = fd->getTemplateSpecializationArgs();
  const Expr *obj = e->getNumArgs() == 1 ? e->getArg(0) : nullptr;
  std::optional<llvm::SmallVector<QualType, 4>> elems =
      obj ? tupleElements(obj->getType()) : std::nullopt;
  if (!targs || !targs->size() || !elems) {
    fail(e->getExprLoc(), msg::TupleCall, {"std::get"});
    return LValue();
  }
  // std::get<I>(t) or std::get<T>(t) (the element of type T).
  std::optional<unsigned> index;
  const TemplateArgument &a = targs->get(0);
  if (a.getKind() == TemplateArgument::Integral) {
    index = static_cast<unsigned>(a.getAsIntegral().getZExtValue());
  } else if (a.getKind() == TemplateArgument::Type) {
    for (unsigned i = 0; i < elems->size(); ++i)
      if (ctx.hasSameType((*elems)[i], a.getAsType()))
        index = i;
  }
  if (!index || *index >= elems->size()) {
    fail(e->getExprLoc(), msg::TupleCall, {"std::get"});
    return LValue();
  }
  LValue lv = lvalue(obj);
  if (!lv.valid())
    return LValue();
  assert((lv.kind == LValue::Kind::Local || lv.kind == LValue::Kind::Temp) &&
         lv.aggregate && "a pair or tuple place");
  QualType et = (*elems)[*index];
  auto [first, count] = elementLeaves(obj->getType(), *index);
  lv.leaf += first;
  lv.count = count;
  lv.aggregate = isAggregateType(et);
  lv.type = kir::Type();
  if (std::optional<kir::Type> s = scalarType(et))
    lv.type = *s;
  return lv;
}

bool KernelLowering::isTupleGet(const CallExpr *e) const {
  const FunctionDecl *fd = e->getDirectCallee();
  return fd && fd->isInStdNamespace() && fd->getIdentifier() &&
         fd->getName() == "get" && e->getNumArgs() == 1 &&
         tupleElements(e->getArg(0)->getType());
}

kir::Value *KernelLowering::tupleCall(const CallExpr *e,
                                      const FunctionDecl *fd, bool &handled) {
  handled = false;
  if (!fd->isInStdNamespace() || !fd->getIdentifier())
    return nullptr;
  llvm::StringRef n = fd->getName();
  if (n == "get" && isTupleGet(e)) {
    handled = true;
    LValue lv = tupleGet(e, fd);
    return lv.valid() ? read(lv, e->getExprLoc()) : nullptr;
  }
  if ((n == "make_pair" || n == "make_tuple") &&
      tupleElements(e->getType())) {
    handled = true;
    if (reportTupleElement(e->getType(), e->getExprLoc()))
      return nullptr;
    llvm::SmallVector<const Expr *, 4> args(e->arg_begin(), e->arg_end());
    if (args.size() != tupleElements(e->getType())->size())
      return fail(e->getExprLoc(), msg::TupleCall, {"std::" + n.str()});
    return tupleFromElements(e->getType(), args, e->getExprLoc());
  }
  // Any other standard function on pairs or tuples (std::tie, swap,
  // tuple_cat, forward_as_tuple, comparisons) would inline the library's
  // internals: say what to write instead.
  bool onTuple = tupleElements(e->getType()).has_value();
  for (const Expr *a : e->arguments())
    onTuple = onTuple || tupleElements(a->getType()).has_value();
  if (onTuple) {
    handled = true;
    return fail(e->getExprLoc(), msg::TupleCall, {"std::" + n.str()});
  }
  return nullptr;
}
