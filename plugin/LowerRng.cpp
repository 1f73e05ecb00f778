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

void KernelLowering::philoxLocal(const VarDecl *vd) {
  SourceLocation loc = vd->getLocation();
  const auto *ctor = vd->getInit()
                         ? dyn_cast<CXXConstructExpr>(strip(vd->getInit()))
                         : nullptr;
  // Only the (seed, stream) constructor: references and copies of a
  // generator would need a generator value flowing through SSA.
  if (vd->getType()->isReferenceType() || !ctor || ctor->getNumArgs() != 2) {
    fail(loc, msg::RngUse);
    return;
  }
  kir::Value *seed = expr(ctor->getArg(0));
  kir::Value *stream = seed ? expr(ctor->getArg(1)) : nullptr;
  if (!seed || !stream)
    return;
  at(loc);
  generators[vd] = {convert(seed, U64), convert(stream, U64)};
}

kir::Value *KernelLowering::rngCall(const CXXMemberCallExpr *e) {
  SourceLocation loc = e->getExprLoc();
  llvm::StringRef fn = e->getMethodDecl()->getName();
  if (fn != "u32" && fn != "uniform" && fn != "normal")
    return fail(loc, msg::RngMethod, {fn.str()});
  const Expr *obj = strip(e->getImplicitObjectArgument());
  while (const auto *ce = dyn_cast<ImplicitCastExpr>(obj)) // to const
    obj = strip(ce->getSubExpr());
  kir::Value *seed = nullptr, *stream = nullptr;
  if (const auto *dr = dyn_cast<DeclRefExpr>(obj)) {
    const auto *vd = dyn_cast<VarDecl>(dr->getDecl());
    auto it = vd ? generators.find(vd) : generators.end();
    if (it == generators.end())
      return fail(loc, msg::RngUse);
    seed = it->second.first;
    stream = it->second.second;
  } else if (const auto *ctor = dyn_cast<CXXConstructExpr>(obj);
             ctor && ctor->getNumArgs() == 2) {
    seed = expr(ctor->getArg(0));
    stream = seed ? expr(ctor->getArg(1)) : nullptr;
    if (!seed || !stream)
      return nullptr;
    at(loc);
    seed = convert(seed, U64);
    stream = convert(stream, U64);
  } else {
    return fail(loc, msg::RngUse);
  }
  kir::Value *counter = expr(e->getArg(0));
  if (!counter)
    return nullptr;
  at(loc);
  counter = convert(counter, U64);
  kir::Type rt = kir::Type::scalar(fn == "u32" ? kir::ScalarKind::U32
                                               : kir::ScalarKind::F32);
  kir::Op *op = b->create(kir::Opcode::Rng, {seed, stream, counter}, {rt});
  op->setAttr("fn", fn.str());
  return op->result();
}
