//===- RegionTeams.cpp - Folds on teams sized by the member count --------===//
//
// Before: a parallel segment whose instance is one region r of a CSR-style
// offsets view (a top-level region_fold: y[r] = fold of value(r, k) over
// k in [off[r], off[r + 1])) runs one thread per region, which walks its
// members alone: fine for regions of a few members, uncoalesced and
// latency-bound for regions of hundreds (a warp's 32 threads read 32
// different regions), and a few long regions leave the GPU idle. A row
// reduction of a few members (the norm of each point of an N x 3 array)
// gets a CTA per row from cta-rows: 253 of 256 threads idle.
//
// After (docs/passes.md §10): a lane-team segment (Physical/Dispatch.h
// laneTeamSegment) of a cta program of T = 256 threads whose teams are G =
// 2^S consecutive threads, S a launch value chosen from the average member
// count (a region's: the extent of a view the value region indexes by the
// member over the region count; a reduction's: its constant length): G =
// the largest power of two <= T with at least kMembersPerLane members per
// thread, 1 for a few members:
//
//   <ops before the folds that need no result>  (every thread, its instance;
//                                                inactive ones the last)
//   per fold (region_fold or reduce): acc = identity
//     built-in combine: for (k = lo + worker; k < hi; k += 4G)  (coalesced,
//                       4 members' values loaded before their combines)
//     user combine:     for k in [lo + worker c, min(hi, lo + (worker+1) c)),
//                       c = ceil((hi - lo) / G)   (member order kept)
//   shuffle-down tree over offsets 1, 2, .. < min(G, 32): the team's lane 0
//     holds its lanes combined in lane order
//   if (G > 32) {                               (uniform: a launch value)
//     lane 0 of every warp: partial[warp] = acc; barrier;
//     team leader: acc = fold of partial[warp .. warp + G / 32) in order }
//   if (active && worker == 0) { in the instance's order: results =
//     combine(init, acc), a region_fold's store, the ops after }
//
// Applies to a parallel segment of one instance per thread (a thread
// program's, or one spread over a power-of-two cta program of a fixed CTA
// size) whose top level is the decode, pure code, loads, stores, region
// folds and reductions, at least one; folds that may be reassociated, not
// chunked, with effect-free value regions and accumulator components of 4
// or 8 bytes; reductions that do not use each other's results, do not walk
// an outer axis, and have a constant member count below kShortRow (longer
// constant rows are cta-rows') or a member count computed from launch
// values; no view both loaded and stored.
//
// Rows of a runtime length: the team size follows the length at launch
// (S from 0 to 8), and the program gets a launch-time alternative
// (Program::alternative): when a row has kShortRow members or more, the
// wrapper launches the kernel as the passes map it with Program::longRows
// set (region-teams leaves such rows to cta-rows: a CTA per row with vector
// loads, measured faster on long rows, teams 2-4x faster on short ones).
//
//===----------------------------------------------------------------------===//

#include "Passes/Passes.h"

#include "Physical/Clone.h"
#include "Physical/Coop.h"
#include "Physical/CoopBuild.h"
#include "Physical/Dispatch.h"
#include "Physical/Structured.h"

#include <functional>

using namespace intent;
using namespace intent::phys;
using intent::passes::kCtaThreads;
using intent::passes::laneTeamRejection;

namespace {

/// Members a thread should fold before a wider team is worth it.
constexpr int64_t kMembersPerLane = 8;
/// Members a thread loads per trip of its member loop.
constexpr int kUnroll = 4;
/// Reductions of a constant member count below this take teams; longer
/// rows stay cta-rows'. Rows of a runtime length take teams when they are
/// shorter at launch (Program::alternative otherwise).
constexpr int64_t kShortRow = 256;

using Values = CoopBuilder::Values;

int log2Of(int v) {
  int s = 0;
  while ((1 << s) < v)
    ++s;
  return s;
}

bool isFold(const Op &op) {
  return op.opcode == Opcode::RegionFold || op.opcode == Opcode::Reduce ||
         op.opcode == Opcode::ArgReduce;
}

/// The first fold of `body`, or null.
const Op *firstFold(const Block &body) {
  for (const auto &op : body.ops)
    if (isFold(*op))
      return op.get();
  return nullptr;
}

/// Reduce `r`'s member count when both bounds are integer constants.
std::optional<int64_t> constantMembers(const Op &r) { return constantTrip(r); }

/// Why fold `op` (a region_fold or reduce) cannot be folded by a team.
std::string foldRejection(const Program &p, const Op &op,
                          const std::set<const Value *> &after,
                          const std::vector<const Value *> &coords) {
  const bool region = op.opcode == Opcode::RegionFold;
  const bool arg = op.opcode == Opcode::ArgReduce;
  const std::string what = region ? "the region_fold" : "a reduction";
  if (arg) {
    const Type &t = op.result(0)->type;
    if (elemBytes(t.elem) != 4 && elemBytes(t.elem) != 8)
      return "arg-reduce value type " + typeToString(t) + " is not 4 or 8 bytes";
  } else {
    if (!op.boolAttr("reassociate", false))
      return what + " may not be reassociated (intent::ordered)";
    if (chunkLength(op))
      return what + " is chunked";
    for (const AccComponent &c : op.acc)
      if (elemBytes(c.type.elem) != 4 && elemBytes(c.type.elem) != 8)
        return "accumulator type " + typeToString(c.type) +
               " is not 4 or 8 bytes";
  }
  bool effects = false, uses = false;
  walk(*op.region(ValueRegion), [&](const Op &o) {
    effects = effects || o.opcode == Opcode::Store || isAtomic(o.opcode) ||
              o.opcode == Opcode::Print;
  });
  if (effects)
    return "the value region of " + what + " has effects";
  if (region)
    return "";
  std::function<void(const Op &)> visit = [&](const Op &o) {
    for (const Value *v : o.operands)
      uses = uses || after.count(v);
    for (const auto &r : o.regions)
      for (const auto &inner : r->block.ops)
        visit(*inner);
  };
  visit(op);
  if (uses)
    return "a reduction uses another's result";
  if (walksOuterAxis(op, coords))
    return "a reduction walks an outer axis (col-reduce maps it)";
  std::optional<int64_t> n = constantMembers(op);
  if (!n && passes::isLaunchVisible(p, memberBegin(op)) &&
      passes::isLaunchVisible(p, memberEnd(op)))
    return p.longRows ? "the long-row alternative: rows of a runtime length "
                        "are cta-rows'"
                      : "";
  if (!n || *n >= kShortRow)
    return "a reduction's member count is neither a constant below " +
           std::to_string(kShortRow) +
           " nor known at launch (cta-rows maps such rows)";
  return "";
}

std::string rejection(const Program &p, const Segment &seg, Op *&segOp) {
  if (std::string why = laneTeamRejection(p, seg, segOp); !why.empty())
    return why;
  const Block &body = segOp->regions[0]->block;
  if (!firstFold(body))
    return "the instance has no region_fold or reduction";
  const std::set<const Value *> after = reductionDependents(body);
  const std::vector<const Value *> coords = rowCoordinates(body);
  for (const auto &op : body.ops) {
    if (isFold(*op)) {
      if (std::string why = foldRejection(p, *op, after, coords); !why.empty())
        return why;
      continue;
    }
    switch (op->opcode) {
    case Opcode::Load:
    case Opcode::Store:
    case Opcode::Delinearize:
    case Opcode::Yield:
      break;
    default:
      if (!isPure(op->opcode))
        return "the instance has top-level " + opcodeName(op->opcode).str() +
               " (only pure code, loads, stores, region folds and "
               "reductions)";
    }
  }
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

/// Makes the program's launch-time alternative (Program::alternativeWhen)
/// run also when `members`, a row's member count at launch, is kShortRow
/// or more.
void wantLongRowAlternative(Program &p, unsigned members) {
  const unsigned limit = p.constExpr(kShortRow);
  unsigned cond = p.cmpExpr("ge", members, limit);
  if (p.alternativeWhen >= 0) { // either row long: a || b
    const unsigned before = static_cast<unsigned>(p.alternativeWhen);
    cond = p.selectExpr(before, before, cond);
  }
  p.alternativeWhen = static_cast<int>(cond);
}

/// The rewrite of one segment's region (file header).
class TeamLowering {
public:
  TeamLowering(Program &p, Op &segOp, unsigned shiftExpr)
      : p(p), seg(segOp), cb(p, "region-teams", segOp.loc),
        shiftExpr(shiftExpr) {}

  void run();

private:
  Program &p;
  Op &seg;
  CoopBuilder cb;
  const unsigned shiftExpr;
  ValueMap map;
  FoldInliner fi{cb, map};

  /// A fold's plan: its op, component types, partial buffers, accumulator.
  struct Fold {
    const Op *op;
    bool region;
    bool arg; ///< an argreduce: (value, position) components
    std::vector<Type> types;
    Values bufs;
    Values acc;
  };
  std::vector<Fold> folds;

  Value *i64v(int64_t v) { return cb.i64(v); }
  Value *sub(Value *a, Value *b) { return cb.b.binary(Opcode::Sub, a, b); }

  Values combine(const Fold &f, const Values &lo, const Values &hi,
                 bool increasing = false) {
    return fi.combine(*f.op, lo, hi, increasing);
  }
  Values identity(const Fold &f) { return fi.identity(*f.op, f.types); }

  /// The value of member `k` (a region_fold's value takes (r, k); an
  /// arg-reduction's is the pair (value, k)).
  Values value(const Fold &f, Value *r, Value *k) {
    if (f.arg)
      return {fi.inlineRegion(*f.op, ValueRegion, {k})[0], k};
    return f.region ? fi.inlineRegion(*f.op, ValueRegion, {r, k})
                    : fi.inlineRegion(*f.op, ValueRegion, {k});
  }
  /// value(f, r, k) when k < to, else the identity (an arg-reduction's
  /// with position -1: no member).
  Values valueIfBelow(const Fold &f, Value *r, Value *k, Value *to) {
    return cb.ifThen(cb.cmp("lt", k, to), identity(f),
                     [&] { return value(f, r, k); });
  }
  /// This thread's members of `f` folded: strided by G for a built-in
  /// combine, a contiguous chunk (member order) for a user one.
  Values foldMembers(const Fold &f, Value *r, Value *worker, Value *g);
};

Values TeamLowering::foldMembers(const Fold &f, Value *r, Value *worker,
                                 Value *g) {
  Value *begin = lookup(map, memberBegin(*f.op));
  Value *end = lookup(map, memberEnd(*f.op));
  const bool strided = f.op->strAttr("combiner") != "user";
  Value *from, *to, *step;
  if (strided) {
    from = cb.add(begin, worker);
    to = end;
    step = g;
  } else {
    Value *n = cb.b.binary(Opcode::Max, sub(end, begin), i64v(0));
    Value *c = cb.b.binary(Opcode::Div, sub(cb.add(n, g), i64v(1)), g);
    from = cb.add(begin, cb.mul(worker, c));
    to = cb.b.binary(Opcode::Min, end, cb.add(from, c));
    step = i64v(1);
  }
  // Strided: kUnroll members per trip, their values first (the later ones
  // under a bound test, the identity past the end), then their combines in
  // member order, so a thread has kUnroll loads in flight. A user combine's
  // chunk is walked one member per trip (its member indices k + u would be
  // affine in the loop's own index, which [provenance] cannot name).
  const int unroll = strided ? kUnroll : 1;
  Value *span = strided ? cb.mul(step, i64v(kUnroll)) : step;
  const Value *kArg = f.op->region(ValueRegion)->block.args[f.region ? 1 : 0];
  Values init = {from};
  Values id = identity(f);
  init.insert(init.end(), id.begin(), id.end());
  Values out = cb.loop(
      init, [&](const Values &c) { return cb.cmp("lt", c[0], to); },
      [&](const Values &c) {
        c[0]->origin = kArg->origin;
        c[0]->name = kArg->name;
        std::vector<Values> xs = {value(f, r, c[0])};
        Value *k = c[0];
        for (int u = 1; u < unroll; ++u) {
          k = cb.add(k, step);
          Value *ku = k; // the member index of this value (origin: KIR's)
          ku->origin = kArg->origin;
          ku->name = kArg->name;
          xs.push_back(valueIfBelow(f, r, ku, to));
        }
        Values a(c.begin() + 1, c.end());
        for (const Values &x : xs)
          a = combine(f, a, x, /*increasing=*/f.arg);
        Values next = {c[0]};
        next.insert(next.end(), a.begin(), a.end());
        return next;
      },
      [&](const Values &c) {
        Values next = c;
        next[0] = cb.add(c[0], span);
        return next;
      });
  out[0]->def->loc = f.op->loc;
  return Values(out.begin() + 1, out.end());
}

void TeamLowering::run() {
  Block &blk = seg.regions[0]->block;
  Value *worker = blk.args[1], *active = blk.args[2];
  Block old;
  old.ops = std::move(blk.ops);
  blk.ops.clear();
  cb.b.setInsertionBlock(&blk);
  std::unique_ptr<Op> terminator = std::move(old.ops.back());
  old.ops.pop_back();

  const int t = p.ctaThreads;
  const unsigned group = static_cast<unsigned>(seg.intAttr("group"));
  // Every fold's plan and the warps' partials of a team wider than a warp.
  std::vector<std::vector<unsigned>> bufIds;
  for (const auto &op : old.ops) {
    if (!isFold(*op))
      continue;
    Fold f{op.get(), op->opcode == Opcode::RegionFold,
           op->opcode == Opcode::ArgReduce, {}, {}, {}};
    if (f.arg)
      f.types = {op->result(0)->type, Type::index()};
    else
      for (const AccComponent &c : op->acc)
        f.types.push_back(c.type);
    std::vector<unsigned> ids;
    for (const Type &ty : f.types) {
      Buffer b;
      b.id = p.buffers.size();
      b.name = "team_part" + std::to_string(folds.size()) + "_" +
               std::to_string(ids.size()) + "_g" + std::to_string(group);
      b.scope = BufferScope::CTAShared;
      b.elem = ty.elem;
      b.size = std::max(1, t / 32);
      b.init = InitMode::FirstWrite;
      b.ownership = Ownership::Private;
      b.writerGroups = b.readerGroups = {group};
      b.origin = seg.origin;
      p.buffers.push_back(b);
      ids.push_back(b.id);
    }
    folds.push_back(f);
    bufIds.push_back(ids);
  }
  layoutSharedBuffers(p);
  for (unsigned i = 0; i < folds.size(); ++i)
    for (unsigned id : bufIds[i])
      folds[i].bufs.push_back(cb.alloc(id));

  // The ops that need no fold's result and store nothing: every thread,
  // first (the bounds' loads among them); the rest after the folds. Both
  // keep their proofs: the instance is still one of the segment's.
  const std::set<const Value *> dependent = reductionDependents(old);
  std::set<const Op *> later;
  for (const auto &op : old.ops) {
    if (isFold(*op))
      continue;
    bool after = op->opcode == Opcode::Store;
    for (const Value *r : op->results)
      after = after || dependent.count(r);
    if (after)
      later.insert(op.get());
    else
      fi.copy(*op, /*proven=*/true);
  }
  Value *s = cb.b.launchValue(shiftExpr);
  Value *g = cb.b.binary(Opcode::Shl, i64v(1), s);
  for (Fold &f : folds)
    f.acc = foldMembers(
        f, f.region ? lookup(map, regionIndex(*f.op)) : nullptr, worker, g);

  // The team's lanes, in lane order, on its lane 0.
  Value *g32 = cb.cast(cb.b.binary(Opcode::Min, g, i64v(32)), ScalarKind::I32);
  for (Fold &f : folds)
    f.acc = cb.warpTreeDown(
        f.acc, [&](const Values &lo, const Values &hi) { return combine(f, lo, hi); },
        g32);
  // A team of several warps: their partials through shared memory.
  Values all;
  for (const Fold &f : folds)
    all.insert(all.end(), f.acc.begin(), f.acc.end());
  Value *wide = cb.cmp("gt", g, i64v(32));
  all = cb.ifThen(wide, all, [&] {
    Value *lane = cb.laneId();
    Value *warp = cb.cast(cb.warpId(), ScalarKind::I64);
    cb.when(cb.cmp("eq", lane, cb.i32(0)), [&] {
      for (const Fold &f : folds)
        for (unsigned c = 0; c < f.types.size(); ++c)
          cb.store(f.bufs[c], warp, f.acc[c]);
    });
    cb.barrier();
    Values accs;
    for (const Fold &f : folds)
      accs.insert(accs.end(), f.acc.begin(), f.acc.end());
    return cb.ifThen(cb.cmp("eq", worker, i64v(0)), accs, [&] {
      Value *last = cb.add(warp, cb.b.binary(Opcode::Shr, g, i64v(5)));
      Values init = {cb.add(warp, i64v(1))};
      init.insert(init.end(), accs.begin(), accs.end());
      Values out = cb.loop(
          init, [&](const Values &c) { return cb.cmp("lt", c[0], last); },
          [&](const Values &c) {
            Values next = {c[0]};
            unsigned at = 1;
            for (const Fold &f : folds) {
              Values other;
              for (unsigned k = 0; k < f.types.size(); ++k)
                other.push_back(cb.load(f.bufs[k], c[0]));
              Values mine(c.begin() + at, c.begin() + at + f.types.size());
              Values a = combine(f, mine, other);
              next.insert(next.end(), a.begin(), a.end());
              at += f.types.size();
            }
            return next;
          },
          [&](const Values &c) {
            Values next = c;
            next[0] = cb.add(c[0], i64v(1));
            return next;
          });
      return Values(out.begin() + 1, out.end());
    });
  });
  unsigned at = 0;
  for (Fold &f : folds) {
    f.acc = Values(all.begin() + at, all.begin() + at + f.types.size());
    at += f.types.size();
  }

  // The instance's results: its team leader, in the instance's order.
  Value *leader = cb.both(active, cb.cmp("eq", worker, i64v(0)));
  cb.when(leader, [&] {
    unsigned next = 0;
    for (const auto &op : old.ops) {
      if (isFold(*op)) {
        const Fold &f = folds[next++];
        Values res = f.acc; // an arg-reduction's pair is its result
        if (!f.arg) {
          Values inits;
          for (const Value *v : accInits(*f.op))
            inits.push_back(lookup(map, const_cast<Value *>(v)));
          res = combine(f, inits, f.acc);
        }
        if (f.region) {
          Values args = {lookup(map, regionIndex(*f.op))};
          args.insert(args.end(), res.begin(), res.end());
          fi.inlineRegion(*f.op, OutRegion, args);
        } else {
          for (unsigned c = 0; c < f.op->results.size(); ++c)
            map[f.op->result(c)] = res[c];
        }
      } else if (later.count(op.get())) {
        fi.copy(*op, /*proven=*/true);
      }
    }
  });
  blk.ops.push_back(std::move(terminator));
}

} // namespace

std::string intent::passes::regionTeamsRejection(const Program &p,
                                                 unsigned index) {
  Op *segOp = nullptr;
  return rejection(p, p.segments[index], segOp);
}

std::string intent::passes::applyRegionTeamsSegment(Program &p, unsigned index,
                                                    std::string &what) {
  Op *segOp = nullptr;
  Segment &seg = p.segments[index];
  std::string why = rejection(p, seg, segOp);
  if (!why.empty())
    return why;
  // The program becomes a cta program; its other groups keep one instance
  // per thread.
  if (p.scope == ExecScope::Thread) {
    p.scope = ExecScope::CTA;
    p.ctaThreads = kCtaThreads;
    for (unsigned s = 0; s < p.segments.size(); ++s)
      if (s != index)
        spreadSegment(p, s, kCtaThreads);
  }
  const Op *fold = firstFold(segOp->regions[0]->block);
  const bool region = fold->opcode == Opcode::RegionFold;
  const bool user = fold->strAttr("combiner") == "user";
  unsigned regions = seg.spread ? seg.instances : seg.length;
  // The members per instance on average: a region_fold's from a view its
  // value region indexes by the member (regions of a warp's share assumed
  // without one), a reduction's its constant length.
  std::optional<unsigned> members;
  unsigned m, per;
  bool runtime = false;
  if (region) {
    members = memberExtentExpr(p, *fold, 1);
    m = members ? *members
                : p.binaryExpr(LaunchExpr::Kind::Mul, regions,
                               p.constExpr(32 * kMembersPerLane));
    per = regions;
  } else {
    if (std::optional<int64_t> n = constantMembers(*fold)) {
      m = p.constExpr(*n);
    } else {
      m = p.binaryExpr(LaunchExpr::Kind::Max,
                       p.binaryExpr(LaunchExpr::Kind::Sub,
                                    *launchExprOf(p, memberEnd(*fold)),
                                    *launchExprOf(p, memberBegin(*fold))),
                       p.constExpr(0));
      runtime = true;
      wantLongRowAlternative(p, m);
    }
    per = p.constExpr(1);
    members = m;
  }
  unsigned shift =
      teamShiftExpr(p, m, per, log2Of(p.ctaThreads), kMembersPerLane);
  const std::string avg =
      region ? p.exprToString(m) + " / " + p.exprToString(regions)
             : p.exprToString(m);
  laneTeamSegment(p, index, shift);
  TeamLowering(p, *segOp, shift).run(); // `fold` is gone after this
  what = std::string("region-teams: each ") +
         (region ? "region of the region_fold" : "instance's reduction") +
         " on a team of 2^S consecutive threads (S at launch: at most " +
         std::to_string(log2Of(p.ctaThreads)) + ", at least " +
         std::to_string(kMembersPerLane) +
         " members per thread of the average member count " + avg +
         (members ? "" : ", assumed") + "; " +
         (user ? "contiguous chunks in member order"
               : "members strided over the team") +
         "), combined by warp shuffles" +
         (runtime ? "; rows of " + std::to_string(kShortRow) +
                        " members or more at launch run the long-row "
                        "alternative (cta-rows)"
                  : "");
  return "";
}

void intent::passes::regionTeams(Program &p, phys::RemarkSink &sink) {
  for (unsigned s = 0; s < p.segments.size(); ++s) {
    const Op *segOp = segmentOp(p, p.segments[s].group);
    bool candidate = false;
    if (segOp && !p.segments[s].team)
      for (const auto &op : segOp->regions[0]->block.ops)
        candidate = candidate || op->opcode == Opcode::RegionFold;
    std::string what, why = applyRegionTeamsSegment(p, s, what);
    if (why.empty())
      sink.remark(p.segments[s].loc, what);
    else if (candidate)
      sink.remark(p.segments[s].loc, "region-teams: not applied: " + why);
  }
}
