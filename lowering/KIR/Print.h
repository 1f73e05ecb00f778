//===- Print.h - printf formats of the KIR `print` op -----------*- C++ -*-===//
//
// A `print` op carries a C printf format and scalar operands (KIR.h). This
// header splits a format into pieces of literal text with at most one
// conversion each, and says which operand type a conversion takes once the
// argument has been promoted as C varargs promote it. The front end checks
// the user's format with it (at the user's line), the verifier re-checks the
// op, and the interpreters print piece by piece with the host's snprintf.
//
//===----------------------------------------------------------------------===//

#ifndef INTENT_KIR_PRINT_H
#define INTENT_KIR_PRINT_H

#include "KIR/KIR.h"

#include <optional>
#include <string>
#include <vector>

namespace intent::kir {

/// Literal text followed by at most one conversion that takes an argument.
struct FormatPiece {
  /// The piece's printf text: literal characters (with `%%`) and, when
  /// `conv` is set, the conversion spec at its end (flags, width, precision,
  /// length and conversion letter).
  std::string text;
  /// The conversion letter (d i u o x X c f F e E g G a A; s only when
  /// splitFormat allows strings), or 0.
  char conv = 0;
  /// The length modifier: "", "hh", "h", "l", "ll", "j", "z", "t".
  std::string length;
};

/// Splits `format` into pieces. Returns false with a message naming the bad
/// conversion in `error` for %p, %n, `*` widths/precisions, %L and unknown
/// or incomplete conversions, and for %s unless `allowStrings` (the front
/// end, which splices string literal arguments into the format).
bool splitFormat(llvm::StringRef format, std::vector<FormatPiece> &pieces,
                 std::string &error, bool allowStrings = false);

/// The operand type a conversion reads after the varargs promotions
/// (integers: i32 or i64 by the length modifier, signed for d/i/c, unsigned
/// for u/o/x/X; floats: f64).
Type formatArgType(const FormatPiece &piece);

/// Whether an operand of type `t` (already promoted: i32, u32, i64, u64 or
/// f64) fits the piece: the class (integer or float) and width must match;
/// the signedness of an integer may differ, as printf allows.
bool formatArgFits(const FormatPiece &piece, const Type &t);

/// The type a C vararg of type `t` is promoted to: bool and integers narrower
/// than 32 bits to i32, f32 to f64, others unchanged. Nullopt for f16/bf16
/// (no promotion defined) and non-scalars.
std::optional<Type> promotedArgType(const Type &t);

/// The printf spelling of an operand type (for messages): "int", "long
/// long", "unsigned int", "double", ...
std::string formatTypeName(const Type &t);

/// Escapes `%` in literal text that is spliced into a format.
std::string escapePercent(llvm::StringRef text);

} // namespace intent::kir

#endif // INTENT_KIR_PRINT_H
