//===- Contract.cpp - KIR contract: legality and expansion -----------------===//

#include "KIR/Contract.h"

#include "llvm/ADT/DenseMap.h"

using namespace intent;
using namespace intent::kir;

ScalarKind intent::kir::contractAccumulator(ScalarKind elem) {
  if (elem == ScalarKind::F16 || elem == ScalarKind::BF16)
    return ScalarKind::F32;
  return elem;
}

std::string intent::kir::checkContract(const Op &op) {
  if (op.operands.size() != 3)
    return "contract takes three views (C, A, B)";
  if (!op.results.empty() || !op.regions.empty())
    return "contract has no results and no regions";
  for (const Value *v : op.operands)
    if (!v->type.isView())
      return "contract operands must be views";
  const Type &c = op.operands[0]->type, &a = op.operands[1]->type,
             &b = op.operands[2]->type;
  const bool batched = op.boolAttr("batched", false);
  const int rank = batched ? 3 : 2;
  if (c.rank != rank || a.rank != rank || b.rank != rank)
    return batched ? "batched contract needs views of rank 3"
                   : "contract needs views of rank 2 (batched = true for 3)";
  if (a.elem != c.elem || b.elem != c.elem)
    return "contract operands must have one element type";
  if (c.elem == ScalarKind::Bool)
    return "contract on bool elements";
  if (c.constElem)
    return "contract writes C: it must not be a view of const elements";
  std::string acc = op.strAttr("acc");
  if (acc != scalarKindName(contractAccumulator(c.elem)))
    return "contract accumulator must be " +
           scalarKindName(contractAccumulator(c.elem)).str() + " for " +
           scalarKindName(c.elem).str() + " (acc = \"" + acc + "\")";
  return "";
}

bool intent::kir::hasContract(const Kernel &k) {
  bool found = false;
  walk(*k.body, [&](const Op &op) { found |= op.opcode == Opcode::Contract; });
  return found;
}

namespace {

class Expander {
public:
  Expander(const Kernel &src, Kernel &dst) : src(src), b(dst) {}

  void run() {
    Block &to = b.kernel.body->block;
    for (Value *a : src.body->block.args)
      map[a] = b.addBlockArg(&to, a->type, a->name);
    copyBlock(src.body->block, to);
  }

private:
  const Kernel &src;
  Builder b;
  llvm::DenseMap<const Value *, Value *> map;

  Value *m(Value *v) {
    auto it = map.find(v);
    assert(it != map.end() && "use before def");
    return it->second;
  }

  void copyBlock(const Block &from, Block &to) {
    for (const auto &op : from.ops) {
      b.setInsertionBlock(&to);
      b.loc = op->loc;
      if (op->opcode == Opcode::Contract)
        expand(*op);
      else
        copy(*op);
    }
  }

  void copy(const Op &op) {
    llvm::SmallVector<Value *, 4> operands;
    for (Value *v : op.operands)
      operands.push_back(m(v));
    llvm::SmallVector<Type, 2> types;
    for (Value *r : op.results)
      types.push_back(r->type);
    Op *n = b.create(op.opcode, operands, types);
    n->attrs = op.attrs;
    for (unsigned i = 0; i < op.results.size(); ++i) {
      n->results[i]->name = op.results[i]->name;
      map[op.results[i]] = n->results[i];
    }
    for (const auto &r : op.regions) {
      Region *nr = b.addRegion(n);
      for (Value *a : r->block.args)
        map[a] = b.addBlockArg(&nr->block, a->type, a->name);
      Block *saved = b.block;
      copyBlock(r->block, nr->block);
      b.setInsertionBlock(saved);
    }
  }

  void expand(const Op &op) {
    Value *c = m(op.operands[0]), *a = m(op.operands[1]),
          *bv = m(op.operands[2]);
    const int rank = c->type.rank;
    const Type elem = elementType(c->type);
    const Type acc = Type::scalar(contractAccumulator(c->type.elem));
    const Type i64 = Type::index();
    auto extent = [&](Value *v, int d) {
      Op *e = b.create(Opcode::Extent, {v}, {i64});
      e->setAttr("dim", static_cast<int64_t>(d));
      return e->result();
    };
    llvm::SmallVector<Value *, 3> extents;
    for (int d = 0; d < rank; ++d)
      extents.push_back(extent(c, d));
    Value *kEnd = extent(a, rank - 1);

    Op *pf = b.create(Opcode::ParallelFor, extents, {});
    Region *body = b.addRegion(pf);
    Block *outer = b.block;
    llvm::SmallVector<Value *, 3> idx;
    for (int d = 0; d < rank; ++d)
      idx.push_back(b.addBlockArg(&body->block, i64,
                                  d == rank - 2   ? "i"
                                  : d == rank - 1 ? "j"
                                                  : "batch"));
    b.setInsertionBlock(&body->block);
    Value *zero = b.constInt(0, i64);
    Value *init = acc.isFloat() ? b.constFloat(0.0, acc) : b.constInt(0, acc);
    Op *red = b.create(Opcode::Reduce, {zero, kEnd, init}, {acc});
    red->setAttr("combiner", std::string("plus"));
    red->setAttr("reassociate", false);

    // value(k) = Acc(A(.., i, k)) * Acc(B(.., k, j))
    Region *value = b.addRegion(red);
    Value *k = b.addBlockArg(&value->block, i64, "k");
    b.setInsertionBlock(&value->block);
    llvm::SmallVector<Value *, 4> aOps = {a}, bOps = {bv};
    for (int d = 0; d < rank - 2; ++d) {
      aOps.push_back(idx[d]);
      bOps.push_back(idx[d]);
    }
    aOps.append({idx[rank - 2], k});
    bOps.append({k, idx[rank - 1]});
    Value *x = b.create(Opcode::Load, aOps, {elem})->result();
    Value *y = b.create(Opcode::Load, bOps, {elem})->result();
    Value *prod = b.binary(Opcode::Mul, b.cast(x, acc), b.cast(y, acc));
    b.create(Opcode::Yield, {prod}, {});

    // combine(s, p) = s + p
    Region *combine = b.addRegion(red);
    Value *s = b.addBlockArg(&combine->block, acc, "s");
    Value *p = b.addBlockArg(&combine->block, acc, "p");
    b.setInsertionBlock(&combine->block);
    b.create(Opcode::Yield, {b.binary(Opcode::Add, s, p)}, {});

    // C(.., i, j) = T(sum)
    b.setInsertionBlock(&body->block);
    llvm::SmallVector<Value *, 5> cOps = {c, b.cast(red->result(), elem)};
    cOps.append(idx.begin(), idx.end());
    b.create(Opcode::Store, cOps, {});
    b.create(Opcode::Yield, {}, {});
    b.setInsertionBlock(outer);
  }
};

} // namespace

std::unique_ptr<Kernel> intent::kir::expandContracts(const Kernel &k) {
  auto n = std::make_unique<Kernel>();
  n->id = k.id;
  n->name = k.name;
  n->mangledName = k.mangledName;
  n->displayName = k.displayName;
  n->file = k.file;
  n->loc = k.loc;
  n->params = k.params;
  n->templateArgs = k.templateArgs;
  Expander(k, *n).run();
  return n;
}
