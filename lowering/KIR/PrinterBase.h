//===- PrinterBase.h - What KIR's and the physical IR's printers share -*- C++ -*-===//
//
// Both textual IRs print an op the same way up to their own additions
// (KIR/Printer.cpp, Physical/Printer.cpp):
//
//   [%r0, %r1 = ] name [operands] [{attr = value, ...}] [: T0, T1] ...
//       [loc(L:C)] { ^(%a: T, ...):
//     ...
//   }
//
// These helpers print the pieces both share, over either IR's Op, Value and
// Block classes (they have the same fields for these; `printType` is found
// by argument-dependent lookup in the IR's namespace), so that the two forms
// stay alike and KIR/ParserBase.h reads both.
//
//===----------------------------------------------------------------------===//

#ifndef INTENT_KIR_PRINTERBASE_H
#define INTENT_KIR_PRINTERBASE_H

#include "KIR/KIR.h"
#include "KIR/OpSchema.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/raw_ostream.h"

namespace intent::text {

/// Two spaces per nesting level.
inline void indent(llvm::raw_ostream &os, unsigned depth) {
  for (unsigned i = 0; i < depth; ++i)
    os << "  ";
}

/// ` loc(LINE:COL)` for a known location when locations are printed.
inline void printLoc(llvm::raw_ostream &os, const kir::Loc &l, bool withLocs) {
  if (withLocs && l.valid())
    os << " loc(" << l.line << ":" << l.col << ")";
}

/// ` {name = value, ...}`; nothing without attributes.
inline void printAttrDict(llvm::raw_ostream &os,
                          llvm::ArrayRef<schema::NamedAttr> attrs) {
  if (attrs.empty())
    return;
  os << " {";
  for (unsigned i = 0; i < attrs.size(); ++i) {
    os << (i ? ", " : "") << attrs[i].name << " = ";
    kir::printAttr(os, attrs[i].value);
  }
  os << "}";
}

/// `%r0, %r1 = ` before the op name; nothing for an op without results.
template <class OpT> void printResultIds(llvm::raw_ostream &os, const OpT &op) {
  if (op.results.empty())
    return;
  for (unsigned i = 0; i < op.results.size(); ++i)
    os << (i ? ", " : "") << "%" << op.results[i]->id;
  os << " = ";
}

/// ` %a, %b`: plain operands after the op name.
template <class ValueT>
void printOperandIds(llvm::raw_ostream &os, llvm::ArrayRef<ValueT *> vals) {
  for (unsigned i = 0; i < vals.size(); ++i)
    os << (i ? ", " : " ") << "%" << vals[i]->id;
}

/// ` : T0, T1`, the result types; nothing for an op without results.
template <class OpT>
void printResultTypes(llvm::raw_ostream &os, const OpT &op) {
  if (op.results.empty())
    return;
  os << " : ";
  for (unsigned i = 0; i < op.results.size(); ++i) {
    if (i)
      os << ", ";
    printType(os, op.results[i]->type);
  }
}

/// The `^(%a: T, ...):` line of a region's block arguments, at `depth`;
/// nothing for a block without arguments.
template <class BlockT>
void printBlockArgs(llvm::raw_ostream &os, const BlockT &b, unsigned depth) {
  if (b.args.empty())
    return;
  indent(os, depth);
  os << "^(";
  for (unsigned i = 0; i < b.args.size(); ++i) {
    os << (i ? ", " : "") << "%" << b.args[i]->id << ": ";
    printType(os, b.args[i]->type);
  }
  os << "):\n";
}

} // namespace intent::text

#endif // INTENT_KIR_PRINTERBASE_H
