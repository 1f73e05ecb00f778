//===- Printer.cpp - KIR textual form --------------------------------------===//
//
// The textual form is regular so that it can be parsed back:
//
//   kernel @name "display" (%0 y: view<f32, 1> rw, %1 a: f32) loc(3:20) {
//     %2 = extent %0 {dim = 0} : i64 loc(4:3)
//     parallel_for %2 loc(4:3) {
//     ^(%3: i64):
//       ...
//       yield
//     }
//     return
//   }
//
// An op line is `[results =] name [operands] [{attrs}] [: result types]
// [loc(l:c)]`, followed by one `{ ... }` block per region; a region's block
// arguments are listed on its first line as `^(%id: type, ...):`.
//
//===----------------------------------------------------------------------===//

#include "KIR/KIR.h"
#include "KIR/PrinterBase.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Format.h"

#include <cmath>
#include <cstdio>

using namespace intent;
using namespace intent::kir;

llvm::StringRef intent::kir::accessName(Access a) {
  switch (a) {
  case Access::None:
    return "none";
  case Access::Read:
    return "r";
  case Access::Write:
    return "w";
  case Access::ReadWrite:
    return "rw";
  }
  return "?";
}

namespace {

class Printer {
public:
  Printer(llvm::raw_ostream &os, bool withLocs) : os(os), withLocs(withLocs) {}

  void printKernel(const Kernel &k) {
    os << "kernel @" << k.name;
    if (!k.displayName.empty() && k.displayName != k.name)
      os << " \"" << k.displayName << "\"";
    os << " (";
    for (unsigned i = 0; i < k.params.size(); ++i) {
      if (i)
        os << ", ";
      const Param &p = k.params[i];
      os << "%" << k.param(i)->id << " " << p.name << ": ";
      printType(os, p.type);
      if (p.type.isView())
        os << " " << accessName(p.access);
    }
    os << ")";
    printLoc(k.loc);
    os << " {\n";
    printBlockBody(k.body->block, 1);
    os << "}\n";
  }

private:
  llvm::raw_ostream &os;
  bool withLocs;

  void indent(unsigned n) { text::indent(os, n); }
  void printLoc(const Loc &l) { text::printLoc(os, l, withLocs); }

  void printBlockBody(const Block &b, unsigned depth) {
    for (const auto &op : b.ops)
      printOp(*op, depth);
  }

  void printOp(const Op &op, unsigned depth) {
    indent(depth);
    text::printResultIds(os, op);
    os << opcodeName(op.opcode);
    text::printOperandIds<Value>(os, op.operands);
    text::printAttrDict(os, op.attrs);
    text::printResultTypes(os, op);
    printLoc(op.loc);
    for (const auto &r : op.regions) {
      os << " {\n";
      const Block &b = r->block;
      text::printBlockArgs(os, b, depth);
      printBlockBody(b, depth + 1);
      indent(depth);
      os << "}";
    }
    os << "\n";
  }
};

} // namespace

void intent::kir::printFloat(llvm::raw_ostream &os, double d) {
  if (std::isnan(d)) {
    os << "nan";
    return;
  }
  if (std::isinf(d)) {
    os << (d < 0 ? "-inf" : "inf");
    return;
  }
  char buf[64];
  std::snprintf(buf, sizeof(buf), "%.17g", d);
  std::string s = buf;
  // Keep the shortest form that round-trips.
  for (int prec = 1; prec <= 17; ++prec) {
    std::snprintf(buf, sizeof(buf), "%.*g", prec, d);
    if (std::strtod(buf, nullptr) == d) {
      s = buf;
      break;
    }
  }
  if (s.find_first_of(".en") == std::string::npos)
    s += ".0";
  os << s;
}

void intent::kir::printAttr(llvm::raw_ostream &os, const AttrValue &v) {
  if (const auto *i = std::get_if<int64_t>(&v))
    os << *i;
  else if (const auto *d = std::get_if<double>(&v))
    printFloat(os, *d);
  else if (const auto *b = std::get_if<bool>(&v))
    os << (*b ? "true" : "false");
  else {
    // Escapes as the parser reads them back: \\, \", \n, \t, \XX (hex).
    os << '"';
    for (unsigned char c : std::get<std::string>(v)) {
      if (c == '\\' || c == '"')
        os << '\\' << c;
      else if (c == '\n')
        os << "\\n";
      else if (c == '\t')
        os << "\\t";
      else if (c < 0x20 || c >= 0x7f)
        os << '\\' << llvm::hexdigit(c >> 4) << llvm::hexdigit(c & 15);
      else
        os << c;
    }
    os << '"';
  }
}

void intent::kir::printKernel(llvm::raw_ostream &os, const Kernel &k,
                              bool withLocs) {
  Printer(os, withLocs).printKernel(k);
}

void intent::kir::printModule(llvm::raw_ostream &os, const Module &m,
                              bool withLocs) {
  os << "// KIR for " << m.sourceFile << "\n";
  for (const auto &k : m.kernels) {
    printKernel(os, *k, withLocs);
  }
}
