//===- Verifier.cpp - KIR structural invariants ----------------------------===//
//
// Checks what every producer of KIR (the Clang front end, the textual parser)
// must guarantee: operand counts and types per opcode, every use dominated by
// its definition (defined earlier in the same block or in an enclosing one),
// every block ending in the right terminator, break/continue only inside a
// loop body and never across a parallel_for or out of a reduction callback,
// unique ids, and the signatures of the reduction ops' callback regions
// (components per accumulator, combine T...xT... -> T..., attributes).
//
//===----------------------------------------------------------------------===//

#include "KIR/KIR.h"
#include "KIR/Atomic.h"
#include "KIR/Print.h"
#include "KIR/Contract.h"
#include "KIR/OpTable.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/Twine.h"

using namespace intent::kir;

namespace {

class Verifier {
public:
  Verifier(const Kernel &k, std::vector<std::string> &errors)
      : kernel(k), errors(errors) {}

  void run() {
    for (Value *a : kernel.body->block.args)
      define(a);
    if (kernel.params.size() != kernel.body->block.args.size())
      error(nullptr, "kernel has " + llvm::Twine(kernel.params.size()) +
                         " params but " +
                         llvm::Twine(kernel.body->block.args.size()) +
                         " body arguments");
    verifyBlock(kernel.body->block, Opcode::Return, /*loopDepth=*/0);
  }

private:
  const Kernel &kernel;
  std::vector<std::string> &errors;
  /// Values visible at the current point (scoped by region nesting).
  std::vector<const Value *> scope;
  llvm::DenseSet<const Value *> visible;
  llvm::DenseSet<unsigned> opIds, valueIds, regionIds;

  void error(const Op *op, const llvm::Twine &msg) {
    std::string s;
    if (op)
      s = ("op " + llvm::Twine(op->id) + " (" + opcodeName(op->opcode) +
           "): ")
              .str();
    errors.push_back(s + msg.str());
  }

  void define(const Value *v) {
    if (!valueIds.insert(v->id).second)
      errors.push_back("value id " + std::to_string(v->id) + " is not unique");
    scope.push_back(v);
    visible.insert(v);
  }

  void popScope(size_t mark) {
    while (scope.size() > mark) {
      visible.erase(scope.back());
      scope.pop_back();
    }
  }

  bool checkOperandCount(const Op &op, size_t n) {
    if (op.operands.size() == n)
      return true;
    error(&op, "expects " + llvm::Twine(n) + " operands, has " +
                   llvm::Twine(op.operands.size()));
    return false;
  }

  void checkScalarOperands(const Op &op) {
    for (Value *v : op.operands)
      if (!v->type.isScalar())
        error(&op, "operand %" + llvm::Twine(v->id) + " is not a scalar");
  }

  /// rng %seed, %stream, %counter {fn}: u64 operands; u32 for fn "u32",
  /// f32 for "uniform" and "normal".
  void verifyRng(const Op &op) {
    if (!checkOperandCount(op, 3))
      return;
    for (Value *v : op.operands)
      if (v->type != Type::scalar(ScalarKind::U64))
        error(&op, "rng operands (seed, stream, counter) must be u64");
    std::string fn = op.strAttr("fn");
    if (fn != "u32" && fn != "uniform" && fn != "normal") {
      error(&op, "rng fn must be \"u32\", \"uniform\" or \"normal\"");
      return;
    }
    Type want = Type::scalar(fn == "u32" ? ScalarKind::U32 : ScalarKind::F32);
    if (op.results.size() != 1 || op.result()->type != want)
      error(&op, "rng " + fn + " must have one " + typeToString(want) +
                     " result");
  }

  void verifyBlock(const Block &b, Opcode terminator, unsigned loopDepth) {
    size_t mark = scope.size();
    for (size_t i = 0; i < b.ops.size(); ++i) {
      const Op &op = *b.ops[i];
      bool last = i + 1 == b.ops.size();
      if (isTerminator(op.opcode) && !last)
        error(&op, "terminator is not the last op of its block");
      verifyOp(op, loopDepth);
      for (Value *r : op.results)
        define(r);
    }
    const Op *t = b.terminator();
    if (!t) {
      errors.push_back("block without terminator");
    } else if (t->opcode == Opcode::Break || t->opcode == Opcode::Continue) {
      if (loopDepth == 0)
        error(t, "break/continue outside a loop body");
    } else if (t->opcode != terminator) {
      error(t, "block ends in " + opcodeName(t->opcode) + ", expected " +
                   opcodeName(terminator));
    }
    popScope(mark);
  }

  void verifyRegion(const Region &r, Opcode terminator, unsigned loopDepth) {
    if (!regionIds.insert(r.id).second)
      errors.push_back("region id " + std::to_string(r.id) + " is not unique");
    size_t mark = scope.size();
    for (Value *a : r.block.args)
      define(a);
    verifyBlock(r.block, terminator, loopDepth);
    popScope(mark);
  }

  void verifyOp(const Op &op, unsigned loopDepth) {
    if (!opIds.insert(op.id).second)
      error(&op, "op id is not unique");
    for (Value *v : op.operands)
      if (!visible.count(v))
        error(&op, "operand %" + llvm::Twine(v->id) +
                       " does not dominate its use");
    // Arity, regions and attributes against the op's table row; the rules
    // below add what a row cannot say.
    checkOpSchema(op, errors);
    switch (op.opcode) {
    case Opcode::Constant:
      if (!op.attr("value") || op.results.size() != 1)
        error(&op, "constant needs a value and one result");
      break;
    case Opcode::Add:
    case Opcode::Sub:
    case Opcode::Mul:
    case Opcode::Div:
    case Opcode::Rem:
    case Opcode::BitAnd:
    case Opcode::BitOr:
    case Opcode::BitXor:
    case Opcode::Shl:
    case Opcode::Shr:
    case Opcode::Min:
    case Opcode::Max:
      if (!checkOperandCount(op, 2))
        break;
      checkScalarOperands(op);
      if (op.operands[0]->type != op.operands[1]->type ||
          op.results.size() != 1 || op.results[0]->type != op.operands[0]->type)
        error(&op, "operands and result must have one type");
      break;
    case Opcode::Neg:
    case Opcode::BitNot:
    case Opcode::Not:
      if (checkOperandCount(op, 1))
        checkScalarOperands(op);
      break;
    case Opcode::Cmp:
      if (!checkOperandCount(op, 2))
        break;
      checkScalarOperands(op);
      if (op.operands[0]->type != op.operands[1]->type)
        error(&op, "compared values must have one type");
      if (op.strAttr("pred").empty())
        error(&op, "cmp needs a predicate");
      break;
    case Opcode::Select:
      if (!checkOperandCount(op, 3))
        break;
      if (!op.operands[0]->type.isBool())
        error(&op, "select condition must be bool");
      if (op.operands[1]->type != op.operands[2]->type)
        error(&op, "select arms must have one type");
      break;
    case Opcode::Cast:
      if (checkOperandCount(op, 1))
        checkScalarOperands(op);
      break;
    case Opcode::Math:
      if (op.strAttr("fn").empty())
        error(&op, "math needs a function name");
      checkScalarOperands(op);
      break;
    case Opcode::Rng:
      verifyRng(op);
      break;
    case Opcode::Extent:
    case Opcode::Stride:
      if (!checkOperandCount(op, 1))
        break;
      if (!op.operands[0]->type.isView())
        error(&op, "operand must be a view");
      else if (op.intAttr("dim", -1) < 0 ||
               op.intAttr("dim") >= op.operands[0]->type.rank)
        error(&op, "dim out of range");
      break;
    case Opcode::Load:
    case Opcode::Store: {
      unsigned base = op.opcode == Opcode::Store ? 2 : 1;
      if (op.operands.empty() || !op.operands[0]->type.isView()) {
        error(&op, "first operand must be a view");
        break;
      }
      const Type &vt = op.operands[0]->type;
      if (op.operands.size() != base + vt.rank)
        error(&op, "expects one index per dimension of the view");
      for (size_t i = base; i < op.operands.size(); ++i)
        if (!op.operands[i]->type.isInteger())
          error(&op, "index operand must be an integer");
      if (op.opcode == Opcode::Store) {
        if (vt.constElem)
          error(&op, "store through a view of const elements");
        if (op.operands.size() > 1 &&
            op.operands[1]->type != elementType(vt))
          error(&op, "stored value type differs from the element type");
      } else if (op.results.size() != 1 ||
                 op.results[0]->type != elementType(vt)) {
        error(&op, "load result type differs from the element type");
      }
      break;
    }
    case Opcode::Atomic:
    case Opcode::AtomicCas:
      if (std::string why = checkAtomic(op); !why.empty())
        error(&op, why);
      break;
    case Opcode::SubView:
      if (op.operands.empty() || !op.operands[0]->type.isView() ||
          op.results.size() != 1 || !op.results[0]->type.isView())
        error(&op, "subview maps a view to a view");
      if (op.strAttr("kind").empty())
        error(&op, "subview needs a kind");
      break;
    case Opcode::If:
      if (op.regions.size() != 2 || op.operands.size() != 1 ||
          !op.operands[0]->type.isBool()) {
        error(&op, "if takes a bool and two regions");
        break;
      }
      for (const auto &r : op.regions) {
        verifyRegion(*r, Opcode::Yield, loopDepth);
        checkYield(op, *r);
      }
      break;
    case Opcode::Loop: {
      if (op.regions.size() != 3) {
        error(&op, "loop takes cond, body and step regions");
        break;
      }
      for (const auto &r : op.regions)
        if (r->block.args.size() != op.operands.size())
          error(&op, "each loop region takes the carried values as args");
      verifyRegion(*op.regions[0], Opcode::Condition, 0);
      verifyRegion(*op.regions[1], Opcode::Yield, loopDepth + 1);
      verifyRegion(*op.regions[2], Opcode::Yield, 0);
      checkYield(op, *op.regions[1]);
      checkYield(op, *op.regions[2]);
      break;
    }
    case Opcode::ParallelFor:
      if (op.regions.size() != 1 || op.operands.empty() ||
          op.operands.size() > 3) {
        error(&op, "parallel_for takes 1-3 extents and a body");
        break;
      }
      if (op.regions[0]->block.args.size() != op.operands.size())
        error(&op, "parallel_for body takes one index per extent");
      // A break inside a parallel body cannot reach an enclosing loop.
      verifyRegion(*op.regions[0], Opcode::Yield, 0);
      break;
    case Opcode::Yield:
    case Opcode::Condition:
    case Opcode::Break:
    case Opcode::Continue:
    case Opcode::Return:
      break;
    case Opcode::Reduce:
    case Opcode::Scan:
    case Opcode::ArgReduce:
    case Opcode::RegionFold:
    case Opcode::RegionScan:
      verifyReduction(op);
      break;
    case Opcode::Alloc:
      verifyAlloc(op);
      break;
    case Opcode::Contract:
      if (std::string why = checkContract(op); !why.empty())
        error(&op, why);
      break;
    case Opcode::Print:
      verifyPrint(op);
      break;
    }
  }

  /// `print`: a format whose conversions take the operands, in order, as
  /// promoted varargs (KIR/Print.h); no result.
  void verifyPrint(const Op &op) {
    if (!op.results.empty() || !op.regions.empty())
      error(&op, "print has no results and no regions");
    const AttrValue *f = op.attr("format");
    if (!f || !std::holds_alternative<std::string>(*f)) {
      error(&op, "print needs a string attribute 'format'");
      return;
    }
    std::vector<FormatPiece> pieces;
    std::string why;
    if (!splitFormat(std::get<std::string>(*f), pieces, why)) {
      error(&op, "print format: " + why);
      return;
    }
    unsigned next = 0;
    for (const FormatPiece &p : pieces) {
      if (!p.conv)
        continue;
      if (next >= op.operands.size()) {
        error(&op, "print format has more conversions than operands");
        return;
      }
      const Type &t = op.operands[next++]->type;
      if (!formatArgFits(p, t))
        error(&op, "print operand " + std::to_string(next - 1) + " of type " +
                       typeToString(t) + " does not fit conversion '" +
                       p.text.substr(p.text.rfind('%')) + "'");
    }
    if (next != op.operands.size())
      error(&op, "print has more operands than the format's conversions");
  }

  /// `alloc`: no operands, one rank-1 mutable view result, a positive size
  /// and an init mode.
  void verifyAlloc(const Op &op) {
    if (!op.operands.empty() || op.results.size() != 1 ||
        !op.results[0]->type.isView() || op.results[0]->type.rank != 1 ||
        op.results[0]->type.constElem)
      error(&op, "alloc takes no operands and yields a view<T, 1>");
    if (op.intAttr("size", 0) <= 0)
      error(&op, "alloc needs a positive size");
    std::string init = op.strAttr("init");
    if (init != "value" && init != "first_write")
      error(&op, "alloc init must be \"value\" or \"first_write\"");
    else if (init == "value" && !op.attr("value"))
      error(&op, "alloc init \"value\" needs a value");
  }

  //===--------------------------------------------------------------------===//
  // reduce, scan, argreduce, region_fold, region_scan
  //===--------------------------------------------------------------------===//

  void checkStrAttr(const Op &op, llvm::StringRef name,
                    llvm::ArrayRef<llvm::StringRef> allowed) {
    const AttrValue *a = op.attr(name);
    const auto *s = a ? std::get_if<std::string>(a) : nullptr;
    if (!s || !llvm::is_contained(allowed, llvm::StringRef(*s)))
      error(&op, "attribute '" + name + "' must be one of \"" +
                     llvm::join(allowed, "\", \"") + "\"");
  }

  /// Checks that `r` takes `args` and yields `yields`.
  void checkSignature(const Op &op, const Region &r, llvm::StringRef what,
                      llvm::ArrayRef<Type> args, llvm::ArrayRef<Type> yields) {
    const Block &b = r.block;
    bool argsOk = b.args.size() == args.size();
    for (unsigned i = 0; argsOk && i < args.size(); ++i)
      argsOk = b.args[i]->type == args[i];
    if (!argsOk)
      error(&op, what + " region must take (" + typeList(args) + ")");
    const Op *t = b.terminator();
    if (!t || t->opcode != Opcode::Yield)
      return; // reported by verifyRegion
    bool yieldOk = t->operands.size() == yields.size();
    for (unsigned i = 0; yieldOk && i < yields.size(); ++i)
      yieldOk = t->operands[i]->type == yields[i];
    if (!yieldOk)
      error(t, what + " region must yield (" + typeList(yields) + ")");
  }

  static std::string typeList(llvm::ArrayRef<Type> types) {
    std::string s;
    for (unsigned i = 0; i < types.size(); ++i)
      s += (i ? ", " : "") + typeToString(types[i]);
    return s;
  }

  /// Value and combine regions are pure; no callback region holds a
  /// parallel_for.
  void checkCallbackBody(const Op &op, const Region &r, llvm::StringRef what,
                         bool pure) {
    walk(r, [&](const Op &inner) {
      if (inner.opcode == Opcode::ParallelFor)
        error(&op, what + " region contains a parallel_for");
      if (pure && inner.opcode == Opcode::Store)
        error(&op, what + " region stores to a view");
      if (pure && isAtomic(inner.opcode))
        error(&op, what + " region updates a view atomically");
      if (pure && inner.opcode == Opcode::Print)
        error(&op, what + " region prints");
    });
  }

  void verifyReduction(const Op &op) {
    Opcode opc = op.opcode;
    bool overRegions = opc == Opcode::RegionFold || opc == Opcode::RegionScan;
    bool isScan = opc == Opcode::Scan || opc == Opcode::RegionScan;
    unsigned head = overRegions ? 1 : 2;
    Type i64 = Type::index();
    if (op.operands.size() < head) {
      error(&op, overRegions ? "expects an offsets view"
                             : "expects begin and end operands");
      return;
    }
    if (overRegions) {
      const Type &t = op.operands[0]->type;
      if (!t.isView() || t.rank != 1 || !elementType(t).isInteger())
        error(&op, "offsets must be a rank-1 view of integers");
    } else if (op.operands[0]->type != i64 || op.operands[1]->type != i64) {
      error(&op, "begin and end must be i64");
    }

    // The accumulator components.
    llvm::SmallVector<Type, 4> acc;
    if (opc == Opcode::ArgReduce) {
      if (op.operands.size() != 2)
        error(&op, "argreduce takes begin and end only");
      if (op.results.size() != 2 || !op.results[0]->type.isScalar() ||
          op.results[1]->type != i64) {
        error(&op, "argreduce yields a scalar value and an i64 position");
        return;
      }
      acc.push_back(op.results[0]->type);
      checkStrAttr(op, "which", {"max", "min"});
      checkStrAttr(op, "tie", {"first", "last"});
      checkStrAttr(op, "nan", {"propagate", "ignore"});
    } else {
      for (Value *v : accumulatorInits(op)) {
        if (!v->type.isScalar())
          error(&op, "init %" + llvm::Twine(v->id) + " is not a scalar");
        acc.push_back(v->type);
      }
      if (acc.empty())
        error(&op, "needs at least one accumulator component");
      if (opc == Opcode::Reduce) {
        bool same = op.results.size() == acc.size();
        for (unsigned i = 0; same && i < acc.size(); ++i)
          same = op.results[i]->type == acc[i];
        if (!same)
          error(&op, "results must have the types of the inits");
      } else if (!op.results.empty()) {
        error(&op, "has no results");
      }
      checkStrAttr(op, "combiner",
                   {"plus", "mul", "max", "min", "bit_and", "bit_or",
                    "bit_xor", "user"});
      const AttrValue *re = op.attr("reassociate");
      if (!re || !std::holds_alternative<bool>(*re))
        error(&op, "attribute 'reassociate' must be a bool");
    }
    if (isScan) {
      checkStrAttr(op, "kind", {"inclusive", "exclusive"});
      checkStrAttr(op, "direction", {"forward", "reverse"});
    }

    unsigned numRegions = opc == Opcode::ArgReduce ? 1
                          : opc == Opcode::Reduce  ? 2
                                                   : 3;
    if (op.regions.size() != numRegions) {
      error(&op, "expects " + llvm::Twine(numRegions) + " regions");
      return;
    }
    // Callbacks cannot break out of enclosing loops: loop depth 0.
    for (const auto &r : op.regions)
      verifyRegion(*r, Opcode::Yield, 0);

    llvm::SmallVector<Type, 2> valueArgs = {i64};
    if (overRegions)
      valueArgs.insert(valueArgs.begin(), i64);
    checkSignature(op, *op.regions[0], "value", valueArgs, acc);
    checkCallbackBody(op, *op.regions[0], "value", /*pure=*/true);
    if (opc == Opcode::ArgReduce)
      return;
    llvm::SmallVector<Type, 8> pair(acc.begin(), acc.end());
    pair.append(acc.begin(), acc.end());
    checkSignature(op, *op.regions[1], "combine", pair, acc);
    checkCallbackBody(op, *op.regions[1], "combine", /*pure=*/true);
    if (opc == Opcode::Reduce)
      return;
    // emit (k, p...), store (r, acc...), region emit (r, k, p...).
    llvm::SmallVector<Type, 8> sink = {i64};
    if (opc == Opcode::RegionScan)
      sink.push_back(i64);
    sink.append(acc.begin(), acc.end());
    llvm::StringRef what = opc == Opcode::RegionFold ? "store" : "emit";
    checkSignature(op, *op.regions[2], what, sink, {});
    checkCallbackBody(op, *op.regions[2], what, /*pure=*/false);
  }

  /// Yields of if branches carry the if's results; yields of loop body/step
  /// carry the loop's carried values.
  void checkYield(const Op &op, const Region &r) {
    const Op *t = r.block.terminator();
    if (!t || t->opcode != Opcode::Yield)
      return;
    size_t expected = op.opcode == Opcode::If ? op.results.size()
                                              : op.operands.size();
    if (t->operands.size() != expected)
      error(t, "yields " + llvm::Twine(t->operands.size()) +
                   " values, parent expects " + llvm::Twine(expected));
  }
};

} // namespace

bool intent::kir::verifyKernel(const Kernel &k,
                               std::vector<std::string> &errors) {
  size_t before = errors.size();
  Verifier(k, errors).run();
  return errors.size() == before;
}
