//===- LowerCall.cpp - Calls: intrinsics, math, parallel_for, inlining ---===//
//
// The members of intent::view are intrinsics recognised by class and member
// name; their bodies are never inlined. <cmath> functions become `math` ops
// named by the double-precision C function; std::min/std::max become
// `min`/`max`. intent::parallel_for becomes `parallel_for` with the lambda's
// body as its region. Every other call with a visible body is inlined:
// parameters are bound (by value, by const reference as a value, by non-const
// reference as an alias of the argument place), then the body is lowered.
//
//===----------------------------------------------------------------------===//

#include "KIR/OpTable.h"
#include "KernelLowering.h"

#include "clang/AST/DeclTemplate.h"
#include "clang/Basic/SourceManager.h"

#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/StringSwitch.h"

using namespace clang;
using namespace intent;
using namespace intent::plugin;

/// "intent::NAME" when `d` is declared in namespace intent, else "".
static std::string intentName(const NamedDecl *d) {
  std::string q = d->getQualifiedNameAsString();
  return llvm::StringRef(q).starts_with("intent::") ? q : std::string();
}

//===----------------------------------------------------------------------===//
// Dispatch
//===----------------------------------------------------------------------===//

kir::Value *KernelLowering::call(const CallExpr *e) {
  if (failed)
    return nullptr;
  SourceLocation loc = e->getExprLoc();
  if (const auto *oc = dyn_cast<CXXOperatorCallExpr>(e)) {
    const auto *md = dyn_cast_or_null<CXXMethodDecl>(oc->getDirectCallee());
    if (md && md->getParent()->isLambda() &&
        oc->getOperator() == OO_Call) {
      const LambdaExpr *l = lambdaOf(oc->getArg(0));
      if (!l)
        return fail(loc, msg::LambdaEscape);
      if (l->isMutable())
        return fail(l->getBeginLoc(), msg::MutableLambda);
      llvm::SmallVector<const Expr *, 4> args(oc->arg_begin() + 1,
                                              oc->arg_end());
      if (isa<LambdaExpr>(strip(oc->getArg(0))) && !bindInitCaptures(l))
        return nullptr;
      return inlineCall(md, args, loc);
    }
    if (md && oc->getOperator() == OO_Equal &&
        isAggregateType(oc->getArg(0)->getType()))
      return aggregateAssign(oc);
    if (md && oc->getOperator() == OO_Equal &&
        tupleElements(oc->getArg(0)->getType()) &&
        !isAggregateType(oc->getArg(0)->getType())) {
      // Assigning to a pair/tuple with unsupported elements (std::tie).
      expr(oc->getArg(0));
      if (!failed)
        reportTupleElement(oc->getArg(0)->getType(), loc);
      return nullptr;
    }
    if (md && oc->getOperator() == OO_Equal &&
        halfKind(oc->getArg(0)->getType()))
      return halfAssign(oc);
    if (!md && oc->getDirectCallee()) {
      // A free operator function, e.g. `Pair operator+(Pair, Pair)`.
      llvm::SmallVector<const Expr *, 4> args(oc->arg_begin(), oc->arg_end());
      return inlineCall(oc->getDirectCallee(), args, loc);
    }
    if (md && isBufferType(oc->getArg(0)->getType()) &&
        oc->getOperator() == OO_Equal)
      return fail(loc, msg::BufferAssign);
    if (md && isViewType(oc->getArg(0)->getType()) &&
        oc->getOperator() == OO_Equal) {
      // Assigning a view to a view variable.
      kir::Value *v = expr(oc->getArg(1));
      LValue lv = lvalue(oc->getArg(0));
      if (!v || !lv.valid() || !write(lv, v, loc))
        return nullptr;
      return v;
    }
    // A virtual operator (a functor called through a base reference would
    // dispatch on its dynamic type): rejected like any virtual call.
    if (md && md->isVirtual())
      return fail(loc, msg::VirtualCall, {md->getNameAsString()});
    if (md && oc->getOperator() == OO_Call && !md->isStatic() &&
        md->getParent()->field_empty() &&
        !intentRecord(oc->getArg(0)->getType())) {
      // A stateless function object (intent::ops::plus{}(a, b), a user
      // functor without fields): the object itself carries nothing.
      llvm::SmallVector<const Expr *, 4> args(oc->arg_begin() + 1,
                                              oc->arg_end());
      return inlineCall(md, args, loc);
    }
    if (md) {
      if (std::string n = intentName(md->getParent()); !n.empty())
        return fail(loc, msg::NotYetSupported, {n});
      return fail(loc, msg::MethodCall,
                  {md->getNameAsString(),
                   quoted(md->getParent()->getNameAsString())});
    }
    return fail(loc, msg::ClassValue,
                {quoted(oc->getArg(0)->getType().getAsString(ctx.getPrintingPolicy()))});
  }
  if (const auto *mc = dyn_cast<CXXMemberCallExpr>(e)) {
    const CXXMethodDecl *md = mc->getMethodDecl();
    const Expr *obj = mc->getImplicitObjectArgument();
    if (md && obj && isViewType(obj->getType()))
      return viewMember(mc);
    if (md && obj && isPhiloxType(obj->getType()))
      return rngCall(mc);
    if (md && obj && halfKind(obj->getType()))
      return halfMember(mc);
    if (md && obj && isBufferType(obj->getType()))
      return bufferMember(mc, md);
    if (md && md->isVirtual())
      return fail(loc, msg::VirtualCall, {md->getNameAsString()});
    if (md) {
      if (std::string n = intentName(md->getParent()); !n.empty())
        return fail(loc, msg::NotYetSupported, {n});
      return fail(loc, msg::MethodCall,
                  {md->getNameAsString(),
                   quoted(md->getParent()->getNameAsString())});
    }
    return unsupported(e);
  }

  const FunctionDecl *fd = e->getDirectCallee();
  if (!fd)
    return fail(loc, msg::FunctionPointer);
  if (const auto *md = dyn_cast<CXXMethodDecl>(fd);
      md && md->isStatic() && isBufferType(ctx.getRecordType(md->getParent())))
    return bufferMember(e, md); // b.size() (static)
  if (const Expr *arg = identityCallArg(e))
    return expr(arg);
  {
    bool handled = false;
    kir::Value *v = tupleCall(e, fd, handled);
    if (handled)
      return v;
  }
  if (std::string n = intentName(fd);
      !n.empty() && !llvm::StringRef(n).starts_with("intent::detail::")) {
    if (n == "intent::parallel_for")
      return parallelFor(e);
    if (n == "intent::ordered")
      return fail(loc, msg::OrderedArg);
    if (n == "intent::matmul")
      return matmulCall(e);
    bool handled = false;
    kir::Value *v = reductionCall(e, fd, handled);
    if (handled)
      return v;
    v = atomicCall(e, fd, handled);
    if (handled)
      return v;
    return fail(loc, msg::NotYetSupported, {n});
  }
  bool handled = false;
  kir::Value *v = printCall(e, fd, handled);
  if (handled)
    return v;
  v = mathCall(e, fd, handled);
  if (handled)
    return v;
  llvm::SmallVector<const Expr *, 4> args(e->arg_begin(), e->arg_end());
  return inlineCall(fd, args, loc);
}

const Expr *KernelLowering::identityCallArg(const CallExpr *e) {
  const FunctionDecl *fd = e->getDirectCallee();
  if (!fd || !fd->isInStdNamespace() || !fd->getIdentifier() ||
      e->getNumArgs() != 1)
    return nullptr;
  llvm::StringRef n = fd->getName();
  if (n == "move" || n == "forward" || n == "move_if_noexcept" ||
      n == "as_const")
    return e->getArg(0);
  return nullptr;
}

//===----------------------------------------------------------------------===//
// intent::view
//===----------------------------------------------------------------------===//

bool KernelLowering::isViewElementAccess(const Expr *e) const {
  const auto *oc = dyn_cast<CXXOperatorCallExpr>(e);
  if (!oc || oc->getNumArgs() < 1)
    return false;
  if (oc->getOperator() != OO_Call && oc->getOperator() != OO_Subscript)
    return false;
  return isViewType(oc->getArg(0)->getType()) ||
         (oc->getOperator() == OO_Subscript &&
          isBufferType(oc->getArg(0)->getType()));
}

LValue KernelLowering::viewElement(const CXXOperatorCallExpr *e) {
  kir::Value *view = expr(e->getArg(0));
  if (!view)
    return LValue();
  if (!view->type.isView())
    return unsupported(e), LValue();
  LValue lv;
  lv.kind = LValue::Kind::Element;
  lv.view = view;
  lv.type = kir::elementType(view->type);
  for (unsigned i = 1; i < e->getNumArgs(); ++i) {
    kir::Value *idx = indexValue(e->getArg(i));
    if (!idx)
      return LValue();
    lv.indices.push_back(idx);
  }
  if (lv.indices.size() != static_cast<size_t>(view->type.rank))
    return unsupported(e), LValue();
  return lv;
}

std::optional<int64_t> KernelLowering::constDim(const Expr *e,
                                                llvm::StringRef what,
                                                int rankLimit) {
  Expr::EvalResult r;
  if (e->isValueDependent() || !e->EvaluateAsInt(r, ctx)) {
    fail(e->getExprLoc(), msg::DynamicDim, {what.str()});
    return std::nullopt;
  }
  int64_t d = r.Val.getInt().getExtValue();
  if (d < 0 || d >= rankLimit) {
    fail(e->getExprLoc(), msg::DimRange,
         {std::to_string(d), std::to_string(rankLimit)});
    return std::nullopt;
  }
  return d;
}

/// Collects the leaves of a (nested) braced list, e.g. std::array{m, n}.
static bool flattenInitList(const Expr *e,
                            llvm::SmallVectorImpl<const Expr *> &out) {
  e = KernelLowering::strip(e);
  const auto *il = dyn_cast<InitListExpr>(e);
  if (!il)
    return false;
  for (const Expr *init : il->inits()) {
    const Expr *s = KernelLowering::strip(init);
    if (isa<InitListExpr>(s)) {
      if (!flattenInitList(s, out))
        return false;
      continue;
    }
    if (isa<ImplicitValueInitExpr>(s))
      return false;
    out.push_back(init);
  }
  return true;
}

kir::Value *KernelLowering::viewMember(const CXXMemberCallExpr *e) {
  const CXXMethodDecl *md = e->getMethodDecl();
  SourceLocation loc = e->getExprLoc();
  if (!md->getIdentifier())
    return unsupported(e);
  llvm::StringRef name = md->getName();
  kir::Value *view = expr(e->getImplicitObjectArgument());
  if (!view)
    return nullptr;
  if (!view->type.isView())
    return unsupported(e);
  int rank = view->type.rank;
  unsigned nargs = e->getNumArgs();
  auto index = [&](const Expr *x) { return indexValue(x); };
  auto subview = [&](llvm::StringRef kind,
                     llvm::ArrayRef<kir::Value *> extra) -> kir::Op * {
    std::optional<kir::Type> t = mapType(e->getType());
    if (!t || !t->isView())
      return unsupported(e), nullptr;
    llvm::SmallVector<kir::Value *, 4> ops = {view};
    ops.append(extra.begin(), extra.end());
    at(loc);
    kir::Op *op = b->create(kir::Opcode::SubView, ops, {*t});
    op->setAttr("kind", kind.str());
    return op;
  };

  if (name == "extent" || name == "stride") {
    if (nargs != 1)
      return unsupported(e);
    std::optional<int64_t> d = constDim(e->getArg(0), name, rank);
    if (!d)
      return nullptr;
    at(loc);
    kir::Op *op = b->create(name == "extent" ? kir::Opcode::Extent
                                             : kir::Opcode::Stride,
                            {view}, {kir::Type::index()});
    op->setAttr("dim", *d);
    return op->result();
  }
  if (name == "size" || name == "empty") {
    at(loc);
    kir::Value *n = nullptr;
    for (int d = 0; d < rank; ++d) {
      kir::Op *ext = b->create(kir::Opcode::Extent, {view}, {kir::Type::index()});
      ext->setAttr("dim", int64_t(d));
      n = n ? b->binary(kir::Opcode::Mul, n, ext->result()) : ext->result();
    }
    if (name == "size")
      return n;
    return b->cmp("eq", n, b->constInt(0, kir::Type::index()));
  }
  if (name == "row") {
    kir::Value *i = nargs == 1 ? index(e->getArg(0)) : nullptr;
    if (!i)
      return failed ? nullptr : unsupported(e);
    kir::Op *op = subview("row", {i});
    return op ? op->result() : nullptr;
  }
  if (name == "slice") {
    if (nargs != 2)
      return unsupported(e);
    std::optional<int64_t> d = constDim(e->getArg(0), name, rank);
    if (!d)
      return nullptr;
    llvm::SmallVector<const Expr *, 2> bounds;
    if (!flattenInitList(e->getArg(1), bounds) || bounds.size() != 2)
      return fail(e->getArg(1)->getExprLoc(), msg::RangeArg);
    kir::Value *lo = index(bounds[0]);
    kir::Value *hi = lo ? index(bounds[1]) : nullptr;
    if (!hi)
      return nullptr;
    kir::Op *op = subview("slice", {lo, hi});
    if (!op)
      return nullptr;
    op->setAttr("dim", *d);
    return op->result();
  }
  if (name == "transpose") {
    int64_t d0 = 0, d1 = 1;
    if (nargs == 2) {
      std::optional<int64_t> a = constDim(e->getArg(0), name, rank);
      std::optional<int64_t> c = a ? constDim(e->getArg(1), name, rank)
                                   : std::nullopt;
      if (!c)
        return nullptr;
      d0 = *a;
      d1 = *c;
    } else if (nargs != 0) {
      return unsupported(e);
    }
    kir::Op *op = subview("transpose", {});
    if (!op)
      return nullptr;
    op->setAttr("dim0", d0);
    op->setAttr("dim1", d1);
    return op->result();
  }
  if (name == "reshape") {
    llvm::SmallVector<const Expr *, 4> exts;
    if (nargs != 1 || !flattenInitList(e->getArg(0), exts))
      return fail(loc, msg::ReshapeArg);
    llvm::SmallVector<kir::Value *, 4> vals;
    for (const Expr *x : exts) {
      kir::Value *v = index(x);
      if (!v)
        return nullptr;
      vals.push_back(v);
    }
    kir::Op *op = subview("reshape", vals);
    if (!op)
      return nullptr;
    if (op->result()->type.rank != static_cast<int>(vals.size()))
      return fail(loc, msg::ReshapeArg);
    op->setAttr("rank", int64_t(vals.size()));
    return op->result();
  }
  if (name == "broadcast" || name == "expand") {
    if (nargs != 2)
      return unsupported(e);
    std::optional<int64_t> d =
        constDim(e->getArg(0), name, name == "broadcast" ? rank + 1 : rank);
    kir::Value *n = d ? index(e->getArg(1)) : nullptr;
    if (!n)
      return nullptr;
    kir::Op *op = subview(name, {n});
    if (!op)
      return nullptr;
    op->setAttr("dim", *d);
    return op->result();
  }
  if (name == "data")
    return fail(loc, msg::RawPointer);
  return fail(loc, msg::ViewMember, {name.str()});
}

//===----------------------------------------------------------------------===//
// <cmath>
//===----------------------------------------------------------------------===//

/// The double-precision C name of a math function ("expf" -> "exp"), or "".
static std::string mathName(llvm::StringRef name) {
  // The names KIR's `math` op accepts (its op table, KIR/OpTable.h).
  static const llvm::StringSet<> known = [] {
    llvm::StringSet<> set;
    for (const std::string &n : intent::kir::mathFunctionNames())
      set.insert(n);
    return set;
  }();
  name.consume_front("__builtin_");
  if (name == "labs" || name == "llabs")
    return "abs";
  if (known.count(name))
    return name.str();
  if ((name.ends_with("f") || name.ends_with("l")) &&
      known.count(name.drop_back()))
    return name.drop_back().str();
  return "";
}

kir::Value *KernelLowering::mathCall(const CallExpr *e, const FunctionDecl *fd,
                                     bool &handled) {
  handled = false;
  const DeclContext *dc = fd->getDeclContext()->getRedeclContext();
  if (!fd->getIdentifier() || !(fd->isInStdNamespace() ||
                                dc->isTranslationUnit() || fd->isExternC()))
    return nullptr;
  if (!fd->getBuiltinID() && !sm.isInSystemHeader(fd->getLocation()))
    return nullptr;
  llvm::StringRef name = fd->getName();
  SourceLocation loc = e->getExprLoc();
  bool isMinMax = fd->isInStdNamespace() && (name == "min" || name == "max");
  std::string fn = isMinMax ? name.str() : mathName(name);
  if (fn.empty())
    return nullptr;
  handled = true;
  std::optional<kir::Type> rt = scalarType(e->getType());
  if (!rt)
    return fail(loc, msg::MathArgs, {fd->getQualifiedNameAsString()});
  llvm::SmallVector<kir::Value *, 3> args;
  for (const Expr *a : e->arguments()) {
    kir::Value *v = expr(a);
    if (!v)
      return nullptr;
    if (!v->type.isScalar())
      return fail(loc, msg::MathArgs, {fd->getQualifiedNameAsString()});
    args.push_back(v);
  }
  at(loc);
  if (isMinMax) {
    if (args.size() != 2)
      return fail(loc, msg::MathArgs, {fd->getQualifiedNameAsString()});
    kir::Op *op =
        b->create(name == "min" ? kir::Opcode::Min : kir::Opcode::Max,
                  {convert(args[0], *rt), convert(args[1], *rt)}, {*rt});
    op->setAttr("nan", std::string("std"));
    return op->result();
  }
  if (fn == "abs" && rt->isFloat())
    fn = "fabs";
  kir::Op *op = b->create(kir::Opcode::Math, args, {*rt});
  op->setAttr("fn", fn);
  return op->result();
}

//===----------------------------------------------------------------------===//
// Lambdas and parallel_for
//===----------------------------------------------------------------------===//

const LambdaExpr *KernelLowering::lambdaOf(const Expr *e) const {
  const Expr *s = strip(e);
  if (const auto *l = dyn_cast<LambdaExpr>(s))
    return l;
  const auto *dre = dyn_cast<DeclRefExpr>(s);
  const auto *vd = dre ? dyn_cast<VarDecl>(dre->getDecl()) : nullptr;
  if (!vd)
    return nullptr;
  if (const LambdaExpr *l = lambdaVars.lookup(vd))
    return l;
  if (vd->getInit() && !isa<ParmVarDecl>(vd))
    return dyn_cast<LambdaExpr>(strip(vd->getInit()));
  return nullptr;
}

const CXXMethodDecl *KernelLowering::callOperator(const LambdaExpr *l,
                                                  unsigned numArgs) const {
  if (!l->isGenericLambda())
    return l->getCallOperator();
  const FunctionTemplateDecl *ft = l->getDependentCallOperator();
  if (!ft)
    return nullptr;
  for (const FunctionDecl *spec : ft->specializations())
    if (spec->getNumParams() == numArgs && spec->hasBody())
      return dyn_cast<CXXMethodDecl>(spec);
  return nullptr;
}

bool KernelLowering::bindInitCaptures(const LambdaExpr *l) {
  for (const LambdaCapture &c : l->captures()) {
    if (c.capturesThis()) {
      fail(c.getLocation(), msg::This);
      return false;
    }
    if (!c.capturesVariable())
      continue;
    const auto *vd = dyn_cast<VarDecl>(c.getCapturedVar());
    if (!vd || !vd->isInitCapture())
      continue;
    if (const LambdaExpr *inner = lambdaOf(vd->getInit())) {
      lambdaVars[vd] = inner;
      continue;
    }
    kir::Value *v = expr(vd->getInit());
    if (!v)
      return false;
    bind(vd, v);
  }
  return true;
}

kir::Value *KernelLowering::parallelFor(const CallExpr *e) {
  SourceLocation loc = e->getExprLoc();
  for (const CaptureScope &cs : llvm::reverse(raceScopes))
    if (cs.callback)
      return fail(loc, msg::RegionParallel, {cs.what});
  unsigned n = e->getNumArgs();
  if (n < 2 || n > 4)
    return unsupported(e);
  const LambdaExpr *l = lambdaOf(e->getArg(n - 1));
  const CXXMethodDecl *op = l ? callOperator(l, n - 1) : nullptr;
  if (!op || !op->hasBody() || op->getNumParams() != n - 1)
    return fail(e->getArg(n - 1)->getExprLoc(), msg::ParallelBody);
  if (l->isMutable())
    return fail(l->getBeginLoc(), msg::MutableLambda);

  llvm::SmallVector<kir::Value *, 3> extents, offsets;
  for (unsigned i = 0; i + 1 < n; ++i) {
    const Expr *a = e->getArg(i);
    const CXXRecordDecl *rd = intentRecord(a->getType());
    if (rd && rd->getName() == "range") {
      kir::Value *lo, *hi;
      if (!domainBounds(a, lo, hi))
        return nullptr;
      at(a->getExprLoc());
      kir::Op *mx = b->create(kir::Opcode::Max,
                              {b->binary(kir::Opcode::Sub, hi, lo),
                               b->constInt(0, kir::Type::index())},
                              {kir::Type::index()});
      mx->setAttr("nan", std::string("std"));
      extents.push_back(mx->result());
      offsets.push_back(lo);
      continue;
    }
    kir::Value *v = indexValue(a);
    if (!v)
      return nullptr;
    extents.push_back(v);
    offsets.push_back(nullptr);
  }

  at(loc);
  kir::Op *pf = b->create(kir::Opcode::ParallelFor, extents, {});
  kir::Region *r = b->addRegion(pf);
  kir::Block *outer = b->block;
  b->setInsertionBlock(&r->block);
  CaptureScope scope;
  for (auto &kv : env)
    scope.outer.insert(kv.first.first);
  scope.message = msg::ParallelRace;
  raceScopes.push_back(std::move(scope));
  size_t mark = env.size();
  auto savedAliases = aliases;

  bool ok = true;
  for (unsigned i = 0; i + 1 < n; ++i)
    b->addBlockArg(&r->block, kir::Type::index(),
                   op->getParamDecl(i)->getNameAsString());
  for (unsigned i = 0; i + 1 < n && ok; ++i) {
    const ParmVarDecl *p = op->getParamDecl(i);
    kir::Value *idx = r->block.args[i];
    if (offsets[i])
      idx = b->binary(kir::Opcode::Add, idx, offsets[i]);
    QualType pt = p->getType();
    std::optional<kir::Type> t = scalarType(pt);
    if (!t || t->isFloat() ||
        (pt->isReferenceType() &&
         !pt.getNonReferenceType().isConstQualified())) {
      fail(p->getLocation(), msg::BadParamType,
           {p->getNameAsString(), quoted(pt.getAsString(ctx.getPrintingPolicy()))});
      ok = false;
      break;
    }
    bind(p, convert(idx, *t));
  }
  if (ok && bindInitCaptures(l) && body(op->getBody(), op, ctx.VoidTy, false) &&
      !failed) {
    at(op->getBody()->getEndLoc());
    b->create(kir::Opcode::Yield, {}, {});
  }
  popEnv(mark);
  aliases = std::move(savedAliases);
  raceScopes.pop_back();
  b->setInsertionBlock(outer);
  return failed ? nullptr : &voidValue;
}

//===----------------------------------------------------------------------===//
// Inlining
//===----------------------------------------------------------------------===//

/// A function of a call chain as the user knows it: 'ns::helper', or
/// 'a lambda' for a lambda's call operator.
static std::string calleeName(const FunctionDecl *f) {
  if (const auto *md = dyn_cast<CXXMethodDecl>(f); md && md->getParent()->isLambda())
    return "a lambda";
  return "'" + f->getQualifiedNameAsString() + "'";
}

/// The C library's console output functions other than printf (global or
/// in namespace std; printf itself is lowered by LowerPrint.cpp).
static bool isPrintFunction(const FunctionDecl *fd) {
  if (!fd->getIdentifier() || !fd->isExternC() ||
      !(fd->isInStdNamespace() ||
        fd->getDeclContext()->getRedeclContext()->isTranslationUnit()))
    return false;
  return llvm::StringSwitch<bool>(fd->getName())
      .Cases("fprintf", "vprintf", "vfprintf", "puts", "fputs", true)
      .Cases("putchar", "putc", "fputc", "perror", true)
      .Default(false);
}

const FunctionDecl *KernelLowering::inlinableDef(const FunctionDecl *fd,
                                                 unsigned numArgs,
                                                 SourceLocation callLoc,
                                                 QualType &rt) {
  if (fd->isNoReturn())
    return fail(callLoc, msg::NoReturn, {fd->getQualifiedNameAsString()});
  // (Before the body test: glibc's _FORTIFY_SOURCE wrappers have bodies.)
  if (isPrintFunction(fd))
    return fail(callLoc, msg::PrintCall, {fd->getQualifiedNameAsString()});
  const FunctionDecl *def = nullptr;
  if (!fd->hasBody(def) || !def || !def->getBody()) {
    std::string name = fd->getQualifiedNameAsString();
    if (sm.isInSystemHeader(sm.getExpansionLoc(fd->getLocation())))
      return fail(callLoc, msg::LibraryNoBody, {name});
    return fail(callLoc, msg::NoBody, {name});
  }
  if (llvm::is_contained(inlineStack, def->getCanonicalDecl())) {
    bool first = !failed;
    fail(callLoc, msg::Recursion, {fd->getQualifiedNameAsString()});
    if (first && kernelDecl) {
      // The chain of inlined calls from the kernel to the recursive call.
      std::string chain = "'" + kernelDecl->getNameAsString() + "'";
      for (const FunctionDecl *f : inlineStack)
        chain += " -> " + calleeName(f);
      chain += " -> " + calleeName(fd);
      diags.note(kernelDecl->getLocation(), msg::RecursionChain,
                 {fd->getQualifiedNameAsString(),
                  kernelDecl->getNameAsString(), chain});
    }
    return nullptr;
  }
  if (def->isVariadic() || def->getNumParams() != numArgs)
    return fail(callLoc, msg::Generic,
                {"call to '" + fd->getQualifiedNameAsString() + "'"});
  rt = def->getReturnType();
  if (rt->isReferenceType()) {
    if (!rt.getNonReferenceType().isConstQualified())
      return fail(callLoc, msg::RefReturn, {fd->getQualifiedNameAsString()});
    rt = rt.getNonReferenceType().getUnqualifiedType();
  }
  if (rt->isRecordType() && rt->getAsCXXRecordDecl()->isLambda())
    return fail(callLoc, msg::LambdaReturn, {fd->getQualifiedNameAsString()});
  if (!rt->isVoidType() && !mapType(rt) && !isAggregateType(rt))
    return fail(callLoc, msg::UnsupportedType,
                {quoted(rt.getAsString(ctx.getPrintingPolicy()))});
  return def;
}

kir::Value *KernelLowering::runInlined(const FunctionDecl *def,
                                       llvm::ArrayRef<InlineArg> binds,
                                       QualType rt) {
  inlineStack.push_back(def->getCanonicalDecl());
  size_t mark = env.size();
  auto savedAliases = aliases;
  for (const InlineArg &bd : binds) {
    if (!bd.lambda && !bd.place.valid() && !bd.value)
      continue; // a generator parameter, recorded in `generators`
    if (bd.lambda)
      lambdaVars[bd.param] = bd.lambda;
    else if (bd.place.valid())
      aliases[bd.param] = bd.place;
    else
      bind(bd.param, bd.value);
  }
  kir::Value *result = body(def->getBody(), def, rt, true);
  popEnv(mark);
  aliases = std::move(savedAliases);
  inlineStack.pop_back();
  return result;
}

kir::Value *KernelLowering::inlineCall(const FunctionDecl *fd,
                                       llvm::ArrayRef<const Expr *> args,
                                       SourceLocation callLoc) {
  QualType rt;
  const FunctionDecl *def = inlinableDef(fd, args.size(), callLoc, rt);
  if (!def)
    return nullptr;

  // Evaluate the arguments in the caller, then bind them.
  llvm::SmallVector<InlineArg, 4> binds;
  for (unsigned i = 0; i < args.size(); ++i) {
    const ParmVarDecl *p = def->getParamDecl(i);
    QualType pt = p->getType();
    InlineArg bd;
    bd.param = p;
    if (const LambdaExpr *l = lambdaOf(args[i])) {
      bd.lambda = l;
    } else if (isPhiloxType(pt)) {
      // A generator passed to a helper (by value or const &) is the same
      // generator under the parameter's name.
      std::pair<kir::Value *, kir::Value *> g;
      if (!philoxOf(args[i], g))
        return nullptr;
      generators[p] = g;
    } else if (isBufferType(pt)) {
      // Buffers pass by reference only (a by-value copy would alias).
      if (!pt->isReferenceType())
        return fail(args[i]->getExprLoc(), msg::BufferCopy);
      bd.place = lvalue(args[i]);
      if (!bd.place.valid())
        return nullptr;
    } else if (pt->isLValueReferenceType() &&
               !pt.getNonReferenceType().isConstQualified()) {
      bd.place = lvalue(args[i]);
      if (!bd.place.valid())
        return nullptr;
    } else {
      if (!mapType(pt) && !isAggregateType(pt)) {
        expr(args[i]); // a more specific error about the argument, if any
        if (failed)
          return nullptr;
        return fail(args[i]->getExprLoc(), msg::UnsupportedType,
                    {quoted(pt.getNonReferenceType().getAsString(
                        ctx.getPrintingPolicy()))});
      }
      bd.value = expr(args[i]);
      if (!bd.value)
        return nullptr;
      at(args[i]->getExprLoc());
      bd.value = convertTo(bd.value, pt, args[i]->getExprLoc());
      if (!bd.value)
        return nullptr;
    }
    binds.push_back(bd);
  }
  return runInlined(def, binds, rt);
}

kir::Value *KernelLowering::inlineWithValues(const FunctionDecl *fd,
                                             llvm::ArrayRef<kir::Value *> args,
                                             SourceLocation callLoc) {
  QualType rt;
  const FunctionDecl *def = inlinableDef(fd, args.size(), callLoc, rt);
  if (!def)
    return nullptr;
  llvm::SmallVector<InlineArg, 4> binds;
  for (unsigned i = 0; i < args.size(); ++i) {
    const ParmVarDecl *p = def->getParamDecl(i);
    QualType pt = p->getType();
    if (!mapType(pt) && !isAggregateType(pt))
      return fail(p->getLocation(), msg::BadParamType,
                  {p->getNameAsString(),
                   quoted(pt.getAsString(ctx.getPrintingPolicy()))});
    InlineArg bd;
    bd.param = p;
    // A non-const reference parameter gets a copy: the caller's value is
    // a block argument that the callback cannot change.
    bd.value = convertTo(args[i], pt, callLoc);
    if (!bd.value)
      return nullptr;
    binds.push_back(bd);
  }
  return runInlined(def, binds, rt);
}
