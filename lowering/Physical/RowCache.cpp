//===- RowCache.cpp - Register rows: a value kept in the row slot ---------===//

#include "Physical/RowCache.h"

#include "Physical/Structured.h"

#include <algorithm>
#include <functional>

using namespace intent;
using namespace intent::phys;

namespace {

/// Whether `op` is `b` itself's op or nested in one of b's ops.
bool within(const Op *op, const Block &b) {
  for (const Op *o = op; o; o = o->parentOp())
    if (o->parent == &b)
      return true;
  return false;
}

bool isRegLoadOf(const Op &op, unsigned param) {
  const Value *m = op.opcode == Opcode::Load ? op.memory() : nullptr;
  return m && op.boolAttr("reg") && m->isBlockArg() && m->argNo == param &&
         m->type.isView();
}

/// The attributes that say what an op computes (not the row-cache hints).
bool sameAttrs(const Op &a, const Op &b) {
  auto hint = [](const NamedAttr &x) {
    return x.name == "row_cache" || x.name == "row_cached";
  };
  auto count = [&](const Op &o) {
    return std::count_if(o.attrs.begin(), o.attrs.end(),
                         [&](const NamedAttr &x) { return !hint(x); });
  };
  if (count(a) != count(b))
    return false;
  for (const NamedAttr &x : a.attrs) {
    if (hint(x))
      continue;
    const AttrValue *y = b.attr(x.name);
    if (!y || !(*y == x.value))
      return false;
  }
  return true;
}

} // namespace

const Block &intent::phys::memberBlock(const Op &d) {
  return d.region(d.opcode == Opcode::For ? 0 : ValueRegion)->block;
}

std::set<const Op *> intent::phys::rowExpression(const Value *v,
                                                 const Block &b,
                                                 unsigned param,
                                                 std::string *why) {
  std::set<const Op *> ops;
  bool reads = false;
  std::vector<const Value *> work{v};
  auto fail = [&](const std::string &w) {
    if (why)
      *why = w;
    return std::set<const Op *>{};
  };
  while (!work.empty()) {
    const Value *x = work.back();
    work.pop_back();
    if (x->isBlockArg()) {
      if (x->owner == &b && x != b.args[0])
        return fail("a block argument other than the member");
      continue; // the member, or a value from outside the block
    }
    const Op *d = x->def;
    if (d->parent != &b) {
      if (within(d, b))
        return fail("a value of a nested region (op " + std::to_string(d->id) +
                    ")");
      continue; // defined before the distributed op: row-invariant
    }
    if (!ops.insert(d).second)
      continue;
    if (d->opcode == Opcode::Load) {
      if (!isRegLoadOf(*d, param))
        return fail("a load other than a register-row load of the view (op " +
                    std::to_string(d->id) + ")");
      reads = true;
      continue;
    }
    if (!isPure(d->opcode) || !d->regions.empty() || d->results.size() != 1)
      return fail("op " + std::to_string(d->id) + " (" +
                  opcodeName(d->opcode).str() +
                  ") is not a pure single-result op");
    for (const Value *o : d->operands)
      work.push_back(o);
  }
  if (!reads)
    return fail("it reads no register-row element of the view");
  return ops;
}

bool intent::phys::sameRowExpression(const Value *a, const Block &ba,
                                     const Value *b, const Block &bb) {
  const bool memberA = !ba.args.empty() && a == ba.args[0];
  const bool memberB = !bb.args.empty() && b == bb.args[0];
  if (memberA || memberB)
    return memberA && memberB;
  const bool inA = a->def && a->def->parent == &ba;
  const bool inB = b->def && b->def->parent == &bb;
  if (!inA || !inB)
    return !inA && !inB && a == b && (!a->def || !within(a->def, ba)) &&
           (!a->def || !within(a->def, bb));
  const Op &x = *a->def, &y = *b->def;
  if (x.opcode != y.opcode || x.results.size() != 1 || y.results.size() != 1 ||
      x.result()->type != y.result()->type || !x.regions.empty() ||
      !y.regions.empty() || x.operands.size() != y.operands.size())
    return false;
  if (x.opcode == Opcode::Load)
    return x.boolAttr("reg") && y.boolAttr("reg") && x.memory() == y.memory();
  if (!sameAttrs(x, y))
    return false;
  for (unsigned i = 0; i < x.operands.size(); ++i)
    if (!sameRowExpression(x.operands[i], ba, y.operands[i], bb))
      return false;
  return true;
}

bool intent::phys::rowReadsCovered(const Value *cached, const Block &bc,
                                   const Block &b, unsigned param,
                                   std::vector<const Op *> *roots,
                                   std::string *why) {
  std::set<const Op *> rootSet, inner;
  for (const auto &op : b.ops) {
    if (op->results.size() != 1 ||
        !sameRowExpression(cached, bc, op->result(0), b))
      continue;
    std::set<const Op *> tree = rowExpression(op->result(0), b, param);
    if (tree.empty())
      continue;
    rootSet.insert(op.get());
    for (const Op *t : tree)
      if (t != op.get())
        inner.insert(t);
  }
  for (const auto &op : b.ops)
    if (isRegLoadOf(*op, param) && !inner.count(op.get())) {
      if (why)
        *why = "register-row load op " + std::to_string(op->id) +
               " is not inside an expression equal to the cached one";
      return false;
    }
  bool ok = true;
  std::function<void(const Block &)> scan = [&](const Block &blk) {
    for (const auto &op : blk.ops) {
      const bool mine = inner.count(op.get()) || rootSet.count(op.get());
      for (const Value *o : op->operands)
        if (ok && o->def && inner.count(o->def) && !mine) {
          ok = false;
          if (why)
            *why = "op " + std::to_string(op->id) + " (" +
                   opcodeName(op->opcode).str() + ") uses op " +
                   std::to_string(o->def->id) +
                   " of a cached expression, which is not computed";
        }
      for (const auto &r : op->regions)
        scan(r->block);
    }
  };
  scan(b);
  if (ok && roots)
    roots->assign(rootSet.begin(), rootSet.end());
  return ok;
}

bool intent::phys::rowCacheSite(const Program &p, const Op &op, unsigned param,
                                std::string *why) {
  auto fail = [&](const std::string &w) {
    if (why)
      *why = w;
    return false;
  };
  const Op *d = op.parentOp();
  if (!d || d->strAttr("dist") != "cta" || op.parent != &memberBlock(*d))
    return fail("it is not at the top of the member block of a distributed "
                "op");
  if (std::find(p.regParams.begin(), p.regParams.end(), param) ==
          p.regParams.end() ||
      param >= p.params.size())
    return fail("parameter " + std::to_string(param) +
                " is not a register-row view");
  // A value of the view's element type overwrites the row's own slot; one
  // of another type (exp of a bf16 element, in f32) gets a register array
  // of its own next to the row (EmitRowRegs.cpp).
  if (op.opcode == Opcode::Load || op.results.size() != 1 ||
      !op.result()->type.isScalar())
    return fail("its value is not a computed scalar");
  std::string w;
  if (rowExpression(op.result(), *op.parent, param, &w).empty())
    return fail("its value is not a row expression of the view: " + w);
  bool after = false;
  for (const auto &o : op.parent->ops) {
    if (after && isRegLoadOf(*o, param))
      return fail("register-row load op " + std::to_string(o->id) +
                  " follows it and would read the overwritten slot");
    after = after || o.get() == &op;
  }
  return true;
}
