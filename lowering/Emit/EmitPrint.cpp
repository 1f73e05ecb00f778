//===- EmitPrint.cpp - CUDA emission of print ------------------------------===//
//
// `print %a, %b {format = "i=%d x=%f\n"}` becomes
//
//   printf("i=%d x=%f\n", static_cast<int>(v3), static_cast<double>(v5));
//
// CUDA's device printf on the GPU (its buffer is flushed at the next
// synchronization), the C library's printf in cpu mode. Every operand is
// passed at its promoted C type, which the verifier matched against the
// format's conversions (KIR/Print.h). No pass spreads an instance that prints
// over several threads, so the call runs once per instance.
//
//===----------------------------------------------------------------------===//

#include "Emit/ProgramEmitter.h"

#include "llvm/ADT/StringExtras.h"

using namespace intent;
using namespace intent::phys;
using namespace intent::emit::detail;

namespace {

/// A C string literal with the exact bytes of `s`.
std::string cStringLiteral(llvm::StringRef s) {
  std::string out = "\"";
  for (unsigned char c : s) {
    if (c == '\\' || c == '"') {
      out += '\\';
      out += c;
    } else if (c == '\n') {
      out += "\\n";
    } else if (c == '\t') {
      out += "\\t";
    } else if (c < 0x20 || c >= 0x7f || c == '?') {
      // Octal, always three digits, so a following digit is not absorbed
      // ('?' too: no trigraphs).
      out += '\\';
      out += static_cast<char>('0' + (c >> 6));
      out += static_cast<char>('0' + ((c >> 3) & 7));
      out += static_cast<char>('0' + (c & 7));
    } else {
      out += c;
    }
  }
  return out + "\"";
}

/// The C type a printf argument of KIR scalar kind `k` is passed as.
const char *varargType(ScalarKind k) {
  switch (k) {
  case ScalarKind::U32:
    return "unsigned int";
  case ScalarKind::I64:
    return "long long";
  case ScalarKind::U64:
    return "unsigned long long";
  case ScalarKind::F64:
    return "double";
  default:
    return "int";
  }
}

} // namespace

void ProgramEmitter::emitPrint(const Op &op) {
  indent();
  os << "printf(" << cStringLiteral(op.strAttr("format"));
  for (const Value *v : op.operands)
    os << ", static_cast<" << varargType(v->type.elem) << ">(" << name(v)
       << ")";
  os << ");\n";
}
