//===- OpTable.cpp - KIR's op table ---------------------------------------===//
//
// The rows, one per Opcode in enum order, each reading like the op's line in
// docs/kir.md:
//
//   op(O::Cmp, "cmp").operands(2).results(1).pure()
//       .attr(enumAttr("pred", {"eq", "ne", "lt", "le", "gt", "ge"}))
//
//===----------------------------------------------------------------------===//

#include "KIR/OpTable.h"

using namespace intent;
using namespace intent::kir;
using namespace intent::schema;

const std::vector<std::string> &intent::kir::mathFunctionNames() {
  /// The double-precision C names the front end lowers <cmath> calls to.
  static const std::vector<std::string> names = {
      "exp",   "exp2",     "expm1", "log",       "log2",     "log10",
      "log1p", "sqrt",     "cbrt",  "sin",       "cos",      "tan",
      "asin",  "acos",     "atan",  "atan2",     "sinh",     "cosh",
      "tanh",  "asinh",    "acosh", "atanh",     "pow",      "fabs",
      "abs",   "floor",    "ceil",  "round",     "trunc",    "rint",
      "nearbyint", "fmod", "remainder", "fmin",  "fmax",     "fdim",
      "hypot", "copysign", "erf",   "erfc",      "tgamma",   "lgamma",
      "fma",   "isnan",    "isinf", "isfinite",  "signbit"};
  return names;
}

const std::vector<std::string> &intent::kir::combinerNames() {
  static const std::vector<std::string> names = {
      "plus", "mul", "max", "min", "bit_and", "bit_or", "bit_xor", "user"};
  return names;
}

const std::vector<std::string> &intent::kir::memoryOrderNames() {
  static const std::vector<std::string> names = {
      "relaxed", "acquire", "release", "acq_rel", "seq_cst"};
  return names;
}

namespace {

/// Builds one row (the setters are schema::RowBuilder's).
class Row : public RowBuilder<Row, OpInfo> {
public:
  using RowBuilder::RowBuilder;
};

Row op(Opcode opc, llvm::StringRef name) { return Row(opc, name); }
Row binary(Opcode opc, llvm::StringRef name) {
  return std::move(op(opc, name).operands(2).results(1).pure());
}
Row unary(Opcode opc, llvm::StringRef name) {
  return std::move(op(opc, name).operands(1).results(1).pure());
}

const std::vector<std::string> kScanKinds = {"inclusive", "exclusive"};
const std::vector<std::string> kDirections = {"forward", "reverse"};

std::vector<OpInfo> buildTable() {
  using O = Opcode;
  const std::vector<std::string> &combiners = combinerNames();
  std::vector<Row> rows = {
      op(O::Constant, "constant").results(1).attr(scalarAttr("value")).pure(),
      binary(O::Add, "add"),
      binary(O::Sub, "sub"),
      binary(O::Mul, "mul"),
      binary(O::Div, "div"),
      binary(O::Rem, "rem"),
      unary(O::Neg, "neg"),
      binary(O::BitAnd, "bitand"),
      binary(O::BitOr, "bitor"),
      binary(O::BitXor, "bitxor"),
      unary(O::BitNot, "bitnot"),
      binary(O::Shl, "shl"),
      binary(O::Shr, "shr"),
      unary(O::Not, "not"),
      binary(O::Min, "min").attr(enumAttr("nan", {"std"}, false)),
      binary(O::Max, "max").attr(enumAttr("nan", {"std"}, false)),
      binary(O::Cmp, "cmp")
          .attr(enumAttr("pred", {"eq", "ne", "lt", "le", "gt", "ge"})),
      op(O::Select, "select").operands(3).results(1).pure(),
      unary(O::Cast, "cast"),
      op(O::Math, "math").operands(1, 3).results(1)
          .attr(enumAttr("fn", mathFunctionNames())).pure(),
      // Views.
      op(O::Extent, "extent").operands(1).results(1).attr(intAttr("dim")).pure(),
      op(O::Stride, "stride").operands(1).results(1).attr(intAttr("dim")).pure(),
      op(O::Load, "load").operands(1, kVariadic).results(1),
      op(O::Store, "store").operands(2, kVariadic),
      op(O::SubView, "subview").operands(1, kVariadic).results(1)
          .attr(enumAttr("kind", {"row", "slice", "transpose", "reshape",
                                  "broadcast", "expand"}))
          .attr(intAttr("dim", false)).attr(intAttr("dim0", false))
          .attr(intAttr("dim1", false)).attr(intAttr("rank", false)).pure(),
      // Structured control.
      op(O::If, "if").operands(1).results(0, kVariadic)
          .regions({"then", "else"}),
      op(O::Loop, "loop").operands(0, kVariadic).results(0, kVariadic)
          .regions({"cond", "body", "step"}).attr(boolAttr("test_first", false)),
      op(O::ParallelFor, "parallel_for").operands(1, 3).regions({"body"}),
      op(O::Yield, "yield").operands(0, kVariadic).terminator(),
      op(O::Condition, "condition").operands(1).terminator(),
      op(O::Break, "break").operands(0, kVariadic).terminator(),
      op(O::Continue, "continue").operands(0, kVariadic).terminator(),
      op(O::Return, "return").terminator(),
      // Structured reductions.
      op(O::Reduce, "reduce").operands(2, kVariadic).results(1, kVariadic)
          .regions({"value", "combine"})
          .attr(enumAttr("combiner", combiners)).attr(boolAttr("reassociate")),
      op(O::Scan, "scan").operands(2, kVariadic)
          .regions({"value", "combine", "emit"})
          .attr(enumAttr("combiner", combiners)).attr(boolAttr("reassociate"))
          .attr(enumAttr("kind", kScanKinds))
          .attr(enumAttr("direction", kDirections)),
      op(O::ArgReduce, "argreduce").operands(2).results(2).regions({"value"})
          .attr(enumAttr("which", {"max", "min"}))
          .attr(enumAttr("tie", {"first", "last"}))
          .attr(enumAttr("nan", {"propagate", "ignore"})),
      op(O::RegionFold, "region_fold").operands(1, kVariadic)
          .regions({"value", "combine", "store"})
          .attr(enumAttr("combiner", combiners)).attr(boolAttr("reassociate")),
      op(O::RegionScan, "region_scan").operands(1, kVariadic)
          .regions({"value", "combine", "emit"})
          .attr(enumAttr("combiner", combiners)).attr(boolAttr("reassociate"))
          .attr(enumAttr("kind", kScanKinds))
          .attr(enumAttr("direction", kDirections)),
      op(O::Rng, "rng").operands(3).results(1)
          .attr(enumAttr("fn", {"u32", "uniform", "normal"})).pure(),
      op(O::Atomic, "atomic").operands(2, kVariadic).results(1)
          .attr(enumAttr("kind", {"add", "min", "max", "exch"}))
          .attr(enumAttr("order", memoryOrderNames())),
      op(O::AtomicCas, "atomic_cas").operands(3, kVariadic).results(2)
          .attr(enumAttr("order", memoryOrderNames())),
      op(O::Alloc, "alloc").results(1).attr(intAttr("size"))
          .attr(enumAttr("init", {"value", "first_write"}))
          .attr(scalarAttr("value", false)),
      op(O::Contract, "contract").operands(3)
          .attr(stringAttr("acc")).attr(boolAttr("batched")),
      op(O::Print, "print").operands(0, kVariadic).attr(stringAttr("format")),
  };
  return tableFromRows<OpInfo>(rows, LastOpcode, "KIR op table");
}

} // namespace

llvm::ArrayRef<OpInfo> intent::kir::opTable() {
  static const std::vector<OpInfo> table = buildTable();
  return table;
}

const OpInfo &intent::kir::opInfo(Opcode op) {
  return opTable()[static_cast<unsigned>(op)];
}

std::optional<Opcode> intent::kir::opcodeByName(llvm::StringRef name) {
  return schema::opcodeByName(opTable(), name);
}

bool intent::kir::checkOpSchema(const Op &op, std::vector<std::string> &errors) {
  const OpInfo &info = opInfo(op.opcode);
  llvm::SmallVector<schema::AttrRef, 4> attrs = op.attrRefs();
  return schema::checkSchema(
      info, info.minOperands, op.operands.size(), op.results.size(),
      op.regions.size(), attrs, [&](const std::string &msg) {
        errors.push_back("[schema] op " + std::to_string(op.id) + " (" +
                         info.name + "): " + msg);
      });
}
