//===- ScanTeams.cpp - Scans on teams sized by the member count -----------===//
//
// Before: a parallel segment whose instance runs a scan (a row cumsum
// `parallel_for(rows, r) scan(n, ..., x(r, k), y(r, k) = p)`; a segmented
// prefix sum `region_scan(offsets, ...)`) runs one thread per instance,
// which walks its members alone: a warp's 32 threads read 32 different
// rows one element at a time (uncoalesced), and a few long rows leave the
// GPU idle.
//
// After (docs/passes.md §13): a lane-team segment (Physical/Dispatch.h
// laneTeamSegment) of a cta program of T = 256 threads whose teams are G =
// 2^S consecutive threads, S a launch value chosen from the average member
// count (at least kPerLane members per thread): at most a warp; up to the
// CTA in a launch-time alternative (the kernel again with
// Program::longRows) that runs when the instances do not fill the GPU with
// warp teams. A team walks its
// instance's members in tiles of kPerLane * G; member j of the visit order
// (k = lo + j forward, hi - 1 - j in reverse) is lane j mod G's slot
// (j / G) mod kPerLane, so every load of a tile is coalesced:
//
//   <the instance's other ops>         every thread, its instance (inactive
//                                      ones the last)
//   trips = ceil(n / (kPerLane G)), the warp's largest (shuffles); wide
//           teams: the CTA's (the warps' through shared memory)
//   carry = init
//   for each trip:                     uniform over the warp (CTA)
//     x_i = value(k_i) or the identity past the end, i < kPerLane
//     w_i = the scan of x_i over the team's lanes in this warp (shuffles,
//           lower lanes on the left)
//     G > 32: the warps' totals through shared memory: before_i = the
//           team's warps before this one, total_i = all of them (barriers)
//     else:   before_i = identity, total_i = the team's last lane's w_i
//     state_i = carry_i + before_i + w_i (exclusive: lane l - 1's w_i, none
//              on a warp's first lane, carry_i alone on the team's first);
//              carry_(i+1) = carry_i + total_i
//     for each slot: if (active && k_i in range) emit(k_i, state_i)
//   region_scan: if (active && worker == 0) final(r, carry)
//
// The lowering handles a region_scan too (the region's bounds from the
// offsets, the final flow on lane 0), but the pass does not apply it yet:
// the verifier's [conflicts] rule cannot prove that a team's computed
// members stay inside their region, so such a program would not verify.
//
// Every combine has the earlier members on its left, so a user combine
// that is only associative is exact. Applies to a parallel segment of one
// instance per thread (a thread program's, or one spread over a
// power-of-two cta program of a fixed CTA size) whose top level is the
// decode, pure code, loads and one scan that may be reassociated (not
// `intent::ordered`), is not chunked, has accumulator components of 4 or 8
// bytes with an identity, a value region without effects, and an emit
// region that stores at the member's own coordinate
// (y(r, k), y[k - lo]) into views the scan does not read elsewhere; a
// scan down an outer axis (a column cumsum) keeps one thread per instance
// (threads across the columns read coalesced).
//
//===----------------------------------------------------------------------===//

#include "Passes/Passes.h"

#include "Physical/Clone.h"
#include "Physical/Coop.h"
#include "Physical/CoopBuild.h"
#include "Physical/Dispatch.h"
#include "Physical/Structured.h"

#include <set>

using namespace intent;
using namespace intent::phys;
using intent::passes::kCtaThreads;
using intent::passes::laneTeamRejection;

namespace {

/// Members a lane loads per trip (and at least has before a wider team).
constexpr int kPerLane = 4;
/// Teams of at most a warp (shuffles only); the long-row alternative, which
/// runs when the instances give the GPU fewer than kFillThreads threads
/// that way (about an H100's 132 SMs x 2048 resident threads), has teams up
/// to the CTA, whose warps pass their totals through shared memory.
constexpr int kMaxShift = 5;
constexpr int64_t kFillThreads = int64_t(1) << 18;

using Values = CoopBuilder::Values;

bool isScan(const Op &op) {
  return op.opcode == Opcode::Scan || op.opcode == Opcode::RegionScan;
}

/// The member argument of a scan's value and emit regions (region ops
/// take the region index first).
unsigned memberArg(const Op &scan) { return isRegionOp(scan.opcode) ? 1 : 0; }

/// An access's coordinates as a key: the region's member index (unshifted)
/// as null, any other coordinate as itself.
std::vector<const Value *> coordKey(const Op &access, const Value *k) {
  std::vector<const Value *> key;
  for (const Value *c : access.coords())
    key.push_back(c == k ? nullptr : c);
  return key;
}

/// Whether two views of the kernel may be one array: the same value, or
/// two mutable views of one element type and rank (the aliasing contract).
bool mayAlias(const Value *a, const Value *b) {
  if (a == b)
    return true;
  return a->type.isView() && b->type.isView() && !a->type.constElem &&
         !b->type.constElem && a->type.elem == b->type.elem &&
         a->type.rank == b->type.rank;
}

/// Why `scan` (top-level in the instance) cannot run on a team.
std::string scanRejection(const Op &scan,
                          const std::vector<const Value *> &coords) {
  if (!scan.boolAttr("reassociate", false))
    return "the scan is ordered (intent::ordered): it stays serial";
  if (chunkLength(scan))
    return "the region_scan is chunked";
  for (const AccComponent &c : scan.acc) {
    if (c.identity == AccComponent::Identity::None)
      return "the accumulator has no identity";
    if (c.type.elem == ScalarKind::Bool ||
        (elemBytes(c.type.elem) != 4 && elemBytes(c.type.elem) != 8))
      return "accumulator type " + typeToString(c.type) +
             " is not 4 or 8 bytes";
  }
  if (walksOuterAxis(scan, coords, /*scans=*/true))
    return "the scan walks an outer axis (one thread per instance reads "
           "coalesced across them)";
  // The value region: loads and computation.
  bool computes = true;
  std::vector<const Op *> loads;
  walk(*scan.region(ValueRegion), [&](const Op &o) {
    if (o.opcode == Opcode::Load)
      loads.push_back(&o);
    else if (o.opcode == Opcode::Store || isAtomic(o.opcode) ||
             o.opcode == Opcode::Print || isCooperative(o.opcode))
      computes = false;
  });
  if (!computes)
    return "the scan's value does more than load and compute";
  // The emit region: pure code and stores at the member's coordinate.
  const Block &emit = scan.region(OutRegion)->block;
  const Value *k = emit.args[memberArg(scan)];
  const Value *vk = scan.region(ValueRegion)->block.args[memberArg(scan)];
  auto invariant = [&](const Value *v) {
    return !dependsOnArgs(v, emit, scan);
  };
  for (const auto &o : emit.ops) {
    if (isTerminator(o->opcode) || (o->regions.empty() && isPure(o->opcode)))
      continue;
    if (o->opcode != Opcode::Store || o->guard() || !o->memory()->type.isView())
      return "the scan's emit does more than store";
    bool atK = false, shifted = false;
    for (const Value *c : o->coords()) {
      const Op *d = c->def;
      const bool plus =
          d && (d->opcode == Opcode::Add || d->opcode == Opcode::Sub) &&
          ((d->operands[0] == k && invariant(d->operands[1])) ||
           (d->opcode == Opcode::Add && d->operands[1] == k &&
            invariant(d->operands[0])));
      if (c == k || plus) {
        atK = true;
        shifted = shifted || plus;
      } else if (!invariant(c)) {
        return "the scan's emit stores elsewhere than at its member";
      }
    }
    if (!atK)
      return "the scan's emit stores elsewhere than at its member";
    // A view the value region reads (or one it may be): only in place, the
    // lane that read the member writes it.
    for (const Op *l : loads) {
      if (!mayAlias(l->memory(), o->memory()))
        continue;
      if (shifted || coordKey(*l, vk) != coordKey(*o, k))
        return "the scan's emit writes a view its value reads at another "
               "member";
    }
  }
  if (scan.opcode == Opcode::RegionScan)
    for (const auto &o : scan.region(FinalRegion)->block.ops)
      if (!isTerminator(o->opcode) &&
          !(o->regions.empty() &&
            (isPure(o->opcode) || o->opcode == Opcode::Store)))
        return "the region_scan's final flow does more than compute and "
               "store";
  return "";
}

std::string rejection(const Program &p, const Segment &seg, Op *&segOp,
                      const Op *&scan) {
  if (std::string why = laneTeamRejection(p, seg, segOp); !why.empty())
    return why;
  const Block &body = segOp->regions[0]->block;
  scan = nullptr;
  for (const auto &op : body.ops) {
    if (isScan(*op)) {
      if (scan)
        return "the instance runs several scans";
      scan = op.get();
      continue;
    }
    switch (op->opcode) {
    case Opcode::Load:
    case Opcode::Delinearize:
    case Opcode::Yield:
      break;
    default:
      if (!op->regions.empty() || !isPure(op->opcode))
        return "the instance has top-level " + opcodeName(op->opcode).str() +
               " (only pure code, loads and one scan)";
    }
  }
  if (!scan)
    return "the instance has no top-level scan";
  // (The verifier proves a region_scan's emits unique per region through
  // the op's member index; a team's computed members are not yet proved to
  // stay inside their region.)
  if (scan->opcode == Opcode::RegionScan)
    return "a region_scan keeps one thread per region (its emits on a team "
           "are not proved to stay inside the region)";
  if (std::string why = scanRejection(*scan, rowCoordinates(body));
      !why.empty())
    return why;
  // The bounds' loads read no view the scan writes.
  std::set<const Value *> stored;
  walk(*scan->region(OutRegion),
       [&](const Op &o) {
         if (o.opcode == Opcode::Store)
           stored.insert(o.memory());
       });
  for (const auto &op : body.ops)
    if (op->opcode == Opcode::Load)
      for (const Value *s : stored)
        if (mayAlias(op->memory(), s))
          return "the instance reads a view its scan writes";
  return "";
}

/// The rewrite of one segment's region (file header).
class ScanLowering {
public:
  /// `wideTeams`: teams may span several warps (the long-row alternative);
  /// else a team is at most a warp.
  ScanLowering(Program &p, Op &segOp, const Op &scan, unsigned shiftExpr,
               bool wideTeams)
      : p(p), seg(segOp), scan(scan), cb(p, "scan-teams", scan.loc),
        shiftExpr(shiftExpr), wideTeams(wideTeams) {
    for (const AccComponent &c : scan.acc)
      types.push_back(c.type);
  }

  /// Adds the pass's cta_shared buffers to the program (before run()).
  void addBuffers();

  void run();

private:
  Program &p;
  Op &seg;
  const Op &scan;
  CoopBuilder cb;
  const unsigned shiftExpr;
  const bool wideTeams;
  ValueMap map;
  FoldInliner fi{cb, map};
  std::vector<Type> types;
  bool region = false;
  Value *r = nullptr; ///< the region index of a region_scan
  /// cta_shared buffers: the warps' trip counts (i64, one per warp) and,
  /// per accumulator component, the warps' slot totals of a team wider
  /// than a warp (kPerLane x warps).
  Value *tripBuf = nullptr;
  Values partBufs;
  unsigned tripId = 0;
  std::vector<unsigned> partIds;
  int warps = 0;

  Value *i64v(int64_t v) { return cb.i64(v); }
  Value *sub(Value *a, Value *b) { return cb.b.binary(Opcode::Sub, a, b); }
  Values identity() { return fi.identity(scan, types); }
  Values combine(const Values &lo, const Values &hi) {
    return fi.combine(scan, lo, hi);
  }
  Values select(Value *c, const Values &x, const Values &y) {
    Values out;
    for (unsigned i = 0; i < x.size(); ++i)
      out.push_back(cb.select(c, x[i], y[i]));
    return out;
  }
  /// Region `reg`'s arguments: (r,) k, then `rest`.
  Values args(Value *k, const Values &rest) {
    Values a;
    if (region)
      a.push_back(r);
    a.push_back(k);
    a.insert(a.end(), rest.begin(), rest.end());
    return a;
  }
  /// The scan's lowering, at the builder's insertion point.
  void lowerScan(Value *worker, Value *active);
};

void ScanLowering::lowerScan(Value *worker, Value *active) {
  region = scan.opcode == Opcode::RegionScan;
  if (region)
    r = lookup(map, regionIndex(scan));
  const bool forward = scan.strAttr("direction") != "reverse";
  const bool inclusive = scan.strAttr("kind") != "exclusive";
  Value *lo = lookup(map, memberBegin(scan));
  Value *hi = lookup(map, memberEnd(scan));
  Value *n = cb.b.binary(Opcode::Max, sub(hi, lo), i64v(0));
  Value *s = cb.b.launchValue(shiftExpr);
  Value *g = cb.b.binary(Opcode::Shl, i64v(1), s);
  Value *span = cb.mul(g, i64v(kPerLane));
  Value *lane = cb.laneId();
  Value *worker32 = cb.cast(worker, ScalarKind::I32);
  // The team's part of this warp: min(G, 32) lanes; the lane's place in it.
  Value *gw32 =
      cb.cast(cb.b.binary(Opcode::Min, g, i64v(32)), ScalarKind::I32);
  Value *inWarp = cb.b.binary(Opcode::BitAnd, worker32, sub(gw32, cb.i32(1)));
  Value *wide = nullptr, *warp = nullptr;
  if (wideTeams) {
    wide = cb.cmp("gt", g, i64v(32));
    warp = cb.cast(cb.warpId(), ScalarKind::I64);
  }

  // The trips of the warp's busiest team, the same on every lane (the
  // loop's shuffles need the whole warp); with wide teams the CTA's busiest
  // (their barriers need the CTA): the warps' through shared memory.
  Value *trips =
      cb.b.binary(Opcode::Div, sub(cb.add(n, span), i64v(1)), span);
  for (int o = 16; o >= 1; o /= 2)
    trips = cb.b.binary(Opcode::Max, trips,
                        cb.shuffle(trips, cb.i32(o), "xor"));
  if (wideTeams) {
    cb.when(cb.cmp("eq", lane, cb.i32(0)),
            [&] { cb.store(tripBuf, warp, trips); });
    cb.barrier();
    trips = cb.load(tripBuf, i64v(0));
    for (int w = 1; w < warps; ++w)
      trips = cb.b.binary(Opcode::Max, trips, cb.load(tripBuf, i64v(w)));
  } else {
    trips = cb.shuffle(trips, cb.i32(0), "idx");
  }

  Value *last = cb.add(sub(lane, inWarp), sub(gw32, cb.i32(1)));
  Value *prev = cb.b.binary(Opcode::Max, sub(lane, cb.i32(1)), cb.i32(0));
  Value *notFirst = cb.cmp("gt", worker, i64v(0));
  // A wide team's warps: its first, and one past its last.
  Value *inWarpNotFirst = nullptr, *firstWarp = nullptr, *endWarp = nullptr;
  if (wideTeams) {
    inWarpNotFirst = cb.cmp("gt", inWarp, cb.i32(0));
    firstWarp = sub(warp, cb.b.binary(Opcode::Shr, worker, i64v(5)));
    endWarp = cb.add(firstWarp, cb.b.binary(Opcode::Shr, g, i64v(5)));
  }
  const Value *kValue = scan.region(ValueRegion)->block.args[memberArg(scan)];
  const Value *kEmit = scan.region(OutRegion)->block.args[memberArg(scan)];
  const unsigned nc = types.size();
  // Slot i of trip t: visit index t 4G + i G + worker, its member and
  // whether it is in range; its value (the identity past the end).
  auto visit = [&](Value *t, int i, Value *&k, Value *&in) {
    Value *j = cb.add(cb.add(cb.mul(t, span), cb.mul(g, i64v(i))), worker);
    in = cb.cmp("lt", j, n);
    k = forward ? cb.add(lo, j) : sub(sub(hi, i64v(1)), j);
  };
  auto values = [&](Value *t) {
    Values xs;
    for (int i = 0; i < kPerLane; ++i) {
      Value *k, *in;
      visit(t, i, k, in);
      k->origin = kValue->origin;
      k->name = kValue->name;
      Values x = cb.branch(
          in, types,
          [&] { return fi.inlineRegion(scan, ValueRegion, args(k, {})); },
          [&] { return identity(); });
      xs.insert(xs.end(), x.begin(), x.end());
    }
    return xs;
  };
  // Carried: the trip, the carry and, with wide teams, the next trip's
  // values (loaded a trip ahead, so their latency overlaps the scan of the
  // current one: a few long rows have few warps to hide it).
  Values init = {i64v(0)};
  for (const Value *v : accInits(scan))
    init.push_back(lookup(map, const_cast<Value *>(v)));
  if (wideTeams) {
    Values first = values(i64v(0));
    init.insert(init.end(), first.begin(), first.end());
  }
  Values out = cb.loop(
      init, [&](const Values &c) { return cb.cmp("lt", c[0], trips); },
      [&](const Values &c) {
        Values carry(c.begin() + 1, c.begin() + 1 + nc);
        Values now = wideTeams ? Values(c.begin() + 1 + nc, c.end())
                               : values(c[0]);
        std::vector<Values> xs;
        for (int i = 0; i < kPerLane; ++i)
          xs.emplace_back(now.begin() + i * nc, now.begin() + (i + 1) * nc);
        Values ahead;
        if (wideTeams)
          ahead = values(cb.add(c[0], i64v(1)));
        // Each slot's scan within the warp's part of the team; a team wider
        // than a warp adds the totals of its warps before (shared memory):
        // per slot, the lanes up to this one (w), before it (exclusive:
        // lw, meaningful where `inWarpNotFirst` or wide), and the total.
        std::vector<Values> w;
        Values narrow; // w..., lw..., total...
        for (int i = 0; i < kPerLane; ++i)
          w.push_back(cb.warpScanUp(
              xs[i], [&](const Values &l, const Values &h) { return combine(l, h); },
              lane, inWarp, gw32));
        for (int i = 0; i < kPerLane; ++i)
          narrow.insert(narrow.end(), w[i].begin(), w[i].end());
        if (!inclusive)
          for (int i = 0; i < kPerLane; ++i)
            for (Value *v : w[i])
              narrow.push_back(cb.shuffle(v, prev, "idx"));
        for (int i = 0; i < kPerLane; ++i)
          for (Value *v : w[i])
            narrow.push_back(cb.shuffle(v, last, "idx"));
        const unsigned lwAt = kPerLane * nc,
                       totalAt = (inclusive ? 1 : 2) * kPerLane * nc;
        auto wideTotals = [&] {
          cb.when(cb.cmp("eq", lane, cb.i32(31)), [&] {
            for (int i = 0; i < kPerLane; ++i)
              for (unsigned c = 0; c < nc; ++c)
                cb.store(partBufs[c], cb.add(i64v(i * warps), warp), w[i][c]);
          });
          cb.barrier();
          // The warps before this one in order, then the rest of the team.
          auto fold = [&](Value *from, Value *to, const Values &start) {
            Values init = {from};
            init.insert(init.end(), start.begin(), start.end());
            Values out = cb.loop(
                init, [&](const Values &c) { return cb.cmp("lt", c[0], to); },
                [&](const Values &c) {
                  Values acc(c.begin() + 1, c.end()), next = {c[0]};
                  for (int i = 0; i < kPerLane; ++i) {
                    Values mine(acc.begin() + i * nc,
                                acc.begin() + (i + 1) * nc),
                        other;
                    for (unsigned k = 0; k < nc; ++k)
                      other.push_back(cb.load(
                          partBufs[k], cb.add(i64v(i * warps), c[0])));
                    Values a = combine(mine, other);
                    next.insert(next.end(), a.begin(), a.end());
                  }
                  return next;
                },
                [&](const Values &c) {
                  Values next = c;
                  next[0] = cb.add(c[0], i64v(1));
                  return next;
                });
            return Values(out.begin() + 1, out.end());
          };
          Values ids;
          const Values id = identity();
          for (int i = 0; i < kPerLane; ++i)
            ids.insert(ids.end(), id.begin(), id.end());
          Values before = fold(firstWarp, warp, ids);
          Values total = fold(warp, endWarp, before);
          // Every warp has read the totals before the next trip writes.
          cb.barrier();
          Values res;
          for (int i = 0; i < kPerLane; ++i) {
            Values b(before.begin() + i * nc, before.begin() + (i + 1) * nc);
            Values a = combine(b, w[i]);
            res.insert(res.end(), a.begin(), a.end());
          }
          if (!inclusive)
            for (int i = 0; i < kPerLane; ++i) {
              Values b(before.begin() + i * nc,
                       before.begin() + (i + 1) * nc);
              Values lw(narrow.begin() + lwAt + i * nc,
                        narrow.begin() + lwAt + (i + 1) * nc);
              Values a = select(inWarpNotFirst, combine(b, lw), b);
              res.insert(res.end(), a.begin(), a.end());
            }
          res.insert(res.end(), total.begin(), total.end());
          return res;
        };
        Values r = wideTeams ? cb.ifThen(wide, narrow, wideTotals) : narrow;
        // Each slot's state: the carry, then the team's lanes before (and,
        // inclusive, at) this one; the carry passes the slot's total on.
        auto part = [&](unsigned at, int i) {
          return Values(r.begin() + at + i * nc, r.begin() + at + (i + 1) * nc);
        };
        std::vector<Values> states;
        for (int i = 0; i < kPerLane; ++i) {
          if (inclusive)
            states.push_back(combine(carry, part(0, i)));
          else
            states.push_back(
                select(notFirst, combine(carry, part(lwAt, i)), carry));
          carry = combine(carry, part(totalAt, i));
        }
        // One emit (each KIR store once), slot by slot.
        Values e = {i64v(0)};
        cb.loop(
            e, [&](const Values &u) { return cb.cmp("lt", u[0], i64v(kPerLane)); },
            [&](const Values &u) {
              Value *k = nullptr, *in = nullptr;
              Values st = states[0];
              for (int i = 0; i < kPerLane; ++i) {
                Value *ki, *ini;
                visit(c[0], i, ki, ini);
                if (i == 0) {
                  k = ki;
                  in = ini;
                  continue;
                }
                Value *is = cb.cmp("eq", u[0], i64v(i));
                k = cb.select(is, ki, k);
                in = cb.select(is, ini, in);
                st = select(is, states[i], st);
              }
              k->origin = kEmit->origin;
              k->name = kEmit->name;
              cb.when(cb.both(active, in),
                      [&] { fi.inlineRegion(scan, OutRegion, args(k, st)); });
              return u;
            },
            [&](const Values &u) { return Values{cb.add(u[0], i64v(1))}; },
            /*unroll=*/kPerLane);
        Values next = {c[0]};
        next.insert(next.end(), carry.begin(), carry.end());
        next.insert(next.end(), ahead.begin(), ahead.end());
        return next;
      },
      [&](const Values &c) {
        Values next = c;
        next[0] = cb.add(c[0], i64v(1));
        return next;
      });
  out[0]->def->loc = scan.loc;
  if (region) {
    Values fin(out.begin() + 1, out.begin() + 1 + nc);
    cb.when(cb.both(active, cb.cmp("eq", worker, i64v(0))), [&] {
      Values a = {r};
      a.insert(a.end(), fin.begin(), fin.end());
      fi.inlineRegion(scan, FinalRegion, a);
    });
  }
}

void ScanLowering::addBuffers() {
  warps = std::max(1, p.ctaThreads / 32);
  if (!wideTeams)
    return;
  const unsigned group = static_cast<unsigned>(seg.intAttr("group"));
  auto add = [&](const std::string &name, ScalarKind elem, int64_t size) {
    Buffer b;
    b.id = p.buffers.size();
    b.name = name + "_g" + std::to_string(group);
    b.scope = BufferScope::CTAShared;
    b.elem = elem;
    b.size = size;
    b.init = InitMode::FirstWrite;
    b.ownership = Ownership::Private;
    b.writerGroups = b.readerGroups = {group};
    b.origin = seg.origin;
    p.buffers.push_back(b);
    return b.id;
  };
  tripId = add("scan_trips", ScalarKind::I64, warps);
  for (unsigned c = 0; c < types.size(); ++c)
    partIds.push_back(add("scan_part" + std::to_string(c), types[c].elem,
                          int64_t(kPerLane) * warps));
  layoutSharedBuffers(p);
}

void ScanLowering::run() {
  Block &blk = seg.regions[0]->block;
  Value *worker = blk.args[1], *active = blk.args[2];
  Block old;
  old.ops = std::move(blk.ops);
  blk.ops.clear();
  cb.b.setInsertionBlock(&blk);
  if (wideTeams)
    tripBuf = cb.alloc(tripId);
  for (unsigned id : partIds)
    partBufs.push_back(cb.alloc(id));
  std::unique_ptr<Op> terminator = std::move(old.ops.back());
  old.ops.pop_back();
  for (const auto &op : old.ops) {
    if (op.get() == &scan)
      lowerScan(worker, active);
    else
      fi.copy(*op, /*proven=*/true);
  }
  blk.ops.push_back(std::move(terminator));
}

int log2Of(int v) {
  int s = 0;
  while ((1 << s) < v)
    ++s;
  return s;
}

} // namespace

std::string intent::passes::applyScanTeamsSegment(Program &p, unsigned index,
                                                  std::string &what) {
  Op *segOp = nullptr;
  const Op *scan = nullptr;
  Segment &seg = p.segments[index];
  std::string why = rejection(p, seg, segOp, scan);
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
  using K = LaunchExpr::Kind;
  const bool region = scan->opcode == Opcode::RegionScan;
  const unsigned instances = seg.spread ? seg.instances : seg.length;
  // The members per instance on average: the bounds' when known at launch,
  // else the extent of a view the value region indexes by the member (over
  // the instances for a region_scan), else a warp's share assumed.
  unsigned m, per = p.constExpr(1);
  bool assumed = false;
  if (!region && isLaunchVisible(p, memberBegin(*scan)) &&
      isLaunchVisible(p, memberEnd(*scan))) {
    m = p.binaryExpr(K::Max,
                     p.binaryExpr(K::Sub, *launchExprOf(p, memberEnd(*scan)),
                                  *launchExprOf(p, memberBegin(*scan))),
                     p.constExpr(0));
  } else if (std::optional<unsigned> e =
                 memberExtentExpr(p, *scan, memberArg(*scan))) {
    // A scan's member indexes that coordinate directly (x(r, k), w[k]):
    // the extent bounds one instance's members; a region's members share
    // the view with the other regions'.
    m = *e;
    if (region)
      per = instances;
  } else {
    m = p.constExpr(32 * kPerLane);
    assumed = true;
  }
  // Teams of at most a warp. When the instances are too few to give the GPU
  // kFillThreads threads that way and a wider team would have its 4
  // members per thread, a launch-time alternative (the kernel again with
  // Program::longRows) gives teams up to the whole CTA; unless the program
  // already has a split-row one (cta-rows').
  const int maxShift = std::min(kMaxShift, log2Of(p.ctaThreads));
  const int wideShift = log2Of(p.ctaThreads);
  const bool wideTeams = p.longRows && wideShift > maxShift;
  const unsigned shift = teamShiftExpr(p, m, per, wideTeams ? wideShift : maxShift,
                                       kPerLane);
  const bool alternative =
      !p.longRows && wideShift > maxShift &&
      (p.alternativeWhen < 0 ||
       p.alternativeKind == Program::AlternativeKind::LongRows);
  if (alternative) {
    const unsigned wideExpr = teamShiftExpr(p, m, per, wideShift, kPerLane);
    const unsigned threads = p.binaryExpr(
        K::Mul, instances, p.constExpr(int64_t(1) << maxShift));
    const unsigned few = p.cmpExpr("lt", threads, p.constExpr(kFillThreads));
    const unsigned wider = p.cmpExpr("gt", wideExpr, p.constExpr(maxShift));
    unsigned cond = p.selectExpr(few, wider, few);
    if (p.alternativeWhen >= 0) { // either group's: a || b
      const unsigned before = static_cast<unsigned>(p.alternativeWhen);
      cond = p.selectExpr(before, before, cond);
    }
    p.alternativeWhen = static_cast<int>(cond);
    p.alternativeKind = Program::AlternativeKind::LongRows;
  }
  const std::string avg = p.exprToString(m) +
                          (per == instances ? " / " + p.exprToString(per) : "");
  const std::string kind = scan->strAttr("kind"),
                    dir = scan->strAttr("direction");
  laneTeamSegment(p, index, shift);
  ScanLowering lowering(p, *segOp, *scan, shift, wideTeams);
  lowering.addBuffers();
  lowering.run(); // `scan` is gone after this
  what = "scan-teams: each instance's " + kind + " " + dir + " " +
         (region ? "region_scan" : "scan") +
         " on a team of 2^S consecutive threads (S at launch: at most " +
         std::to_string(wideTeams ? wideShift : maxShift) +
         ", at least " + std::to_string(kPerLane) +
         " members per thread of the average member count " + avg +
         (assumed ? ", assumed" : "") + "), tiles of " +
         std::to_string(kPerLane) +
         " x 2^S members scanned by warp shuffles" +
         (wideTeams ? std::string(" (a team of several warps adds its warps' "
                                  "totals through shared memory)")
                    : std::string()) +
         ", carried in order" +
         (alternative
              ? "; teams up to the CTA in a launch-time alternative when the "
                "instances x " +
                    std::to_string(1 << maxShift) + " are below " +
                    std::to_string(kFillThreads)
              : std::string());
  return "";
}

void intent::passes::scanTeams(Program &p, phys::RemarkSink &sink) {
  for (unsigned s = 0; s < p.segments.size(); ++s) {
    const Op *segOp = segmentOp(p, p.segments[s].group);
    bool candidate = false;
    if (segOp && !p.segments[s].team && !p.segments[s].ordered)
      for (const auto &op : segOp->regions[0]->block.ops)
        candidate = candidate || isScan(*op);
    std::string what, why = applyScanTeamsSegment(p, s, what);
    if (why.empty())
      sink.remark(p.segments[s].loc, what);
    else if (candidate)
      sink.remark(p.segments[s].loc, "scan-teams: not applied: " + why);
  }
}
