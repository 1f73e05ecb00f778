//===- OpSchema.h - What an op of a textual IR looks like -------*- C++ -*-===//
//
// Both IRs (KIR, KIR/OpTable.h, and the physical IR, Physical/OpTable.h)
// describe their ops by one table row each: the printed name, operand and
// result arity, named regions, and a typed attribute schema. This header is
// the part the two tables share: attribute kinds and specs, the row
// fields common to both, the fluent builder the rows are written with, the
// table's assembly and lookup by name, and the generic check of an op
// against its row (the verifiers' `[schema]` findings).
//
//===----------------------------------------------------------------------===//

#ifndef INTENT_KIR_OPSCHEMA_H
#define INTENT_KIR_OPSCHEMA_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/ErrorHandling.h"

#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace intent::schema {

/// An attribute's value (KIR's and the physical IR's AttrValue).
using AttrValue = std::variant<int64_t, double, bool, std::string>;

/// The typed kind of an attribute value.
enum class AttrKind : uint8_t {
  Int,    ///< int64_t
  Bool,   ///< bool
  Float,  ///< double
  String, ///< free text (a printf format)
  Enum,   ///< a string, one of AttrSpec::values
  Scalar, ///< int64_t, double or bool: a constant of the op's result type
};
llvm::StringRef attrKindName(AttrKind k);

/// One attribute of an op's schema.
struct AttrSpec {
  std::string name;
  AttrKind kind = AttrKind::Int;
  bool required = false;
  /// Enum: the allowed spellings.
  std::vector<std::string> values;

  /// Whether `v` has this attribute's kind (and, for enums, an allowed
  /// spelling).
  bool accepts(const AttrValue &v) const;
  /// "int", "bool", ..., or "one of \"cta\", \"gpu\"" for an enum.
  std::string describe() const;
};

AttrSpec intAttr(llvm::StringRef name, bool required = true);
AttrSpec boolAttr(llvm::StringRef name, bool required = true);
AttrSpec enumAttr(llvm::StringRef name, std::vector<std::string> values,
                  bool required = true);
AttrSpec scalarAttr(llvm::StringRef name, bool required = true);
AttrSpec stringAttr(llvm::StringRef name, bool required = true);

/// No upper bound on operand or result counts.
inline constexpr unsigned kVariadic = ~0u;

/// "3", "1 to 3", "at least 2".
std::string countText(unsigned lo, unsigned hi);

/// The row fields both IRs have.
struct OpSchema {
  std::string name;
  unsigned minOperands = 0;
  unsigned maxOperands = 0; ///< kVariadic: no bound
  unsigned minResults = 0;
  unsigned maxResults = 0; ///< kVariadic: no bound
  /// One name per region, in order ("then", "else"); the count is fixed.
  std::vector<std::string> regions;
  std::vector<AttrSpec> attrs;
  bool terminator = false;
  /// No memory or control effects (safe to recompute).
  bool pure = false;
  const AttrSpec *attr(llvm::StringRef name) const;
};

/// Builds one row of an op table so that it reads like the op's line in
/// the IR's reference:
///
///   op(O::Cmp, "cmp").operands(2).results(1).pure()
///       .attr(enumAttr("pred", {"eq", "ne", "lt", "le", "gt", "ge"}))
///
/// `Info` is the IR's row type (an OpSchema with an `opcode` field);
/// `Derived` is the IR's builder, which may add setters for its own fields
/// or redefine one of these (each returns `Derived &`, so a chain keeps
/// calling the IR's versions).
template <class Derived, class Info> class RowBuilder {
public:
  using Opcode = decltype(Info::opcode);

  RowBuilder(Opcode opc, llvm::StringRef name) {
    info.opcode = opc;
    info.name = name.str();
  }
  Derived &operands(unsigned n) { return operands(n, n); }
  Derived &operands(unsigned lo, unsigned hi) {
    info.minOperands = lo;
    info.maxOperands = hi;
    return self();
  }
  Derived &results(unsigned n) { return results(n, n); }
  Derived &results(unsigned lo, unsigned hi) {
    info.minResults = lo;
    info.maxResults = hi;
    return self();
  }
  Derived &regions(std::vector<std::string> names) {
    info.regions = std::move(names);
    return self();
  }
  Derived &attr(AttrSpec a) {
    info.attrs.push_back(std::move(a));
    return self();
  }
  Derived &terminator() {
    info.terminator = true;
    return self();
  }
  Derived &pure() {
    info.pure = true;
    return self();
  }

  Info info;

protected:
  Derived &self() { return static_cast<Derived &>(*this); }
};

/// The table of `rows`, indexed by opcode: one row per opcode up to `last`,
/// in enum order. A row out of order or a missing one is a programming error
/// of the table, reported (fatally, naming `table`) when it is first built.
template <class Info, class Row>
std::vector<Info> tableFromRows(std::vector<Row> &rows,
                                decltype(Info::opcode) last,
                                llvm::StringRef table) {
  std::vector<Info> out;
  for (Row &r : rows) {
    if (static_cast<unsigned>(r.info.opcode) != out.size())
      llvm::report_fatal_error(table + " rows out of Opcode order at '" +
                               llvm::Twine(r.info.name) + "'");
    out.push_back(std::move(r.info));
  }
  if (out.size() != static_cast<unsigned>(last) + 1)
    llvm::report_fatal_error(table + " misses opcodes");
  return out;
}

/// The opcode whose row in `table` has the printed name `name`.
template <class Info>
std::optional<decltype(Info::opcode)> opcodeByName(llvm::ArrayRef<Info> table,
                                                   llvm::StringRef name) {
  for (const Info &info : table)
    if (info.name == name)
      return info.opcode;
  return std::nullopt;
}

/// One named attribute as an op holds it.
struct AttrRef {
  llvm::StringRef name;
  const AttrValue *value;
};

/// An attribute of an op: its name and value (KIR's and the physical IR's
/// NamedAttr).
struct NamedAttr {
  std::string name;
  AttrValue value;
};

/// The attributes of an op, in the order they print, and their typed reads.
/// KIR's and the physical IR's Op derive from it, so both read `{n = v}`
/// the same way.
class OpAttrs {
public:
  llvm::SmallVector<NamedAttr, 1> attrs;

  /// The value of attribute `name`, or null.
  const AttrValue *attr(llvm::StringRef name) const;
  /// An int attribute, or `dflt` when absent or of another kind.
  int64_t intAttr(llvm::StringRef name, int64_t dflt = 0) const;
  /// A float attribute (an int one converts), or `dflt`.
  double floatAttr(llvm::StringRef name, double dflt = 0) const;
  bool boolAttr(llvm::StringRef name, bool dflt = false) const;
  /// A string attribute, or "".
  std::string strAttr(llvm::StringRef name) const;
  /// Replaces the value of `name`, or appends it.
  void setAttr(llvm::StringRef name, AttrValue v);
  /// The attributes as checkSchema reads them.
  llvm::SmallVector<AttrRef, 4> attrRefs() const;
};

/// Checks an op's shape against `row`: operand (at least `minOperands`,
/// which the caller may raise, e.g. for a guard), result and region counts,
/// and its attributes (no unknown one, none twice, each of its kind, enum
/// values allowed, every required one present). Calls `error` with one
/// message per disagreement; returns true when there is none.
bool checkSchema(const OpSchema &row, unsigned minOperands, unsigned operands,
                 unsigned results, unsigned regions,
                 llvm::ArrayRef<AttrRef> attrs,
                 llvm::function_ref<void(const std::string &)> error);

} // namespace intent::schema

#endif // INTENT_KIR_OPSCHEMA_H
