//===- KernelLowering.cpp - Kernel entry, types, locals, if, discovery ---===//
//
// The parts of the AST -> KIR lowering that every construct uses: the kernel
// signature, the type mapping, constants, reads and writes of locals and view
// elements, the `if` builder that turns assigned locals into results, and the
// speculative discovery of loop-carried locals.
//
//===----------------------------------------------------------------------===//

#include "KernelLowering.h"

#include "clang/AST/DeclTemplate.h"
#include "clang/Basic/SourceManager.h"

#include "llvm/ADT/StringExtras.h"

using namespace clang;
using namespace intent;
using namespace intent::plugin;

KernelLowering::KernelLowering(ASTContext &ctx, DiagReporter &diags)
    : ctx(ctx), sm(ctx.getSourceManager()), diags(diags) {}

//===----------------------------------------------------------------------===//
// Kernel entry
//===----------------------------------------------------------------------===//

bool KernelLowering::lower(const FunctionDecl *fd, kir::Kernel &k) {
  kernel = &k;
  kernelDecl = fd;
  kernelFile = sm.getFileID(sm.getExpansionLoc(fd->getLocation()));
  b = std::make_unique<kir::Builder>(k);
  b->setInsertionBlock(&k.body->block);
  at(fd->getLocation());

  if (!fd->getReturnType()->isVoidType()) {
    SourceLocation loc = fd->getReturnTypeSourceRange().getBegin();
    fail(loc.isValid() ? loc : fd->getLocation(), msg::NonVoidKernel);
    return false;
  }
  if (fd->isVariadic()) {
    fail(fd->getLocation(), msg::VariadicKernel);
    return false;
  }
  for (const ParmVarDecl *p : fd->parameters()) {
    QualType t = p->getType();
    std::optional<kir::Type> kt;
    if (!t->isReferenceType())
      kt = mapType(t);
    if (!kt) {
      fail(p->getLocation(), msg::BadParamType,
           {p->getNameAsString(), quoted(t.getAsString(ctx.getPrintingPolicy()))});
      return false;
    }
    if (!launchableParam(p, *kt))
      return false;
    std::string name = p->getNameAsString();
    if (name.empty())
      name = "arg" + std::to_string(k.params.size());
    kir::Value *arg = b->addBlockArg(&k.body->block, *kt, name);
    kir::Param param;
    param.name = name;
    param.type = *kt;
    k.params.push_back(param);
    bind(p, arg);
  }

  const Stmt *bodyStmt = fd->getBody();
  if (!bodyStmt || !body(bodyStmt, fd, fd->getReturnType(), false))
    return false;
  at(bodyStmt->getEndLoc());
  b->create(kir::Opcode::Return, {}, {});
  kir::inferParamAccess(k);

  std::vector<std::string> errors;
  if (!kir::verifyKernel(k, errors)) {
    diags.error(fd->getLocation(), msg::InternalVerify,
                {fd->getNameAsString(), llvm::join(errors, "; ")});
    return false;
  }
  return true;
}

//===----------------------------------------------------------------------===//
// Diagnostics and locations
//===----------------------------------------------------------------------===//

std::nullptr_t KernelLowering::fail(SourceLocation loc, llvm::StringRef text,
                                    llvm::ArrayRef<std::string> args) {
  if (!failed)
    diags.error(loc, text, args);
  failed = true;
  return nullptr;
}

std::nullptr_t KernelLowering::unsupported(const Stmt *s) {
  return fail(s->getBeginLoc(), msg::Generic, {s->getStmtClassName()});
}

kir::Loc KernelLowering::toLoc(SourceLocation loc) const {
  kir::Loc l;
  if (loc.isInvalid())
    return l;
  PresumedLoc p = sm.getPresumedLoc(sm.getExpansionLoc(loc));
  if (p.isValid()) {
    l.line = p.getLine();
    l.col = p.getColumn();
  }
  return l;
}

void KernelLowering::at(SourceLocation loc) {
  if (!b || loc.isInvalid())
    return;
  // KIR locations are line:col in the kernel's file; code inlined from
  // another file (an intent::ops combine, a library helper) keeps the
  // location of the user's construct that called it.
  if (kernelFile.isValid() &&
      sm.getFileID(sm.getExpansionLoc(loc)) != kernelFile)
    return;
  b->loc = toLoc(loc);
}

//===----------------------------------------------------------------------===//
// Types
//===----------------------------------------------------------------------===//

/// The launcher generated for a kernel spells each parameter with the KIR
/// type's standard name (int64_t, uint8_t, float, ...), and the rewritten
/// call passes the user's arguments to it. A scalar converts implicitly
/// (except a scoped enum). A view of another spelling of a standard integer
/// type (`long long`, `unsigned long long`, plain `char`) is taken with the
/// user's element type (viewElementSpelling, Outputs.h); reports a view of
/// an enum and half-precision parameters, which the launcher cannot spell.
bool KernelLowering::launchableParam(const ParmVarDecl *p,
                                     const kir::Type &kt) {
  QualType t = p->getType();
  std::string spelled = quoted(t.getAsString(ctx.getPrintingPolicy()));
  QualType elem = t.getCanonicalType().getUnqualifiedType();
  if (kt.isView()) {
    const auto *spec = cast<ClassTemplateSpecializationDecl>(
        elem->getAsCXXRecordDecl());
    elem = spec->getTemplateArgs()[0].getAsType().getCanonicalType();
  }
  if (elem->isHalfType() || elem->isFloat16Type() || elem->isBFloat16Type()) {
    fail(p->getLocation(), msg::HalfParam, {p->getNameAsString(), spelled});
    return false;
  }
  // intent::half / intent::bfloat16: the launcher spells them as written.
  if (halfKind(elem))
    return true;
  // bool, float, double and every integer scalarType mapped: the launcher
  // names them, a view's element as the user spelled it
  // (viewElementSpelling in Outputs.h).
  if (elem->getAs<BuiltinType>())
    return true;
  const auto *et = elem->getAs<EnumType>();
  if (!kt.isView() && !(et && et->getDecl()->isScoped()))
    return true;
  static const char *const names[] = {"bool",     "int8_t",   "uint8_t",
                                      "int16_t",  "uint16_t", "int32_t",
                                      "uint32_t", "int64_t",  "uint64_t"};
  std::string want;
  switch (kt.elem) {
  case kir::ScalarKind::I8: want = names[1]; break;
  case kir::ScalarKind::U8: want = names[2]; break;
  case kir::ScalarKind::I16: want = names[3]; break;
  case kir::ScalarKind::U16: want = names[4]; break;
  case kir::ScalarKind::I32: want = names[5]; break;
  case kir::ScalarKind::U32: want = names[6]; break;
  case kir::ScalarKind::I64: want = names[7]; break;
  case kir::ScalarKind::U64: want = names[8]; break;
  case kir::ScalarKind::F32: want = "float"; break;
  case kir::ScalarKind::F64: want = "double"; break;
  default: want = names[0]; break;
  }
  if (kt.isView()) {
    std::string c = kt.constElem ? "const " : "";
    want = "intent::view<" + c + want + ", " + std::to_string(kt.rank) + ">";
  }
  fail(p->getLocation(), msg::ParamTypeNotLaunchable,
       {p->getNameAsString(), spelled, quoted(want)});
  return false;
}

std::optional<kir::Type> KernelLowering::scalarType(QualType t) const {
  t = t.getNonReferenceType().getCanonicalType().getUnqualifiedType();
  if (std::optional<kir::ScalarKind> h = halfKind(t))
    return kir::Type::scalar(*h);
  if (const auto *et = t->getAs<EnumType>())
    t = et->getDecl()->getIntegerType().getCanonicalType();
  if (t.isNull())
    return std::nullopt;
  const auto *bt = t->getAs<BuiltinType>();
  if (!bt)
    return std::nullopt;
  switch (bt->getKind()) {
  case BuiltinType::Bool:
    return kir::Type::boolean();
  // The compiler's own _Float16 / __bf16 are not intent::half /
  // intent::bfloat16 (f16 / bf16 are emitted as the header types), so they
  // are not scalars of a kernel: their uses get the unsupported-type
  // diagnostics.
  case BuiltinType::Float:
    return kir::Type::scalar(kir::ScalarKind::F32);
  case BuiltinType::Double:
    return kir::Type::scalar(kir::ScalarKind::F64);
  default:
    break;
  }
  if (!bt->isInteger())
    return std::nullopt;
  bool isSigned = bt->isSignedInteger();
  switch (ctx.getIntWidth(t)) {
  case 8:
    return kir::Type::scalar(isSigned ? kir::ScalarKind::I8
                                      : kir::ScalarKind::U8);
  case 16:
    return kir::Type::scalar(isSigned ? kir::ScalarKind::I16
                                      : kir::ScalarKind::U16);
  case 32:
    return kir::Type::scalar(isSigned ? kir::ScalarKind::I32
                                      : kir::ScalarKind::U32);
  case 64:
    return kir::Type::scalar(isSigned ? kir::ScalarKind::I64
                                      : kir::ScalarKind::U64);
  default:
    return std::nullopt;
  }
}

const CXXRecordDecl *KernelLowering::intentRecord(QualType t) const {
  const CXXRecordDecl *rd =
      t.getNonReferenceType().getCanonicalType()->getAsCXXRecordDecl();
  if (!rd)
    return nullptr;
  const DeclContext *dc = rd->getDeclContext();
  while (dc && dc->isInlineNamespace())
    dc = dc->getParent();
  const auto *ns = dyn_cast_or_null<NamespaceDecl>(dc);
  if (!ns || ns->getName() != "intent" ||
      !ns->getParent()->getRedeclContext()->isTranslationUnit())
    return nullptr;
  return rd;
}

bool KernelLowering::isViewType(QualType t) const {
  const CXXRecordDecl *rd = intentRecord(t);
  return rd && rd->getName() == "view" &&
         isa<ClassTemplateSpecializationDecl>(rd);
}

std::optional<kir::Type> KernelLowering::mapType(QualType t) const {
  if (std::optional<kir::Type> s = scalarType(t))
    return s;
  if (!isViewType(t))
    return std::nullopt;
  const auto *spec = cast<ClassTemplateSpecializationDecl>(
      t.getNonReferenceType().getCanonicalType()->getAsCXXRecordDecl());
  const TemplateArgumentList &args = spec->getTemplateArgs();
  if (args.size() != 2 || args[0].getKind() != TemplateArgument::Type ||
      args[1].getKind() != TemplateArgument::Integral)
    return std::nullopt;
  QualType elem = args[0].getAsType();
  std::optional<kir::Type> et = scalarType(elem);
  if (!et)
    return std::nullopt;
  int rank = static_cast<int>(args[1].getAsIntegral().getExtValue());
  return kir::Type::view(et->elem, rank, elem.isConstQualified());
}

//===----------------------------------------------------------------------===//
// Constants and casts
//===----------------------------------------------------------------------===//

kir::Value *KernelLowering::constant(const APValue &v, QualType t,
                                     SourceLocation loc) {
  std::optional<kir::Type> kt = scalarType(t);
  if (!kt)
    return fail(loc, msg::UnsupportedType, {quoted(t.getAsString(ctx.getPrintingPolicy()))});
  if (v.isInt()) {
    const llvm::APSInt &i = v.getInt();
    if (kt->isBool())
      return b->constBool(!i.isZero());
    int64_t raw = i.isSigned() ? i.getExtValue()
                               : static_cast<int64_t>(i.getZExtValue());
    if (kt->isFloat())
      return b->constFloat(static_cast<double>(raw), *kt);
    return b->constInt(raw, *kt);
  }
  if (v.isFloat()) {
    llvm::APFloat f = v.getFloat();
    bool lost = false;
    f.convert(llvm::APFloat::IEEEdouble(), llvm::APFloat::rmNearestTiesToEven,
              &lost);
    if (!kt->isFloat())
      return fail(loc, msg::UnsupportedType, {quoted(t.getAsString(ctx.getPrintingPolicy()))});
    return b->constFloat(f.convertToDouble(), *kt);
  }
  return fail(loc, msg::UnsupportedType, {quoted(t.getAsString(ctx.getPrintingPolicy()))});
}

kir::Value *KernelLowering::tryFold(const Expr *e) {
  if (!e->isPRValue() || e->isValueDependent() || !scalarType(e->getType()))
    return nullptr;
  Expr::EvalResult r;
  if (!e->EvaluateAsRValue(r, ctx) || r.HasSideEffects)
    return nullptr;
  if (!r.Val.isInt() && !r.Val.isFloat())
    return nullptr;
  at(e->getExprLoc());
  return constant(r.Val, e->getType(), e->getExprLoc());
}

kir::Value *KernelLowering::indexValue(const Expr *e) {
  Expr::EvalResult r;
  if (!e->isValueDependent() && e->getType()->isIntegralOrEnumerationType() &&
      e->EvaluateAsInt(r, ctx) && !r.HasSideEffects) {
    at(e->getExprLoc());
    llvm::APSInt i = r.Val.getInt();
    return b->constInt(i.isSigned() ? i.getExtValue()
                                    : static_cast<int64_t>(i.getZExtValue()),
                       kir::Type::index());
  }
  kir::Value *v = expr(e);
  if (!v)
    return nullptr;
  if (!v->type.isScalar() || v->type.isFloat())
    return unsupported(e);
  at(e->getExprLoc());
  return convert(v, kir::Type::index());
}

kir::Value *KernelLowering::zero(kir::Type t) {
  if (t.isBool())
    return b->constBool(false);
  if (t.isFloat())
    return b->constFloat(0.0, t);
  return b->constInt(0, t);
}

kir::Value *KernelLowering::convert(kir::Value *v, kir::Type to) {
  if (!v || v->type == to || !v->type.isScalar() || !to.isScalar())
    return v;
  return b->cast(v, to);
}

//===----------------------------------------------------------------------===//
// Locals and view elements
//===----------------------------------------------------------------------===//

/// The leaves of a constant of scalar or aggregate type, in field order.
static bool
constantLeaves(const APValue &v, QualType t,
               llvm::SmallVectorImpl<std::pair<APValue, QualType>> &out) {
  const auto *rd = t.getNonReferenceType()->getAsCXXRecordDecl();
  if (!rd) {
    out.push_back({v, t});
    return true;
  }
  if (!v.isStruct())
    return false;
  unsigned i = 0;
  for (const FieldDecl *f : rd->fields())
    if (!constantLeaves(v.getStructField(i++), f->getType(), out))
      return false;
  return true;
}

kir::Value *KernelLowering::readVar(const VarDecl *vd, SourceLocation loc) {
  auto alias = aliases.find(vd);
  if (alias != aliases.end())
    return read(alias->second, loc);
  if (isAggregateType(vd->getType())) {
    LValue lv;
    lv.kind = LValue::Kind::Local;
    lv.var = vd;
    lv.count = aggregateLeaves(vd->getType())->size();
    lv.aggregate = true;
    return read(lv, loc);
  }
  return readSlot(vd, 0, loc);
}

kir::Value *KernelLowering::readSlot(const VarDecl *vd, unsigned leaf,
                                     SourceLocation loc) {
  auto it = env.find({vd, leaf});
  if (it != env.end())
    return it->second;
  if (vd->isUsableInConstantExpressions(ctx)) {
    if (const APValue *v = vd->evaluateValue()) {
      at(loc);
      llvm::SmallVector<std::pair<APValue, QualType>, 4> leaves;
      if (constantLeaves(*v, vd->getType(), leaves) && leaf < leaves.size())
        return constant(leaves[leaf].first, leaves[leaf].second, loc);
    }
  }
  if (vd->isStaticLocal())
    return fail(loc, msg::StaticLocal, {vd->getNameAsString()});
  if (vd->hasGlobalStorage())
    return fail(loc, msg::NonConstGlobal, {vd->getNameAsString()});
  return fail(loc, msg::Generic, {"use of '" + vd->getNameAsString() + "'"});
}

bool KernelLowering::writeVar(const VarDecl *vd, kir::Value *v,
                              SourceLocation loc) {
  auto alias = aliases.find(vd);
  if (alias != aliases.end())
    return write(alias->second, v, loc);
  if (isAggregateType(vd->getType())) {
    LValue lv;
    lv.kind = LValue::Kind::Local;
    lv.var = vd;
    lv.count = aggregateLeaves(vd->getType())->size();
    lv.aggregate = true;
    return write(lv, v, loc);
  }
  return writeSlot(vd, 0, v, loc);
}

bool KernelLowering::writeSlot(const VarDecl *vd, unsigned leaf, kir::Value *v,
                               SourceLocation loc) {
  if (vd->hasGlobalStorage()) {
    fail(loc, vd->isStaticLocal() ? msg::StaticLocal : msg::NonConstGlobal,
         {vd->getNameAsString()});
    return false;
  }
  if (!raceScopes.empty() && raceScopes.back().outer.count(vd)) {
    const CaptureScope &cs = raceScopes.back();
    if (cs.what.empty())
      fail(loc, cs.message, {vd->getNameAsString()});
    else
      fail(loc, cs.message, {vd->getNameAsString(), cs.what});
    return false;
  }
  auto it = env.find({vd, leaf});
  if (it == env.end()) {
    fail(loc, msg::Generic, {"assignment to '" + vd->getNameAsString() + "'"});
    return false;
  }
  if (it->second->type.isScalar())
    v = convert(v, it->second->type);
  it->second = v;
  return true;
}

kir::Value *KernelLowering::read(const LValue &lv, SourceLocation loc) {
  switch (lv.kind) {
  case LValue::Kind::Invalid:
    return nullptr;
  case LValue::Kind::Local:
  case LValue::Kind::Temp: {
    if (lv.kind == LValue::Kind::Local && !lv.aggregate && lv.leaf == 0 &&
        !isAggregateType(lv.var->getType()))
      return readVar(lv.var, loc);
    Vals parts;
    for (unsigned i = 0; i < lv.count; ++i) {
      kir::Value *p = lv.kind == LValue::Kind::Temp
                          ? lv.temp[lv.leaf + i]
                          : readSlot(lv.var, lv.leaf + i, loc);
      if (!p)
        return nullptr;
      parts.push_back(p);
    }
    return lv.aggregate ? makeAggregate(parts) : parts[0];
  }
  case LValue::Kind::Element: {
    at(loc);
    llvm::SmallVector<kir::Value *, 4> ops = {lv.view};
    ops.append(lv.indices.begin(), lv.indices.end());
    return b->create(kir::Opcode::Load, ops, {kir::elementType(lv.view->type)})
        ->result();
  }
  }
  return nullptr;
}

bool KernelLowering::write(const LValue &lv, kir::Value *v,
                           SourceLocation loc) {
  if (!v)
    return false;
  switch (lv.kind) {
  case LValue::Kind::Invalid:
    return false;
  case LValue::Kind::Local: {
    if (!lv.aggregate && lv.leaf == 0 && !isAggregateType(lv.var->getType()))
      return writeVar(lv.var, v, loc);
    Vals parts = partsOf(v);
    if (parts.size() != lv.count || (!lv.aggregate && isAggregateValue(v))) {
      fail(loc, msg::Generic, {"assignment between different class types"});
      return false;
    }
    for (unsigned i = 0; i < lv.count; ++i)
      if (!writeSlot(lv.var, lv.leaf + i, parts[i], loc))
        return false;
    return true;
  }
  case LValue::Kind::Temp:
    fail(loc, msg::Generic, {"assignment to a member of a temporary"});
    return false;
  case LValue::Kind::Element: {
    // Value and combine callbacks may run any number of times, in any
    // order: they must not store (also not from a nested emit callback).
    for (const CaptureScope &cs : raceScopes)
      if (cs.pure) {
        fail(loc, msg::RegionStore, {cs.what});
        return false;
      }
    if (lv.view->type.constElem) {
      fail(loc, msg::Generic, {"store through a view of const elements"});
      return false;
    }
    at(loc);
    llvm::SmallVector<kir::Value *, 4> ops = {
        lv.view, convert(v, kir::elementType(lv.view->type))};
    ops.append(lv.indices.begin(), lv.indices.end());
    b->create(kir::Opcode::Store, ops, {});
    return true;
  }
  }
  return false;
}

void KernelLowering::bind(const Decl *d, kir::Value *v) {
  if (isAggregateValue(v)) {
    Vals parts = partsOf(v);
    for (unsigned i = 0; i < parts.size(); ++i)
      env[{d, i}] = parts[i];
    return;
  }
  env[{d, 0}] = v;
}

void KernelLowering::popEnv(size_t mark) {
  while (env.size() > mark)
    env.pop_back();
}

//===----------------------------------------------------------------------===//
// if
//===----------------------------------------------------------------------===//

llvm::SmallVector<kir::Value *, 1>
KernelLowering::buildIf(kir::Value *cond, llvm::ArrayRef<kir::Type> types,
                        const BranchFn &thenFn, const BranchFn &elseFn) {
  llvm::SmallVector<kir::Value *, 1> none(types.size(), nullptr);
  if (failed || !cond)
    return none;
  kir::Loc loc = b->loc;
  kir::Block *outer = b->block;
  kir::Op *op = b->create(kir::Opcode::If, {cond}, {});
  struct Arm {
    kir::Region *region;
    llvm::SmallVector<kir::Value *, 1> vals;
    Env env;
    Flow flow;
  };
  Arm arms[2] = {{b->addRegion(op), {}, {}, Flow::Normal},
                 {b->addRegion(op), {}, {}, Flow::Normal}};
  Env entry = env;
  Flow entryFlow = flow;
  const BranchFn *fns[2] = {&thenFn, &elseFn};
  for (unsigned i = 0; i < 2; ++i) {
    b->setInsertionBlock(&arms[i].region->block);
    b->loc = loc;
    env = entry;
    flow = Flow::Normal;
    arms[i].vals = (*fns[i])();
    arms[i].env = std::move(env);
    arms[i].flow = flow;
    if (failed)
      break;
    if (flow != Flow::Terminated && arms[i].vals.size() != types.size())
      fail(SourceLocation(), msg::Generic, {"if branch"});
  }
  env = std::move(entry);
  flow = entryFlow;
  b->setInsertionBlock(outer);
  b->loc = loc;
  if (failed)
    return none;

  // Locals whose value differs after some live branch, in env order; plus
  // return values (keys that are not locals) set on every live path.
  llvm::SmallVector<Arm *, 2> live;
  for (Arm &a : arms)
    if (a.flow != Flow::Terminated)
      live.push_back(&a);
  llvm::SmallVector<Slot, 4> merged;
  for (auto &kv : env)
    for (Arm *a : live)
      if (a->env.lookup(kv.first) != kv.second) {
        merged.push_back(kv.first);
        break;
      }
  if (!live.empty())
    for (auto &kv : live.front()->env) {
      if (env.count(kv.first) || !isa<FunctionDecl>(kv.first.first))
        continue;
      if (llvm::all_of(live, [&](Arm *a) { return a->env.count(kv.first); }))
        merged.push_back(kv.first);
    }

  for (Arm *a : live) {
    b->setInsertionBlock(&a->region->block);
    llvm::SmallVector<kir::Value *, 4> yields;
    for (unsigned i = 0; i < types.size(); ++i)
      yields.push_back(convert(a->vals[i], types[i]));
    for (const Slot &d : merged) {
      kir::Value *v = a->env.lookup(d);
      kir::Value *first = live.front()->env.lookup(d);
      yields.push_back(v && first ? convert(v, first->type) : v);
    }
    if (llvm::is_contained(yields, nullptr)) {
      fail(SourceLocation(), msg::Generic, {"if result"});
      b->setInsertionBlock(outer);
      return none;
    }
    b->create(kir::Opcode::Yield, yields, {});
  }
  b->setInsertionBlock(outer);

  llvm::SmallVector<kir::Value *, 1> results;
  if (live.empty()) {
    // Both branches left the loop: what follows is unreachable. Keep the
    // values well-typed for the dead code after the if.
    for (kir::Type t : types)
      results.push_back(zero(t));
    return results;
  }
  for (kir::Type t : types)
    results.push_back(b->addResult(op, t));
  for (const Slot &d : merged)
    env[d] = b->addResult(op, live.front()->env.lookup(d)->type);
  if (llvm::any_of(live, [](Arm *a) { return a->flow == Flow::Returned; }))
    flow = Flow::Returned;
  return results;
}

//===----------------------------------------------------------------------===//
// Loop-carried locals
//===----------------------------------------------------------------------===//

llvm::SmallVector<Slot, 4> KernelLowering::discoverAssigned(
    const std::function<std::vector<Env>(LoopCtx &)> &fn) {
  kir::Kernel &k = *kernel;
  unsigned valueId = k.nextValueId, opId = k.nextOpId,
           regionId = k.nextRegionId;
  size_t numValues = k.values.size();
  kir::Block *savedBlock = b->block;
  kir::Loc savedLoc = b->loc;
  Env savedEnv = env;
  auto savedAliases = aliases;
  Flow savedFlow = flow;
  bool savedFailed = failed;
  size_t savedLoops = loops.size(), savedFrames = frames.size(),
         savedRace = raceScopes.size(), savedInline = inlineStack.size();

  // Every local gets a fresh value, so that any assignment shows.
  auto scratch = std::make_unique<kir::Region>();
  Env fresh;
  for (auto &kv : env)
    if (kv.second)
      fresh[kv.first] = b->addBlockArg(&scratch->block, kv.second->type);
  env = fresh;
  b->setInsertionBlock(&scratch->block);
  ++diags.muted;
  LoopCtx ctxLoop;
  ctxLoop.discovering = true;
  std::vector<Env> points = fn(ctxLoop);
  --diags.muted;
  for (Env &e : ctxLoop.exits)
    points.push_back(std::move(e));

  llvm::SmallVector<Slot, 4> changed;
  for (auto &kv : fresh) {
    if (!isa<VarDecl>(kv.first.first))
      continue;
    for (const Env &p : points) {
      kir::Value *v = p.lookup(kv.first);
      if (v && v != kv.second) {
        changed.push_back(kv.first);
        break;
      }
    }
  }

  // Undo: drop the scratch ops and the values and ids they used.
  scratch.reset();
  k.values.resize(numValues);
  k.nextValueId = valueId;
  k.nextOpId = opId;
  k.nextRegionId = regionId;
  b->setInsertionBlock(savedBlock);
  b->loc = savedLoc;
  env = std::move(savedEnv);
  aliases = std::move(savedAliases);
  flow = savedFlow;
  failed = savedFailed;
  loops.resize(savedLoops);
  frames.resize(savedFrames);
  raceScopes.resize(savedRace);
  inlineStack.resize(savedInline);
  return changed;
}
