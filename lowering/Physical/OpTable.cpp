//===- OpTable.cpp - The physical IR's op table ----------------------------===//
//
// The rows, one per Opcode in enum order. Each row is built by a small
// fluent helper so that it reads like the op's documentation line in
// docs/physical-ir.md §5:
//
//   op(Opcode::Cmp, "cmp").operands(2).results(1).pure()
//       .attr(enumAttr("pred", {"eq", "ne", "lt", "le", "gt", "ge"}))
//
//===----------------------------------------------------------------------===//

#include "Physical/OpTable.h"

#include "KIR/OpTable.h"

#include <variant>

using namespace intent;
using namespace intent::phys;
using namespace intent::schema;

namespace {

AttrSpec optional(AttrSpec a) {
  a.required = false;
  return a;
}

/// Builds one row: schema::RowBuilder's setters, the memory access
/// operand shape, and pure ops' row-cache hints.
class Row : public RowBuilder<Row, OpInfo> {
public:
  using RowBuilder::RowBuilder;
  /// Memory, `values` value operands, coordinates, optional guard.
  Row &access(unsigned values) {
    info.shape = OperandShape::Access;
    info.accessValues = values;
    info.minOperands = 1 + (values == kVariadic ? 0 : values);
    info.maxOperands = kVariadic;
    return *this;
  }
  /// A pure single-result op: it may also carry the row-cache hints
  /// (`row_cache` / `row_cached` = a register view's parameter index,
  /// Physical/RowCache.h), which only the register variants read.
  Row &pure() {
    RowBuilder::pure();
    if (info.maxResults == 1) {
      info.attrs.push_back(optional(intAttr("row_cache")));
      info.attrs.push_back(optional(intAttr("row_cached")));
    }
    return *this;
  }
};

Row op(Opcode opc, llvm::StringRef name) { return Row(opc, name); }

const std::vector<std::string> &kCombiners = kir::combinerNames();
const std::vector<std::string> &kMathFns = kir::mathFunctionNames();
const std::vector<std::string> &kMemoryOrders = kir::memoryOrderNames();
/// Atomic scopes, narrowest first (the atomic-scopes pass, AtomicScope.h).
const std::vector<std::string> kAtomicScopes = {"thread", "cta", "gpu", "sys"};
/// Distribution over the threads of a cta program (the cta-rows pass).
const std::vector<std::string> kDist = {"cta"};

Row binary(Opcode opc, llvm::StringRef name) {
  return std::move(op(opc, name).operands(2).results(1).pure());
}
Row unary(Opcode opc, llvm::StringRef name) {
  return std::move(op(opc, name).operands(1).results(1).pure());
}

std::vector<OpInfo> buildTable() {
  using O = Opcode;
  std::vector<Row> rows = {
      // Program structure.
      op(O::ProgramId, "program_id").results(1).pure(),
      op(O::LaunchValue, "launch_value").results(1).attr(intAttr("expr")).pure(),
      // (pid, offset, length[, instances[, parts]]): `spread` = T threads
      // share the instances, the fourth operand their count; a `team`
      // segment's fifth operand is its programs per instance group, a
      // `lanes` team segment's its team shift (Physical/Dispatch.h); a
      // `tile` segment's operands are (pid, offset, length, instances,
      // extents...).
      op(O::Segment, "segment").operands(3, kVariadic).regions({"body"})
          .attr(intAttr("group")).attr(optional(intAttr("spread")))
          .attr(boolAttr("team", false)).attr(boolAttr("lanes", false))
          .attr(optional(intAttr("tile")))
          .attr(optional(intAttr("rows"))),
      op(O::Delinearize, "delinearize").operands(1, kVariadic)
          .results(0, kVariadic).pure(),
      // Scalars.
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
      // std::min / std::max semantics (KIR's `nan = "std"`).
      binary(O::Min, "min").attr(enumAttr("nan", {"std"}, false)),
      binary(O::Max, "max").attr(enumAttr("nan", {"std"}, false)),
      binary(O::Cmp, "cmp")
          .attr(enumAttr("pred", {"eq", "ne", "lt", "le", "gt", "ge"})),
      op(O::Select, "select").operands(3).results(1).pure(),
      unary(O::Cast, "cast"),
      op(O::Math, "math").operands(1, 3).results(1)
          .attr(enumAttr("fn", kMathFns)).pure(),
      // Memory.
      op(O::Extent, "extent").operands(1).results(1).attr(intAttr("dim")).pure(),
      op(O::Stride, "stride").operands(1).results(1).attr(intAttr("dim")).pure(),
      op(O::Alloc, "alloc").results(1).attr(intAttr("buffer")),
      // `staged`: read from the row's shared-memory copy; `reg`: from the
      // register row (cta-rows).
      op(O::Load, "load").access(0).results(1)
          .attr(boolAttr("staged", false)).attr(boolAttr("reg", false)),
      op(O::Store, "store").access(1),
      // Control.
      op(O::If, "if").operands(1).results(0, kVariadic)
          .regions({"then", "else"}),
      op(O::Loop, "loop").operands(0, kVariadic).results(0, kVariadic)
          .regions({"cond", "body", "step"}).attr(boolAttr("test_first"))
          .attr(intAttr("unroll", false)).attr(intAttr("dims", false)),
      op(O::For, "for").operands(2).regions({"body"})
          .attr(enumAttr("dist", kDist, false)).attr(intAttr("unroll", false)),
      // Structured ops (Physical/Structured.h).
      op(O::Reduce, "reduce").operands(2, kVariadic).results(1, kVariadic)
          .regions({"value", "combine"})
          .attr(enumAttr("combiner", kCombiners)).attr(boolAttr("reassociate"))
          .attr(enumAttr("dist", kDist, false)),
      op(O::Scan, "scan").operands(2, kVariadic)
          .regions({"value", "combine", "emit"})
          .attr(enumAttr("combiner", kCombiners)).attr(boolAttr("reassociate"))
          .attr(enumAttr("kind", {"inclusive", "exclusive"}))
          .attr(enumAttr("direction", {"forward", "reverse"})),
      op(O::ArgReduce, "argreduce").operands(2).results(2).regions({"value"})
          .attr(enumAttr("which", {"max", "min"}))
          .attr(enumAttr("tie", {"first", "last"}))
          .attr(enumAttr("nan", {"propagate", "ignore"}))
          .attr(enumAttr("dist", kDist, false)),
      op(O::RegionFold, "region_fold").operands(3, kVariadic)
          .regions({"value", "combine", "store"})
          .attr(enumAttr("combiner", kCombiners)).attr(boolAttr("reassociate"))
          .attr(intAttr("chunk", false)),
      op(O::RegionScan, "region_scan").operands(3, kVariadic)
          .regions({"value", "combine", "emit", "apply", "final"})
          .attr(enumAttr("combiner", kCombiners)).attr(boolAttr("reassociate"))
          .attr(enumAttr("kind", {"inclusive", "exclusive"}))
          .attr(enumAttr("direction", {"forward", "reverse"}))
          .attr(intAttr("chunk", false)),
      // Terminators.
      op(O::Yield, "yield").operands(0, kVariadic).terminator(),
      op(O::Condition, "condition").operands(1).terminator(),
      op(O::Break, "break").operands(0, kVariadic).terminator(),
      op(O::Continue, "continue").operands(0, kVariadic).terminator(),
      op(O::Return, "return").terminator(),
      // Random numbers.
      op(O::Rng, "rng").operands(3).results(1)
          .attr(enumAttr("fn", {"u32", "uniform", "normal"})).pure(),
      // Atomics (KIR/Atomic.h); `scope` is the atomic-scopes pass's choice.
      op(O::Atomic, "atomic").access(1).results(1)
          .attr(enumAttr("kind", {"add", "min", "max", "exch"}))
          .attr(enumAttr("order", kMemoryOrders))
          .attr(enumAttr("scope", kAtomicScopes, false))
          // The aggregate-atomics pass: combined over a warp's lanes first.
          .attr(enumAttr("aggregate", {"warp", "ticket"}, false)),
      op(O::AtomicCas, "atomic_cas").access(2).results(2)
          .attr(enumAttr("order", kMemoryOrders))
          .attr(enumAttr("scope", kAtomicScopes, false)),
      op(O::Print, "print").operands(0, kVariadic)
          .attr(stringAttr("format")),
      // Cooperative primitives (docs/physical-ir.md §5.7).
      op(O::ThreadId, "thread_id").results(1).pure(),
      op(O::LaneId, "lane_id").results(1).pure(),
      op(O::WarpId, "warp_id").results(1).pure(),
      op(O::CtaSize, "cta_size").results(1).pure(),
      op(O::GridCtas, "grid_ctas").results(1).pure(),
      op(O::Barrier, "barrier").operands(0, 4)
          .attr(enumAttr("scope", {"cta", "warp", "grid", "group"})),
      // Not pure: every lane of the warp must execute it together.
      op(O::Shuffle, "shuffle").operands(2).results(1)
          .attr(enumAttr("mode", {"xor", "down", "idx"})),
      op(O::VectorLoad, "vector_load").access(0).results(2, 16)
          .attr(intAttr("width")),
      op(O::VectorStore, "vector_store").access(kVariadic)
          .attr(intAttr("width")),
      op(O::Aligned, "aligned").operands(2, kVariadic).results(1)
          .attr(intAttr("bytes")).pure(),
      op(O::CheckedLaunch, "checked_launch").results(1).pure(),
      unary(O::Bitcast, "bitcast"),
  };
  return tableFromRows<OpInfo>(rows, LastOpcode, "op table");
}

} // namespace

llvm::ArrayRef<OpInfo> intent::phys::opTable() {
  static const std::vector<OpInfo> table = buildTable();
  return table;
}

const OpInfo &intent::phys::opInfo(Opcode op) {
  return opTable()[static_cast<unsigned>(op)];
}

std::optional<Opcode> intent::phys::opcodeByName(llvm::StringRef name) {
  return schema::opcodeByName(opTable(), name);
}

llvm::StringRef intent::phys::opcodeName(Opcode op) { return opInfo(op).name; }

unsigned intent::phys::accessValueCount(const Op &op) {
  const OpInfo &info = opInfo(op.opcode);
  if (info.accessValues != kVariadic)
    return info.accessValues;
  int64_t w = op.intAttr("width", 0);
  return w > 0 ? static_cast<unsigned>(w) : 0;
}

bool intent::phys::isTerminator(Opcode op) { return opInfo(op).terminator; }

bool intent::phys::isPure(Opcode op) { return opInfo(op).pure; }

bool intent::phys::checkOpSchema(const Op &op, std::vector<std::string> &errors) {
  const OpInfo &info = opInfo(op.opcode);
  auto error = [&](const std::string &msg) {
    errors.push_back("[schema] op " + std::to_string(op.id) + " (" + info.name +
                     "): " + msg);
  };
  unsigned minOperands =
      info.minOperands + (info.hasAccess() && op.access.hasGuard ? 1 : 0);
  llvm::SmallVector<schema::AttrRef, 4> attrs = op.attrRefs();
  bool ok = schema::checkSchema(info, minOperands, op.operands.size(),
                                op.results.size(), op.regions.size(), attrs,
                                error);
  if (!info.hasAccess() && op.access.hasGuard) {
    error("has a guard but is not a memory access");
    ok = false;
  }
  return ok;
}
