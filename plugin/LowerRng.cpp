//===- LowerRng.cpp - intent::philox -> `rng` ------------------------------===//
//
// A generator is a local `intent::philox g(seed, stream);` (or a temporary
// `intent::philox(seed, stream)`). It is immutable, so it needs no SSA
// renaming: the front end remembers its seed and stream (converted to u64,
// as the constructor's parameters do) and each draw `g.u32(c)`,
// `g.uniform(c)`, `g.normal(c)` becomes one pure `rng` op whose semantics is
// the header's own code (the interpreters and the generated kernels call it).
//
//===----------------------------------------------------------------------===//

#include "KernelLowering.h"

using namespace clang;
using namespace intent;
using namespace intent::plugin;

bool KernelLowering::isPhiloxType(QualType t) const {
  const CXXRecordDecl *rd = intentRecord(t);
  return rd && rd->getName() == "philox";
}

namespace {
const kir::Type U64 = kir::Type::scalar(kir::ScalarKind::U64);
} // namespace

bool KernelLowering::philoxOf(const Expr *e,
                              std::pair<kir::Value *, kir::Value *> &g) {
  SourceLocation loc = e->getExprLoc();
  const Expr *obj = strip(e);
  while (const auto *ce = dyn_cast<ImplicitCastExpr>(obj)) // to const
    obj = strip(ce->getSubExpr());
  if (const auto *dr = dyn_cast<DeclRefExpr>(obj)) {
    const auto *vd = dyn_cast<VarDecl>(dr->getDecl());
    auto it = vd ? generators.find(vd) : generators.end();
    if (it == generators.end()) {
      fail(loc, msg::RngUse);
      return false;
    }
    g = it->second;
    return true;
  }
  const auto *ctor = dyn_cast<CXXConstructExpr>(obj);
  if (!ctor || ctor->getNumArgs() != 2 ||
      isa<CXXConstructExpr>(strip(ctor->getArg(0)))) {
    fail(loc, msg::RngUse);
    return false;
  }
  kir::Value *seed = expr(ctor->getArg(0));
  kir::Value *stream = seed ? expr(ctor->getArg(1)) : nullptr;
  if (!seed || !stream)
    return false;
  at(loc);
  g = {convert(seed, U64), convert(stream, U64)};
  return true;
}

void KernelLowering::philoxLocal(const VarDecl *vd) {
  // Only the (seed, stream) constructor (or a copy of a generator bound by
  // value): a reference would need a generator value flowing through SSA.
  const Expr *init = vd->getInit();
  std::pair<kir::Value *, kir::Value *> g;
  if (vd->getType()->isReferenceType() || !init) {
    fail(vd->getLocation(), msg::RngUse);
    return;
  }
  if (philoxOf(init, g))
    generators[vd] = g;
}

kir::Value *KernelLowering::rngCall(const CXXMemberCallExpr *e) {
  SourceLocation loc = e->getExprLoc();
  llvm::StringRef fn = e->getMethodDecl()->getName();
  if (fn != "u32" && fn != "uniform" && fn != "normal")
    return fail(loc, msg::RngMethod, {fn.str()});
  std::pair<kir::Value *, kir::Value *> g;
  if (!philoxOf(e->getImplicitObjectArgument(), g))
    return nullptr;
  kir::Value *counter = expr(e->getArg(0));
  if (!counter)
    return nullptr;
  at(loc);
  counter = convert(counter, U64);
  kir::Type rt = kir::Type::scalar(fn == "u32" ? kir::ScalarKind::U32
                                               : kir::ScalarKind::F32);
  kir::Op *op = b->create(kir::Opcode::Rng, {g.first, g.second, counter}, {rt});
  op->setAttr("fn", fn.str());
  return op->result();
}
