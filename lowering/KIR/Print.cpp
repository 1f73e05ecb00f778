//===- Print.cpp - printf formats of the KIR `print` op -------------------===//

#include "KIR/Print.h"

#include "llvm/ADT/StringExtras.h"

using namespace intent::kir;

bool intent::kir::splitFormat(llvm::StringRef format,
                              std::vector<FormatPiece> &pieces,
                              std::string &error, bool allowStrings) {
  pieces.clear();
  FormatPiece cur;
  size_t i = 0, n = format.size();
  while (i < n) {
    char c = format[i];
    if (c != '%') {
      cur.text += c;
      ++i;
      continue;
    }
    if (i + 1 < n && format[i + 1] == '%') {
      cur.text += "%%";
      i += 2;
      continue;
    }
    size_t start = i++;
    while (i < n && llvm::StringRef("-+ #0").contains(format[i]))
      ++i;
    auto digits = [&] {
      while (i < n && llvm::isDigit(format[i]))
        ++i;
    };
    if (i < n && format[i] == '*') {
      error = "a '*' width in conversion '" +
              format.substr(start, i + 1 - start).str() +
              "' is not supported in a kernel (write the width into the format)";
      return false;
    }
    digits();
    if (i < n && format[i] == '.') {
      ++i;
      if (i < n && format[i] == '*') {
        error = "a '*' precision in conversion '" +
                format.substr(start, i + 1 - start).str() +
                "' is not supported in a kernel (write the precision into the "
                "format)";
        return false;
      }
      digits();
    }
    std::string length;
    if (format.substr(i).starts_with("hh") || format.substr(i).starts_with("ll")) {
      length = format.substr(i, 2).str();
      i += 2;
    } else if (i < n && llvm::StringRef("hljztL").contains(format[i])) {
      length = std::string(1, format[i]);
      ++i;
    }
    if (i >= n) {
      error = "the format ends inside conversion '" +
              format.substr(start).str() + "'";
      return false;
    }
    char conv = format[i++];
    std::string spec = format.substr(start, i - start).str();
    if (conv == 's' && allowStrings && length.empty()) {
      cur.text += spec;
      cur.conv = conv;
      pieces.push_back(std::move(cur));
      cur = FormatPiece();
      continue;
    }
    if (conv == 's') {
      error = "conversion '" + spec +
              "' takes a string, which a kernel can only print from a string "
              "literal argument";
      return false;
    }
    if (conv == 'p' || conv == 'n') {
      error = "conversion '" + spec +
              "' is not supported in a kernel (it takes a pointer)";
      return false;
    }
    if (!llvm::StringRef("diuoxXcfFeEgGaA").contains(conv)) {
      error = "unknown conversion '" + spec + "'";
      return false;
    }
    if (length == "L") {
      error = "conversion '" + spec +
              "' takes a long double, which kernels do not have; use '%" +
              std::string(1, conv) + "' with a double";
      return false;
    }
    bool isFloat = llvm::StringRef("fFeEgGaA").contains(conv);
    if ((isFloat && !length.empty() && length != "l") ||
        (conv == 'c' && !length.empty())) {
      error = "length modifier '" + length + "' in conversion '" + spec +
              "' is not valid for '%" + std::string(1, conv) + "'";
      return false;
    }
    cur.text += spec;
    cur.conv = conv;
    cur.length = isFloat ? "" : length;
    pieces.push_back(std::move(cur));
    cur = FormatPiece();
  }
  if (!cur.text.empty() || pieces.empty())
    pieces.push_back(std::move(cur));
  return true;
}

Type intent::kir::formatArgType(const FormatPiece &p) {
  if (llvm::StringRef("fFeEgGaA").contains(p.conv))
    return Type::scalar(ScalarKind::F64);
  bool wide = p.length == "l" || p.length == "ll" || p.length == "j" ||
              p.length == "z" || p.length == "t";
  bool isSigned = p.conv == 'd' || p.conv == 'i' || p.conv == 'c';
  if (wide)
    return Type::scalar(isSigned ? ScalarKind::I64 : ScalarKind::U64);
  return Type::scalar(isSigned ? ScalarKind::I32 : ScalarKind::U32);
}

bool intent::kir::formatArgFits(const FormatPiece &p, const Type &t) {
  if (!p.conv || !t.isScalar())
    return false;
  Type want = formatArgType(p);
  if (want.isFloat())
    return t.isScalar() && t.elem == ScalarKind::F64;
  return t.isInteger() && t.bitWidth() == want.bitWidth();
}

std::optional<Type> intent::kir::promotedArgType(const Type &t) {
  if (!t.isScalar())
    return std::nullopt;
  switch (t.elem) {
  case ScalarKind::Bool:
  case ScalarKind::I8:
  case ScalarKind::I16:
  case ScalarKind::U8:
  case ScalarKind::U16:
    return Type::scalar(ScalarKind::I32);
  case ScalarKind::F32:
    return Type::scalar(ScalarKind::F64);
  case ScalarKind::F16:
  case ScalarKind::BF16:
    return std::nullopt;
  default:
    return t;
  }
}

std::string intent::kir::formatTypeName(const Type &t) {
  if (!t.isScalar())
    return typeToString(t);
  switch (t.elem) {
  case ScalarKind::I32:
    return "int";
  case ScalarKind::U32:
    return "unsigned int";
  case ScalarKind::I64:
    return "a 64-bit integer";
  case ScalarKind::U64:
    return "an unsigned 64-bit integer";
  case ScalarKind::F64:
    return "double";
  default:
    return typeToString(t);
  }
}

std::string intent::kir::escapePercent(llvm::StringRef text) {
  std::string out;
  for (char c : text) {
    out += c;
    if (c == '%')
      out += '%';
  }
  return out;
}
