//===- CountedLoops.cpp - Independent counted loops become `for`s ---------===//
//
// Before: a parallel segment whose instance holds, at its top level, a loop
// the user wrote as `for (index j = a; j < b; ++j) { ... }` whose every
// iteration computes a reduction (cov(i, j) = sum over k of d(k, i) d(k,
// j), a Gram matrix, the rows of a symmetric product):
//
//   %j = loop %a {test_first = true} {
//   ^(%c): <pure ops computing %b>; %t = cmp %c, %b {pred = "lt"}; condition %t
//   } { ^(%c): ...body, at least one reduce / argreduce...; yield %c
//   } { ^(%c): %n = add %c, 1; yield %n }
//
// After: when the counter is the loop's only value, its final value is
// unused, the body neither continues, breaks, returns nor uses atomics,
// and no iteration touches memory another one writes
// (phys::iterationConflict, the counter as the iteration coordinate, the
// instance's other values fixed):
//
//   <the pure ops computing %b, hoisted>
//   for %a, %b { ^(%j): ...body...; yield }
//
// The `for` keeps the loop's origin (a KIR loop, not a parallel_for: the
// [coverage] check does not count it as parallel iterations). cta-rows then
// gives such an instance a CTA and strides the iterations over its threads
// (docs/passes.md §3), each thread folding its iterations' reductions
// serially: the covariance instance of row i runs its n - i reductions on
// 256 threads instead of one. The rewrite changes no result: the
// iterations touch disjoint memory, so any order gives the serial one.
//
//===----------------------------------------------------------------------===//

#include "Passes/Passes.h"

#include "Physical/Dispatch.h"
#include "Physical/Verifier.h"

#include <set>

using namespace intent;
using namespace intent::phys;

namespace {

/// The counted form of `loop`, or why not: `hoist` the test block's ops
/// that compute the bound, `bound` the bound, `inclusive` whether the test
/// is counter <= bound (else counter < bound).
std::string countedForm(const Program &p, const Op &loop,
                        std::vector<const Op *> &hoist, Value *&bound,
                        bool &inclusive) {
  if (loop.opcode != Opcode::Loop || loop.regions.size() != 3 ||
      loop.operands.size() != 1 || loop.results.size() != 1 ||
      !loop.boolAttr("test_first", false))
    return "not a loop of one counter tested first";
  // The final counter must be unused.
  bool used = false;
  walk(*p.body, [&](const Op &o) {
    for (const Value *v : o.operands)
      used |= v == loop.result(0);
  });
  if (used)
    return "the loop's final counter is used";
  const Block &test = loop.regions[0]->block;
  const Block &body = loop.regions[1]->block;
  const Block &step = loop.regions[2]->block;
  if (test.args.size() != 1 || body.args.size() != 1 || step.args.size() != 1)
    return "not a loop of one counter";
  // test: pure ops of values from outside, then cmp %c, %b {lt}; condition.
  const Op *cond = test.terminator();
  if (!cond || cond->opcode != Opcode::Condition || cond->operands.size() != 1 ||
      cond->operands[0]->isBlockArg())
    return "no loop condition";
  const Op *cmp = cond->operands[0]->def;
  if (cmp->opcode != Opcode::Cmp ||
      (cmp->strAttr("pred") != "lt" && cmp->strAttr("pred") != "le") ||
      cmp->operands[0] != test.args[0] || cmp->parent != &test ||
      cmp->operands[1]->type != Type::index())
    return "the condition is not counter < bound or counter <= bound";
  inclusive = cmp->strAttr("pred") == "le";
  hoist.clear();
  for (const auto &o : test.ops) {
    if (o.get() == cmp || o.get() == cond)
      continue;
    if (!isPure(o->opcode) || !o->regions.empty())
      return "the condition computes more than its bound";
    for (const Value *v : o->operands)
      if (v == test.args[0])
        return "the bound depends on the counter";
    hoist.push_back(o.get());
  }
  bound = cmp->operands[1];
  if (bound == test.args[0])
    return "the bound is the counter";
  // step: yield (add %c, 1).
  const Op *sy = step.terminator();
  if (!sy || sy->opcode != Opcode::Yield || sy->operands.size() != 1 ||
      sy->operands[0]->isBlockArg())
    return "no counter step";
  const Op &inc = *sy->operands[0]->def;
  const Value *one = inc.opcode != Opcode::Add ? nullptr
                     : inc.operands[0] == step.args[0] ? inc.operands[1]
                     : inc.operands[1] == step.args[0] ? inc.operands[0]
                                                       : nullptr;
  if (!one || one->isBlockArg() || one->def->opcode != Opcode::Constant ||
      one->def->intAttr("value", 0) != 1 || step.ops.size() > 3)
    return "the counter does not step by 1";
  // body: passes the counter on unchanged; no early exits or atomics; at
  // least one reduction.
  const Op *by = body.terminator();
  if (!by || by->opcode != Opcode::Yield || by->operands.size() != 1 ||
      by->operands[0] != body.args[0])
    return "the body changes the counter";
  bool exits = false, atomics = false, reduces = false;
  walk(*loop.regions[1], [&](const Op &o) {
    exits |= o.opcode == Opcode::Continue || o.opcode == Opcode::Break ||
             o.opcode == Opcode::Return;
    atomics |= isAtomic(o.opcode);
    reduces |= o.opcode == Opcode::Reduce || o.opcode == Opcode::ArgReduce;
  });
  if (exits)
    return "the body leaves the loop early";
  if (atomics)
    return "the body uses atomics";
  if (!reduces)
    return "no iteration computes a reduction";
  return "";
}

/// Replaces every use of `from` by `to` in the ops of `r`.
void replaceUses(Region &r, const Value *from, Value *to) {
  walkMutable(r, [&](Op &o) {
    for (Value *&v : o.operands)
      if (v == from)
        v = to;
  });
}

/// Rewrites `loop` (in its parent block) into the `for` of countedForm.
/// Returns the `for`.
Op *rewrite(Program &p, Op &loop, const std::vector<const Op *> &hoist,
            Value *bound, bool inclusive) {
  Block &parent = *loop.parent;
  auto at = std::find_if(parent.ops.begin(), parent.ops.end(),
                         [&](const auto &o) { return o.get() == &loop; });
  size_t pos = static_cast<size_t>(at - parent.ops.begin());
  // The bound's ops move before the loop, in order.
  Block &test = loop.regions[0]->block;
  std::set<const Op *> moving(hoist.begin(), hoist.end());
  std::vector<std::unique_ptr<Op>> moved;
  for (auto it = test.ops.begin(); it != test.ops.end();) {
    if (moving.count(it->get())) {
      (*it)->parent = &parent;
      moved.push_back(std::move(*it));
      it = test.ops.erase(it);
    } else {
      ++it;
    }
  }
  for (auto &o : moved)
    parent.ops.insert(parent.ops.begin() + static_cast<long>(pos++), std::move(o));
  // The for, built at the block's end, then moved to the loop's place
  // (with `bound + 1` before it for counter <= bound).
  Builder b(p);
  b.setInsertionBlock(&parent);
  b.loc = loop.loc;
  b.origin = loop.origin;
  if (inclusive) {
    const size_t before = parent.ops.size();
    Value *one = b.constInt(1);
    bound = b.binary(Opcode::Add, bound, one);
    std::vector<std::unique_ptr<Op>> made;
    for (size_t k = before; k < parent.ops.size(); ++k)
      made.push_back(std::move(parent.ops[k]));
    parent.ops.resize(before);
    for (auto &o : made)
      parent.ops.insert(parent.ops.begin() + static_cast<long>(pos++),
                        std::move(o));
  }
  Op *f = b.create(Opcode::For, {loop.operands[0], bound}, {});
  f->loc = loop.loc;
  f->origin = loop.origin;
  Region *r = b.addRegion(f);
  Block &body = loop.regions[1]->block;
  Value *iv = b.addBlockArg(&r->block, Type::index(), body.args[0]->name);
  iv->origin = body.args[0]->origin;
  for (auto &o : body.ops) {
    if (o.get() == body.terminator())
      continue;
    o->parent = &r->block;
    r->block.ops.push_back(std::move(o));
  }
  body.ops.clear();
  replaceUses(*r, body.args[0], iv);
  b.setInsertionBlock(&r->block);
  b.yield();
  std::unique_ptr<Op> owned = std::move(parent.ops.back());
  parent.ops.pop_back();
  // Replace the loop by the for.
  auto where = std::find_if(parent.ops.begin(), parent.ops.end(),
                            [&](const auto &o) { return o.get() == &loop; });
  *where = std::move(owned);
  return f;
}

} // namespace

void intent::passes::countedLoops(Program &p, phys::RemarkSink &sink) {
  if (p.scope != ExecScope::Thread)
    return;
  for (const Segment &seg : p.segments) {
    Op *segOp = segmentOp(p, seg.group);
    if (!segOp || seg.ordered)
      continue;
    Block &inst = segOp->regions[0]->block;
    for (size_t i = 0; i < inst.ops.size(); ++i) {
      Op &loop = *inst.ops[i];
      std::vector<const Op *> hoist;
      Value *bound = nullptr;
      bool inclusive = false;
      if (loop.opcode != Opcode::Loop ||
          !countedForm(p, loop, hoist, bound, inclusive).empty())
        continue;
      // Independent iterations: summarized over the body with the counter
      // as the iteration coordinate.
      if (!iterationConflict(p, loop).empty())
        continue;
      const Loc loc = loop.loc;
      rewrite(p, loop, hoist, bound, inclusive);
      sink.remark(loc, "counted-loops: the loop's iterations touch disjoint "
                       "memory and each computes a reduction: a `for` that "
                       "cta-rows may spread over a CTA's threads");
      i = 0; // positions moved: rescan (rewritten loops are `for`s now)
    }
  }
}
