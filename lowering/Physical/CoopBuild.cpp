//===- CoopBuild.cpp - Building cooperative code as physical ops ----------===//

#include "Physical/CoopBuild.h"

#include "Physical/Structured.h"

using namespace intent;
using namespace intent::phys;

CoopBuilder::CoopBuilder(Program &p, llvm::StringRef pass, Loc loc)
    : p(p), b(p) {
  b.loc = loc;
  b.origin.synth = pass.str();
}

Value *CoopBuilder::constant(AttrValue v, Type t) {
  Op *op = b.create(Opcode::Constant, {}, {t});
  if (kir::Type::scalar(t.elem).isFloat() && std::holds_alternative<int64_t>(v))
    v = static_cast<double>(std::get<int64_t>(v));
  if (t.isBool() && std::holds_alternative<int64_t>(v))
    v = std::get<int64_t>(v) != 0;
  op->setAttr("value", v);
  return op->result();
}

Value *CoopBuilder::i32(int64_t v) {
  return constant(v, Type::scalar(ScalarKind::I32));
}
Value *CoopBuilder::i64(int64_t v) { return constant(v, Type::index()); }
Value *CoopBuilder::boolean(bool v) { return constant(v, Type::boolean()); }

Value *CoopBuilder::cast(Value *a, ScalarKind k) {
  if (a->type.elem == k)
    return a;
  return b.create(Opcode::Cast, {a}, {Type::scalar(k)})->result();
}

Value *CoopBuilder::select(Value *c, Value *x, Value *y) {
  return b.create(Opcode::Select, {c, x, y}, {x->type})->result();
}
Value *CoopBuilder::both(Value *x, Value *y) {
  return select(x, y, boolean(false));
}
Value *CoopBuilder::either(Value *x, Value *y) {
  return select(x, boolean(true), y);
}
Value *CoopBuilder::negate(Value *x) {
  return b.create(Opcode::Not, {x}, {Type::boolean()})->result();
}

Value *CoopBuilder::toBits(Value *v) {
  ScalarKind k = v->type.elem;
  auto bitcast = [&](Value *x, ScalarKind to) {
    return b.create(Opcode::Bitcast, {x}, {Type::scalar(to)})->result();
  };
  if (kir::Type::scalar(k).bitWidth() == 64)
    return k == ScalarKind::U64 ? v : bitcast(v, ScalarKind::U64);
  return cast(k == ScalarKind::U32 ? v : bitcast(v, ScalarKind::U32),
              ScalarKind::U64);
}

Value *CoopBuilder::fromBits(Value *bits, Type t) {
  if (kir::Type::scalar(t.elem).bitWidth() == 64)
    return t.elem == ScalarKind::U64
               ? bits
               : b.create(Opcode::Bitcast, {bits}, {t})->result();
  Value *u = cast(bits, ScalarKind::U32);
  return t.elem == ScalarKind::U32 ? u
                                   : b.create(Opcode::Bitcast, {u}, {t})->result();
}

Value *CoopBuilder::threadId() {
  return b.create(Opcode::ThreadId, {}, {Type::scalar(ScalarKind::I32)})
      ->result();
}
Value *CoopBuilder::laneId() {
  return b.create(Opcode::LaneId, {}, {Type::scalar(ScalarKind::I32)})
      ->result();
}
Value *CoopBuilder::warpId() {
  return b.create(Opcode::WarpId, {}, {Type::scalar(ScalarKind::I32)})
      ->result();
}
Value *CoopBuilder::ctaSize() {
  return b.create(Opcode::CtaSize, {}, {Type::scalar(ScalarKind::I32)})
      ->result();
}

void CoopBuilder::barrier(llvm::StringRef scope) {
  b.create(Opcode::Barrier, {}, {})->setAttr("scope", scope.str());
}

Value *CoopBuilder::gridCtas() {
  return b.create(Opcode::GridCtas, {}, {Type::scalar(ScalarKind::I32)})
      ->result();
}

void CoopBuilder::gridBarrier(Value *counter) {
  Op *op = b.create(Opcode::Barrier, {counter}, {});
  op->setAttr("scope", std::string("grid"));
}

void CoopBuilder::groupBarrier(Value *counter, Value *word, Value *ctas,
                               Value *first) {
  Op *op = b.create(Opcode::Barrier, {counter, word, ctas, first}, {});
  op->setAttr("scope", std::string("group"));
}

CoopBuilder::Values CoopBuilder::vectorLoad(const Op &like, Value *mem,
                                            llvm::ArrayRef<Value *> coords,
                                            int64_t width) {
  llvm::SmallVector<Value *, 4> ops = {mem};
  ops.append(coords.begin(), coords.end());
  std::vector<Type> types(width, like.result()->type);
  Op *vl = b.create(Opcode::VectorLoad, ops, types);
  vl->setAttr("width", width);
  standsFor(vl, like);
  return Values(vl->results.begin(), vl->results.end());
}

Value *CoopBuilder::uncheckedLaunch() {
  return negate(b.create(Opcode::CheckedLaunch, {}, {Type::boolean()})->result());
}

Value *CoopBuilder::aligned(Value *mem, llvm::ArrayRef<Value *> at,
                            int64_t bytes) {
  llvm::SmallVector<Value *, 4> ops = {mem};
  ops.append(at.begin(), at.end());
  Op *a = b.create(Opcode::Aligned, ops, {Type::boolean()});
  a->setAttr("bytes", bytes);
  return a->result();
}

void CoopBuilder::standsFor(Op *op, const Op &like) {
  op->loc = like.loc;
  op->origin = like.origin;
  op->access = like.access;
  op->access.active = ActiveSet::Thread;
  op->access.bounds = Bounds::Assumed;
  op->access.hasGuard = false;
}

Value *CoopBuilder::atomic(llvm::StringRef kind, llvm::StringRef order,
                           Value *mem, Value *index, Value *v) {
  Op *op = b.create(Opcode::Atomic, {mem, v, index},
                    {Type::scalar(mem->type.elem)});
  op->setAttr("kind", kind.str());
  op->setAttr("order", order.str());
  op->setAttr("scope", std::string("gpu"));
  op->access.bounds = Bounds::Assumed;
  op->access.active = ActiveSet::Thread;
  return op->result();
}

Value *CoopBuilder::shuffle(Value *x, Value *k, llvm::StringRef mode) {
  Op *s = b.create(Opcode::Shuffle, {x, k}, {x->type});
  s->setAttr("mode", mode.str());
  return s->result();
}

Value *CoopBuilder::alloc(unsigned buffer) {
  const Buffer &buf = p.buffers[buffer];
  Op *op = b.create(Opcode::Alloc, {}, {Type::buffer(buf.elem, buf.size)});
  op->setAttr("buffer", static_cast<int64_t>(buffer));
  return op->result();
}

Value *CoopBuilder::load(Value *mem, Value *index) {
  Op *op = b.create(Opcode::Load, {mem, index}, {Type::scalar(mem->type.elem)});
  op->access.bounds = Bounds::Assumed;
  op->access.active = ActiveSet::Thread;
  return op->result();
}

void CoopBuilder::store(Value *mem, Value *index, Value *v) {
  Op *op = b.create(Opcode::Store, {mem, v, index}, {});
  op->access.bounds = Bounds::Assumed;
  op->access.active = ActiveSet::Thread;
}

CoopBuilder::Values
CoopBuilder::branch(Value *cond, const std::vector<Type> &types,
                    const std::function<Values()> &then,
                    const std::function<Values()> &otherwise) {
  Op *op = b.create(Opcode::If, {cond}, types);
  Block *outer = b.block;
  b.setInsertionBlock(&b.addRegion(op)->block);
  b.yield(then());
  b.setInsertionBlock(&b.addRegion(op)->block);
  b.yield(otherwise());
  b.setInsertionBlock(outer);
  return Values(op->results.begin(), op->results.end());
}

CoopBuilder::Values CoopBuilder::ifThen(Value *cond, const Values &otherwise,
                                        const std::function<Values()> &then) {
  std::vector<Type> types;
  for (Value *v : otherwise)
    types.push_back(v->type);
  return branch(cond, types, then, [&] { return otherwise; });
}

void CoopBuilder::when(Value *cond, const std::function<void()> &then) {
  branch(
      cond, {},
      [&] {
        then();
        return Values();
      },
      [] { return Values(); });
}

CoopBuilder::Values
CoopBuilder::loop(const Values &init,
                  const std::function<Value *(const Values &)> &cond,
                  const std::function<Values(const Values &)> &body,
                  const std::function<Values(const Values &)> &step,
                  int64_t unroll) {
  std::vector<Type> types;
  for (Value *v : init)
    types.push_back(v->type);
  Op *op = b.create(Opcode::Loop, init, types);
  op->setAttr("test_first", true);
  if (unroll > 0)
    op->setAttr("unroll", unroll);
  Block *outer = b.block;
  auto region = [&](auto &&fill) {
    Block *blk = &b.addRegion(op)->block;
    Values args;
    for (Type t : types)
      args.push_back(b.addBlockArg(blk, t));
    b.setInsertionBlock(blk);
    fill(args);
  };
  region([&](const Values &a) { b.create(Opcode::Condition, {cond(a)}, {}); });
  region([&](const Values &a) { b.yield(body(a)); });
  region([&](const Values &a) { b.yield(step(a)); });
  b.setInsertionBlock(outer);
  return Values(op->results.begin(), op->results.end());
}

CoopBuilder::Values CoopBuilder::warpTreeDown(const Values &acc,
                                              const Combine &combine,
                                              Value *width) {
  // for (o = 1; o < 32; o <<= 1) { x = shfl_down(acc, o);
  //   if (lane + o < 32) acc = combine(acc, x); }
  // Ascending offsets keep member order: after offset o, lane l (a multiple
  // of 2o) holds lanes [l, l + 2o) combined left to right, so lane 0 ends
  // with lanes 0..31 in order (descending offsets would combine lanes l,
  // l + 16, l + 8, ...: wrong for a combine that is not commutative). One
  // loop: the combine (a dozen ops for an arg-merge) is written once.
  Value *lane = laneId();
  Values init = {i32(1)};
  init.insert(init.end(), acc.begin(), acc.end());
  Values out = loop(
      init,
      [&](const Values &c) { return cmp("lt", c[0], width ? width : i32(32)); },
      [&](const Values &c) {
        Values mine(c.begin() + 1, c.end()), other;
        for (Value *v : mine)
          other.push_back(shuffle(v, c[0], "down"));
        // Past lane 31 a shuffle-down returns the lane's own value: those
        // lanes keep theirs.
        Values next = {c[0]};
        Values m = ifThen(cmp("lt", add(lane, c[0]), i32(32)), mine,
                          [&] { return combine(mine, other); });
        next.insert(next.end(), m.begin(), m.end());
        return next;
      },
      [&](const Values &c) {
        Values next = c;
        next[0] = b.binary(Opcode::Shl, c[0], i32(1));
        return next;
      });
  return Values(out.begin() + 1, out.end());
}

CoopBuilder::Values CoopBuilder::warpScanUp(const Values &acc,
                                            const Combine &combine,
                                            Value *lane, Value *place,
                                            Value *width) {
  Values init = {i32(1)};
  init.insert(init.end(), acc.begin(), acc.end());
  Values out = loop(
      init,
      [&](const Values &c) { return cmp("lt", c[0], width ? width : i32(32)); },
      [&](const Values &c) {
        Value *o = c[0];
        Value *src = b.binary(Opcode::Max, b.binary(Opcode::Sub, lane, o), i32(0));
        Values mine(c.begin() + 1, c.end()), left;
        for (Value *v : mine)
          left.push_back(shuffle(v, src, "idx"));
        Values s = ifThen(cmp("ge", place ? place : lane, o), mine,
                          [&] { return combine(left, mine); });
        Values next = {o};
        next.insert(next.end(), s.begin(), s.end());
        return next;
      },
      [&](const Values &c) {
        Values next = c;
        next[0] = b.binary(Opcode::Shl, c[0], i32(1));
        return next;
      });
  return Values(out.begin() + 1, out.end());
}

CoopBuilder::Values
CoopBuilder::ctaReduce(const Values &acc, const Values &warpSlots,
                       const Values &resultSlots,
                       const std::function<Values()> &identity,
                       const Combine &combine,
                       const std::function<Values(const Values &)> &finish) {
  Values a = warpTreeDown(acc, combine);
  Value *lane = laneId();
  when(cmp("eq", lane, i32(0)), [&] {
    Value *w = cast(warpId(), ScalarKind::I64);
    for (unsigned c = 0; c < a.size(); ++c)
      store(warpSlots[c], w, a[c]);
  });
  barrier();
  // Every warp folds the partials (the tree's shuffles stay in control
  // flow uniform over the CTA); thread 0's is the CTA's.
  Value *warps = b.binary(Opcode::Div, ctaSize(), i32(32));
  a = ifThen(cmp("lt", lane, warps), identity(), [&] {
    Value *l = cast(lane, ScalarKind::I64);
    Values v;
    for (Value *slot : warpSlots)
      v.push_back(load(slot, l));
    return v;
  });
  a = warpTreeDown(a, combine);
  when(cmp("eq", threadId(), i32(0)), [&] {
    Values r = finish(a);
    for (unsigned c = 0; c < r.size(); ++c)
      store(resultSlots[c], i64(0), r[c]);
  });
  barrier();
  Values out;
  for (Value *slot : resultSlots)
    out.push_back(load(slot, i64(0)));
  return out;
}

CoopBuilder::Values CoopBuilder::argMerge(bool isMax, bool tieLast,
                                          bool ignoreNaN, Value *bv, Value *q,
                                          Value *x, Value *k, bool increasing) {
  const bool fp = kir::Type::scalar(bv->type.elem).isFloat();
  auto isNaN = [&](Value *v) { return cmp("ne", v, v); };
  Value *valid = cmp("ge", k, i64(0));
  if (fp && ignoreNaN)
    valid = both(valid, negate(isNaN(x)));
  Value *better;
  if (increasing) {
    // k comes after q: an equal value wins only under tie = last; a NaN x
    // beats a number and, under last, an earlier NaN.
    better = isMax ? cmp(tieLast ? "le" : "lt", bv, x)
                   : cmp(tieLast ? "le" : "lt", x, bv);
    if (fp) {
      Value *na = isNaN(bv), *nb = isNaN(x);
      better = select(nb, tieLast ? boolean(true) : negate(na),
                      both(negate(na), better));
    }
  } else {
    Value *later = cmp(tieLast ? "gt" : "lt", k, q);
    better = select(cmp("eq", x, bv), later,
                    isMax ? cmp("lt", bv, x) : cmp("lt", x, bv));
    if (fp) {
      Value *na = isNaN(bv), *nb = isNaN(x);
      better =
          select(either(na, nb), both(nb, either(negate(na), later)), better);
    }
  }
  Value *take = both(valid, either(cmp("lt", q, i64(0)), better));
  return {select(take, x, bv), select(take, k, q)};
}

Op *FoldInliner::copy(const Op &op, bool proven) {
  Op *c = cloneOp(cb.b, op, map);
  std::function<void(Op &)> mark = [&](Op &o) {
    if (o.opcode == Opcode::Load || o.opcode == Opcode::Store ||
        isAtomic(o.opcode)) {
      o.access.active = ActiveSet::Thread;
      if (!proven && o.access.bounds == Bounds::Proven)
        o.access.bounds = Bounds::Assumed;
    }
    for (auto &r : o.regions)
      for (auto &inner : r->block.ops)
        mark(*inner);
  };
  mark(*c);
  return c;
}

FoldInliner::Values FoldInliner::inlineRegion(const Op &op, unsigned r,
                                              const Values &args) {
  const Block &blk = op.region(r)->block;
  for (unsigned i = 0; i < args.size(); ++i)
    map[blk.args[i]] = args[i];
  for (const auto &o : blk.ops) {
    if (o->opcode == Opcode::Yield) {
      Values out;
      for (Value *v : o->operands)
        out.push_back(lookup(map, v));
      return out;
    }
    copy(*o);
  }
  return {};
}

FoldInliner::Values FoldInliner::identity(const Op &op,
                                          const std::vector<Type> &types) {
  if (op.opcode == Opcode::ArgReduce)
    return {cb.constant(op.acc[0].value, types[0]), cb.i64(-1)};
  Values id;
  llvm::ArrayRef<Value *> inits = accInits(op);
  for (unsigned c = 0; c < types.size(); ++c)
    id.push_back(op.acc[c].identity == AccComponent::Identity::Init
                     ? lookup(map, inits[c])
                     : cb.constant(op.acc[c].value, types[c]));
  return id;
}

FoldInliner::Values FoldInliner::combine(const Op &op, const Values &lo,
                                         const Values &hi, bool increasing) {
  if (op.opcode == Opcode::ArgReduce)
    return cb.argMerge(op.strAttr("which") == "max",
                       op.strAttr("tie") == "last",
                       op.strAttr("nan") == "ignore", lo[0], lo[1], hi[0],
                       hi[1], increasing);
  Values a = lo;
  a.insert(a.end(), hi.begin(), hi.end());
  return inlineRegion(op, CombineRegion, a);
}
