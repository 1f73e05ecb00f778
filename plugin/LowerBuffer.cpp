//===- LowerBuffer.cpp - intent::buffer<T, N> -> KIR alloc -----------------===//
//
// A local `intent::buffer<T, N> b;` becomes one KIR `alloc` op at the
// declaration (docs/kir.md "Local buffers"): a rank-1 memory value of N
// elements, `init = "first_write"` for the default constructor and
// `init = "value"` with the constant fill value for `buffer(v)`. `b[i]` is a
// load/store through that value like a view element; `b.size()` is the
// constant N. The allocation instance is lexical: an alloc inside a
// parallel_for body or loop body runs (allocates) once per iteration.
// Construction decides the physical scope.
//
// Unsupported (reported at the use): copies (by-value helper parameters,
// copy-initialization, assignment), data(), temporaries, element types that
// are not scalars, a non-constant fill value, buffers inside reduction
// callbacks.
//
//===----------------------------------------------------------------------===//

#include "KernelLowering.h"

using namespace clang;
using namespace intent;
using namespace intent::plugin;

bool KernelLowering::isBufferType(QualType t) const {
  const CXXRecordDecl *rd = intentRecord(t);
  return rd && rd->getName() == "buffer" &&
         isa<ClassTemplateSpecializationDecl>(rd);
}

void KernelLowering::bufferDecl(const VarDecl *vd) {
  SourceLocation loc = vd->getLocation();
  QualType t = vd->getType();
  const Expr *init = vd->getInit();
  if (t->isReferenceType()) {
    // `buffer<T, N> &r = b;`: another name for the same allocation.
    LValue lv = init ? lvalue(init) : LValue();
    if (lv.valid())
      aliases[vd] = lv;
    else if (!failed)
      fail(loc, msg::BufferTemp);
    return;
  }
  for (const CaptureScope &sc : raceScopes)
    if (sc.callback) {
      fail(loc, msg::BufferInCallback, {sc.what});
      return;
    }
  const auto *spec = cast<ClassTemplateSpecializationDecl>(
      t.getCanonicalType()->getAsCXXRecordDecl());
  const TemplateArgumentList &targs = spec->getTemplateArgs();
  QualType elemTy = targs[0].getAsType();
  std::optional<kir::Type> et = scalarType(elemTy);
  if (!et || elemTy.isConstQualified() || elemTy->isEnumeralType()) {
    fail(loc, msg::BufferElementType,
         {quoted(elemTy.getAsString(ctx.getPrintingPolicy()))});
    return;
  }
  int64_t n = targs[1].getAsIntegral().getExtValue();

  std::string mode = "first_write";
  kir::AttrValue fill = int64_t(0);
  if (init) {
    const Expr *e = init;
    if (const auto *c = dyn_cast<ExprWithCleanups>(e))
      e = c->getSubExpr();
    const auto *ce = dyn_cast<CXXConstructExpr>(e);
    if (!ce) {
      fail(loc, msg::BufferCopy);
      return;
    }
    if (ce->getNumArgs() == 1 && isBufferType(ce->getArg(0)->getType())) {
      fail(loc, msg::BufferCopy);
      return;
    }
    if (ce->getNumArgs() == 1) {
      const Expr *arg = ce->getArg(0);
      Expr::EvalResult r;
      if (arg->isValueDependent() || !arg->EvaluateAsRValue(r, ctx) ||
          r.HasSideEffects) {
        fail(arg->getExprLoc(), msg::BufferFill);
        return;
      }
      // The constructor takes `const T &`: the argument is already
      // converted to T, so the value is a float for float buffers and an
      // integer (bool: 0/1) otherwise.
      const APValue &v = r.Val;
      if (et->isFloat() && v.isFloat()) {
        llvm::APFloat f = v.getFloat();
        bool lost = false;
        f.convert(llvm::APFloat::IEEEdouble(),
                  llvm::APFloat::rmNearestTiesToEven, &lost);
        fill = f.convertToDouble();
      } else if (!et->isFloat() && v.isInt()) {
        fill = et->isBool() ? int64_t(v.getInt().getBoolValue())
                            : v.getInt().getExtValue();
      } else {
        fail(arg->getExprLoc(), msg::BufferFill);
        return;
      }
      mode = "value";
    } else if (ce->getNumArgs() != 0) {
      fail(loc, msg::BufferCopy);
      return;
    }
  }
  at(loc);
  kir::Op *op = b->create(kir::Opcode::Alloc, {},
                          {kir::Type::view(et->elem, 1, false)});
  op->setAttr("size", n);
  op->setAttr("init", mode);
  if (mode == "value")
    op->setAttr("value", fill);
  kir::Value *v = op->result();
  v->name = vd->getNameAsString();
  bind(vd, v);
}

kir::Value *KernelLowering::bufferMember(const CallExpr *e,
                                         const CXXMethodDecl *md) {
  SourceLocation loc = e->getExprLoc();
  llvm::StringRef name = md->getIdentifier() ? md->getName() : "";
  if (name == "size") {
    QualType rt = ctx.getRecordType(md->getParent());
    const auto *spec =
        cast<ClassTemplateSpecializationDecl>(rt->getAsCXXRecordDecl());
    at(loc);
    return b->constInt(spec->getTemplateArgs()[1].getAsIntegral().getExtValue(),
                       kir::Type::index());
  }
  if (name == "data")
    return fail(loc, msg::BufferData);
  return fail(loc, msg::MethodCall, {name.str(), quoted("buffer")});
}
