//===- LowerPrint.cpp - printf in a kernel -> KIR print --------------------===//
//
// `printf("i=%d x=%f\n", i, x)` (or std::printf) becomes
//
//   print %i32, %f64 {format = "i=%d x=%f\n"}
//
// The format must be a string literal; its conversions are checked against
// the arguments here, at the user's line (KIR/Print.h): each argument is
// lowered as C varargs promote it (bool and narrow integers to int, float to
// double) and must have the class and width its conversion reads (%d/%i/%u/
// %o/%x/%X/%c: 32-bit integers, with l/ll/j/z/t: 64-bit; %f/%e/%g/%a:
// double). %s takes only a string literal argument, which is spliced into
// the format; %p, %n, `*` widths and long double are rejected. The result of
// printf (a character count) is not available.
//
//===----------------------------------------------------------------------===//

#include "KernelLowering.h"

#include "KIR/Print.h"

#include <cstdio>

using namespace clang;
using namespace intent;
using namespace intent::plugin;

namespace {

/// The advice appended when an argument does not fit its conversion.
std::string argTypeHint(const kir::FormatPiece &p, const kir::Type &arg,
                        const std::optional<kir::Type> &have) {
  kir::Type want = kir::formatArgType(p);
  if (!have)
    return arg.isFloat() ? "; convert it to float first" : "";
  if (want.isInteger() && have->isInteger()) {
    if (have->bitWidth() == 64)
      return std::string("; use '%l") + p.conv + "' or '%ll" + p.conv +
             "' for a 64-bit integer (or cast the argument to int)";
    return "; drop the length modifier (or cast the argument to long long)";
  }
  return "; cast the argument to the type the conversion takes";
}

/// The text `spec` (a %s conversion with its flags, width and precision)
/// prints for the string `s`.
std::string formatString(const std::string &spec, const std::string &s) {
  int n = std::snprintf(nullptr, 0, spec.c_str(), s.c_str());
  if (n <= 0)
    return "";
  std::string out(n + 1, '\0');
  std::snprintf(out.data(), out.size(), spec.c_str(), s.c_str());
  out.resize(n);
  return out;
}

const StringLiteral *ordinaryLiteral(const Expr *e) {
  const auto *s = dyn_cast<StringLiteral>(e->IgnoreParenImpCasts());
  return s && s->isOrdinary() ? s : nullptr;
}

} // namespace

kir::Value *KernelLowering::printCall(const CallExpr *e,
                                      const FunctionDecl *fd, bool &handled) {
  handled = false;
  const DeclContext *dc = fd->getDeclContext()->getRedeclContext();
  // The C library's printf (extern "C"; glibc's _FORTIFY_SOURCE wrapper has
  // a body).
  if (!fd->getIdentifier() || fd->getName() != "printf" || !fd->isExternC() ||
      !(fd->isInStdNamespace() || dc->isTranslationUnit()))
    return nullptr;
  handled = true;
  SourceLocation loc = e->getExprLoc();
  for (const CaptureScope &cs : raceScopes)
    if (cs.pure)
      return fail(loc, msg::PrintInCallback, {cs.what});
  const StringLiteral *lit =
      e->getNumArgs() ? ordinaryLiteral(e->getArg(0)) : nullptr;
  if (!lit)
    return fail(e->getNumArgs() ? e->getArg(0)->getExprLoc() : loc,
                msg::PrintFormatLiteral);
  std::vector<kir::FormatPiece> pieces;
  std::string why;
  if (!kir::splitFormat(lit->getString(), pieces, why, /*allowStrings=*/true))
    return fail(lit->getBeginLoc(), msg::PrintFormat, {why});
  unsigned convs = llvm::count_if(
      pieces, [](const kir::FormatPiece &p) { return p.conv != 0; });
  if (convs != e->getNumArgs() - 1)
    return fail(loc, msg::PrintArgCount,
                {std::to_string(convs), std::to_string(e->getNumArgs() - 1)});

  std::string format;
  llvm::SmallVector<kir::Value *, 4> args;
  unsigned next = 1;
  for (const kir::FormatPiece &p : pieces) {
    if (!p.conv) {
      format += p.text;
      continue;
    }
    const Expr *a = e->getArg(next++);
    std::string spec = p.text.substr(p.text.rfind('%'));
    std::string head = p.text.substr(0, p.text.size() - spec.size());
    if (p.conv == 's') {
      const StringLiteral *s = ordinaryLiteral(a);
      if (!s)
        return fail(a->getExprLoc(), msg::PrintStringArg, {spec});
      std::string text = s->getString().str();
      text = text.substr(0, text.find('\0'));
      format += head + kir::escapePercent(formatString(spec, text));
      continue;
    }
    kir::Value *v = expr(a);
    if (!v)
      return nullptr;
    std::optional<kir::Type> promoted = kir::promotedArgType(v->type);
    if (!promoted || !kir::formatArgFits(p, *promoted))
      return fail(a->getExprLoc(), msg::PrintArgType,
                  {spec, kir::formatTypeName(kir::formatArgType(p)),
                   quoted(a->IgnoreImpCasts()->getType().getAsString(
                       ctx.getPrintingPolicy())),
                   argTypeHint(p, v->type, promoted)});
    args.push_back(convert(v, *promoted));
    format += p.text;
  }
  at(loc);
  kir::Op *op = b->create(kir::Opcode::Print, args, {});
  op->setAttr("format", format);
  return &voidValue;
}
