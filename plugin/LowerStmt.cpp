//===- LowerStmt.cpp - Statements, loops and early returns -> KIR ---------===//
//
// Structured control maps one to one: `if` -> `if`, for/while/do -> `loop`
// (test_first false for do), break/continue -> `break`/`continue` carrying the
// loop's locals. An early `return` needs no op of its own: when an `if` (or
// block) contains a return, the statements after it ("the continuation") are
// lowered inside its branches, so every path reaches the end of the function
// body on its own. A return inside a loop is rejected.
//
//===----------------------------------------------------------------------===//

#include "KernelLowering.h"

#include "clang/AST/DeclTemplate.h"

#include "llvm/ADT/StringSwitch.h"

using namespace clang;
using namespace intent;
using namespace intent::plugin;

bool KernelLowering::containsReturn(const Stmt *s) {
  if (!s || isa<LambdaExpr>(s))
    return false;
  if (isa<ReturnStmt>(s))
    return true;
  for (const Stmt *c : s->children())
    if (containsReturn(c))
      return true;
  return false;
}

static llvm::ArrayRef<Stmt *> bodyOf(const CompoundStmt *cs) {
  return llvm::ArrayRef<Stmt *>(cs->body_begin(), cs->body_end());
}

//===----------------------------------------------------------------------===//
// Sequences, frames and the continuation of early returns
//===----------------------------------------------------------------------===//

void KernelLowering::seq(llvm::ArrayRef<Stmt *> stmts, const Cont &cont) {
  for (size_t i = 0; i < stmts.size(); ++i) {
    if (failed || flow != Flow::Normal)
      return;
    const Stmt *s = stmts[i];
    while (isa<AttributedStmt>(s) || isa<LabelStmt>(s))
      s = isa<LabelStmt>(s) ? cast<LabelStmt>(s)->getSubStmt()
                            : cast<AttributedStmt>(s)->getSubStmt();
    if ((isa<IfStmt>(s) || isa<CompoundStmt>(s)) && containsReturn(s)) {
      Cont inner = cont;
      inner.push_back(stmts.drop_front(i + 1));
      if (const auto *cs = dyn_cast<CompoundStmt>(s))
        seq(bodyOf(cs), inner);
      else
        ifStmt(cast<IfStmt>(s), &inner);
      return;
    }
    stmt(s);
  }
  if (cont.empty() || failed || flow != Flow::Normal)
    return;
  Cont outer(cont.begin(), cont.end() - 1);
  seq(cont.back(), outer);
}

void KernelLowering::seqOf(const Stmt *s, const Cont &cont) {
  if (!s) {
    seq({}, cont);
    return;
  }
  if (const auto *cs = dyn_cast<CompoundStmt>(s)) {
    seq(bodyOf(cs), cont);
    return;
  }
  Stmt *one[] = {const_cast<Stmt *>(s)};
  seq(one, cont);
}

kir::Value *KernelLowering::body(const Stmt *s, const Decl *key,
                                 QualType retTy, bool helper) {
  frames.push_back({key, static_cast<unsigned>(loops.size()), helper});
  Flow savedFlow = flow;
  flow = Flow::Normal;
  seqOf(s, {});
  kir::Value *result = &voidValue;
  if (!failed && helper && !retTy->isVoidType()) {
    const llvm::SmallVector<kir::Type, 4> *leaves = aggregateLeaves(retTy);
    Vals parts;
    for (unsigned i = 0, n = leaves ? leaves->size() : 1; i < n; ++i)
      parts.push_back(env.lookup({key, i}));
    result = llvm::is_contained(parts, nullptr) ? nullptr
             : leaves                           ? makeAggregate(parts)
                                                : parts[0];
    if (!result)
      fail(s->getEndLoc(), msg::Generic,
           {"a path that ends without 'return' in a helper returning a "
            "value"});
  }
  frames.pop_back();
  flow = savedFlow;
  return failed ? nullptr : result;
}

void KernelLowering::returnStmt(const ReturnStmt *s) {
  assert(!frames.empty() && "return outside a function body");
  const Frame &f = frames.back();
  if (loops.size() > f.loopDepth) {
    fail(s->getReturnLoc(),
         f.helper ? msg::ReturnInHelperLoop : msg::ReturnInLoop);
    return;
  }
  if (const Expr *v = s->getRetValue()) {
    if (lambdaOf(v)) {
      const auto *fd = dyn_cast<FunctionDecl>(f.key);
      fail(v->getExprLoc(), msg::LambdaReturn,
           {fd ? fd->getNameAsString() : "?"});
      return;
    }
    if (v->getType()->isVoidType() || !f.helper) {
      discard(v);
    } else {
      kir::Value *r = expr(v);
      if (!r)
        return;
      if (const auto *fd = dyn_cast<FunctionDecl>(f.key)) {
        at(v->getExprLoc());
        r = convertTo(r, fd->getReturnType(), v->getExprLoc());
        if (!r)
          return;
      }
      bind(f.key, r);
    }
  }
  if (!failed)
    flow = Flow::Returned;
}

//===----------------------------------------------------------------------===//
// Statements
//===----------------------------------------------------------------------===//

void KernelLowering::stmt(const Stmt *s) {
  if (failed || !s || flow != Flow::Normal)
    return;
  at(s->getBeginLoc());
  if (const auto *e = dyn_cast<Expr>(s)) {
    discard(e);
    return;
  }
  switch (s->getStmtClass()) {
  case Stmt::NullStmtClass:
    return;
  case Stmt::CompoundStmtClass: {
    size_t mark = env.size();
    seq(bodyOf(cast<CompoundStmt>(s)), {});
    popEnv(mark);
    return;
  }
  case Stmt::DeclStmtClass:
    return declStmt(cast<DeclStmt>(s));
  case Stmt::IfStmtClass:
    return ifStmt(cast<IfStmt>(s), nullptr);
  case Stmt::ForStmtClass: {
    const auto *f = cast<ForStmt>(s);
    if (f->getConditionVariable()) {
      unsupported(f->getConditionVariableDeclStmt());
      return;
    }
    size_t mark = env.size();
    loop(f->getInit(), f->getCond(), f->getBody(), f->getInc(), true,
         f->getForLoc());
    popEnv(mark);
    return;
  }
  case Stmt::WhileStmtClass: {
    const auto *w = cast<WhileStmt>(s);
    if (w->getConditionVariable()) {
      unsupported(w->getConditionVariableDeclStmt());
      return;
    }
    loop(nullptr, w->getCond(), w->getBody(), nullptr, true,
         w->getWhileLoc());
    return;
  }
  case Stmt::DoStmtClass: {
    const auto *d = cast<DoStmt>(s);
    loop(nullptr, d->getCond(), d->getBody(), nullptr, false, d->getDoLoc());
    return;
  }
  case Stmt::BreakStmtClass:
    return loopExit(s, kir::Opcode::Break);
  case Stmt::ContinueStmtClass:
    return loopExit(s, kir::Opcode::Continue);
  case Stmt::ReturnStmtClass:
    return returnStmt(cast<ReturnStmt>(s));
  case Stmt::AttributedStmtClass:
    return stmt(cast<AttributedStmt>(s)->getSubStmt());
  case Stmt::SwitchStmtClass:
    fail(s->getBeginLoc(), msg::Switch);
    return;
  case Stmt::GotoStmtClass:
  case Stmt::IndirectGotoStmtClass:
    fail(s->getBeginLoc(), msg::Goto);
    return;
  case Stmt::LabelStmtClass:
    return stmt(cast<LabelStmt>(s)->getSubStmt());
  case Stmt::CXXTryStmtClass:
    fail(s->getBeginLoc(), msg::Try);
    return;
  case Stmt::CXXForRangeStmtClass:
    fail(s->getBeginLoc(), msg::RangeFor);
    return;
  case Stmt::GCCAsmStmtClass:
  case Stmt::MSAsmStmtClass:
    fail(s->getBeginLoc(), msg::Asm);
    return;
  default:
    unsupported(s);
    return;
  }
}

void KernelLowering::declStmt(const DeclStmt *s) {
  for (const Decl *d : s->decls()) {
    if (failed)
      return;
    if (const auto *vd = dyn_cast<VarDecl>(d))
      varDecl(vd);
    // Types, aliases and static_asserts declare nothing to lower.
  }
}

/// std::vector, std::array, std::deque, std::string and the like: a
/// container a user may reach for as a local array.
static bool isStdContainer(const CXXRecordDecl *rd) {
  if (!rd->isInStdNamespace() || !rd->getIdentifier())
    return false;
  return llvm::StringSwitch<bool>(rd->getName())
      .Cases("vector", "array", "deque", "list", "basic_string", true)
      .Cases("valarray", "set", "map", "unordered_map", "unordered_set", true)
      .Default(false);
}

void KernelLowering::varDecl(const VarDecl *vd) {
  SourceLocation loc = vd->getLocation();
  at(loc);
  QualType t = vd->getType();
  std::string name = vd->getNameAsString();
  if (vd->isStaticLocal() || vd->getTLSKind() != VarDecl::TLS_None) {
    fail(loc, msg::StaticLocal, {name});
    return;
  }
  // constexpr locals are read as constants where they are used.
  if (vd->isConstexpr() && scalarType(t))
    return;
  const Expr *init = vd->getInit();
  if (const auto *rd = t->getAsCXXRecordDecl(); rd && rd->isLambda()) {
    const LambdaExpr *l = init ? lambdaOf(init) : nullptr;
    if (!l && init && isa<CallExpr>(strip(init)))
      expr(init); // reports why the call cannot yield a lambda
    if (!l) {
      fail(loc, msg::LambdaEscape);
      return;
    }
    lambdaVars[vd] = l;
    if (isa<LambdaExpr>(strip(init)))
      bindInitCaptures(l);
    return;
  }
  if (isPhiloxType(t)) {
    philoxLocal(vd);
    return;
  }
  if (isBufferType(t)) {
    bufferDecl(vd);
    return;
  }
  if (t->isLValueReferenceType() &&
      !t.getNonReferenceType().isConstQualified()) {
    LValue lv = lvalue(init);
    if (lv.valid())
      aliases[vd] = lv;
    return;
  }
  QualType vt = t.getNonReferenceType();
  if (isAggregateType(vt)) {
    // A struct of scalars: one SSA value per leaf.
    kir::Value *v = init ? expr(init) : defaultValue(vt, loc);
    if (!v)
      return;
    at(loc);
    v = convertTo(v, vt, loc);
    if (v)
      bind(vd, v);
    return;
  }
  if (std::optional<kir::Type> kt = mapType(vt)) {
    kir::Value *v = nullptr;
    if (init && !(isa<CXXConstructExpr>(init) &&
                  cast<CXXConstructExpr>(init)->getNumArgs() == 0 &&
                  kt->isScalar())) {
      v = expr(init);
      if (!v)
        return;
      at(loc);
      if (kt->isScalar())
        v = convert(v, *kt);
    } else if (kt->isView()) {
      fail(loc, msg::ViewConstruct);
      return;
    } else {
      // An uninitialized scalar reads as 0 (C++ leaves it indeterminate).
      v = zero(*kt);
    }
    if (v->name.empty())
      v->name = name;
    bind(vd, v);
    return;
  }
  // Report a bad initializer (a `new`, a call to an intent:: algorithm that
  // is not supported yet) rather than the variable's type.
  if (init && !isa<CXXConstructExpr, InitListExpr>(strip(init))) {
    expr(init);
    if (failed)
      return;
  }
  if (vt->isPointerType()) {
    fail(loc, msg::PointerLocal, {name});
    return;
  }
  if (vt->isArrayType()) {
    fail(loc, msg::ArrayLocal, {name});
    return;
  }
  if (const CXXRecordDecl *rd = intentRecord(vt)) {
    fail(loc, msg::NotYetSupported, {"intent::" + rd->getNameAsString()});
    return;
  }
  if (reportTupleElement(vt, loc))
    return;
  if (const CXXRecordDecl *rd = vt->getAsCXXRecordDecl()) {
    std::string spelled = quoted(vt.getAsString(ctx.getPrintingPolicy()));
    if (isStdContainer(rd))
      fail(loc, msg::ContainerLocal, {name, spelled});
    else if (rd->hasDefinition() && rd->isPolymorphic())
      fail(loc, msg::VirtualLocal, {name, spelled});
    else
      fail(loc, msg::ClassLocal, {name, spelled});
    return;
  }
  if (vt->isRecordType()) {
    fail(loc, msg::ClassLocal, {name, quoted(vt.getAsString(ctx.getPrintingPolicy()))});
    return;
  }
  fail(loc, msg::BadLocalType, {name, quoted(vt.getAsString(ctx.getPrintingPolicy()))});
}

//===----------------------------------------------------------------------===//
// if
//===----------------------------------------------------------------------===//

void KernelLowering::ifStmt(const IfStmt *s, const Cont *cont) {
  if (s->getInit())
    stmt(s->getInit());
  if (const DeclStmt *cv = s->getConditionVariableDeclStmt())
    stmt(cv);
  if (failed)
    return;
  if (s->isConsteval()) {
    unsupported(s);
    return;
  }
  if (s->isConstexpr()) {
    // Only the taken branch exists in an instantiation.
    bool taken = false;
    if (!s->getCond() || !s->getCond()->EvaluateAsBooleanCondition(taken, ctx)) {
      unsupported(s);
      return;
    }
    const Stmt *branch = taken ? s->getThen() : s->getElse();
    if (cont)
      seqOf(branch, *cont);
    else if (branch)
      stmt(branch);
    return;
  }
  // A condition that folds to a constant (e.g. the debug checks in library
  // helpers) keeps only the branch that runs.
  Expr::EvalResult known;
  if (!s->getConditionVariable() && !s->getCond()->isValueDependent() &&
      s->getCond()->EvaluateAsRValue(known, ctx) && !known.HasSideEffects &&
      known.Val.isInt()) {
    const Stmt *branch =
        known.Val.getInt().getBoolValue() ? s->getThen() : s->getElse();
    if (cont)
      seqOf(branch, *cont);
    else if (branch)
      stmt(branch);
    return;
  }
  kir::Value *c = expr(s->getCond());
  if (!c)
    return;
  at(s->getIfLoc());
  c = convert(c, kir::Type::boolean());
  auto arm = [&](const Stmt *branch) {
    return [this, branch, cont]() -> llvm::SmallVector<kir::Value *, 1> {
      if (cont) {
        seqOf(branch, *cont);
      } else if (branch) {
        size_t mark = env.size();
        stmt(branch);
        popEnv(mark);
      }
      return {};
    };
  };
  buildIf(c, {}, arm(s->getThen()), arm(s->getElse()));
  // Without a continuation a returning branch would drop the statements
  // after the if on the other path; seq() routes every such if through the
  // continuation, so this is only reached from positions it cannot see.
  if (!cont && flow == Flow::Returned)
    fail(s->getIfLoc(), msg::Generic, {"'return' in this position"});
}

//===----------------------------------------------------------------------===//
// Loops
//===----------------------------------------------------------------------===//

void KernelLowering::loopExit(const Stmt *s, kir::Opcode opc) {
  if (loops.empty() || loops.size() <= frames.back().loopDepth) {
    unsupported(s);
    return;
  }
  LoopCtx &l = *loops.back();
  at(s->getBeginLoc());
  if (l.discovering) {
    l.exits.push_back(env);
    b->create(opc, {}, {});
  } else {
    llvm::SmallVector<kir::Value *, 4> vals;
    for (const Slot &sl : l.carried)
      vals.push_back(env.lookup(sl));
    b->create(opc, vals, {});
  }
  flow = Flow::Terminated;
}

void KernelLowering::loop(const Stmt *init, const Expr *cond,
                          const Stmt *bodyStmt, const Expr *inc,
                          bool testFirst, SourceLocation loc) {
  if (init)
    stmt(init);
  if (failed)
    return;

  // Lowers the three parts into the current block (discovery) or into the
  // loop's regions (real pass); returns the env after each part.
  auto lowerCond = [&]() -> kir::Value * {
    if (!cond)
      return b->constBool(true);
    kir::Value *c = expr(cond);
    return c ? convert(c, kir::Type::boolean()) : nullptr;
  };
  auto lowerBody = [&](LoopCtx &l) {
    loops.push_back(&l);
    flow = Flow::Normal;
    size_t mark = env.size();
    stmt(bodyStmt);
    loops.pop_back();
    bool fell = flow != Flow::Terminated;
    flow = Flow::Normal;
    popEnv(mark);
    return fell;
  };

  Env entry = env;
  llvm::SmallVector<const VarDecl *, 2> condAssigned;
  llvm::SmallVector<Slot, 4> carried =
      discoverAssigned([&](LoopCtx &l) {
        std::vector<Env> points;
        Env start = env;
        lowerCond();
        for (auto &kv : start)
          if (env.lookup(kv.first) != kv.second)
            if (const auto *vd = dyn_cast<VarDecl>(kv.first.first))
              condAssigned.push_back(vd);
        points.push_back(env);
        env = start;
        if (lowerBody(l))
          points.push_back(env);
        env = start;
        if (inc)
          discard(inc);
        points.push_back(env);
        return points;
      });
  // Assignments in the condition cannot reach the body: cond's block args
  // are the carried values, and the body receives the same ones.
  if (cond && !condAssigned.empty()) {
    fail(cond->getExprLoc(), msg::CondSideEffect,
         {condAssigned.front()->getNameAsString()});
    return;
  }

  at(loc);
  llvm::SmallVector<kir::Value *, 4> inits;
  llvm::SmallVector<kir::Type, 4> types;
  for (const Slot &sl : carried) {
    inits.push_back(entry.lookup(sl));
    types.push_back(entry.lookup(sl)->type);
  }
  kir::Op *op = b->create(kir::Opcode::Loop, inits, types);
  op->setAttr("test_first", testFirst);
  kir::Block *outer = b->block;
  kir::Region *regions[3];
  for (kir::Region *&r : regions) {
    r = b->addRegion(op);
    for (const Slot &sl : carried)
      b->addBlockArg(&r->block, entry.lookup(sl)->type,
                     cast<VarDecl>(sl.first)->getNameAsString());
  }
  auto enter = [&](kir::Region *r) {
    b->setInsertionBlock(&r->block);
    env = entry;
    for (unsigned i = 0; i < carried.size(); ++i)
      env[carried[i]] = r->block.args[i];
  };
  auto carriedVals = [&]() {
    llvm::SmallVector<kir::Value *, 4> vals;
    for (const Slot &sl : carried)
      vals.push_back(env.lookup(sl));
    return vals;
  };

  enter(regions[0]);
  at(cond ? cond->getExprLoc() : loc);
  if (kir::Value *c = lowerCond()) {
    at(cond ? cond->getExprLoc() : loc);
    b->create(kir::Opcode::Condition, {c}, {});
  }

  LoopCtx l;
  l.carried = carried;
  enter(regions[1]);
  if (!failed && lowerBody(l)) {
    at(bodyStmt->getEndLoc());
    b->create(kir::Opcode::Yield, carriedVals(), {});
  }

  enter(regions[2]);
  if (inc) {
    at(inc->getExprLoc());
    discard(inc);
  }
  if (!failed)
    b->create(kir::Opcode::Yield, carriedVals(), {});

  b->setInsertionBlock(outer);
  env = std::move(entry);
  for (unsigned i = 0; i < carried.size(); ++i)
    env[carried[i]] = op->result(i);
  flow = Flow::Normal;
}
