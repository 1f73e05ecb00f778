//===- RegionTeams.cpp - Region folds on teams sized by the region length ---===//
//
// Before: a parallel segment whose instance is one region r of a CSR-style
// offsets view (a top-level region_fold: y[r] = fold of value(r, k) over
// k in [off[r], off[r + 1])) runs one thread per region, which walks its
// members alone: fine for regions of a few members, uncoalesced and
// latency-bound for regions of hundreds (a warp's 32 threads read 32
// different regions), and a few long regions leave the GPU idle.
//
// After (docs/passes.md §10): a lane-team segment (Physical/Dispatch.h
// laneTeamSegment) of a cta program of T = 256 threads whose teams are G =
// 2^S consecutive threads, S a launch value chosen from the average region
// length (members per region, from the extent of a view the value region
// indexes by the member: G = the largest power of two <= T with at least
// kMembersPerLane members per thread, 1 for regions of a few members):
//
//   <ops before the fold: the bounds' loads>   (every thread, its region;
//                                               inactive ones the last)
//   acc = identity
//   built-in combine:  for (k = lo + worker; k < hi; k += G)  (coalesced)
//   user combine:      for k in [lo + worker c, min(hi, lo + (worker+1) c)),
//                      c = ceil((hi - lo) / G)       (member order kept)
//     acc = combine(acc, value(r, k))
//   shuffle-down tree over offsets 1, 2, .. < min(G, 32): the team's lane 0
//     holds its lanes combined in lane order
//   if (G > 32) {                               (uniform: a launch value)
//     lane 0 of every warp: partial[warp] = acc; barrier;
//     team leader: acc = fold of partial[warp .. warp + G / 32) in order }
//   if (active && worker == 0) { store(r, combine(init, acc)) }
//
// Applies to a parallel segment of one instance per thread (a thread
// program's, or one spread over a power-of-two cta program) whose top
// level is the decode, pure code, loads and one region_fold that may be
// reassociated and is not chunked, whose value region neither stores nor
// prints nor uses atomics, with accumulator components of 4 or 8 bytes.
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

namespace {

/// Members a thread should fold before a wider team is worth it.
constexpr int64_t kMembersPerLane = 8;
/// Members a thread loads per trip of its member loop.
constexpr int kUnroll = 4;

using Values = CoopBuilder::Values;

int log2Of(int v) {
  int s = 0;
  while ((1 << s) < v)
    ++s;
  return s;
}

/// The segment's one region_fold, or null.
const Op *theFold(const Block &body) {
  const Op *fold = nullptr;
  for (const auto &op : body.ops)
    if (op->opcode == Opcode::RegionFold)
      fold = fold ? nullptr : op.get();
  return fold;
}

std::string rejection(const Program &p, const Segment &seg, Op *&segOp) {
  if (seg.ordered)
    return "the group is a single instance";
  const int t = p.ctaThreads;
  if (!(p.scope == ExecScope::Thread ||
        (seg.spread && !seg.team && seg.tile < 0 && seg.spread == t &&
         t >= 32 && (t & (t - 1)) == 0)))
    return "the group is not one instance per thread of a power-of-two CTA";
  segOp = segmentOp(p, seg.group);
  if (!segOp)
    return "no segment op";
  if (containsPrint(*segOp->regions[0]))
    return "the instance prints";
  const Block &body = segOp->regions[0]->block;
  const Op *fold = theFold(body);
  if (!fold)
    return "the instance is not one region_fold";
  for (const auto &op : body.ops) {
    if (op.get() == fold)
      continue;
    switch (op->opcode) {
    case Opcode::Load:
    case Opcode::Delinearize:
    case Opcode::Yield:
      break;
    default:
      if (!isPure(op->opcode))
        return "the instance has top-level " + opcodeName(op->opcode).str() +
               " next to its region_fold";
    }
  }
  if (!fold->boolAttr("reassociate", false))
    return "the region_fold may not be reassociated (intent::ordered)";
  if (chunkLength(*fold))
    return "the region_fold is chunked";
  for (const AccComponent &c : fold->acc)
    if (elemBytes(c.type.elem) != 4 && elemBytes(c.type.elem) != 8)
      return "accumulator type " + typeToString(c.type) + " is not 4 or 8 bytes";
  bool effects = false;
  walk(*fold->region(ValueRegion), [&](const Op &o) {
    effects = effects || o.opcode == Opcode::Store || isAtomic(o.opcode) ||
              o.opcode == Opcode::Print;
  });
  if (effects)
    return "the value region has effects";
  return "";
}

/// The launch expression of a member count the value region of `fold`
/// bounds: the extent of a root view it indexes by the member (a load whose
/// coordinate is the member index or a cast of it); nullopt when none.
std::optional<unsigned> memberExtent(Program &p, const Op &fold) {
  const Block &vb = fold.region(ValueRegion)->block;
  const Value *k = vb.args[1];
  auto isMember = [&](const Value *v) {
    if (v == k)
      return true;
    return v->def && v->def->opcode == Opcode::Cast &&
           v->def->operands[0] == k;
  };
  std::optional<unsigned> found;
  walk(*fold.region(ValueRegion), [&](const Op &o) {
    if (found || o.opcode != Opcode::Load)
      return;
    const Value *mem = o.memory();
    if (!mem->isBlockArg() || mem->owner != &p.body->block)
      return;
    for (unsigned d = 1; d < o.operands.size(); ++d)
      if (isMember(o.operands[d])) {
        LaunchExpr e;
        e.kind = LaunchExpr::Kind::Extent;
        e.param = mem->argNo;
        e.dim = d - 1;
        e.type = ScalarKind::I64;
        found = p.addExpr(e);
        return;
      }
  });
  return found;
}

/// The team shift S from the average region length `members / regions`:
/// the largest k <= maxShift with avg >= kMembersPerLane * 2^k (k >= 1).
unsigned teamShiftExpr(Program &p, unsigned members, unsigned regions,
                       int maxShift) {
  using K = LaunchExpr::Kind;
  unsigned avg = p.binaryExpr(K::Div, members,
                              p.binaryExpr(K::Max, regions, p.constExpr(1)));
  unsigned e = p.constExpr(0);
  for (int k = 1; k <= maxShift; ++k) {
    LaunchExpr ge;
    ge.kind = K::Cmp;
    ge.type = ScalarKind::Bool;
    ge.pred = "ge";
    ge.operands = {avg, p.constExpr(kMembersPerLane << k)};
    LaunchExpr sel;
    sel.kind = K::Select;
    sel.type = ScalarKind::I64;
    sel.operands = {p.addExpr(ge), p.constExpr(k), e};
    e = p.addExpr(sel);
  }
  return e;
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
  const Op *fold = nullptr;
  std::vector<Type> types;

  Value *i64v(int64_t v) { return cb.i64(v); }
  Value *sub(Value *a, Value *b) { return cb.b.binary(Opcode::Sub, a, b); }

  /// Copies `op`; accesses become each thread's own. Inside the fold's
  /// regions (`proven` false) they are assumed in bounds: the region op's
  /// range no longer bounds the member index. The ops before the fold keep
  /// their proofs (the instance is still one of the segment's).
  Op *copy(const Op &op, bool proven = false) {
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

  Values inlineRegion(unsigned r, const Values &args) {
    const Block &blk = fold->region(r)->block;
    for (unsigned i = 0; i < args.size(); ++i)
      map[blk.args[i]] = args[i];
    for (const auto &op : blk.ops) {
      if (op->opcode == Opcode::Yield) {
        Values out;
        for (Value *v : op->operands)
          out.push_back(lookup(map, v));
        return out;
      }
      copy(*op);
    }
    return {};
  }
  Values combine(const Values &lo, const Values &hi) {
    Values a = lo;
    a.insert(a.end(), hi.begin(), hi.end());
    return inlineRegion(CombineRegion, a);
  }
  Values identity() {
    Values id;
    for (unsigned c = 0; c < types.size(); ++c)
      id.push_back(fold->acc[c].identity == AccComponent::Identity::Init
                       ? lookup(map, fold->operands[3 + c])
                       : cb.constant(fold->acc[c].value, types[c]));
    return id;
  }
  /// This thread's members folded: strided by G for a built-in combine,
  /// a contiguous chunk (member order) for a user one.
  Values foldMembers(Value *r, Value *worker, Value *g);
};

Values TeamLowering::foldMembers(Value *r, Value *worker, Value *g) {
  Value *begin = lookup(map, memberBegin(*fold));
  Value *end = lookup(map, memberEnd(*fold));
  const bool strided = fold->strAttr("combiner") != "user";
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
  const Value *kArg = fold->region(ValueRegion)->block.args[1];
  Values init = {from};
  Values id = identity();
  init.insert(init.end(), id.begin(), id.end());
  Values out = cb.loop(
      init, [&](const Values &c) { return cb.cmp("lt", c[0], to); },
      [&](const Values &c) {
        c[0]->origin = kArg->origin;
        c[0]->name = kArg->name;
        std::vector<Values> xs = {inlineRegion(ValueRegion, {r, c[0]})};
        Value *k = c[0];
        for (int u = 1; u < unroll; ++u) {
          k = cb.add(k, step);
          Value *ku = k; // the member index of this value (origin: KIR's)
          ku->origin = kArg->origin;
          ku->name = kArg->name;
          xs.push_back(cb.ifThen(cb.cmp("lt", ku, to), identity(), [&] {
            return inlineRegion(ValueRegion, {r, ku});
          }));
        }
        Values a(c.begin() + 1, c.end());
        for (const Values &x : xs)
          a = combine(a, x);
        Values next = {c[0]};
        next.insert(next.end(), a.begin(), a.end());
        return next;
      },
      [&](const Values &c) {
        Values next = c;
        next[0] = cb.add(c[0], span);
        return next;
      });
  out[0]->def->loc = fold->loc;
  return Values(out.begin() + 1, out.end());
}

void TeamLowering::run() {
  Block &blk = seg.regions[0]->block;
  Value *instance = blk.args[0], *worker = blk.args[1], *active = blk.args[2];
  Block old;
  old.ops = std::move(blk.ops);
  blk.ops.clear();
  cb.b.setInsertionBlock(&blk);
  std::unique_ptr<Op> terminator = std::move(old.ops.back());
  old.ops.pop_back();
  fold = theFold(old);
  for (const AccComponent &c : fold->acc)
    types.push_back(c.type);
  (void)instance;

  const int t = p.ctaThreads;
  const unsigned group = static_cast<unsigned>(seg.intAttr("group"));
  // The warps' partials of a team wider than a warp.
  Values warpBufs;
  std::vector<unsigned> warpIds;
  for (unsigned c = 0; c < types.size(); ++c) {
    Buffer b;
    b.id = p.buffers.size();
    b.name = "team_part" + std::to_string(c) + "_g" + std::to_string(group);
    b.scope = BufferScope::CTAShared;
    b.elem = types[c].elem;
    b.size = std::max(1, t / 32);
    b.init = InitMode::FirstWrite;
    b.ownership = Ownership::Private;
    b.writerGroups = b.readerGroups = {group};
    b.origin = seg.origin;
    p.buffers.push_back(b);
    warpIds.push_back(b.id);
  }
  layoutSharedBuffers(p);
  for (unsigned id : warpIds)
    warpBufs.push_back(cb.alloc(id));

  // The ops before the fold (decode, the bounds' loads): every thread.
  for (const auto &op : old.ops)
    if (op.get() != fold)
      copy(*op, /*proven=*/true);
  Value *r = lookup(map, regionIndex(*fold));
  Value *s = cb.b.launchValue(shiftExpr);
  Value *g = cb.b.binary(Opcode::Shl, i64v(1), s);
  Values acc = foldMembers(r, worker, g);

  // The team's lanes, in lane order, on its lane 0.
  Value *g32 = cb.cast(cb.b.binary(Opcode::Min, g, i64v(32)), ScalarKind::I32);
  acc = cb.warpTreeDown(acc, [&](const Values &lo, const Values &hi) {
    return combine(lo, hi);
  }, g32);
  // A team of several warps: their partials through shared memory.
  Value *wide = cb.cmp("gt", g, i64v(32));
  acc = cb.ifThen(wide, acc, [&] {
    Value *lane = cb.laneId();
    Value *warp = cb.cast(cb.warpId(), ScalarKind::I64);
    cb.when(cb.cmp("eq", lane, cb.i32(0)), [&] {
      for (unsigned c = 0; c < types.size(); ++c)
        cb.store(warpBufs[c], warp, acc[c]);
    });
    cb.barrier();
    return cb.ifThen(cb.cmp("eq", worker, i64v(0)), acc, [&] {
      Value *last = cb.add(warp, cb.b.binary(Opcode::Shr, g, i64v(5)));
      Values init = {cb.add(warp, i64v(1))};
      init.insert(init.end(), acc.begin(), acc.end());
      Values out = cb.loop(
          init, [&](const Values &c) { return cb.cmp("lt", c[0], last); },
          [&](const Values &c) {
            Values other;
            for (unsigned k = 0; k < types.size(); ++k)
              other.push_back(cb.load(warpBufs[k], c[0]));
            Values a = combine(Values(c.begin() + 1, c.end()), other);
            Values next = {c[0]};
            next.insert(next.end(), a.begin(), a.end());
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

  // The region's result: its team leader stores it.
  Value *leader = cb.both(active, cb.cmp("eq", worker, i64v(0)));
  cb.when(leader, [&] {
    Values inits;
    for (const Value *v : accInits(*fold))
      inits.push_back(lookup(map, const_cast<Value *>(v)));
    Values res = combine(inits, acc);
    Values args = {r};
    args.insert(args.end(), res.begin(), res.end());
    inlineRegion(OutRegion, args);
  });
  blk.ops.push_back(std::move(terminator));
}

} // namespace

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
  const Op *fold = theFold(segOp->regions[0]->block);
  const bool user = fold->strAttr("combiner") == "user";
  unsigned regions = seg.spread ? seg.instances : seg.length;
  // Without a view the members index, assume regions of a warp's share.
  std::optional<unsigned> members = memberExtent(p, *fold);
  unsigned m = members ? *members
                       : p.binaryExpr(LaunchExpr::Kind::Mul, regions,
                                      p.constExpr(32 * kMembersPerLane));
  unsigned shift = teamShiftExpr(p, m, regions, log2Of(p.ctaThreads));
  const std::string avg = p.exprToString(m) + " / " + p.exprToString(regions);
  laneTeamSegment(p, index, shift);
  TeamLowering(p, *segOp, shift).run(); // `fold` is gone after this
  what = "region-teams: each region of the region_fold on a team of 2^S "
         "consecutive threads (S at launch: at most " +
         std::to_string(log2Of(p.ctaThreads)) + ", at least " +
         std::to_string(kMembersPerLane) +
         " members per thread of the average region length " + avg +
         (members ? "" : ", assumed") + "; " +
         (user ? "contiguous chunks in member order"
               : "members strided over the team") +
         "), combined by warp shuffles";
  return "";
}

void intent::passes::regionTeams(Program &p, phys::RemarkSink &sink) {
  for (unsigned s = 0; s < p.segments.size(); ++s) {
    const Op *segOp = segmentOp(p, p.segments[s].group);
    bool candidate = segOp && !p.segments[s].team &&
                     theFold(segOp->regions[0]->block) != nullptr;
    std::string what, why = applyRegionTeamsSegment(p, s, what);
    if (why.empty())
      sink.remark(p.segments[s].loc, what);
    else if (candidate)
      sink.remark(p.segments[s].loc, "region-teams: not applied: " + why);
  }
}
