//===- LowerHalf.cpp - intent::half and intent::bfloat16 -> f16 / bf16 ----===//
//
// The header's 16-bit types are classes with a converting constructor from
// float and a conversion operator to float, so C++ computes every use of them
// in float: `a + b` converts both operands (operator float), adds in float,
// and storing the sum back constructs a half (rounding). The front end maps
// the two classes to the KIR scalars f16 / bf16 and those member calls and
// constructions to `cast`s, so the KIR computes exactly what C++ computes.
//
//===----------------------------------------------------------------------===//

#include "KernelLowering.h"

using namespace clang;
using namespace intent;
using namespace intent::plugin;

std::optional<kir::ScalarKind> KernelLowering::halfKind(QualType t) const {
  const CXXRecordDecl *rd = intentRecord(t);
  if (!rd)
    return std::nullopt;
  if (rd->getName() == "half")
    return kir::ScalarKind::F16;
  if (rd->getName() == "bfloat16")
    return kir::ScalarKind::BF16;
  return std::nullopt;
}

kir::Value *KernelLowering::halfConstruct(const CXXConstructExpr *e) {
  kir::Type t = kir::Type::scalar(*halfKind(e->getType()));
  if (e->getNumArgs() == 0) // half{} / half(): zero, like any scalar local
    return zero(t);
  if (e->getNumArgs() != 1)
    return unsupported(e);
  kir::Value *v = expr(e->getArg(0));
  if (!v)
    return nullptr;
  at(e->getExprLoc());
  return convert(v, t);
}

kir::Value *KernelLowering::halfMember(const CXXMemberCallExpr *e) {
  const CXXMethodDecl *md = e->getMethodDecl();
  if (!isa<CXXConversionDecl>(md))
    return fail(e->getExprLoc(), msg::NotYetSupported,
                {md->getQualifiedNameAsString()});
  std::optional<kir::Type> to = scalarType(e->getType());
  kir::Value *v = expr(e->getImplicitObjectArgument());
  if (!v || !to)
    return v ? unsupported(e) : nullptr;
  at(e->getExprLoc());
  return convert(v, *to);
}

kir::Value *KernelLowering::halfAssign(const CXXOperatorCallExpr *e) {
  kir::Type t = kir::Type::scalar(*halfKind(e->getArg(0)->getType()));
  kir::Value *v = expr(e->getArg(1));
  if (!v)
    return nullptr;
  LValue lv = lvalue(e->getArg(0));
  if (!lv.valid())
    return nullptr;
  at(e->getExprLoc());
  v = convert(v, t);
  if (!write(lv, v, e->getExprLoc()))
    return nullptr;
  return v;
}
