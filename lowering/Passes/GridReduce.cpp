//===- GridReduce.cpp - Device-wide reduction in one launch ---------------===//
//
// Before: one ordered segment whose single instance computes a reduce or
// argreduce over a (large) axis and then stores the result(s):
//
//   segment %pid, e0, e1 {group = 0} { ^(%local):
//     ...pure code / loads...; %s = reduce %b, %e, %init {...}; store out[0], %s }
//
// After: exec scope cta (kCtaThreads threads), the segment's one instance
// run by P = min(max(ceil(n / (T * V * 4)), 1), M) cooperating programs
// (one per CTA; phys::resizeSegment), written with the cooperative
// primitives (docs/physical-ir.md §5.8) only:
//
//   <ops before the reduction>                   (every thread, loads `all`)
//   acc = identity; i = (local * T + thread) * V; n = max(e - b, 0)
//   loop (i < n; i += P * T * V)                 (each thread its members)
//     if (!checked_launch && aligned(x, b) && i + V <= n)
//       one vector_load of V elements per streamed load; V member steps
//     else
//       scalar member steps i + j, j < min(V, n - i)
//     [arg-reductions on the vector path: one accumulator per vector lane,
//      folded after the loop; a first loop loads kArgUnroll vectors, S
//      apart, before merging any]
//   CTA tree: shuffle xor 16..1; lane 0 stores its warp's partial in the
//     cta_shared grid_warpC; barrier; every warp folds those and runs the
//     shuffle tree again (thread 0 holds the CTA's partial)
//   if (thread == 0) { atomic exch workspace[1 + c * M + local] = bits(acc);
//     ticket = atomic add (acq_rel) workspace[0], 1;
//     grid_last[0] = ticket + 1 == P }
//   barrier
//   if (grid_last[0] != 0) {                     (uniform over the CTA)
//     each thread folds partials t, t + T, ... (atomic exch with 0)
//     CTA tree
//     if (thread == 0) { atomic exch workspace[0] = 0; result = combine(init,
//       acc); <the rest of the instance> } }
//   barrier                                      (shared memory is reused)
//
// The workspace is kept zero between launches (each partial is zeroed when
// folded, the counter by the last CTA). Arg-reductions merge (value,
// position) pairs by value, then position (the tie rule), NaN first under
// nan = propagate, skipped under ignore (GridLowering::argMerge): exact in
// any combine order.
//
// Applies only where the combines may be regrouped and reordered: a reduce
// with reassociate and a commutative built-in combiner, or an argreduce
// (exact in any order: partials carry positions).
//
//===----------------------------------------------------------------------===//

#include "Passes/Passes.h"

#include "Physical/Clone.h"
#include "Physical/Dispatch.h"

#include "Physical/Coop.h"
#include "Physical/Structured.h"

#include <algorithm>
#include <functional>
#include <map>

using namespace intent;
using namespace intent::phys;

namespace {

/// Most programs (CTAs) one grid reduction uses: about one resident wave of
/// 256-thread CTAs on an H200 (132 SMs x 8).
constexpr int64_t kMaxPrograms = 1024;
/// The same for arg-reductions, whose merges keep more registers live (48
/// per thread for f32 argmax: 5 CTAs per SM, 660 on an H200): more
/// programs than that would run as a second, partly empty wave.
constexpr int64_t kMaxArgPrograms = 660;
/// Member steps per thread before another program is worth it.
constexpr int64_t kStepsPerThread = 4;

bool runsEverywhere(const Op &op) {
  return isPure(op.opcode) || op.opcode == Opcode::Load;
}

/// The widest element (bytes) of the loads a vector load can serve.
int streamedElementBytes(const Op &target) {
  int widest = 0;
  for (const Op *op : streamedLoads(target))
    widest = std::max(
        widest,
        static_cast<int>(kir::Type::scalar(op->result()->type.elem).bitWidth() / 8));
  return widest;
}

/// Why segment `index` cannot take a grid reduction (empty: it can).
std::string segmentRejection(const Program &p, unsigned index, Op *&segOp,
                             Op *&target) {
  const Segment &seg = p.segments[index];
  if (!seg.ordered)
    return "the group is not a single ordered instance";
  segOp = segmentOp(p, seg.group);
  if (!segOp)
    return "no segment op";
  // A print runs once per instance: the instance's code is not spread over
  // threads (nor over programs) when it prints.
  if (containsPrint(*segOp->regions[0]))
    return "the instance prints";
  target = nullptr;
  unsigned reductions = 0;
  for (const auto &op : segOp->regions[0]->block.ops) {
    if (op->opcode == Opcode::Reduce || op->opcode == Opcode::ArgReduce) {
      ++reductions;
      if (!target)
        target = op.get();
      continue;
    }
    if (!target && !runsEverywhere(*op) && !isTerminator(op->opcode))
      return "code with effects runs before the reduction";
    // The rest of the instance runs on one thread of the last CTA: a loop
    // there (a parallel_for over what the reduction fed) would be serial;
    // cta-rows runs such an instance on a cooperative grid instead.
    if (target && target != op.get()) {
      bool loop = op->opcode == Opcode::For || op->opcode == Opcode::Loop;
      for (const auto &r : op->regions)
        walk(*r, [&](const Op &o) {
          loop |= o.opcode == Opcode::For || o.opcode == Opcode::Loop;
        });
      if (loop)
        return "a loop follows the reduction (the rest of the instance runs "
               "on one thread)";
    }
  }
  if (reductions != 1)
    return reductions ? "the instance computes several top-level reductions"
                      : "the instance computes no top-level reduce/argreduce";
  if (target->opcode == Opcode::Reduce) {
    if (!target->boolAttr("reassociate", false))
      return "the reduce may not be reassociated";
    if (!isCommutativeCombiner(target->strAttr("combiner")))
      return "combiner '" + target->strAttr("combiner") +
             "' is not a commutative built-in (partials interleave members)";
    for (const AccComponent &c : target->acc)
      if (!isShuffleKind(c.type.elem))
        return "accumulator type " + typeToString(c.type) +
               " is not exchanged by warp shuffles";
  } else if (!isShuffleKind(target->result(0)->type.elem)) {
    return "arg-reduce value type " + typeToString(target->result(0)->type) +
           " is not exchanged by warp shuffles";
  }
  return "";
}

/// Why the program cannot take a grid reduction (empty: it can, in segment
/// `index`). A program of several groups can when one group is the single
/// instance and every other is a plain parallel group (no reduction in its
/// instance, which cta-rows or region-teams may map): those keep one
/// instance per thread, spread over the threads of their own programs.
std::string rejection(const Program &p, unsigned &index, Op *&segOp,
                      Op *&target) {
  if (p.scope != ExecScope::Thread)
    return "the program is already cooperative";
  if (p.segments.empty())
    return "the kernel does no work";
  for (const Buffer &b : p.buffers)
    if (b.scope == BufferScope::InvocationWorkspace)
      return "the program already uses the invocation workspace (local "
             "buffer " + b.name + ")";
  index = 0;
  if (p.segments.size() > 1) {
    int single = -1;
    for (unsigned s = 0; s < p.segments.size(); ++s) {
      if (p.segments[s].ordered) {
        if (single >= 0)
          return "the program has several single-instance groups";
        single = static_cast<int>(s);
        continue;
      }
      const Op *other = segmentOp(p, p.segments[s].group);
      bool reduces = false;
      if (other)
        walk(*other->regions[0], [&](const Op &o) {
          reduces |= o.opcode == Opcode::Reduce || o.opcode == Opcode::ArgReduce;
        });
      if (!other || reduces)
        return "another group of the program reduces in its instances";
    }
    if (single < 0)
      return "the group is not a single ordered instance";
    index = static_cast<unsigned>(single);
  }
  return segmentRejection(p, index, segOp, target);
}


/// A kernel whose only work is a top-level reduction that may be regrouped
/// but that grid-reduce could not split runs it in one program instance:
/// one GPU thread folds every member. Unless construction already reported
/// the group, that is lost parallelism the user hears about (a
/// -Wintent-serialization warning at the reduction). An `intent::ordered`
/// reduce asked to stay serial and is not reported.
void warnSerialReduce(const Program &p, phys::RemarkSink &sink,
                      const std::string &why) {
  if (p.scope != ExecScope::Thread || p.segments.size() != 1 ||
      !p.segments[0].ordered)
    return;
  for (const phys::Serialization &f : sink.findings())
    if (f.group == 0)
      return;
  const Op *target = nullptr;
  walk(*p.body, [&](const Op &op) {
    if (op.opcode == Opcode::Segment)
      for (const auto &inner : op.regions[0]->block.ops)
        if (!target && (inner->opcode == Opcode::Reduce ||
                        inner->opcode == Opcode::ArgReduce))
          target = inner.get();
  });
  if (!target || (target->opcode == Opcode::Reduce &&
                  !target->boolAttr("reassociate", false)))
    return;
  phys::Serialization f;
  f.loc = target->loc;
  f.group = 0;
  std::string what = target->opcode == Opcode::Reduce ? "reduce" : "arg-reduction";
  std::string reason = why;
  if (why.find("combiner 'user'") != std::string::npos)
    reason = "its combine is a user function, and only built-in commutative "
             "combines are split over the GPU";
  f.cause = "the " + what + " runs in one program instance (one GPU thread "
            "folds every member): " + reason;
  if (why.find("combiner") != std::string::npos)
    f.fix = "use a built-in combine (intent::ops::plus, ops::min, ops::max, "
            "...) on a scalar accumulator, or reduce rows in a parallel_for "
            "and combine the partial results in a second kernel";
  else if (why.find("several top-level") != std::string::npos)
    f.fix = "compute one reduction per kernel, or combine them into one "
            "reduction over a struct accumulator of built-in combines";
  else if (why.find("effects") != std::string::npos)
    f.fix = "move the code with effects after the reduction or into its own "
            "kernel";
  else
    f.fix = "reduce rows in a parallel_for and combine the partial results "
            "in a second kernel";
  sink.lostParallelism(std::move(f));
}

} // namespace

void intent::passes::gridReduce(Program &p, phys::RemarkSink &sink) {
  std::string what, why = applyGridReduce(p, what);
  if (why.empty()) {
    for (const Segment &s : p.segments)
      sink.remark(s.loc,
                  s.spread ? "grid-reduce: this group keeps one instance per "
                             "thread, " + std::to_string(kCtaThreads) +
                                 " of them per CTA (another group of the "
                                 "kernel is a grid reduction)"
                           : what);
    return;
  }
  {
    // Only worth a remark where a reduction was a candidate.
    bool hasReduce = false;
    walk(*p.body, [&](const Op &op) {
      hasReduce |= op.opcode == Opcode::Reduce || op.opcode == Opcode::ArgReduce;
    });
    if (hasReduce && p.segments.size() == 1 && p.segments[0].ordered)
      sink.remark(p.segments[0].loc, "grid-reduce: not applied: " + why);
  }
  warnSerialReduce(p, sink, why);
}

namespace {

/// Vectors of an arg-reduction's stream loaded per iteration before any
/// merge (the vector path): that many 16-byte loads in flight per thread.
constexpr int64_t kArgUnroll = 4;

/// `fn` on op and every op nested in it.
void forEach(Op &op, const std::function<void(Op &)> &fn) {
  fn(op);
  for (auto &r : op.regions)
    walkMutable(*r, fn);
}

/// Builds the cooperative ops of one grid reduction (the layout in the file
/// header) into the segment region of its split instance.
class GridLowering {
public:
  GridLowering(Program &p, Op &target, int64_t vector, int64_t maxPrograms,
               unsigned workspace, std::vector<unsigned> warpBuffers,
               unsigned lastBuffer)
      : p(p), bld(p), t(target), arg(target.opcode == Opcode::ArgReduce),
        vector(vector), maxPrograms(maxPrograms), workspace(workspace),
        warpBuffers(std::move(warpBuffers)), lastBuffer(lastBuffer) {
    bld.loc = t.loc;
    bld.origin.synth = "grid-reduce";
    if (arg) {
      types = {t.result(0)->type, Type::index()};
      identities = {t.acc[0].value, int64_t(-1)};
    } else {
      for (const AccComponent &c : t.acc) {
        types.push_back(c.type);
        identities.push_back(c.value);
      }
    }
  }

  /// Replaces the ops of segment block `seg` (prefix ops, the target, the
  /// suffix, the terminator) with the cooperative form; `count` is the
  /// launch expression of the program count.
  void run(Block &seg, unsigned count);

private:
  using Acc = std::vector<Value *>;

  Program &p;
  Builder bld;
  Op &t;
  const bool arg;
  const int64_t vector, maxPrograms;
  const unsigned workspace;
  const std::vector<unsigned> warpBuffers;
  const unsigned lastBuffer;
  std::vector<Type> types;
  std::vector<AttrValue> identities;
  // Values of the segment region every step uses.
  Value *local = nullptr, *count = nullptr, *begin = nullptr, *n = nullptr;
  Value *tid = nullptr, *ws = nullptr, *last = nullptr;
  std::vector<Value *> warpSlots;

  unsigned components() const { return types.size(); }

  // --- Scalars -------------------------------------------------------------
  Value *constant(AttrValue v, Type ty) {
    Op *op = bld.create(Opcode::Constant, {}, {ty});
    if (kir::Type::scalar(ty.elem).isFloat() && std::holds_alternative<int64_t>(v))
      v = static_cast<double>(std::get<int64_t>(v));
    op->setAttr("value", v);
    return op->result();
  }
  Value *i32(int64_t v) { return constant(v, Type::scalar(ScalarKind::I32)); }
  Value *i64(int64_t v) { return constant(v, Type::index()); }
  Value *boolean(bool v) { return constant(v, Type::boolean()); }
  Value *op1(Opcode opc, Value *a, Type ty) {
    return bld.create(opc, {a}, {ty})->result();
  }
  Value *cast(Value *a, ScalarKind k) {
    return a->type.elem == k ? a : op1(Opcode::Cast, a, Type::scalar(k));
  }
  Value *select(Value *c, Value *a, Value *b) {
    return bld.create(Opcode::Select, {c, a, b}, {a->type})->result();
  }
  Value *both(Value *a, Value *b) { return select(a, b, boolean(false)); }
  Value *either(Value *a, Value *b) { return select(a, boolean(true), b); }
  Value *negate(Value *a) { return op1(Opcode::Not, a, Type::boolean()); }
  Value *isNaN(Value *x) { return bld.cmp("ne", x, x); }
  Acc identity() {
    Acc a;
    for (unsigned c = 0; c < components(); ++c)
      a.push_back(constant(identities[c], types[c]));
    return a;
  }

  // --- Accesses to the pass's own buffers ------------------------------------
  void synthAccess(Op *op) {
    op->access.bounds = Bounds::Assumed;
    op->access.active = ActiveSet::Thread;
  }
  Value *alloc(unsigned buffer) {
    const Buffer &b = p.buffers[buffer];
    Op *op = bld.create(Opcode::Alloc, {}, {Type::buffer(b.elem, b.size)});
    op->setAttr("buffer", static_cast<int64_t>(buffer));
    return op->result();
  }
  Value *load(Value *mem, Value *index) {
    Op *op = bld.create(Opcode::Load, {mem, index},
                        {Type::scalar(mem->type.elem)});
    synthAccess(op);
    return op->result();
  }
  void store(Value *mem, Value *index, Value *v) {
    synthAccess(bld.create(Opcode::Store, {mem, v, index}, {}));
  }
  /// A workspace word's read-modify-write at gpu scope (every access to the
  /// workspace is an atomic: the partials are published and collected
  /// across CTAs).
  Value *atomic(llvm::StringRef kind, llvm::StringRef order, Value *index,
                Value *v) {
    Op *op = bld.create(Opcode::Atomic, {ws, v, index},
                        {Type::scalar(ScalarKind::U64)});
    op->setAttr("kind", kind.str());
    op->setAttr("order", order.str());
    op->setAttr("scope", std::string("gpu"));
    synthAccess(op);
    return op->result();
  }
  /// Workspace word of component c of program `program`'s partial.
  Value *slot(unsigned c, Value *program) {
    return bld.binary(Opcode::Add, i64(1 + c * maxPrograms), program);
  }
  Value *toBits(Value *v) {
    if (scalarBytes(v->type.elem) == 8)
      return v->type.elem == ScalarKind::U64 ? v : op1(Opcode::Bitcast, v,
                                                       Type::scalar(ScalarKind::U64));
    Value *u = v->type.elem == ScalarKind::U32
                   ? v
                   : op1(Opcode::Bitcast, v, Type::scalar(ScalarKind::U32));
    return cast(u, ScalarKind::U64);
  }
  Value *fromBits(Value *bits, Type ty) {
    if (scalarBytes(ty.elem) == 8)
      return ty.elem == ScalarKind::U64 ? bits : op1(Opcode::Bitcast, bits, ty);
    Value *u = cast(bits, ScalarKind::U32);
    return ty.elem == ScalarKind::U32 ? u : op1(Opcode::Bitcast, u, ty);
  }

  // --- Control -------------------------------------------------------------
  /// `if %cond` whose branches build and return the results (of the types
  /// `rt`).
  Acc branch(Value *cond, const std::vector<Type> &rt,
             const std::function<Acc()> &then,
             const std::function<Acc()> &otherwise) {
    Op *op = bld.create(Opcode::If, {cond}, rt);
    Block *outer = bld.block;
    bld.setInsertionBlock(&bld.addRegion(op)->block);
    bld.yield(then());
    bld.setInsertionBlock(&bld.addRegion(op)->block);
    bld.yield(otherwise());
    bld.setInsertionBlock(outer);
    return Acc(op->results.begin(), op->results.end());
  }
  /// The same with an else-branch yielding `otherwise` unchanged.
  Acc ifThen(Value *cond, const Acc &otherwise,
             const std::function<Acc()> &then) {
    std::vector<Type> rt;
    for (Value *v : otherwise)
      rt.push_back(v->type);
    return branch(cond, rt, then, [&] { return otherwise; });
  }
  /// `loop` (test first) over carried values `init`: `cond` tests them,
  /// `body` returns the next ones before `step` turns them into the next
  /// iteration's. Returns the values at exit.
  Acc loop(const Acc &init, const std::function<Value *(const Acc &)> &cond,
           const std::function<Acc(const Acc &)> &body,
           const std::function<Acc(const Acc &)> &step) {
    std::vector<Type> rt;
    for (Value *v : init)
      rt.push_back(v->type);
    Op *op = bld.create(Opcode::Loop, init, rt);
    op->setAttr("test_first", true);
    Block *outer = bld.block;
    auto region = [&](auto &&fill) {
      Block *b = &bld.addRegion(op)->block;
      Acc args;
      for (Type ty : rt)
        args.push_back(bld.addBlockArg(b, ty));
      bld.setInsertionBlock(b);
      fill(args);
    };
    region([&](const Acc &a) { bld.create(Opcode::Condition, {cond(a)}, {}); });
    region([&](const Acc &a) { bld.yield(body(a)); });
    region([&](const Acc &a) { bld.yield(step(a)); });
    bld.setInsertionBlock(outer);
    return Acc(op->results.begin(), op->results.end());
  }

  // --- The reduction's own code ----------------------------------------------
  /// Clones `op` (with its regions) at the insertion point.
  void clone(const Op &op, ValueMap &map) {
    Op *c = cloneOp(bld, op, map);
    // Each thread its own members; the member index no longer has the
    // structured op's range the bounds proof used.
    auto perThread = [](Op &o) {
      if (o.opcode != Opcode::Load && o.opcode != Opcode::Store &&
          !isAtomic(o.opcode))
        return;
      o.access.active = ActiveSet::Thread;
      if (o.access.bounds == Bounds::Proven)
        o.access.bounds = Bounds::Assumed;
    };
    perThread(*c);
    for (auto &r : c->regions)
      walkMutable(*r, perThread);
  }
  /// Inlines region `r` of the target with its arguments bound to `args`;
  /// the loads in `replaced` take the given values instead. Returns what
  /// the region yields.
  Acc inlineRegion(unsigned r, const Acc &args,
                   const std::map<const Op *, Value *> &replaced = {}) {
    const Block &b = t.region(r)->block;
    ValueMap map;
    for (unsigned i = 0; i < args.size(); ++i)
      map[b.args[i]] = args[i];
    for (const auto &op : b.ops) {
      if (op->opcode == Opcode::Yield) {
        Acc out;
        for (Value *v : op->operands)
          out.push_back(lookup(map, v));
        return out;
      }
      auto it = replaced.find(op.get());
      if (it != replaced.end()) {
        map[op->result()] = it->second;
        continue;
      }
      clone(*op, map);
    }
    return {};
  }

  /// acc combined with one member or partial `x` (for an arg-reduction:
  /// value and position). `increasing`: x's position follows every position
  /// acc holds (one thread's own stream), so ties need no position test.
  Acc combine(const Acc &acc, const Acc &x, bool increasing = false) {
    if (!arg) {
      Acc args = acc;
      args.insert(args.end(), x.begin(), x.end());
      return inlineRegion(CombineRegion, args);
    }
    return argMerge(acc[0], acc[1], x[0], x[1], increasing);
  }
  /// The arg-merge: keeps the better of (b, q) and (x, k) under one strict
  /// total order (NaN first under nan = propagate, never under ignore; then
  /// by value; equal values by position, first or last; a negative position
  /// is "no member"), so any merge order keeps the serial loop's pair.
  Acc argMerge(Value *b, Value *q, Value *x, Value *k, bool increasing) {
    const bool fp = kir::Type::scalar(t.result(0)->type.elem).isFloat();
    const bool isMax = t.strAttr("which") == "max";
    const bool tieLast = t.strAttr("tie") == "last";
    const bool ignoreNaN = t.strAttr("nan") == "ignore";
    Value *valid = bld.cmp("ge", k, i64(0));
    if (fp && ignoreNaN)
      valid = both(valid, negate(isNaN(x)));
    Value *better;
    if (increasing) {
      // k comes after q: an equal value wins only under tie = last; a NaN
      // x beats a number and, under last, an earlier NaN.
      better = isMax ? bld.cmp(tieLast ? "le" : "lt", b, x)
                     : bld.cmp(tieLast ? "le" : "lt", x, b);
      if (fp) {
        Value *na = isNaN(b), *nb = isNaN(x);
        better = select(nb, tieLast ? boolean(true) : negate(na),
                        both(negate(na), better));
      }
    } else {
      Value *later = bld.cmp(tieLast ? "gt" : "lt", k, q);
      better = select(bld.cmp("eq", x, b), later,
                      isMax ? bld.cmp("lt", b, x) : bld.cmp("lt", x, b));
      if (fp) {
        Value *na = isNaN(b), *nb = isNaN(x);
        better = select(either(na, nb), both(nb, either(negate(na), later)),
                        better);
      }
    }
    Value *take = both(valid, either(bld.cmp("lt", q, i64(0)), better));
    return {select(take, x, b), select(take, k, q)};
  }

  /// One member k of the thread's stream: the value region at k (the
  /// streamed loads replaced by `vectorValues` when given) merged into acc.
  Acc member(const Acc &acc, Value *k, const std::map<const Op *, Value *> &vectorValues = {}) {
    Acc x = inlineRegion(ValueRegion, {k}, vectorValues);
    if (arg)
      x = {x[0], k};
    return combine(acc, x, /*increasing=*/arg);
  }
  /// Whether the member's value needs its index k once the streamed loads
  /// are served by vector loads (an arg-reduction's position always does).
  bool indexUsed() {
    if (arg)
      return true;
    std::vector<const Op *> streamed = streamedLoads(t);
    const Value *k = t.region(ValueRegion)->block.args[0];
    bool used = false;
    walk(*t.region(ValueRegion), [&](const Op &o) {
      if (std::find(streamed.begin(), streamed.end(), &o) != streamed.end())
        return;
      for (const Value *v : o.operands)
        used |= v == k;
    });
    return used;
  }
  /// k = begin + i (+ j), carrying the origin of the member index.
  Value *memberIndex(Value *i, int64_t j) {
    Value *k = bld.binary(Opcode::Add, begin, i);
    if (j)
      k = bld.binary(Opcode::Add, k, i64(j));
    k->origin = t.region(ValueRegion)->block.args[0]->origin;
    return k;
  }
  /// One vector load per streamed load at member i (k0 = begin + i): the
  /// values that replace each streamed load for members i + 0 .. V-1.
  using Lanes = std::vector<std::map<const Op *, Value *>>;
  Lanes loadVectors(Value *k0) {
    Lanes lanes(vector);
    for (const Op *l : streamedLoads(t)) {
      std::vector<Type> rt(vector, l->result()->type);
      Op *v = bld.create(Opcode::VectorLoad, {l->memory(), k0}, rt);
      v->loc = l->loc;
      v->origin = l->origin;
      v->access = l->access;
      v->access.active = ActiveSet::Thread;
      if (v->access.bounds == Bounds::Proven)
        v->access.bounds = Bounds::Assumed;
      v->setAttr("width", vector);
      for (int64_t j = 0; j < vector; ++j)
        lanes[j][l] = v->result(j);
    }
    return lanes;
  }
  /// The V members i + j of one loaded vector, member j merged into
  /// accs[j] (one lane accumulator each) or all, in order, into accs[0].
  std::vector<Acc> vectorSteps(std::vector<Acc> accs, Value *i, Value *k0,
                               const Lanes &lanes) {
    for (int64_t j = 0; j < vector; ++j) {
      Acc &a = accs.size() > 1 ? accs[j] : accs[0];
      // The vector's members need no index of their own unless the value
      // uses it (then k0 + j).
      a = member(a, j == 0 ? k0 : indexUsed() ? memberIndex(i, j) : k0,
                 lanes[j]);
    }
    return accs;
  }

  /// The CTA's threads combine their accumulators: a warp xor tree, each
  /// warp's partial through shared memory, a barrier, and a second tree
  /// over the warps' partials (every warp runs it: shuffles and barriers
  /// stay in control flow that is uniform over the CTA); thread 0 ends with
  /// the CTA's.
  Acc ctaTree(Acc acc) {
    // for (off = 16; off > 0; off >>= 1) acc = combine(acc, shfl_xor(acc,
    // off)): one loop, as the merge (an arg-merge is a dozen ops) is
    // written once.
    auto warpTree = [&](Acc a) {
      Acc init = {i32(16)};
      init.insert(init.end(), a.begin(), a.end());
      Acc out = loop(
          init, [&](const Acc &c) { return bld.cmp("gt", c[0], i32(0)); },
          [&](const Acc &c) {
            Acc other;
            for (auto it = c.begin() + 1; it != c.end(); ++it) {
              Op *s = bld.create(Opcode::Shuffle, {*it, c[0]}, {(*it)->type});
              s->setAttr("mode", std::string("xor"));
              other.push_back(s->result());
            }
            Acc next = {c[0]};
            Acc m = combine(Acc(c.begin() + 1, c.end()), other);
            next.insert(next.end(), m.begin(), m.end());
            return next;
          },
          [&](const Acc &c) {
            Acc next = c;
            next[0] = bld.binary(Opcode::Shr, c[0], i32(1));
            return next;
          });
      return Acc(out.begin() + 1, out.end());
    };
    acc = warpTree(acc);
    Value *lane = bld.create(Opcode::LaneId, {}, {Type::scalar(ScalarKind::I32)})->result();
    Value *warp = bld.create(Opcode::WarpId, {}, {Type::scalar(ScalarKind::I32)})->result();
    ifThen(bld.cmp("eq", lane, i32(0)), {}, [&]() {
      Value *w = cast(warp, ScalarKind::I64);
      for (unsigned c = 0; c < components(); ++c)
        store(warpSlots[c], w, acc[c]);
      return Acc();
    });
    barrier();
    Value *size = bld.create(Opcode::CtaSize, {}, {Type::scalar(ScalarKind::I32)})->result();
    Value *warps = bld.binary(Opcode::Div, size, i32(32));
    acc = ifThen(bld.cmp("lt", lane, warps), identity(), [&]() {
      Value *l = cast(lane, ScalarKind::I64);
      Acc a;
      for (unsigned c = 0; c < components(); ++c)
        a.push_back(load(warpSlots[c], l));
      return a;
    });
    return warpTree(acc);
  }
  void barrier() {
    bld.create(Opcode::Barrier, {}, {})->setAttr("scope", std::string("cta"));
  }

  Acc threadPartial();
  void publishAndFold(Acc acc, std::vector<std::unique_ptr<Op>> suffix);
};

/// This thread's partial over its members i = (local * T + thread) * V,
/// strided by count * T * V: V-wide vector loads where every streamed view
/// has unit stride and an aligned base (and the launch is not the checked
/// variant), scalar steps otherwise and for the tail. An arg-reduction on
/// the vector path keeps one accumulator per vector lane (independent merge
/// chains) and loads kArgUnroll vectors per iteration before merging any.
GridLowering::Acc GridLowering::threadPartial() {
  const int64_t threads = p.ctaThreads;
  Value *i0 = bld.binary(
      Opcode::Mul,
      bld.binary(Opcode::Add, bld.binary(Opcode::Mul, local, i64(threads)),
                 tid),
      i64(vector));
  Value *stride = bld.binary(Opcode::Mul, count, i64(threads * vector));
  std::vector<const Op *> streamed = streamedLoads(t);
  const bool vectorPath = vector > 1 && !streamed.empty();
  Value *vec = nullptr;
  if (vectorPath) {
    vec = negate(bld.create(Opcode::CheckedLaunch, {}, {Type::boolean()})->result());
    for (const Op *l : streamed) {
      Op *a = bld.create(Opcode::Aligned, {l->memory(), begin}, {Type::boolean()});
      a->setAttr("bytes", elemBytes(l->result()->type.elem) * vector);
      vec = both(vec, a->result());
    }
  }
  const bool lanes = arg && vectorPath;
  const unsigned nc = components();
  Acc acc = identity();
  // Carried: i, acc, then (lanes) lane j's components at 1 + nc + j * nc.
  Acc carried = {i0};
  carried.insert(carried.end(), acc.begin(), acc.end());
  for (int64_t j = 0; lanes && j < vector; ++j) {
    Acc id = identity();
    carried.insert(carried.end(), id.begin(), id.end());
  }
  auto accOf = [&](const Acc &c, int64_t lane) {
    auto at = c.begin() + 1 + nc * (lane + 1);
    return Acc(at, at + nc);
  };
  auto laneAccs = [&](const Acc &c) {
    std::vector<Acc> out;
    for (int64_t j = 0; j < vector; ++j)
      out.push_back(accOf(c, j));
    return out;
  };
  auto withLanes = [&](Value *i, const Acc &a, const std::vector<Acc> &l) {
    Acc c = {i};
    c.insert(c.end(), a.begin(), a.end());
    for (const Acc &x : l)
      c.insert(c.end(), x.begin(), x.end());
    return c;
  };
  auto plainAcc = [&](const Acc &c) { return Acc(c.begin() + 1, c.begin() + 1 + nc); };
  if (lanes) {
    // Whole groups of kArgUnroll vectors, S = count * T * V apart.
    Value *reach = bld.binary(
        Opcode::Add, bld.binary(Opcode::Mul, stride, i64(kArgUnroll - 1)),
        i64(vector));
    Value *jump = bld.binary(Opcode::Mul, stride, i64(kArgUnroll));
    carried = ifThen(vec, carried, [&]() {
      return loop(
          carried,
          [&](const Acc &c) {
            return bld.cmp("le", bld.binary(Opcode::Add, c[0], reach), n);
          },
          [&](const Acc &c) {
            std::vector<Value *> at = {c[0]};
            for (int64_t u = 1; u < kArgUnroll; ++u)
              at.push_back(bld.binary(Opcode::Add, c[0],
                                      bld.binary(Opcode::Mul, stride, i64(u))));
            // Every vector's loads first, then the merges.
            std::vector<Value *> k0s;
            std::vector<Lanes> loaded;
            for (Value *i : at) {
              k0s.push_back(memberIndex(i, 0));
              loaded.push_back(loadVectors(k0s.back()));
            }
            std::vector<Acc> l = laneAccs(c);
            for (int64_t u = 0; u < kArgUnroll; ++u)
              l = vectorSteps(std::move(l), at[u], k0s[u], loaded[u]);
            return withLanes(c[0], plainAcc(c), l);
          },
          [&](const Acc &c) {
            Acc next = c;
            next[0] = bld.binary(Opcode::Add, c[0], jump);
            return next;
          });
    });
  }
  carried = loop(
      carried, [&](const Acc &c) { return bld.cmp("lt", c[0], n); },
      [&](const Acc &c) {
        Value *i = c[0];
        auto scalarSteps = [&]() {
          // for (j = 0; j < min(V, n - i); ++j) acc = merge(acc, member i + j)
          Value *lim = bld.binary(Opcode::Min, bld.binary(Opcode::Sub, n, i),
                                  i64(vector));
          Acc inner = {i64(0)};
          Acc a = plainAcc(c);
          inner.insert(inner.end(), a.begin(), a.end());
          inner = loop(
              inner, [&](const Acc &x) { return bld.cmp("lt", x[0], lim); },
              [&](const Acc &x) {
                Value *k = memberIndex(bld.binary(Opcode::Add, i, x[0]), 0);
                Acc out = {x[0]};
                Acc m = member(Acc(x.begin() + 1, x.end()), k);
                out.insert(out.end(), m.begin(), m.end());
                return out;
              },
              [&](const Acc &x) {
                Acc next = x;
                next[0] = bld.binary(Opcode::Add, x[0], i64(1));
                return next;
              });
          return Acc(inner.begin() + 1, inner.end());
        };
        if (!vectorPath) {
          Acc out = {i};
          Acc a = scalarSteps();
          out.insert(out.end(), a.begin(), a.end());
          return out;
        }
        Value *full = both(vec, bld.cmp("le", bld.binary(Opcode::Add, i, i64(vector)), n));
        std::vector<Type> rt;
        for (auto it = c.begin() + 1; it != c.end(); ++it)
          rt.push_back((*it)->type);
        Acc rest = branch(
            full, rt,
            [&]() {
              Value *k0 = memberIndex(i, 0);
              Lanes l = loadVectors(k0);
              if (lanes) {
                std::vector<Acc> a = vectorSteps(laneAccs(c), i, k0, l);
                Acc r = withLanes(i, plainAcc(c), a);
                return Acc(r.begin() + 1, r.end());
              }
              Acc a = vectorSteps({plainAcc(c)}, i, k0, l)[0];
              return a;
            },
            [&]() {
              Acc a = scalarSteps();
              Acc r = a;
              for (int64_t j = 0; lanes && j < vector; ++j) {
                Acc x = accOf(c, j);
                r.insert(r.end(), x.begin(), x.end());
              }
              return r;
            });
        Acc out = {i};
        out.insert(out.end(), rest.begin(), rest.end());
        return out;
      },
      [&](const Acc &c) {
        Acc next = c;
        next[0] = bld.binary(Opcode::Add, c[0], stride);
        return next;
      });
  acc = plainAcc(carried);
  for (int64_t j = 0; lanes && j < vector; ++j)
    acc = combine(acc, accOf(carried, j));
  return acc;
}

} // namespace

namespace {

/// Thread 0 publishes the CTA's partial (its bits in workspace words
/// 1 + c * M + local) and takes a ticket (acq_rel on word 0); the last
/// arrival's flag goes through shared memory. That CTA folds every partial
/// (each thread t the partials t, t + T, ..., zeroing them), combines its
/// threads, and thread 0 combines with init, zeroes the counter and runs
/// the rest of the instance (`suffix`, the target's results replaced).
void GridLowering::publishAndFold(Acc acc,
                                  std::vector<std::unique_ptr<Op>> suffix) {
  Value *zero = constant(int64_t(0), Type::scalar(ScalarKind::U64));
  ifThen(bld.cmp("eq", tid, i64(0)), {}, [&]() {
    for (unsigned c = 0; c < components(); ++c)
      atomic("exch", "relaxed", slot(c, local), toBits(acc[c]));
    Value *ticket = atomic("add", "acq_rel", i64(0),
                           constant(int64_t(1), Type::scalar(ScalarKind::U64)));
    Value *arrived = bld.binary(
        Opcode::Add, ticket, constant(int64_t(1), Type::scalar(ScalarKind::U64)));
    Value *isLast = bld.cmp("eq", arrived, cast(count, ScalarKind::U64));
    store(last, i64(0), select(isLast, i32(1), i32(0)));
    return Acc();
  });
  barrier();
  Value *flag = load(last, i64(0));
  ifThen(bld.cmp("ne", flag, i32(0)), {}, [&]() {
    Value *size = cast(
        bld.create(Opcode::CtaSize, {}, {Type::scalar(ScalarKind::I32)})->result(),
        ScalarKind::I64);
    Acc init = {tid};
    Acc id = identity();
    init.insert(init.end(), id.begin(), id.end());
    Acc folded = loop(
        init, [&](const Acc &c) { return bld.cmp("lt", c[0], count); },
        [&](const Acc &c) {
          Acc other;
          for (unsigned k = 0; k < components(); ++k)
            other.push_back(
                fromBits(atomic("exch", "relaxed", slot(k, c[0]), zero), types[k]));
          Acc out = {c[0]};
          Acc m = combine(Acc(c.begin() + 1, c.end()), other);
          out.insert(out.end(), m.begin(), m.end());
          return out;
        },
        [&](const Acc &c) {
          Acc next = c;
          next[0] = bld.binary(Opcode::Add, c[0], size);
          return next;
        });
    Acc all = ctaTree(Acc(folded.begin() + 1, folded.end()));
    ifThen(bld.cmp("eq", tid, i64(0)), {}, [&]() {
      atomic("exch", "relaxed", i64(0), zero);
      Acc results = all;
      if (!arg) {
        // result = combine(init, all members).
        Acc args(accInits(t).begin(), accInits(t).end());
        args.insert(args.end(), all.begin(), all.end());
        results = inlineRegion(CombineRegion, args);
      }
      std::map<const Value *, Value *> replace;
      for (unsigned c = 0; c < t.results.size(); ++c)
        replace[t.result(c)] = results[c];
      for (auto &op : suffix) {
        forEach(*op, [&](Op &o) {
          for (Value *&v : o.operands) {
            auto it = replace.find(v);
            if (it != replace.end())
              v = it->second;
          }
          if (o.opcode == Opcode::Load || o.opcode == Opcode::Store ||
              isAtomic(o.opcode))
            o.access.active = ActiveSet::Thread;
        });
        op->parent = bld.block;
        bld.block->ops.push_back(std::move(op));
      }
      return Acc();
    });
    return Acc();
  });
  // Shared memory is reused by the CTA's next program.
  barrier();
}

void GridLowering::run(Block &seg, unsigned countExpr) {
  std::vector<std::unique_ptr<Op>> old = std::move(seg.ops);
  seg.ops.clear();
  std::unique_ptr<Op> terminator = std::move(old.back());
  old.pop_back();
  std::vector<std::unique_ptr<Op>> suffix;
  std::unique_ptr<Op> target;
  for (auto &op : old) {
    if (op.get() == &t) {
      target = std::move(op);
      continue;
    }
    if (target) {
      suffix.push_back(std::move(op));
      continue;
    }
    // Before the reduction: every thread of every program, the same loads.
    forEach(*op, [](Op &o) {
      if (o.opcode == Opcode::Load)
        o.access.active = ActiveSet::All;
    });
    seg.ops.push_back(std::move(op));
  }
  bld.setInsertionBlock(&seg);
  local = seg.args[0];
  ws = alloc(workspace);
  for (unsigned b : warpBuffers)
    warpSlots.push_back(alloc(b));
  last = alloc(lastBuffer);
  count = bld.launchValue(countExpr);
  tid = cast(bld.create(Opcode::ThreadId, {}, {Type::scalar(ScalarKind::I32)})->result(),
             ScalarKind::I64);
  Value *b = memberBegin(t), *e = memberEnd(t);
  begin = b;
  n = bld.binary(Opcode::Max, bld.binary(Opcode::Sub, e, b), i64(0));
  Acc acc = threadPartial();
  acc = ctaTree(acc);
  publishAndFold(acc, std::move(suffix));
  seg.ops.push_back(std::move(terminator));
}

} // namespace

std::string intent::passes::applyGridReduce(Program &p, std::string &what,
                                            bool gate) {
  Op *segOp = nullptr, *target = nullptr;
  unsigned index = 0;
  std::string why = rejection(p, index, segOp, target);
  if (!why.empty() && (gate || !segOp || !target))
    return why;
  using K = LaunchExpr::Kind;
  int elemBytes = streamedElementBytes(*target);
  int64_t vector = elemBytes == 0 ? 1 : std::min<int64_t>(4, 16 / elemBytes);
  int64_t perProgram = kCtaThreads * vector * kStepsPerThread;

  // P = min(max((n + C - 1) / C, 1), M) with n = max(end - begin, 0); a
  // member range the host cannot compute uses M programs.
  std::optional<unsigned> b = launchExprOf(p, memberBegin(*target));
  std::optional<unsigned> e = launchExprOf(p, memberEnd(*target));
  const int64_t maxPrograms = target->opcode == Opcode::ArgReduce
                                  ? kMaxArgPrograms
                                  : kMaxPrograms;
  unsigned cap = p.constExpr(maxPrograms);
  unsigned wanted = cap;
  if (b && e) {
    unsigned n = p.binaryExpr(K::Max, p.binaryExpr(K::Sub, *e, *b),
                              p.constExpr(0));
    unsigned c = p.constExpr(perProgram);
    unsigned up = p.binaryExpr(
        K::Div, p.binaryExpr(K::Add, n, p.constExpr(perProgram - 1)), c);
    wanted = p.binaryExpr(K::Max, up, p.constExpr(1));
  }
  unsigned count = p.binaryExpr(K::Min, wanted, cap);
  // The other groups keep one instance per thread, T per program.
  for (unsigned s = 0; s < p.segments.size(); ++s)
    if (s != index)
      spreadSegment(p, s, kCtaThreads);
  // The ordered segment's one instance now takes `count` programs.
  resizeSegment(p, index, count);

  const unsigned group = p.segments[index].group;
  auto record = [&](const std::string &name, BufferScope scope,
                    ScalarKind elem, int64_t size) -> Buffer & {
    Buffer buf;
    buf.id = p.buffers.size();
    buf.name = name;
    buf.scope = scope;
    buf.elem = elem;
    buf.rank = 1;
    buf.size = size;
    buf.writerGroups = {group};
    buf.readerGroups = {group};
    buf.origin = target->origin;
    p.buffers.push_back(buf);
    return p.buffers.back();
  };
  const unsigned components = gridComponents(*target);
  const unsigned wsId = p.buffers.size();
  {
    // Word 0 the arrival counter, word 1 + c * M + q component c of
    // program q's partial; every access an atomic, and the kernel leaves it
    // zero.
    Buffer &ws = record("grid_partials", BufferScope::InvocationWorkspace,
                        ScalarKind::U64,
                        1 + static_cast<int64_t>(components) * maxPrograms);
    ws.workspaceOffset = 0;
    ws.keptZero = true;
    ws.init = InitMode::Value;
    ws.initValue = 0;
    ws.ownership = Ownership::Atomic;
    ws.sharing = Sharing::Launch;
    ws.readerGroups.clear(); // an atomic counts as a write
  }
  std::vector<unsigned> warpBuffers;
  for (unsigned c = 0; c < components; ++c) {
    ScalarKind k = target->opcode == Opcode::ArgReduce
                       ? (c ? ScalarKind::I64 : target->result(0)->type.elem)
                       : target->acc[c].type.elem;
    warpBuffers.push_back(p.buffers.size());
    Buffer &w = record("grid_warp" + std::to_string(c), BufferScope::CTAShared,
                       k, kCtaThreads / 32);
    w.init = InitMode::FirstWrite;
    w.ownership = Ownership::Private;
  }
  const unsigned lastId = p.buffers.size();
  {
    Buffer &l = record("grid_last", BufferScope::CTAShared, ScalarKind::I32, 1);
    l.init = InitMode::FirstWrite;
    l.ownership = Ownership::Private;
  }
  p.scope = ExecScope::CTA;
  p.ctaThreads = kCtaThreads;
  layoutSharedBuffers(p);

  const std::string kind = opcodeName(target->opcode).str();
  GridLowering(p, *target, vector, maxPrograms, wsId, warpBuffers, lastId)
      .run(segOp->regions[0]->block, count);

  what = "grid-reduce: the " + kind +
         " runs in one launch over " + p.exprToString(count) + " CTAs of " +
         std::to_string(kCtaThreads) + " threads (" + std::to_string(vector) +
         " members per thread and step, vector loads where aligned); "
         "partials in the invocation workspace, the last CTA folds them and "
         "runs the rest of the instance";
  return "";
}
