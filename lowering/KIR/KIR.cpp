//===- KIR.cpp - Kernel IR types, ops and builder -------------------------===//

#include "KIR/KIR.h"

#include "KIR/OpTable.h"
#include "KIR/Atomic.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/ErrorHandling.h"

#include <map>
#include <set>

using namespace intent::kir;

//===----------------------------------------------------------------------===//
// Types
//===----------------------------------------------------------------------===//

bool Type::isFloat() const {
  return isScalar() && (elem == ScalarKind::F16 || elem == ScalarKind::BF16 ||
                        elem == ScalarKind::F32 || elem == ScalarKind::F64);
}

bool Type::isInteger() const {
  return isScalar() && !isFloat() && elem != ScalarKind::Bool;
}

bool Type::isSigned() const {
  if (!isScalar())
    return false;
  switch (elem) {
  case ScalarKind::I8:
  case ScalarKind::I16:
  case ScalarKind::I32:
  case ScalarKind::I64:
    return true;
  default:
    return isFloat();
  }
}

unsigned Type::bitWidth() const {
  switch (elem) {
  case ScalarKind::Bool:
  case ScalarKind::I8:
  case ScalarKind::U8:
    return 8;
  case ScalarKind::I16:
  case ScalarKind::U16:
  case ScalarKind::F16:
  case ScalarKind::BF16:
    return 16;
  case ScalarKind::I32:
  case ScalarKind::U32:
  case ScalarKind::F32:
    return 32;
  case ScalarKind::I64:
  case ScalarKind::U64:
  case ScalarKind::F64:
    return 64;
  }
  llvm_unreachable("bad scalar kind");
}

llvm::StringRef intent::kir::scalarKindName(ScalarKind k) {
  switch (k) {
  case ScalarKind::Bool:
    return "bool";
  case ScalarKind::I8:
    return "i8";
  case ScalarKind::I16:
    return "i16";
  case ScalarKind::I32:
    return "i32";
  case ScalarKind::I64:
    return "i64";
  case ScalarKind::U8:
    return "u8";
  case ScalarKind::U16:
    return "u16";
  case ScalarKind::U32:
    return "u32";
  case ScalarKind::U64:
    return "u64";
  case ScalarKind::F16:
    return "f16";
  case ScalarKind::BF16:
    return "bf16";
  case ScalarKind::F32:
    return "f32";
  case ScalarKind::F64:
    return "f64";
  }
  llvm_unreachable("bad scalar kind");
}

void intent::kir::printType(llvm::raw_ostream &os, const Type &t) {
  switch (t.kind) {
  case Type::Kind::None:
    os << "none";
    return;
  case Type::Kind::Scalar:
    os << scalarKindName(t.elem);
    return;
  case Type::Kind::View:
    os << "view<" << (t.constElem ? "const " : "") << scalarKindName(t.elem)
       << ", " << t.rank << ">";
    return;
  }
}

std::string intent::kir::typeToString(const Type &t) {
  std::string s;
  llvm::raw_string_ostream os(s);
  printType(os, t);
  return s;
}

//===----------------------------------------------------------------------===//
// Ops
//===----------------------------------------------------------------------===//

llvm::StringRef intent::kir::opcodeName(Opcode op) {
  return opInfo(op).name; // KIR/OpTable.cpp
}

bool intent::kir::isReductionOp(Opcode op) {
  switch (op) {
  case Opcode::Reduce:
  case Opcode::Scan:
  case Opcode::ArgReduce:
  case Opcode::RegionFold:
  case Opcode::RegionScan:
    return true;
  default:
    return false;
  }
}

llvm::ArrayRef<Value *> intent::kir::accumulatorInits(const Op &op) {
  llvm::ArrayRef<Value *> ops = op.operands;
  switch (op.opcode) {
  case Opcode::Reduce:
  case Opcode::Scan:
    return ops.size() >= 2 ? ops.drop_front(2) : llvm::ArrayRef<Value *>();
  case Opcode::RegionFold:
  case Opcode::RegionScan:
    return ops.empty() ? ops : ops.drop_front(1);
  default:
    return {};
  }
}

// Like the name, whether an op ends a block and whether it is pure come
// from its row in the op table (KIR/OpTable.cpp), as in the physical IR.
bool intent::kir::isTerminator(Opcode op) { return opInfo(op).terminator; }

bool intent::kir::isPure(Opcode op) { return opInfo(op).pure; }

//===----------------------------------------------------------------------===//
// Kernel and builder
//===----------------------------------------------------------------------===//

Kernel::Kernel() : body(std::make_unique<Region>()) {
  body->id = nextRegionId++;
}

Value *Builder::newValue(Type t, llvm::StringRef name) {
  auto v = std::make_unique<Value>();
  v->id = kernel.nextValueId++;
  v->type = t;
  v->name = name.str();
  Value *raw = v.get();
  kernel.values.push_back(std::move(v));
  return raw;
}

Value *Builder::addBlockArg(Block *b, Type t, llvm::StringRef name) {
  Value *v = newValue(t, name);
  v->owner = b;
  v->argNo = b->args.size();
  b->args.push_back(v);
  return v;
}

Region *Builder::addRegion(Op *op) {
  auto r = std::make_unique<Region>();
  r->id = kernel.nextRegionId++;
  r->parent = op;
  Region *raw = r.get();
  op->regions.push_back(std::move(r));
  return raw;
}

Op *Builder::create(Opcode opc, llvm::ArrayRef<Value *> operands,
                    llvm::ArrayRef<Type> resultTypes) {
  assert(block && "no insertion block");
  auto op = std::make_unique<Op>(opc);
  op->id = kernel.nextOpId++;
  op->loc = loc;
  op->parent = block;
  op->operands.assign(operands.begin(), operands.end());
  for (unsigned i = 0; i < resultTypes.size(); ++i) {
    Value *v = newValue(resultTypes[i]);
    v->def = op.get();
    v->resultNo = i;
    op->results.push_back(v);
  }
  Op *raw = op.get();
  block->ops.push_back(std::move(op));
  return raw;
}

Value *Builder::addResult(Op *op, Type t) {
  Value *v = newValue(t);
  v->def = op;
  v->resultNo = op->results.size();
  op->results.push_back(v);
  return v;
}

Value *Builder::constInt(int64_t v, Type t) {
  Op *op = create(Opcode::Constant, {}, {t});
  op->setAttr("value", v);
  return op->result();
}

Value *Builder::constFloat(double v, Type t) {
  Op *op = create(Opcode::Constant, {}, {t});
  op->setAttr("value", v);
  return op->result();
}

Value *Builder::constBool(bool v) {
  Op *op = create(Opcode::Constant, {}, {Type::boolean()});
  op->setAttr("value", v);
  return op->result();
}

Value *Builder::binary(Opcode opc, Value *a, Value *b) {
  return create(opc, {a, b}, {a->type})->result();
}

Value *Builder::cmp(llvm::StringRef pred, Value *a, Value *b) {
  Op *op = create(Opcode::Cmp, {a, b}, {Type::boolean()});
  op->setAttr("pred", pred.str());
  return op->result();
}

Value *Builder::cast(Value *v, Type to) {
  if (v->type == to)
    return v;
  return create(Opcode::Cast, {v}, {to})->result();
}

void intent::kir::walk(const Region &r,
                       const std::function<void(const Op &)> &fn) {
  for (const auto &op : r.block.ops) {
    fn(*op);
    for (const auto &sub : op->regions)
      walk(*sub, fn);
  }
}

//===----------------------------------------------------------------------===//
// Parameter access inference
//===----------------------------------------------------------------------===//

namespace {

/// Propagates "which parameters may this view value be derived from" to a
/// fixed point, then reads the loads and stores.
class AccessInference {
public:
  explicit AccessInference(Kernel &k) : kernel(k) {}

  void run() {
    unsigned n = kernel.params.size();
    for (unsigned i = 0; i < n; ++i)
      if (kernel.param(i)->type.isView())
        roots[kernel.param(i)].insert(i);
    bool changed = true;
    while (changed) {
      changed = false;
      walk(*kernel.body, [&](const Op &op) { changed |= propagate(op); });
    }
    std::vector<bool> reads(n), writes(n);
    walk(*kernel.body, [&](const Op &op) {
      // region_fold / region_scan read their offsets view.
      bool readsOffsets = op.opcode == Opcode::RegionFold ||
                          op.opcode == Opcode::RegionScan;
      bool atomic = isAtomic(op.opcode); // reads and writes
      if (op.opcode == Opcode::Contract) { // writes C, reads A and B
        for (unsigned o = 0; o < op.operands.size() && o < 3; ++o) {
          auto it = roots.find(op.operands[o]);
          if (it != roots.end())
            for (unsigned p : it->second)
              (o == 0 ? writes : reads)[p] = true;
        }
        return;
      }
      if (op.opcode != Opcode::Load && op.opcode != Opcode::Store &&
          !readsOffsets && !atomic)
        return;
      if (op.operands.empty())
        return;
      auto it = roots.find(op.operands[0]);
      if (it == roots.end())
        return;
      for (unsigned p : it->second) {
        if (atomic)
          reads[p] = true;
        (op.opcode == Opcode::Store || atomic ? writes : reads)[p] = true;
      }
    });
    for (unsigned i = 0; i < n; ++i) {
      Param &p = kernel.params[i];
      if (!p.type.isView()) {
        p.access = Access::None;
        continue;
      }
      p.access = reads[i] && writes[i] ? Access::ReadWrite
                 : reads[i]            ? Access::Read
                 : writes[i]           ? Access::Write
                                       : Access::None;
    }
  }

private:
  Kernel &kernel;
  std::map<const Value *, std::set<unsigned>> roots;

  bool join(const Value *to, const Value *from) {
    if (!to || !from || !to->type.isView())
      return false;
    auto it = roots.find(from);
    if (it == roots.end())
      return false;
    std::set<unsigned> &dst = roots[to];
    size_t before = dst.size();
    dst.insert(it->second.begin(), it->second.end());
    return dst.size() != before;
  }

  /// The terminators in `r` (nested in ifs, not in inner loops or parallel
  /// bodies) that transfer control to the loop owning `r`.
  static void loopExits(const Region &r, std::vector<const Op *> &out) {
    for (const auto &op : r.block.ops) {
      if (op->opcode == Opcode::Break || op->opcode == Opcode::Continue)
        out.push_back(op.get());
      if (op->opcode == Opcode::If)
        for (const auto &sub : op->regions)
          loopExits(*sub, out);
    }
  }

  bool propagate(const Op &op) {
    bool changed = false;
    switch (op.opcode) {
    case Opcode::SubView:
      if (!op.operands.empty() && !op.results.empty())
        changed |= join(op.results[0], op.operands[0]);
      break;
    case Opcode::If:
      for (const auto &r : op.regions) {
        const Op *t = r->block.terminator();
        if (!t || t->opcode != Opcode::Yield)
          continue;
        for (unsigned i = 0; i < t->operands.size() && i < op.results.size();
             ++i)
          changed |= join(op.results[i], t->operands[i]);
      }
      break;
    case Opcode::Loop: {
      // Every carried slot: init, yields of body and step, break/continue.
      std::vector<const Op *> sources;
      for (const auto &r : op.regions)
        if (const Op *t = r->block.terminator())
          if (t->opcode == Opcode::Yield)
            sources.push_back(t);
      if (op.regions.size() > 1)
        loopExits(*op.regions[1], sources);
      for (unsigned i = 0; i < op.operands.size(); ++i) {
        std::vector<const Value *> slot;
        for (const auto &r : op.regions)
          if (i < r->block.args.size())
            slot.push_back(r->block.args[i]);
        if (i < op.results.size())
          slot.push_back(op.results[i]);
        std::vector<const Value *> ins = {op.operands[i]};
        for (const Op *s : sources)
          if (i < s->operands.size())
            ins.push_back(s->operands[i]);
        for (const Value *to : slot)
          for (const Value *from : ins)
            changed |= join(to, from);
      }
      break;
    }
    default:
      break;
    }
    return changed;
  }
};

} // namespace

void intent::kir::inferParamAccess(Kernel &k) { AccessInference(k).run(); }
