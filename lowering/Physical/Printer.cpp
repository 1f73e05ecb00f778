//===- Printer.cpp - Physical IR textual form -------------------------------===//
//
//   program @saxpy scope(thread) (%0 y: view<f32, 1> rw, ...) loc(3:1) {
//     launch {
//       e0 = extent(y, 0) : i64
//       ...
//     }
//     segment 0 (group 0, parallel) extents [e0] length e2 offset e1 loc(4:3)
//       // length = max(y.extent(0), 0); offset = 0
//     total e2 // = max(y.extent(0), 0)
//     buffer 0 y: external_view param 0 f32 init host ownership instance_unique writers [0] readers [0]
//     body {
//       %3 = program_id : i64
//       ...
//     }
//   }
//
// Op lines follow KIR's layout: `[results =] name operands [{attrs}]
// [: types] [access] [acc] [loc] [origin]`, then one `{ ... }` per region
// with `^(%id: type, ...):` listing block arguments. Op names, the operand
// layout and region names come from the op table (OpTable.h): memory
// accesses print their coordinates as `%view[%c0, ...]`, then their value
// operands, and their access relation (printAccess). Parser.cpp reads this
// form back; print(parse(text)) == text.
//
//===----------------------------------------------------------------------===//

#include "Physical/IR.h"
#include "Physical/OpTable.h"

#include "KIR/PrinterBase.h"

#include <cmath>
#include <cstdio>

using namespace intent;
using namespace intent::phys;

namespace {

using kir::printAttr;
using kir::printFloat;

void printIdList(llvm::raw_ostream &os, const std::vector<unsigned> &ids,
                 llvm::StringRef prefix) {
  os << "[";
  for (unsigned i = 0; i < ids.size(); ++i)
    os << (i ? ", " : "") << prefix << ids[i];
  os << "]";
}

class Printer {
public:
  Printer(llvm::raw_ostream &os, const Program &p, bool withLocs)
      : os(os), p(p), withLocs(withLocs) {}

  void print() {
    os << "program @" << p.name;
    if (!p.mangledName.empty() && p.mangledName != p.name)
      os << " \"" << p.mangledName << "\"";
    os << " scope(" << execScopeName(p.scope);
    if (p.ctaThreads)
      os << ", threads " << p.ctaThreads << ", shared " << p.sharedBytes;
    if (p.sharedBytesExpr >= 0)
      os << " dynamic e" << p.sharedBytesExpr;
    if (p.minCtasPerSm > 0)
      os << ", min_ctas " << p.minCtasPerSm;
    if (!p.stagedParams.empty()) {
      os << ", stage";
      for (unsigned i : p.stagedParams)
        os << " " << p.params[i].name;
      os << " up to " << p.stageLimitBytes;
    }
    if (p.regMaxK) {
      os << ", regs";
      for (unsigned i : p.regParams)
        os << " " << p.params[i].name;
      os << " K up to " << p.regMaxK << " by "
         << p.params[p.regLengthParam].name << ".extent(" << p.regLengthDim
         << ")";
    }
    os << ") (";
    for (unsigned i = 0; i < p.params.size(); ++i) {
      const Param &par = p.params[i];
      os << (i ? ", " : "") << "%" << p.param(i)->id << " " << par.name << ": ";
      printType(os, par.type);
      if (par.type.isView())
        os << " " << kir::accessName(par.access);
      if (par.isConstexpr)
        os << " constexpr";
    }
    os << ")";
    printLoc(p.loc);
    os << " {\n";
    printLaunch();
    printBuffers();
    os << "  body {\n";
    for (const auto &op : p.body->block.ops)
      printOp(*op, 2);
    os << "  }\n}\n";
  }

private:
  llvm::raw_ostream &os;
  const Program &p;
  bool withLocs;

  std::string paramName(unsigned i) const {
    if (i < p.params.size() && !p.params[i].name.empty())
      return p.params[i].name;
    return "arg" + std::to_string(i);
  }

  void indent(unsigned n) { text::indent(os, n); }
  void printLoc(const Loc &l) { text::printLoc(os, l, withLocs); }

  void printLaunch() {
    using K = LaunchExpr::Kind;
    os << "  launch {\n";
    for (unsigned i = 0; i < p.exprs.size(); ++i) {
      const LaunchExpr &e = p.exprs[i];
      os << "    e" << i << " = " << launchExprKindName(e.kind);
      switch (e.kind) {
      case K::Const:
        os << " " << e.value;
        break;
      case K::Param:
        os << "(" << paramName(e.param) << ")";
        break;
      case K::Extent:
      case K::Stride:
        os << "(" << paramName(e.param) << ", " << e.dim << ")";
        break;
      case K::Cmp:
        os << " " << e.pred;
        [[fallthrough]];
      default:
        for (unsigned j = 0; j < e.operands.size(); ++j)
          os << (j ? ", e" : " e") << e.operands[j];
        break;
      }
      os << " : " << kir::scalarKindName(e.type) << "\n";
    }
    os << "  }\n";
    for (unsigned s = 0; s < p.segments.size(); ++s) {
      const Segment &seg = p.segments[s];
      os << "  segment " << s << " (group " << seg.group << ", "
         << (seg.ordered ? "ordered" : "parallel") << ") extents ";
      printIdList(os, seg.extents, "e");
      os << " length e" << seg.length << " offset e" << seg.offset;
      if (seg.spread)
        os << " spread " << seg.spread << " instances e" << seg.instances;
      if (seg.team && seg.lanes)
        os << " team lanes shift e" << seg.shift;
      else if (seg.team)
        os << " team parts e" << seg.parts;
      if (seg.tile >= 0)
        os << " tile " << seg.tile << " rows " << seg.tileRows << " instances e"
           << seg.instances;
      printLoc(seg.loc);
      os << "\n    // length = " << p.exprToString(seg.length)
         << "; offset = " << p.exprToString(seg.offset) << "\n";
      if (!seg.reason.empty())
        os << "    // ordered: " << seg.reason << "\n";
    }
    os << "  total e" << p.total << " // = " << p.exprToString(p.total)
       << "\n";
    for (const LaunchCheck &c : p.launchChecks) {
      os << "  launch_check e" << c.extent << " <= "
         << indexLimit(c.type) << " (index " << kir::scalarKindName(c.type)
         << ")";
      printLoc(c.loc);
      os << "\n";
    }
  }

  void printBuffers() {
    for (const Buffer &b : p.buffers) {
      os << "  buffer " << b.id << " " << b.name << ": "
         << bufferScopeName(b.scope);
      if (b.param >= 0)
        os << " param " << b.param;
      os << " " << kir::scalarKindName(b.elem);
      if (b.scope == BufferScope::ExternalView)
        os << " rank " << b.rank;
      else if (b.sizeExpr >= 0)
        os << " size e" << b.sizeExpr;
      else
        os << " size " << b.size;
      if (b.workspaceOffset >= 0)
        os << " offset " << b.workspaceOffset;
      if (b.sharedOffsetExpr >= 0)
        os << " shared_offset e" << b.sharedOffsetExpr;
      else if (b.sharedOffset >= 0)
        os << " shared_offset " << b.sharedOffset;
      os << " init " << initModeName(b.init);
      if (b.init == InitMode::Value) {
        os << " ";
        printFloat(os, b.initValue);
      }
      os << " ownership " << ownershipName(b.ownership) << " writers ";
      printIdList(os, b.writerGroups, "");
      os << " readers ";
      printIdList(os, b.readerGroups, "");
      if (b.sharing != Sharing::None)
        os << " sharing " << sharingName(b.sharing);
      if (b.keptZero)
        os << " kept_zero";
      if (b.privatizes >= 0)
        os << " privatizes " << b.privatizes;
      os << "\n";
    }
  }

  void printOrigin(const Op &op) {
    if (!withLocs)
      return;
    if (op.origin.op < 0) {
      if (!op.origin.synth.empty())
        os << " origin(synth " << op.origin.synth << ")";
      return;
    }
    os << " origin(op " << op.origin.op;
    if (op.origin.arg >= 0)
      os << ", arg " << op.origin.arg;
    os << ")";
  }

  /// The whole AccessInfo of a load/store/atomic, in the syntax of
  /// docs/physical-ir.md §5.3 (the only place it is printed):
  /// ` access(BOUNDS, ACTIVE) [prov(op N[; coords %a, ...][; views op P, ...])]`.
  void printAccess(const Op &op) {
    const AccessInfo &a = op.access;
    os << " access(" << boundsName(a.bounds) << ", "
       << activeSetName(a.active) << ")";
    if (a.kirOp < 0)
      return;
    os << " prov(op " << a.kirOp;
    if (!a.kirCoords.empty()) {
      os << "; coords";
      for (unsigned i = 0; i < a.kirCoords.size(); ++i)
        os << (i ? ", %" : " %") << a.kirCoords[i];
    }
    if (!a.kirViewChain.empty()) {
      os << "; views";
      for (unsigned i = 0; i < a.kirViewChain.size(); ++i)
        os << (i ? ", op " : " op ") << a.kirViewChain[i];
    }
    os << ")";
  }

  /// ` acc(f32 = 0.0, i64 = init)`: the accumulator schema.
  void printAcc(const Op &op) {
    os << " acc(";
    for (unsigned i = 0; i < op.acc.size(); ++i) {
      const AccComponent &c = op.acc[i];
      os << (i ? ", " : "");
      printType(os, c.type);
      os << " = ";
      switch (c.identity) {
      case AccComponent::Identity::None:
        os << "?";
        break;
      case AccComponent::Identity::Init:
        os << "init";
        break;
      case AccComponent::Identity::Value:
        printAttr(os, c.value);
        break;
      }
    }
    os << ")";
  }

  void printOp(const Op &op, unsigned depth) {
    indent(depth);
    text::printResultIds(os, op);
    const OpInfo &info = opInfo(op.opcode);
    os << info.name;
    bool isAccess = info.hasAccess();
    if (isAccess) {
      os << " %" << op.memory()->id << "[";
      llvm::ArrayRef<Value *> cs = op.coords();
      for (unsigned i = 0; i < cs.size(); ++i)
        os << (i ? ", %" : "%") << cs[i]->id;
      os << "]";
      for (unsigned i = 1, n = accessValueCount(op); i <= n; ++i)
        os << ", %" << op.operands[i]->id;
      if (Value *g = op.guard())
        os << " guard(%" << g->id << ")";
    } else {
      text::printOperandIds<Value>(os, op.operands);
    }
    text::printAttrDict(os, op.attrs);
    text::printResultTypes(os, op);
    if (isAccess)
      printAccess(op);
    if (!op.acc.empty())
      printAcc(op);
    printLoc(op.loc);
    printOrigin(op);
    for (unsigned r = 0; r < op.regions.size(); ++r) {
      // The op table names the regions; only `if`'s second one is spelled.
      bool isElse = r < info.regions.size() && info.regions[r] == "else";
      os << (isElse ? " else {\n" : " {\n");
      const Block &b = op.regions[r]->block;
      text::printBlockArgs(os, b, depth);
      for (const auto &sub : b.ops)
        printOp(*sub, depth + 1);
      indent(depth);
      os << "}";
    }
    os << "\n";
  }
};

} // namespace

void intent::phys::printProgram(llvm::raw_ostream &os, const Program &p,
                                bool withLocs) {
  Printer(os, p, withLocs).print();
}

std::string intent::phys::programToString(const Program &p, bool withLocs) {
  std::string s;
  llvm::raw_string_ostream os(s);
  printProgram(os, p, withLocs);
  return s;
}
