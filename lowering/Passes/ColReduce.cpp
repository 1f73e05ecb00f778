//===- ColReduce.cpp - Reductions along an outer axis ---------------------===//
//
// Before: a parallel segment whose instance (column j, the last instance
// coordinate) reduces over an outer axis of its views: column sums
// `out[j] = reduce(a.extent(0), ..., a(i, j))`, A^T x, a sum over axis 1 of
// a rank-3 tensor. One thread per column reads down its column: coalesced
// across a warp, but a few thousand columns leave the GPU idle, and
// cta-rows (which it declines) would give a column a CTA whose threads read
// 32 rows per warp load.
//
// After (docs/passes.md §8): a team segment (Physical/Dispatch.h
// teamSegment) of a cta program of T = 256 threads: each program serves
// W = 32 consecutive instances (a warp reads 128 contiguous bytes of a
// row), 8 threads (one per warp) per instance, and P programs (a launch
// value, from the instance and member counts) per group of 32 instances;
// the members of every reduction are split in 8 P contiguous chunks, one
// per worker, so chunks and partials combine in member order (exact for
// user combines, which are only associative):
//
//   <ops before the first reduction>     (every thread, its own instance;
//                                          inactive threads repeat the last)
//   per reduction: acc = fold of members [lb + w c, min(ub, lb + (w+1) c))
//     (c = ceil(n / 8P), w the worker), then the 8 workers of the program
//     combine in order through a cta_shared buffer of 256 per component
//     (barrier, warp 0 folds, barrier)
//   if (P > 1) {                         (uniform: a launch value)
//     warp 0 publishes its partials to the invocation workspace (atomic
//     exch), barrier, thread 0 takes a ticket for the group (acq_rel),
//     the last arrival's flag through shared memory, barrier;
//     the last program of the group folds the P partials (worker h the
//     contiguous run of parts h c', zeroing them) and combines its workers
//     again; thread 0 zeroes the ticket }
//   if (active && warp 0 && (P == 1 || last)) {
//     results = combine(init, acc); <the ops after the first reduction> }
//
// Applies to a thread-style segment (a thread program's, or one cta-rows
// spread) whose top-level ops are the instance decode, pure code, loads,
// reductions and stores; at least one reduction reads a view with the
// member index in an outer coordinate and the last instance coordinate in
// the last (Coop.h walksOuterAxis); the reductions do not use each other's
// results nor anything computed after the first one; no view is both
// loaded and stored by the segment; accumulators of 4 or 8 bytes.
//
//===----------------------------------------------------------------------===//

#include "Passes/Passes.h"

#include "Physical/Clone.h"
#include "Physical/Coop.h"
#include "Physical/CoopBuild.h"
#include "Physical/Dispatch.h"
#include "Physical/Structured.h"

#include <algorithm>
#include <functional>
#include <set>

using namespace intent;
using namespace intent::phys;
using intent::passes::kCtaThreads;

namespace {

/// Instances per program (a warp's 32 lanes read 32 consecutive elements).
constexpr int kWidth = 32;
/// Programs a launch aims for (a resident wave of 256-thread CTAs).
constexpr int64_t kTargetPrograms = 1024;
/// Most programs per group of instances.
constexpr int64_t kMaxParts = 64;
/// Members per worker before another part is worth it.
constexpr int64_t kMembersPerWorker = 32;

using Values = CoopBuilder::Values;

std::string rejection(const Program &p, const Segment &seg, Op *&segOp) {
  if (seg.ordered)
    return "the group is a single instance";
  if (!(p.scope == ExecScope::Thread ||
        (seg.spread && !seg.team && seg.spread == p.ctaThreads &&
         p.ctaThreads == kCtaThreads)))
    return "the group is not one instance per thread";
  segOp = segmentOp(p, seg.group);
  if (!segOp)
    return "no segment op";
  if (containsPrint(*segOp->regions[0]))
    return "the instance prints";
  Block &body = segOp->regions[0]->block;
  std::vector<const Value *> coords = rowCoordinates(body);
  if (coords.empty())
    return "the instance has no coordinates";
  bool outer = false;
  std::set<const Value *> after = reductionDependents(body); // on a reduction's result
  for (const auto &op : body.ops) {
    switch (op->opcode) {
    case Opcode::Reduce:
    case Opcode::ArgReduce: {
      if (op->opcode == Opcode::Reduce && !op->boolAttr("reassociate", false))
        return "a reduce may not be reassociated";
      if (op->opcode == Opcode::ArgReduce) {
        ScalarKind k = op->result(0)->type.elem;
        if (elemBytes(k) != 4 && elemBytes(k) != 8)
          return "arg-reduce value type " + typeToString(op->result(0)->type) +
                 " is not 4 or 8 bytes";
      }
      for (const AccComponent &c : op->acc)
        if (op->opcode == Opcode::Reduce && elemBytes(c.type.elem) != 4 &&
            elemBytes(c.type.elem) != 8)
          return "accumulator type " + typeToString(c.type) +
                 " is not 4 or 8 bytes";
      // Independent of the other reductions' results.
      bool uses = false;
      std::function<void(const Op &)> visit = [&](const Op &o) {
        for (const Value *v : o.operands)
          uses = uses || after.count(v);
        for (const auto &r : o.regions)
          for (const auto &inner : r->block.ops)
            visit(*inner);
      };
      visit(*op);
      if (uses)
        return "a reduction uses another's result";
      outer = outer || walksOuterAxis(*op, coords);
      break;
    }
    case Opcode::Load:
    case Opcode::Store:
    case Opcode::Delinearize:
    case Opcode::Yield:
      break;
    default:
      if (!isPure(op->opcode))
        return "the instance has top-level " + opcodeName(op->opcode).str() +
               " (only pure code, loads, stores and reductions)";
    }
  }
  if (!outer)
    return "no reduction walks an outer axis";
  std::set<const Value *> loaded, stored;
  walk(*segOp->regions[0], [&](const Op &op) {
    if (op.opcode == Opcode::Load)
      loaded.insert(op.memory());
    if (op.opcode == Opcode::Store || isAtomic(op.opcode))
      stored.insert(op.memory());
  });
  for (const Value *v : stored)
    if (loaded.count(v))
      return "the instance reads a view it writes";
  return "";
}

/// The rewrite of one segment's region (file header).
class ColLowering {
public:
  ColLowering(Program &p, Op &segOp, unsigned workspace, unsigned partsExpr,
              int64_t ticketWords, int64_t slotWords)
      : p(p), seg(segOp), cb(p, "col-reduce", segOp.loc), workspace(workspace),
        partsExpr(partsExpr), ticketWords(ticketWords), slotWords(slotWords) {}

  void run();

private:
  Program &p;
  Op &seg;
  CoopBuilder cb;
  const unsigned workspace, partsExpr;
  const int64_t ticketWords, slotWords;
  ValueMap map;
  FoldInliner fi{cb, map};
  Value *tid = nullptr, *lane = nullptr, *h = nullptr, *worker = nullptr;
  Value *parts = nullptr, *local = nullptr, *ws = nullptr;

  /// A reduction's plan: its op and component types, the partial buffers.
  struct Red {
    const Op *op;
    bool arg = false; ///< an argreduce: (value, position) components
    std::vector<Type> types;
    std::vector<unsigned> partIds;
    Values partBufs;
    Values acc;
  };
  std::vector<Red> reds;

  Value *i64v(int64_t v) { return cb.i64(v); }
  Value *div(Value *a, Value *b) { return cb.b.binary(Opcode::Div, a, b); }
  Value *rem(Value *a, Value *b) { return cb.b.binary(Opcode::Rem, a, b); }
  Value *sub(Value *a, Value *b) { return cb.b.binary(Opcode::Sub, a, b); }
  Value *min(Value *a, Value *b) { return cb.b.binary(Opcode::Min, a, b); }
  Value *max(Value *a, Value *b) { return cb.b.binary(Opcode::Max, a, b); }

  Value *atomic(llvm::StringRef kind, llvm::StringRef order, Value *index,
                Value *v) {
    Op *op = cb.b.create(Opcode::Atomic, {ws, v, index},
                         {Type::scalar(ScalarKind::U64)});
    op->setAttr("kind", kind.str());
    op->setAttr("order", order.str());
    op->setAttr("scope", std::string("gpu"));
    op->access.active = ActiveSet::Thread;
    op->access.bounds = Bounds::Assumed;
    return op->result();
  }

  /// The fold of this worker's chunk of `r`'s members.
  Values foldChunk(const Red &r);
  /// The program's 8 workers of each instance combined in worker order:
  /// every reduction's acc on warp 0.
  void combineWorkers();
  /// Workspace word of component slot `c` of part `q`'s partial of lane l.
  Value *slot(unsigned c, Value *q) {
    return cb.add(i64v(ticketWords + static_cast<int64_t>(c) * slotWords),
                  cb.add(cb.mul(q, i64v(kWidth)), lane));
  }
};

Values ColLowering::foldChunk(const Red &r) {
  const Op &t = *r.op;
  Value *begin = lookup(map, memberBegin(t)), *end = lookup(map, memberEnd(t));
  Value *n = max(sub(end, begin), i64v(0));
  Value *workers = cb.mul(parts, i64v(kCtaThreads / kWidth));
  Value *chunk = div(sub(cb.add(n, workers), i64v(1)), workers);
  Value *from = cb.add(begin, cb.mul(worker, chunk));
  Value *to = min(end, cb.add(from, chunk));
  const Value *kArg = t.region(ValueRegion)->block.args[0];
  Values init = {from};
  Values id = fi.identity(*r.op, r.types);
  init.insert(init.end(), id.begin(), id.end());
  Values out = cb.loop(
      init, [&](const Values &c) { return cb.cmp("lt", c[0], to); },
      [&](const Values &c) {
        c[0]->origin = kArg->origin;
        c[0]->name = kArg->name;
        Values x = fi.inlineRegion(t, ValueRegion, {c[0]});
        if (r.arg)
          x = {x[0], c[0]};
        Values a = fi.combine(*r.op, Values(c.begin() + 1, c.end()), x,
                           /*increasing=*/r.arg);
        Values next = {c[0]};
        next.insert(next.end(), a.begin(), a.end());
        return next;
      },
      [&](const Values &c) {
        Values next = c;
        next[0] = cb.add(c[0], i64v(1));
        return next;
      },
      /*unroll=*/8);
  Op *loop = out[0]->def;
  loop->loc = t.loc;
  return Values(out.begin() + 1, out.end());
}

void ColLowering::combineWorkers() {
  for (Red &r : reds)
    for (unsigned c = 0; c < r.types.size(); ++c)
      cb.store(r.partBufs[c], tid, r.acc[c]);
  cb.barrier();
  Value *warp0 = cb.cmp("eq", h, i64v(0));
  for (Red &r : reds) {
    std::vector<Type> ty = r.types;
    r.acc = cb.ifThen(warp0, r.acc, [&] {
      Values acc = r.acc;
      for (int64_t k = 1; k < kCtaThreads / kWidth; ++k) {
        Values other;
        for (unsigned c = 0; c < ty.size(); ++c)
          other.push_back(
              cb.load(r.partBufs[c], cb.add(i64v(k * kWidth), lane)));
        acc = fi.combine(*r.op, acc, other);
      }
      return acc;
    });
  }
  // The buffers are written again by the next combine.
  cb.barrier();
}

void ColLowering::run() {
  Block &blk = seg.regions[0]->block;
  Value *workerArg = blk.args[1], *active = blk.args[2];
  Block old;
  old.ops = std::move(blk.ops);
  blk.ops.clear();
  cb.b.setInsertionBlock(&blk);
  std::unique_ptr<Op> terminator = std::move(old.ops.back());
  old.ops.pop_back();

  tid = cb.cast(cb.threadId(), ScalarKind::I64);
  lane = rem(tid, i64v(kWidth));
  h = div(tid, i64v(kWidth));
  worker = workerArg;
  parts = cb.b.launchValue(partsExpr);
  // The program's index within the segment: (group, part) = (local / P,
  // local % P).
  local = sub(seg.operands[0], seg.operands[1]);
  ws = cb.alloc(workspace);

  // Plan the reductions and their shared partial buffers.
  for (const auto &op : old.ops)
    if (op->opcode == Opcode::Reduce || op->opcode == Opcode::ArgReduce) {
      Red r;
      r.op = op.get();
      r.arg = op->opcode == Opcode::ArgReduce;
      if (r.arg)
        r.types = {op->result(0)->type, Type::index()};
      else
        for (const AccComponent &c : op->acc)
          r.types.push_back(c.type);
      for (unsigned c = 0; c < r.types.size(); ++c) {
        Buffer b;
        b.id = p.buffers.size();
        b.name = "cols_part" + std::to_string(reds.size()) + "_" +
                 std::to_string(c) + "_g" +
                 std::to_string(seg.intAttr("group"));
        b.scope = BufferScope::CTAShared;
        b.elem = r.types[c].elem;
        b.size = kCtaThreads;
        b.init = InitMode::FirstWrite;
        b.ownership = Ownership::Private;
        b.writerGroups = b.readerGroups = {
            static_cast<unsigned>(seg.intAttr("group"))};
        b.origin = seg.origin;
        p.buffers.push_back(b);
        r.partIds.push_back(b.id);
      }
      reds.push_back(r);
    }
  {
    Buffer b;
    b.id = p.buffers.size();
    b.name = "cols_last_g" + std::to_string(seg.intAttr("group"));
    b.scope = BufferScope::CTAShared;
    b.elem = ScalarKind::I32;
    b.size = 1;
    b.init = InitMode::FirstWrite;
    b.ownership = Ownership::Private;
    b.writerGroups = b.readerGroups = {
        static_cast<unsigned>(seg.intAttr("group"))};
    b.origin = seg.origin;
    p.buffers.push_back(b);
  }
  const unsigned lastId = p.buffers.size() - 1;
  layoutSharedBuffers(p);
  for (Red &r : reds)
    for (unsigned id : r.partIds)
      r.partBufs.push_back(cb.alloc(id));
  Value *lastBuf = cb.alloc(lastId);

  // Code independent of the reductions' results (pure code and loads of
  // views the group does not store): every thread, first; the reductions
  // folded now; stores and what depends on a result after the combine.
  std::set<const Value *> dependent = reductionDependents(old);
  std::vector<const Op *> epilogue;
  for (const auto &op : old.ops) {
    if (op->opcode == Opcode::Reduce || op->opcode == Opcode::ArgReduce)
      continue;
    bool later = op->opcode == Opcode::Store;
    for (const Value *r : op->results)
      later = later || dependent.count(r);
    if (later)
      epilogue.push_back(op.get());
    else
      fi.copy(*op);
  }
  for (Red &r : reds)
    r.acc = foldChunk(r);
  combineWorkers();

  // Across the group's programs.
  std::vector<Type> accTypes = {Type::boolean()};
  Values accs = {cb.boolean(true)};
  for (const Red &r : reds) {
    accTypes.insert(accTypes.end(), r.types.begin(), r.types.end());
    accs.insert(accs.end(), r.acc.begin(), r.acc.end());
  }
  Value *split = cb.cmp("gt", parts, i64v(1));
  Values finalVals = cb.branch(
      split, accTypes,
      [&] {
        Value *warp0 = cb.cmp("eq", h, i64v(0));
        cb.when(warp0, [&] {
          unsigned c = 0;
          for (const Red &r : reds)
            for (Value *v : r.acc)
              atomic("exch", "relaxed", slot(c++, local), cb.toBits(v));
        });
        cb.barrier();
        Value *group = div(local, parts);
        cb.when(cb.cmp("eq", tid, i64v(0)), [&] {
          Value *one = cb.constant(int64_t(1), Type::scalar(ScalarKind::U64));
          Value *ticket = atomic("add", "acq_rel", group, one);
          Value *arrived = cb.add(ticket, one);
          Value *isLast = cb.cmp("eq", arrived, cb.cast(parts, ScalarKind::U64));
          cb.store(lastBuf, i64v(0), cb.select(isLast, cb.i32(1), cb.i32(0)));
        });
        cb.barrier();
        Value *flag = cb.cmp("ne", cb.load(lastBuf, i64v(0)), cb.i32(0));
        Values folded = cb.branch(
            flag, std::vector<Type>(accTypes.begin() + 1, accTypes.end()),
            [&] {
              // Worker h folds parts [h c', min(P, (h + 1) c')) in order.
              Value *helpers = i64v(kCtaThreads / kWidth);
              Value *per = div(sub(cb.add(parts, helpers), i64v(1)), helpers);
              Value *from = cb.mul(h, per);
              Value *to = min(parts, cb.add(from, per));
              Value *base = cb.mul(group, parts);
              Value *zero = cb.constant(int64_t(0), Type::scalar(ScalarKind::U64));
              Values init = {from};
              for (Red &r : reds) {
                Values id = fi.identity(*r.op, r.types);
                init.insert(init.end(), id.begin(), id.end());
              }
              Values out = cb.loop(
                  init, [&](const Values &c) { return cb.cmp("lt", c[0], to); },
                  [&](const Values &c) {
                    Values next = {c[0]};
                    unsigned at = 1, comp = 0;
                    for (Red &r : reds) {
                      Values part;
                      for (unsigned k = 0; k < r.types.size(); ++k)
                        part.push_back(cb.fromBits(
                            atomic("exch", "relaxed",
                                   slot(comp++, cb.add(base, c[0])), zero),
                            r.types[k]));
                      Values acc(c.begin() + at, c.begin() + at + r.types.size());
                      Values a = fi.combine(*r.op, acc, part);
                      next.insert(next.end(), a.begin(), a.end());
                      at += r.types.size();
                    }
                    return next;
                  },
                  [&](const Values &c) {
                    Values next = c;
                    next[0] = cb.add(c[0], i64v(1));
                    return next;
                  });
              unsigned at = 1;
              for (Red &r : reds) {
                r.acc = Values(out.begin() + at, out.begin() + at + r.types.size());
                at += r.types.size();
              }
              combineWorkers();
              cb.when(cb.cmp("eq", tid, i64v(0)), [&] {
                atomic("exch", "relaxed", group,
                       cb.constant(int64_t(0), Type::scalar(ScalarKind::U64)));
              });
              Values all;
              for (const Red &r : reds)
                all.insert(all.end(), r.acc.begin(), r.acc.end());
              return all;
            },
            [&] { return Values(accs.begin() + 1, accs.end()); });
        Values res = {flag};
        res.insert(res.end(), folded.begin(), folded.end());
        return res;
      },
      [&] { return accs; });

  // The instance's rest: its active thread of warp 0 in the last program.
  Value *run = cb.both(active, cb.both(cb.cmp("eq", h, i64v(0)), finalVals[0]));
  cb.when(run, [&] {
    unsigned at = 1;
    for (Red &r : reds) {
      Values acc(finalVals.begin() + at, finalVals.begin() + at + r.types.size());
      at += r.types.size();
      Values res = acc; // an arg-reduction's pair is its result
      if (!r.arg) {
        Values inits;
        for (const Value *v : accInits(*r.op))
          inits.push_back(lookup(map, const_cast<Value *>(v)));
        res = fi.combine(*r.op, inits, acc);
      }
      for (unsigned c = 0; c < r.op->results.size(); ++c)
        map[r.op->result(c)] = res[c];
    }
    for (const Op *op : epilogue)
      fi.copy(*op);
  });
  blk.ops.push_back(std::move(terminator));
}

} // namespace

std::string intent::passes::applyColReduceSegment(Program &p, unsigned index,
                                                  std::string &what) {
  Op *segOp = nullptr;
  Segment &seg = p.segments[index];
  std::string why = rejection(p, seg, segOp);
  if (!why.empty())
    return why;
  using K = LaunchExpr::Kind;
  // The program becomes a cta program; its other groups keep one instance
  // per thread.
  if (p.scope == ExecScope::Thread) {
    p.scope = ExecScope::CTA;
    p.ctaThreads = kCtaThreads;
    for (unsigned s = 0; s < p.segments.size(); ++s)
      if (s != index)
        spreadSegment(p, s, kCtaThreads);
  }
  // P = max(1, min(ceil(K / groups), ceil(n / (8 * M)), kMaxParts)) with n
  // the first outer reduction's member count when the host can compute it.
  const Op *first = nullptr;
  std::vector<const Value *> coords = rowCoordinates(segOp->regions[0]->block);
  unsigned components = 0;
  for (const auto &op : segOp->regions[0]->block.ops)
    if (op->opcode == Opcode::Reduce || op->opcode == Opcode::ArgReduce) {
      components += op->opcode == Opcode::ArgReduce ? 2 : op->acc.size();
      if (!first && walksOuterAxis(*op, coords))
        first = op.get();
    }
  unsigned count = seg.spread ? seg.instances : seg.length;
  unsigned groups = p.binaryExpr(
      K::Div, p.binaryExpr(K::Add, count, p.constExpr(kWidth - 1)),
      p.constExpr(kWidth));
  unsigned wanted = p.binaryExpr(
      K::Div,
      p.binaryExpr(K::Add, p.constExpr(kTargetPrograms),
                   p.binaryExpr(K::Sub, p.binaryExpr(K::Max, groups, p.constExpr(1)),
                                p.constExpr(1))),
      p.binaryExpr(K::Max, groups, p.constExpr(1)));
  std::optional<unsigned> b = launchExprOf(p, memberBegin(*first));
  std::optional<unsigned> e = launchExprOf(p, memberEnd(*first));
  if (b && e) {
    int64_t perPart = kMembersPerWorker * (kCtaThreads / kWidth);
    unsigned n = p.binaryExpr(K::Max, p.binaryExpr(K::Sub, *e, *b), p.constExpr(0));
    unsigned byMembers = p.binaryExpr(
        K::Div, p.binaryExpr(K::Add, n, p.constExpr(perPart - 1)),
        p.constExpr(perPart));
    wanted = p.binaryExpr(K::Min, wanted, byMembers);
  }
  unsigned parts = p.binaryExpr(
      K::Max, p.binaryExpr(K::Min, wanted, p.constExpr(kMaxParts)),
      p.constExpr(1));
  teamSegment(p, index, kWidth, parts);
  // The workspace: a ticket per group (P > 1 only when fewer than K groups)
  // and, per accumulator component, a word per (program, lane) of the at
  // most 2K programs.
  const int64_t tickets = kTargetPrograms;
  const int64_t slots = 2 * kTargetPrograms * kWidth;
  int64_t offset = 0;
  for (const Buffer &buf : p.buffers)
    if (buf.scope == BufferScope::InvocationWorkspace && buf.workspaceOffset >= 0)
      offset = std::max(offset, buf.workspaceOffset +
                                    buf.size * elemBytes(buf.elem));
  offset = (offset + kWorkspaceAlign - 1) / kWorkspaceAlign * kWorkspaceAlign;
  Buffer ws;
  ws.id = p.buffers.size();
  ws.name = "cols_partials_g" + std::to_string(seg.group);
  ws.scope = BufferScope::InvocationWorkspace;
  ws.elem = ScalarKind::U64;
  ws.size = tickets + static_cast<int64_t>(components) * slots;
  ws.workspaceOffset = offset;
  ws.keptZero = true;
  ws.init = InitMode::Value;
  ws.initValue = 0;
  ws.ownership = Ownership::Atomic;
  ws.sharing = Sharing::Launch;
  ws.writerGroups = {seg.group};
  ws.origin = segOp->origin;
  p.buffers.push_back(ws);
  ColLowering(p, *segOp, ws.id, parts, tickets, slots).run();
  what = "col-reduce: the reductions walk an outer axis: 32 consecutive "
         "instances per CTA of " + std::to_string(kCtaThreads) +
         " threads (a warp reads 32 adjacent elements of a row), 8 threads "
         "per instance and " + p.exprToString(parts) +
         " CTAs per 32 instances splitting the members; partials combined "
         "in member order (the last CTA of each 32 folds the others' from "
         "the invocation workspace)";
  return "";
}

void intent::passes::colReduce(Program &p, phys::RemarkSink &sink) {
  for (unsigned s = 0; s < p.segments.size(); ++s) {
    // A group cta-rows left because its reductions walk an outer axis is a
    // candidate: say why it stays one instance per thread.
    bool candidate = false;
    if (const Op *segOp = segmentOp(p, p.segments[s].group)) {
      std::vector<const Value *> coords =
          rowCoordinates(segOp->regions[0]->block);
      for (const auto &op : segOp->regions[0]->block.ops)
        candidate = candidate || walksOuterAxis(*op, coords);
    }
    std::string what, why = applyColReduceSegment(p, s, what);
    if (why.empty())
      sink.remark(p.segments[s].loc, what);
    else if (candidate && !p.segments[s].team)
      sink.remark(p.segments[s].loc, "col-reduce: not applied: " + why);
  }
}
