//===- GridScan.cpp - A device-wide scan in one pass (decoupled look-back) ===//
//
// Before: a kernel whose one group is a single instance running a top-level
// scan (y[k] = x[0] + ... + x[k]; a running maximum; a user combine;
// compaction, the emit writing at the scanned count) runs the scan on one
// thread: 2^28 floats take seconds.
//
// After (docs/passes.md §12): one launch of a CTA of 256 threads per tile of
// 2048 members (8 per thread), the input read once:
//
//   ticket   thread 0 takes the next tile (an atomic counter, word 0 of the
//            status workspace): tiles go to CTAs in the order they start,
//            so a CTA only waits for CTAs already running
//   load     a full tile whose member loads are unit-stride and aligned:
//            each thread's 8 consecutive members straight into registers
//            with vector loads; any other tile: the members' values into
//            a shared tile (coalesced), each thread's 8 read back
//   local    thread t scans its 8 consecutive slots; warps scan the thread
//            totals (shuffles), warp totals through shared memory: the
//            threads before t and the tile's total
//   warp 0   publishes the tile's aggregate (flag A), looks back over the
//            tiles before it 32 at a time (lane l reads tile top - 32 + l)
//            until a tile with an inclusive prefix (flag P), combining in
//            member order, then publishes its own inclusive prefix (P)
//   emit     each member's state = exclusive prefix + threads before + its
//            own prefix; a full aligned tile whose emit only stores at
//            the member emits from registers, its stores as vectors;
//            else the states are written back to the tile and every
//            thread emits members t, t + 256, ... (coalesced)
//
// A single 4-byte state shares its 64-bit status word with the flag (bit
// 32), and so does a 64-bit count of 0 / 1 values (bit 62); other states
// take a flag word and per component an aggregate and a prefix word,
// published before the flag (release) and read after it (acquire). Every
// combine keeps member order (lower members on the left), so a user combine
// that is only associative is exact. A reverse scan is the same over the
// visit order (member end - 1 - v for visit index v). The scan must be
// reassociable (`intent::ordered` scans stay serial), its value region loads
// and pure code; its emit region computes, loads and stores at the member,
// at the state when the state counts the stores' condition (scan + scatter,
// emitRejection), or once at the last member.
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
#include <map>
#include <optional>
#include <set>

using namespace intent;
using namespace intent::phys;

namespace {

constexpr int kThreads = 256;
/// Members per thread and tile.
constexpr int kPerThread = 8;
constexpr int64_t kTile = static_cast<int64_t>(kThreads) * kPerThread;
/// CTAs each multiprocessor should hold at once (registers capped to fit
/// them): a tile waits for the tiles before it, so the memory stays busy
/// only with many tiles in flight per multiprocessor. Measured (H100,
/// session 19): no ask (64 registers, 4 CTAs) 0.69x / 0.68x / 1.26x /
/// 0.24x of CUB for the f32 and i32 sums, a user combine and compaction;
/// 5 (48 registers, no spills) 0.79x / 0.75x / 1.55x / 0.29x; 8 (32
/// registers, spills) 0.82x / 0.66x / 1.23x / 0.20x.
constexpr int kMinCtasPerSm = 5;

using Values = CoopBuilder::Values;

/// Shared-tile index of member slot j: one padding element per 32, so
/// thread t's 8 consecutive slots fall in different banks.
Value *padded(CoopBuilder &cb, Value *j) {
  return cb.add(j, cb.b.binary(Opcode::Div, j, cb.i64(32)));
}

/// Whether `b` (in the scan's emit region) computes what `a` (in its value
/// region) does: the member arguments correspond, invariants are the same
/// values, and every op is the same pure op or load with the same
/// attributes over corresponding operands.
bool sameValue(const Value *a, const Value *b, const Value *ka,
               const Value *kb, unsigned depth = 0) {
  if (ka && (a == ka || b == kb))
    return a == ka && b == kb;
  if (a == b)
    return true;
  if (!a->def || !b->def || depth > 24 || !(a->type == b->type))
    return false;
  const Op &x = *a->def, &y = *b->def;
  if (x.opcode != y.opcode || !x.regions.empty() || !y.regions.empty() ||
      x.operands.size() != y.operands.size() || x.results.size() != 1 ||
      (x.opcode != Opcode::Load && !isPure(x.opcode)) ||
      x.attrs.size() != y.attrs.size())
    return false;
  for (unsigned i = 0; i < x.attrs.size(); ++i)
    if (x.attrs[i].name != y.attrs[i].name ||
        x.attrs[i].value != y.attrs[i].value)
      return false;
  for (unsigned i = 0; i < x.operands.size(); ++i)
    if (!sameValue(x.operands[i], y.operands[i], ka, kb, depth + 1))
      return false;
  return true;
}

/// `v` without the integer conversions that keep every value (a count
/// widened to i64 is the count).
const Value *unwidened(const Value *v) {
  while (v->def && v->def->opcode == Opcode::Cast &&
         keepsEveryValue(v->def->operands[0]->type.elem, v->type.elem))
    v = v->def->operands[0];
  return v;
}

/// The condition C when the scan's value is a 0 / 1 choice on it: `C ? 1 :
/// 0` (an `if` yielding constants, a select, or a bool converted), so the
/// members where C holds have consecutive counts (a larger step could wrap
/// a 32-bit count onto an earlier one). Null otherwise.
const Value *countingCondition(const Op &scan) {
  const Block &blk = scan.region(ValueRegion)->block;
  const Op *y = blk.ops.empty() ? nullptr : blk.ops.back().get();
  if (!y || y->opcode != Opcode::Yield || y->operands.size() != 1)
    return nullptr;
  const Op *d = unwidened(y->operands[0])->def;
  if (!d)
    return nullptr;
  if (d->opcode == Opcode::Cast && d->operands[0]->type.isBool())
    return d->operands[0];
  auto counts = [](std::optional<int64_t> one, std::optional<int64_t> zero) {
    return one == 1 && zero == 0;
  };
  if (d->opcode == Opcode::Select &&
      counts(constantInt(d->operands[1]), constantInt(d->operands[2])))
    return d->operands[0];
  if (d->opcode == Opcode::If && d->results.size() == 1 &&
      d->regions.size() == 2) {
    auto yielded = [&](unsigned r) -> std::optional<int64_t> {
      const Block &b = d->regions[r]->block;
      if (b.ops.empty() || b.ops.back()->opcode != Opcode::Yield ||
          b.ops.back()->operands.size() != 1)
        return std::nullopt;
      for (const auto &o : b.ops)
        if (o->opcode != Opcode::Constant && o->opcode != Opcode::Yield)
          return std::nullopt;
      return constantInt(b.ops.back()->operands[0]);
    };
    if (counts(yielded(0), yielded(1)))
      return d->operands[0];
  }
  return nullptr;
}

/// Why the emit region cannot run once per member in any order, or "".
/// It computes, loads views it does not store, branches, and stores:
///  - at the member's own coordinate (`y[k]`, `y[k - lo]`; the others
///    invariant);
///  - at the scan's state (plus or minus an invariant) under a condition
///    the value counts (scan + scatter, compaction: `if (c(k)) out[pos] =
///    ...` where the value is `c(k) ? 1 : 0` and the state an integer sum):
///    members where the condition holds have distinct states, strictly
///    growing in visit order;
///  - at invariant coordinates under `k == the last member visited` (the
///    count written by the last element): one member stores.
std::string emitRejection(const Op &scan, const std::set<const Value *> &read) {
  const Block &emit = scan.region(OutRegion)->block;
  const Value *k = emit.args[0];
  const Value *state = emit.args.size() == 2 ? emit.args[1] : nullptr;
  const Value *kValue = scan.region(ValueRegion)->block.args[0];
  const bool reverse = scan.strAttr("direction") == "reverse";
  // The same in every member: defined outside the scan, or by region-free
  // ops (loads of views the emit does not store) over such values (an
  // `if` yielding the member is not).
  std::function<bool(const Value *)> invariant = [&](const Value *v) {
    if (!definedInside(v, scan))
      return true;
    if (!v->def || !v->def->regions.empty())
      return false;
    for (const Value *x : v->def->operands)
      if (!invariant(x))
        return false;
    return true;
  };
  // The scan's state counts members: a built-in integer sum of 0 / c >= 1.
  const Value *counted = nullptr;
  if (state && scan.strAttr("combiner") == "plus" &&
      kir::Type::scalar(state->type.elem).isInteger())
    counted = countingCondition(scan);
  std::set<const Value *> stored;
  walk(*scan.region(OutRegion), [&](const Op &o) {
    if (o.opcode == Opcode::Store)
      stored.insert(o.memory());
  });
  // `v` is the member plus or minus an invariant (or the state, `of`),
  // perhaps widened to another integer type (every value kept).
  auto shiftOf = [&](const Value *v, const Value *of) {
    v = unwidened(v);
    const Op *d = v->def;
    return v == of ||
           (d && (d->opcode == Opcode::Add || d->opcode == Opcode::Sub) &&
            ((d->operands[0] == of && invariant(d->operands[1])) ||
             (d->opcode == Opcode::Add && d->operands[1] == of &&
              invariant(d->operands[0]))));
  };
  // Whether the condition of an enclosing `if` (then-branch) satisfies
  // `holds`.
  auto under = [&](const Op &o, const std::function<bool(const Value *)> &holds) {
    const Op *inner = &o;
    for (const Op *a = o.parentOp(); a && a != &scan; inner = a, a = a->parentOp())
      if (a->opcode == Opcode::If && inner->parent == &a->regions[0]->block &&
          holds(a->operands[0]))
        return true;
    return false;
  };
  // `c` is `k == the last member visited` (end - 1 forward, begin in
  // reverse), either way round.
  const Value *begin = memberBegin(scan), *end = memberEnd(scan);
  auto isLast = [&](const Value *c) {
    const Op *d = c->def;
    if (!d || d->opcode != Opcode::Cmp || d->strAttr("pred") != "eq")
      return false;
    const Value *other = d->operands[0] == k   ? d->operands[1]
                         : d->operands[1] == k ? d->operands[0]
                                               : nullptr;
    if (!other)
      return false;
    if (reverse)
      return sameValue(other, begin, nullptr, nullptr);
    const Op *s = other->def;
    return s && s->opcode == Opcode::Sub &&
           sameValue(s->operands[0], end, nullptr, nullptr) &&
           constantInt(s->operands[1]) == 1;
  };
  std::string why;
  // View -> (0 at the member, 1 at the state, 2 once at the last member;
  // the first store).
  std::map<const Value *, std::pair<int, const Op *>> ways;
  walk(*scan.region(OutRegion), [&](const Op &o) {
    if (!why.empty() || isTerminator(o.opcode) || o.opcode == Opcode::If ||
        (o.regions.empty() && isPure(o.opcode)))
      return;
    if (o.opcode == Opcode::Load && o.memory()->type.isView() &&
        !o.guard()) {
      if (stored.count(o.memory()))
        why = "the scan's emit reads a view it writes";
      return;
    }
    if (o.opcode != Opcode::Store || o.guard() || !o.memory()->type.isView()) {
      why = "the scan's emit does more than compute, load, branch and store";
      return;
    }
    if (read.count(o.memory())) {
      why = "the scan's emit writes a view its value reads";
      return;
    }
    bool atK = false, atState = false;
    for (const Value *c : o.coords()) {
      if (shiftOf(c, k))
        atK = true;
      else if (state && shiftOf(c, state))
        atState = true;
      else if (!invariant(c))
        atK = atState = true; // neither: rejected below
    }
    // One way of storing per view, the same coordinates every time (y[k]
    // and y[k + 1] would meet across members, as would out[pos] and
    // out[k]).
    const int way = atK && !atState ? 0 : atState && !atK ? 1 : 2;
    auto consistent = [&] {
      auto [it, fresh] = ways.try_emplace(o.memory(), way, &o);
      if (fresh)
        return true;
      if (it->second.first != way)
        return false;
      if (way == 2)
        return true;
      const Op &first = *it->second.second;
      for (unsigned d = 0; d < o.coords().size(); ++d)
        if (!sameValue(first.coords()[d], o.coords()[d], nullptr, nullptr))
          return false;
      return true;
    };
    const bool legal =
        (way == 0) ||
        (way == 1 && counted &&
         under(o, [&](const Value *c) {
           return sameValue(counted, c, kValue, k);
         })) ||
        (!atK && !atState && under(o, isLast));
    if (legal && !consistent()) {
      why = "the scan's emit stores one view in two ways or at two "
            "coordinates (members would meet)";
      return;
    }
    if (legal)
      return;
    why = atState && !atK && !counted
              ? "the scan's emit stores at its state, but the state is not a "
                "count (a scatter needs an integer sum of `c(k) ? 1 : 0`)"
          : atState && !atK
              ? "the scan's emit stores at its state, but not under the "
                "condition its value counts (a scatter needs `if (c(k)) "
                "out[pos] = ...` with the value `c(k) ? 1 : 0`)"
              : "the scan's emit stores elsewhere than at its member (or at "
                "its state under the counted condition, or once, at the last "
                "member)";
  });
  return why;
}

std::string rejection(const Program &p, Op *&segOp, const Op *&scan) {
  if (p.scope != ExecScope::Thread)
    return "the program is already cooperative";
  if (p.segments.size() != 1 || !p.segments[0].ordered)
    return "the kernel is not one single instance";
  segOp = segmentOp(p, p.segments[0].group);
  if (!segOp)
    return "no segment op";
  for (const Buffer &b : p.buffers)
    if (b.scope != BufferScope::ExternalView)
      return "the program allocates buffer " + b.name;
  const Block &body = segOp->regions[0]->block;
  scan = nullptr;
  for (const auto &o : body.ops)
    if (o->opcode == Opcode::Scan && !scan)
      scan = o.get();
  if (!scan)
    return "the instance has no top-level scan";
  bool after = false;
  for (const auto &o : body.ops) {
    if (o.get() == scan) {
      after = true;
      continue;
    }
    if (isTerminator(o->opcode))
      continue;
    if (o->opcode == Opcode::Scan)
      return "the instance runs several scans";
    if (!o->regions.empty() || !isPure(o->opcode) || after)
      return "the instance does more than its scan";
  }
  if (!scan->boolAttr("reassociate"))
    return "the scan is ordered (intent::ordered): it stays serial";
  for (const AccComponent &c : scan->acc)
    if (c.identity == AccComponent::Identity::None)
      return "the accumulator has no identity";
  // The value region: loads and pure code; the emit region: pure code and
  // stores at the member's coordinate of views the value region does not
  // read.
  std::set<const Value *> read;
  bool computes = true;
  walk(*scan->region(ValueRegion), [&](const Op &o) {
    if (o.opcode == Opcode::Load && o.memory()->type.isView())
      read.insert(o.memory());
    else if (!isPure(o.opcode) && o.opcode != Opcode::If &&
             o.opcode != Opcode::Loop && o.opcode != Opcode::For &&
             o.opcode != Opcode::Yield && o.opcode != Opcode::Condition &&
             o.opcode != Opcode::Break && o.opcode != Opcode::Continue)
      computes = false;
  });
  if (!computes)
    return "the scan's value does more than load and compute";
  std::string why = emitRejection(*scan, read);
  if (!why.empty())
    return why;
  for (const AccComponent &c : scan->acc)
    if (c.type.elem == ScalarKind::Bool ||
        (elemBytes(c.type.elem) != 4 && elemBytes(c.type.elem) != 8))
      return "an accumulator component is not 4 or 8 bytes wide";
  if (!passes::isLaunchVisible(p, memberBegin(*scan)) ||
      !passes::isLaunchVisible(p, memberEnd(*scan)))
    return "the scan's bounds are not known at launch";
  return "";
}

class ScanLowering {
public:
  ScanLowering(Program &p, Op &segOp, const Op &scan, unsigned wsId,
               unsigned ticketId, std::vector<unsigned> tiles,
               std::vector<unsigned> warps, std::vector<unsigned> results)
      : p(p), segOp(segOp), scan(scan), cb(p, "grid-scan", scan.loc),
        fold(cb, map), wsId(wsId), ticketId(ticketId), tileIds(std::move(tiles)),
        warpIds(std::move(warps)), resultIds(std::move(results)) {
    for (const AccComponent &c : scan.acc)
      types.push_back(c.type);
    nc = types.size();
    shift = packedShift(scan, types);
    packed = shift != 0;
    findVectorLoads();
    findVectorStores();
  }

  /// Where the flag sits when a tile's state shares its 64-bit status
  /// word with it (one atomic publishes both, one reads both), else 0:
  /// above one 4-byte component (bit 32); above a 64-bit count (bit 62:
  /// a sum of 0 / 1 values from a constant init in [0, 2^40) stays below
  /// 2^62 for any member count memory can hold).
  static int packedShift(const Op &scan, const std::vector<Type> &types) {
    if (types.size() != 1)
      return 0;
    if (elemBytes(types[0].elem) == 4)
      return 32;
    std::optional<int64_t> init = constantInt(accInits(scan)[0]);
    const bool count = scan.strAttr("combiner") == "plus" &&
                       (types[0].elem == ScalarKind::I64 ||
                        types[0].elem == ScalarKind::U64) &&
                       countingCondition(scan) && init && *init >= 0 &&
                       *init < (int64_t(1) << 40);
    return count ? 62 : 0;
  }
  /// Status words per tile: the flag (with a packed value), else the flag,
  /// each component's aggregate and each component's inclusive prefix.
  static int64_t wordsPerTile(const Op &scan, const std::vector<Type> &types) {
    return packedShift(scan, types) ? 1 : 1 + 2 * static_cast<int64_t>(types.size());
  }

  void run() {
    Block &blk = segOp.regions[0]->block;
    Block old;
    old.ops = std::move(blk.ops);
    blk.ops.clear();
    Builder &b = cb.b;
    b.setInsertionBlock(&blk);
    ws = cb.alloc(wsId);
    ticket = cb.alloc(ticketId);
    for (unsigned c = 0; c < nc; ++c) {
      tile.push_back(cb.alloc(tileIds[c]));
      warp.push_back(cb.alloc(warpIds[c]));
      result.push_back(cb.alloc(resultIds[c]));
    }
    tid = cb.cast(cb.threadId(), ScalarKind::I64);
    lane = cb.cast(cb.laneId(), ScalarKind::I64);
    for (const auto &o : old.ops)
      if (!isTerminator(o->opcode) && &*o != &scan)
        fold.copy(*o);
    begin = lookup(map, memberBegin(scan));
    end = lookup(map, memberEnd(scan));
    n = b.binary(Opcode::Max, b.binary(Opcode::Sub, end, begin), cb.i64(0));
    tiles = b.binary(Opcode::Div, cb.add(n, cb.i64(kTile - 1)), cb.i64(kTile));

    // The tile: the next ticket (word 0), in the order the CTAs start, so
    // a CTA waits only for CTAs already running.
    cb.when(cb.cmp("eq", tid, cb.i64(0)), [&] {
      Value *one = cb.constant(int64_t(1), Type::scalar(ScalarKind::U64));
      Value *t = cb.atomic("add", "relaxed", ws, cb.i64(0), one);
      cb.store(ticket, cb.i64(0), cb.cast(t, ScalarKind::I64));
    });
    cb.barrier();
    Value *t = cb.load(ticket, cb.i64(0));
    Value *base = cb.mul(t, cb.i64(kTile));
    std::vector<Values> vals = threadValues(base);

    // Thread t's members in order: their inclusive prefixes; the threads
    // before it (exclusive) and the tile's total.
    std::vector<Values> local;
    Values run = identity();
    for (int i = 0; i < kPerThread; ++i) {
      run = combine(run, vals[i]);
      local.push_back(run);
    }
    Values total;
    Values before = threadsBefore(run, total);

    // Warp 0: publish the tile's aggregate, look back for the tiles
    // before it, publish its inclusive prefix; lane 0 hands the exclusive
    // one to the CTA.
    Value *wid = cb.cast(cb.warpId(), ScalarKind::I64);
    cb.when(cb.cmp("eq", wid, cb.i64(0)), [&] {
      Value *first = cb.cmp("eq", lane, cb.i64(0));
      cb.when(first, [&] { publish(t, kAggregate, total); });
      Values excl = lookBack(t);
      cb.when(first, [&] {
        publish(t, kPrefix, combine(excl, total));
        for (unsigned c = 0; c < nc; ++c)
          cb.store(result[c], cb.i64(0), excl[c]);
      });
    });
    cb.barrier();
    Values carry;
    for (unsigned c = 0; c < nc; ++c)
      carry.push_back(cb.load(result[c], cb.i64(0)));

    // Each member's state: carry + the threads before + its own prefix,
    // written back to the tile; every thread emits members t, t + 256, ...
    const bool inclusive = scan.strAttr("kind") != "exclusive";
    Values start = combine(carry, before);
    std::vector<Values> states;
    for (int i = 0; i < kPerThread; ++i)
      states.push_back(inclusive ? combine(start, local[i])
                                 : (i ? combine(start, local[i - 1]) : start));
    if (vecStores.empty()) {
      emitViaTile(base, states);
    } else {
      cb.branch(vectorTile(base, vecStoreViews), {}, [&] {
        vectorEmit(base, states);
        return Values();
      }, [&] {
        emitViaTile(base, states);
        return Values();
      });
    }
    b.setInsertionBlock(&blk);
    for (const auto &o : old.ops)
      if (isTerminator(o->opcode))
        cloneOp(b, *o, map);
  }

private:
  /// The states written back to the tile (thread t's slots), then one emit
  /// (the KIR store's one scalar implementation) per member t, t + 256,
  /// ... of the tile: coalesced.
  void emitViaTile(Value *base, const std::vector<Values> &states) {
    for (int i = 0; i < kPerThread; ++i) {
      Value *j = cb.add(cb.mul(tid, cb.i64(kPerThread)), cb.i64(i));
      for (unsigned c = 0; c < nc; ++c)
        cb.store(tile[c], padded(cb, j), states[i][c]);
    }
    cb.barrier();
    cb.loop(
        {tid}, [&](const Values &c) { return cb.cmp("lt", c[0], cb.i64(kTile)); },
        [&](const Values &c) {
          Value *v = cb.add(base, c[0]);
          Value *k = member(v);
          cb.when(cb.cmp("lt", v, n), [&] {
            Values st = tileAt(c[0]);
            Values args = {k};
            args.insert(args.end(), st.begin(), st.end());
            fold.inlineRegion(scan, OutRegion, args);
          });
          return c;
        },
        [&](const Values &c) { return Values{cb.add(c[0], cb.i64(kThreads))}; },
        /*unroll=*/kPerThread);
  }

  /// Tile status flags (0: nothing published yet).
  static constexpr int64_t kAggregate = 1, kPrefix = 2;

  Program &p;
  Op &segOp;
  const Op &scan;
  CoopBuilder cb;
  ValueMap map;
  FoldInliner fold;
  unsigned wsId, ticketId;
  std::vector<unsigned> tileIds, warpIds, resultIds;
  std::vector<Type> types;
  unsigned nc = 0;
  bool packed = false;
  int shift = 0; ///< the flag's bit in a packed status word
  Value *ws = nullptr, *ticket = nullptr, *tid = nullptr, *lane = nullptr,
        *begin = nullptr, *end = nullptr, *n = nullptr, *tiles = nullptr;
  const bool reverse = scan.strAttr("direction") == "reverse";
  Values tile, warp, result;

  Values identity() { return fold.identity(scan, types); }
  Values combine(const Values &lo, const Values &hi) {
    return fold.combine(scan, lo, hi);
  }
  Value *u64(int64_t v) {
    return cb.constant(v, Type::scalar(ScalarKind::U64));
  }
  Values tileAt(Value *j) {
    Values v;
    for (unsigned c = 0; c < nc; ++c)
      v.push_back(cb.load(tile[c], padded(cb, j)));
    return v;
  }

  /// Workspace words: 0 the ticket counter; 1 + t tile t's flag (and its
  /// packed value); unpacked, 1 + tiles + (c + which * nc) * tiles + t
  /// component c of tile t's aggregate (which 0) or inclusive prefix (1).
  Value *flagWord(Value *t) { return cb.add(cb.i64(1), t); }
  Value *valueWord(Value *t, int64_t flag, unsigned c) {
    int64_t which = flag == kPrefix ? 1 : 0;
    Value *row = cb.i64(1 + static_cast<int64_t>(c + which * nc));
    return cb.add(cb.mul(row, tiles), cb.add(cb.i64(1), t));
  }

  /// Publishes tile t's state `v` with `flag`: packed, one word of
  /// flag << shift | bits; else the components, then the flag with release
  /// order (a reader that acquires the flag sees them).
  void publish(Value *t, int64_t flag, const Values &v) {
    if (packed) {
      Value *word = cb.b.binary(Opcode::BitOr, cb.toBits(v[0]), u64(flag << shift));
      cb.atomic("exch", "relaxed", ws, flagWord(t), word);
      return;
    }
    for (unsigned c = 0; c < nc; ++c)
      cb.atomic("exch", "relaxed", ws, valueWord(t, flag, c), cb.toBits(v[c]));
    cb.atomic("exch", "release", ws, flagWord(t), u64(flag));
  }

  /// Tile w's flag and state as this lane reads them now (the state is
  /// the identity while the flag is 0).
  Values readStatus(Value *w) {
    if (packed) {
      Value *word = cb.atomic("add", "relaxed", ws, flagWord(w), u64(0));
      Value *flag = cb.cast(cb.b.binary(Opcode::Shr, word, u64(shift)), ScalarKind::I64);
      Value *bits = shift == 32 ? word
                                : cb.b.binary(Opcode::BitAnd, word,
                                              u64((int64_t(1) << shift) - 1));
      return {flag, cb.fromBits(bits, types[0])};
    }
    Value *flag = cb.cast(cb.atomic("add", "acquire", ws, flagWord(w), u64(0)),
                          ScalarKind::I64);
    std::vector<Type> ts = types;
    Values v = cb.branch(
        cb.cmp("eq", flag, cb.i64(kPrefix)), ts,
        [&] {
          Values x;
          for (unsigned c = 0; c < nc; ++c)
            x.push_back(cb.fromBits(
                cb.atomic("add", "relaxed", ws, valueWord(w, kPrefix, c), u64(0)),
                types[c]));
          return x;
        },
        [&] {
          return cb.branch(cb.cmp("eq", flag, cb.i64(kAggregate)), ts, [&] {
            Values x;
            for (unsigned c = 0; c < nc; ++c)
              x.push_back(cb.fromBits(
                  cb.atomic("add", "relaxed", ws, valueWord(w, kAggregate, c),
                            u64(0)),
                  types[c]));
            return x;
          }, [&] { return identity(); });
        });
    Values out = {flag};
    out.insert(out.end(), v.begin(), v.end());
    return out;
  }

  /// The decoupled look-back (warp 0, every lane): the ordered combine of
  /// the states of tiles 0 .. t - 1 with the scan's init on the left.
  /// Windows of 32 tiles, lane l reading tile top - 32 + l (a tile before
  /// 0 reads as an inclusive prefix holding the init); the window counts
  /// once every tile after its last inclusive prefix has published, from
  /// that prefix on (lower lanes on the left); without a prefix the
  /// whole window is an aggregate and the next window is read.
  Values lookBack(Value *t) {
    Values inits;
    for (const Value *v : accInits(scan))
      inits.push_back(lookup(map, const_cast<Value *>(v)));
    Value *lane32 = cb.laneId();
    Values start = {t, cb.boolean(true)};
    Values id = identity();
    start.insert(start.end(), id.begin(), id.end());
    Values out = cb.loop(
        start, [&](const Values &c) { return c[1]; },
        [&](const Values &c) {
          Value *top = c[0];
          Values acc(c.begin() + 2, c.end());
          Value *w = cb.add(cb.b.binary(Opcode::Sub, top, cb.i64(32)), lane);
          std::vector<Type> ts = {Type::scalar(ScalarKind::I64)};
          ts.insert(ts.end(), types.begin(), types.end());
          Values st = cb.branch(
              cb.cmp("ge", w, cb.i64(0)), ts, [&] { return readStatus(w); },
              [&] {
                Values x = {cb.i64(kPrefix)};
                x.insert(x.end(), inits.begin(), inits.end());
                return x;
              });
          Value *flag = st[0];
          Values vals(st.begin() + 1, st.end());
          // The last lane with a prefix and the last lane not yet
          // published (-1: none), the same in every lane.
          Value *none = cb.i32(-1);
          Values marks = {
              cb.select(cb.cmp("eq", flag, cb.i64(kPrefix)), lane32, none),
              cb.select(cb.cmp("eq", flag, cb.i64(0)), lane32, none)};
          marks = cb.warpTreeDown(marks, [&](const Values &l, const Values &h) {
            return Values{cb.b.binary(Opcode::Max, l[0], h[0]),
                          cb.b.binary(Opcode::Max, l[1], h[1])};
          });
          Value *lastP = cb.shuffle(marks[0], cb.i32(0), "idx");
          Value *lastZ = cb.shuffle(marks[1], cb.i32(0), "idx");
          Value *ready = cb.cmp("lt", lastZ,
                                cb.b.binary(Opcode::Max, lastP, cb.i32(0)));
          // The window from its last prefix on, in lane order.
          Value *counts = cb.cmp("ge", lane32, lastP);
          Values masked;
          for (unsigned k = 0; k < nc; ++k)
            masked.push_back(cb.select(counts, vals[k], id[k]));
          Values win = cb.warpTreeDown(masked, [&](const Values &l, const Values &h) {
            return combine(l, h);
          });
          for (Value *&v : win)
            v = cb.shuffle(v, cb.i32(0), "idx");
          Values merged = combine(win, acc);
          Values next = {
              cb.select(ready, cb.b.binary(Opcode::Sub, top, cb.i64(32)), top),
              cb.negate(cb.both(ready, cb.cmp("ge", lastP, cb.i32(0))))};
          for (unsigned k = 0; k < nc; ++k)
            next.push_back(cb.select(ready, merged[k], acc[k]));
          return next;
        },
        [](const Values &c) { return c; });
    return Values(out.begin() + 2, out.end());
  }

  /// The member at visit index `v`: begin + v forward, end - 1 - v in
  /// reverse (a reverse scan is a forward one over the visit order).
  Value *member(Value *v) {
    if (!reverse)
      return cb.add(begin, v);
    return cb.b.binary(Opcode::Sub,
                       cb.b.binary(Opcode::Sub, end, cb.i64(1)), v);
  }

  /// Where an access sits relative to the member k: element s (k + q) + c
  /// + o of its view, s >= 1 and q constants, c in [0, s) (the field of a
  /// record of s elements), o a value the same in every member (null: 0)
  /// added or subtracted (`x[k]`, `x[2k + 1]`, `y[k - lo]`, `x[k + 1]`).
  struct Place {
    int64_t s = 1, q = 0, c = 0;
    const Value *o = nullptr;
    bool minus = false;
    /// A view of rank > 1: its other coordinates, the same in every
    /// member (a row `x(b, k)`, `o(0, k)`: defined outside the scan or
    /// constants).
    std::vector<const Value *> outer;
    /// The same records (all but the field).
    bool sameRecords(const Place &x) const {
      if (s != x.s || q != x.q || o != x.o || minus != x.minus ||
          outer.size() != x.outer.size())
        return false;
      for (size_t d = 0; d < outer.size(); ++d) {
        std::optional<int64_t> a = constantInt(outer[d]), b = constantInt(x.outer[d]);
        if (outer[d] != x.outer[d] && !(a && b && *a == *b))
          return false;
      }
      return true;
    }
  };

  /// The place of coordinate `v` of an access in `region` of the scan
  /// (whose member argument is k), if it has one.
  std::optional<Place> placeOf(const Value *v, unsigned region) const {
    const Value *k = scan.region(region)->block.args[0];
    std::function<std::optional<Place>(const Value *, int)> walkTo =
        [&](const Value *x, int depth) -> std::optional<Place> {
      if (x == k)
        return Place{};
      const Op *d = x->def;
      if (!d || depth > 4)
        return std::nullopt;
      if (d->opcode == Opcode::Mul) {
        for (unsigned i = 0; i < 2; ++i)
          if (d->operands[i] == k)
            if (std::optional<int64_t> sc = constantInt(d->operands[1 - i]);
                sc && *sc >= 1)
              return Place{*sc, 0, 0, nullptr, false};
        return std::nullopt;
      }
      if (d->opcode != Opcode::Add && d->opcode != Opcode::Sub)
        return std::nullopt;
      const bool sub = d->opcode == Opcode::Sub;
      for (unsigned i = 0; i < (sub ? 1u : 2u); ++i) {
        std::optional<Place> p = walkTo(d->operands[i], depth + 1);
        const Value *other = d->operands[1 - i];
        if (!p)
          continue;
        if (std::optional<int64_t> c = constantInt(other)) {
          p->c += sub ? -*c : *c;
          return p;
        }
        if (!p->o && !definedInside(other, scan)) {
          p->o = other;
          p->minus = sub;
          return p;
        }
      }
      return std::nullopt;
    };
    std::optional<Place> p = walkTo(v, 0);
    if (!p)
      return std::nullopt;
    // c = s q' + field, the field in [0, s).
    int64_t field = ((p->c % p->s) + p->s) % p->s;
    p->q = (p->c - field) / p->s;
    p->c = field;
    return p;
  }

  /// The element of place `pl`'s record for member `m` (field 0).
  Value *recordStart(const Place &pl, Value *m) {
    if (pl.q)
      m = cb.add(m, cb.i64(pl.q));
    if (pl.s != 1)
      m = cb.mul(m, cb.i64(pl.s));
    if (pl.o) {
      Value *o = lookup(map, const_cast<Value *>(pl.o));
      m = pl.minus ? cb.b.binary(Opcode::Sub, m, o) : cb.add(m, o);
    }
    return m;
  }

  /// An access a full tile moves as vectors: top level, unguarded, of a
  /// view whose last coordinate is at a place and whose others are the
  /// same in every member.
  std::optional<Place> vectorPlace(const Op &o, unsigned region) const {
    llvm::ArrayRef<Value *> c = o.coords();
    if (o.guard() || !o.memory()->type.isView() || c.empty() ||
        c.size() != static_cast<size_t>(o.memory()->type.rank))
      return std::nullopt;
    for (size_t d = 0; d + 1 < c.size(); ++d)
      if (definedInside(c[d], scan) && !constantInt(c[d]))
        return std::nullopt;
    std::optional<Place> pl = placeOf(c.back(), region);
    if (pl)
      pl->outer.assign(c.begin(), c.end() - 1);
    return pl;
  }

  /// The coordinates of place `pl`'s element `last` (the other ones first).
  std::vector<Value *> placeCoords(const Place &pl, Value *last) {
    std::vector<Value *> c;
    for (const Value *v : pl.outer)
      if (std::optional<int64_t> k = constantInt(v); k && definedInside(v, scan))
        c.push_back(cb.i64(*k)); // (a constant of the region: its own copy)
      else
        c.push_back(lookup(map, const_cast<Value *>(v)));
    c.push_back(last);
    return c;
  }

  /// The views the value region reads as records at the member: every
  /// field c in [0, s) of the same records (s a power of two up to 8; s =
  /// 1: x[k], x[k + 1], x[k - lo]; s = 2: pairs x[2k], x[2k + 1]), so a
  /// thread's 8 members are exactly 8s consecutive elements: a full tile
  /// reads them as vectors. Loads of other views, of a record's fields in
  /// part or of two different records stay scalar.
  struct VecView {
    const Value *view = nullptr;
    Place place;               ///< field 0's
    const Op *first = nullptr; ///< an access of it (type, location, access)
  };
  std::vector<VecView> vecViews;
  /// Each vector-read load: its view's index in vecViews and its field c.
  std::map<const Op *, std::pair<size_t, int64_t>> vecLoads;

  void findVectorLoads() {
    const Block &vb = scan.region(ValueRegion)->block;
    // view -> (place, whether its loads agree, fields, loads)
    struct Reads {
      Place place;
      bool agree = true;
      std::set<int64_t> fields;
      std::vector<std::pair<const Op *, int64_t>> loads;
    };
    std::map<const Value *, Reads> by;
    std::vector<const Value *> order;
    for (const auto &o : vb.ops) {
      if (o->opcode != Opcode::Load)
        continue;
      std::optional<Place> pl = vectorPlace(*o, ValueRegion);
      if (!pl)
        continue;
      const Value *m = o->memory();
      auto [it, fresh] = by.try_emplace(m);
      if (fresh) {
        order.push_back(m);
        it->second.place = *pl;
      }
      Reads &r = it->second;
      r.agree &= r.place.sameRecords(*pl);
      r.fields.insert(pl->c);
      r.loads.push_back({o.get(), pl->c});
    }
    for (const Value *m : order) {
      Reads &r = by[m];
      const int64_t st = r.place.s;
      const bool whole = r.agree && st <= kPerThread && (st & (st - 1)) == 0 &&
                         r.fields.size() == static_cast<size_t>(st);
      if (!whole)
        continue;
      for (auto [o, field] : r.loads)
        vecLoads[o] = {vecViews.size(), field};
      Place start = r.place;
      start.c = 0;
      vecViews.push_back({m, start, r.loads.front().first});
    }
  }

  /// The emit region's stores when it only computes, loads and stores at
  /// the member's place (s = 1: y[k], y[k - lo]; unguarded, top level,
  /// one place per view): a full tile's states are emitted from registers,
  /// its stores as vectors; the views it stores and reads there, with
  /// their places, and each such access's view.
  std::vector<const Op *> vecStores;
  std::vector<VecView> vecStoreViews;
  std::map<const Op *, size_t> emitAt;

  void findVectorStores() {
    const Block &eb = scan.region(OutRegion)->block;
    std::vector<const Op *> found;
    std::vector<VecView> views;
    std::map<const Op *, size_t> at;
    for (const auto &o : eb.ops) {
      if (isTerminator(o->opcode))
        continue;
      if (!o->regions.empty())
        return;
      std::optional<Place> pl;
      if (o->opcode == Opcode::Store || o->opcode == Opcode::Load) {
        pl = vectorPlace(*o, OutRegion);
        if (pl && pl->s != 1)
          pl.reset();
      }
      if (o->opcode == Opcode::Store) {
        if (!pl)
          return;
        found.push_back(o.get());
      } else if (o->opcode != Opcode::Load && !isPure(o->opcode)) {
        return;
      }
      if (!pl)
        continue;
      auto it = std::find_if(views.begin(), views.end(),
                             [&](const VecView &v) { return v.view == o->memory(); });
      if (it == views.end())
        it = views.insert(views.end(), {o->memory(), *pl, o.get()});
      else if (!it->place.sameRecords(*pl))
        return;
      at[o.get()] = it - views.begin();
    }
    vecStores = std::move(found);
    vecStoreViews = std::move(views);
    emitAt = std::move(at);
  }

  /// The place of an emit access at one (null: not one).
  const Place *emitPlace(const Op &o) const {
    auto it = emitAt.find(&o);
    return it == emitAt.end() ? nullptr : &vecStoreViews[it->second].place;
  }

  /// The vector emit: the emit region once per member of this thread's
  /// slots on its state in registers, the member loads of each view as
  /// vectors (issued first), each view's stores gathered and stored as
  /// vectors.
  void vectorEmit(Value *base, const std::vector<Values> &states) {
    Builder &b = cb.b;
    const Block &eb = scan.region(OutRegion)->block;
    Value *low = lowestMember(base);
    std::map<const Value *, std::vector<Value *>> loaded, stored;
    for (const auto &o : eb.ops)
      if (o->opcode == Opcode::Load && !loaded.count(o->memory()))
        if (const Place *pl = emitPlace(*o))
          loaded[o->memory()] = vectorLoad(*o, low, *pl);
    for (int i = 0; i < kPerThread; ++i) {
      const int e = reverse ? kPerThread - 1 - i : i;
      Value *k = cb.add(low, cb.i64(e));
      k->origin = eb.args[0]->origin;
      map[eb.args[0]] = k;
      for (unsigned c = 0; c < nc; ++c)
        map[eb.args[1 + c]] = states[i][c];
      for (const auto &o : eb.ops) {
        if (isTerminator(o->opcode))
          continue;
        if (o->opcode == Opcode::Load && emitPlace(*o)) {
          map[o->result()] = loaded[o->memory()][e];
        } else if (o->opcode == Opcode::Store) {
          std::vector<Value *> &lanes = stored[o->memory()];
          lanes.resize(kPerThread, nullptr);
          lanes[e] = lookup(map, o->storedValue());
        } else {
          fold.copy(*o);
        }
      }
    }
    for (const Op *o : vecStores) {
      auto it = stored.find(o->memory());
      if (it == stored.end())
        continue; // (an earlier store op of the view wrote it)
      const Place &pl = *emitPlace(*o);
      const int64_t w = vectorWidth(o->memory());
      Value *from = recordStart(pl, low);
      for (int64_t h = 0; h < kPerThread; h += w) {
        std::vector<Value *> operands = {lookup(map, o->memory())};
        operands.insert(operands.end(), it->second.begin() + h,
                        it->second.begin() + h + w);
        for (Value *c : placeCoords(pl, h ? cb.add(from, cb.i64(h)) : from))
          operands.push_back(c);
        Op *vs = b.create(Opcode::VectorStore, operands, {});
        vs->setAttr("width", w);
        CoopBuilder::standsFor(vs, *o);
      }
      stored.erase(it);
    }
  }

  /// Load `o`'s view at the records of the 8 members from `low` on (place
  /// `pl`, field 0: its s consecutive elements per member), as vectors.
  std::vector<Value *> vectorLoad(const Op &o, Value *low, const Place &pl) {
    const Value *v = o.memory();
    const int64_t w = vectorWidth(v);
    Value *from = recordStart(pl, low);
    std::vector<Value *> out;
    for (int64_t h = 0; h < kPerThread * pl.s; h += w) {
      Values lanes = cb.vectorLoad(o, lookup(map, const_cast<Value *>(v)),
                                   placeCoords(pl, h ? cb.add(from, cb.i64(h)) : from),
                                   w);
      out.insert(out.end(), lanes.begin(), lanes.end());
    }
    return out;
  }

  /// Elements of view `v` one vector load moves: 16 bytes, at most a
  /// thread's members.
  static int64_t vectorWidth(const Value *v) {
    return std::min<int64_t>(kPerThread, 16 / elemBytes(v->type.elem));
  }

  /// The lowest member of thread t's slots in a full tile at visit index
  /// base: begin + base + 8t forward, end - base - 8t - 8 in reverse.
  Value *lowestMember(Value *base) {
    Value *first = cb.add(base, cb.mul(tid, cb.i64(kPerThread)));
    if (!reverse)
      return cb.add(begin, first);
    return cb.b.binary(Opcode::Sub,
                       cb.b.binary(Opcode::Sub, end, cb.i64(kPerThread)),
                       first);
  }

  /// Whether the tile at `base` takes the vector path for `views`: the
  /// launch is not the bounds-checked one, the tile is full and every view
  /// has unit stride and a base at which the thread slots (multiples of 8
  /// members from begin, or from end - 8 in reverse) are aligned to its
  /// vector. Uniform over the CTA.
  Value *vectorTile(Value *base, const std::vector<VecView> &views) {
    Builder &b = cb.b;
    Value *ok = cb.both(cb.uncheckedLaunch(),
                        cb.cmp("le", cb.add(base, cb.i64(kTile)), n));
    Value *from = reverse ? b.binary(Opcode::Max,
                                     b.binary(Opcode::Sub, end,
                                              cb.i64(kPerThread)),
                                     cb.i64(0))
                          : begin;
    auto aligned = [&](const Value *v, const Place &pl) {
      ok = cb.both(ok, cb.aligned(lookup(map, const_cast<Value *>(v)),
                                  placeCoords(pl, recordStart(pl, from)),
                                  vectorWidth(v) * elemBytes(v->type.elem)));
    };
    for (const VecView &v : views)
      aligned(v.view, v.place);
    return ok;
  }

  /// Thread t's members base + 8t + i (i < 8, in visit order): their
  /// values. A full aligned tile reads them straight into registers with
  /// vector loads; any other goes through the shared tile (coalesced
  /// scalar loads).
  std::vector<Values> threadValues(Value *base) {
    auto viaTile = [&] {
      loadTile(base);
      Values flat;
      for (int i = 0; i < kPerThread; ++i) {
        Values v = tileAt(cb.add(cb.mul(tid, cb.i64(kPerThread)), cb.i64(i)));
        flat.insert(flat.end(), v.begin(), v.end());
      }
      return flat;
    };
    Values flat;
    if (vecLoads.empty()) {
      flat = viaTile();
    } else {
      std::vector<Type> ts;
      for (int i = 0; i < kPerThread; ++i)
        ts.insert(ts.end(), types.begin(), types.end());
      flat = cb.branch(vectorTile(base, vecViews), ts, [&] { return vectorValues(base); },
                       viaTile);
    }
    std::vector<Values> out(kPerThread);
    for (int i = 0; i < kPerThread; ++i)
      out[i].assign(flat.begin() + i * nc, flat.begin() + (i + 1) * nc);
    return out;
  }

  /// The vector path: every vector view's 8 slots of this thread (all
  /// loads issued first), then the value region once per member on them.
  Values vectorValues(Value *base) {
    Value *low = lowestMember(base);
    // vecViews[i] -> its elements s low, s low + 1, ... (place s)
    std::vector<std::vector<Value *>> lanes;
    for (const VecView &v : vecViews)
      lanes.push_back(vectorLoad(*v.first, low, v.place));
    const Block &vb = scan.region(ValueRegion)->block;
    Values flat;
    for (int i = 0; i < kPerThread; ++i) {
      // Visit slot i is element i forward, 7 - i in reverse.
      const int e = reverse ? kPerThread - 1 - i : i;
      // (Its own value: the member's origin is not the vector base's.)
      Value *k = cb.add(low, cb.i64(e));
      k->origin = vb.args[0]->origin;
      map[vb.args[0]] = k;
      for (const auto &o : vb.ops) {
        if (o->opcode == Opcode::Yield) {
          for (Value *v : o->operands)
            flat.push_back(lookup(map, v));
          break;
        }
        auto it = vecLoads.find(o.get());
        if (it != vecLoads.end()) {
          const auto [view, field] = it->second;
          map[o->result()] = lanes[view][vecViews[view].place.s * e + field];
        } else {
          fold.copy(*o);
        }
      }
    }
    return flat;
  }

  /// The tile's member values into the shared tile: thread t computes
  /// visit indices base + t + 256 i (coalesced), the identity past the end.
  void loadTile(Value *base) {
    const Value *kArg = scan.region(ValueRegion)->block.args[0];
    for (int i = 0; i < kPerThread; ++i) {
      Value *j = cb.add(tid, cb.i64(static_cast<int64_t>(i) * kThreads));
      Value *vi = cb.add(base, j);
      Value *k = member(vi);
      Values v = cb.branch(cb.cmp("lt", vi, n), types, [&] {
        k->origin = kArg->origin;
        return fold.inlineRegion(scan, ValueRegion, {k});
      }, [&] { return identity(); });
      for (unsigned c = 0; c < nc; ++c)
        cb.store(tile[c], padded(cb, j), v[c]);
    }
    cb.barrier();
  }

  /// The ordered combine of the totals of the threads before this one
  /// (exclusive; the identity for thread 0); `total` gets the CTA's.
  Values threadsBefore(const Values &mine, Values &total) {
    // Warp inclusive scan, lower lanes first.
    Value *lane32 = cb.laneId();
    Values incl = cb.warpScanUp(
        mine, [&](const Values &l, const Values &h) { return combine(l, h); },
        lane32);
    // The lanes before this one: lane l - 1's inclusive value.
    Values up;
    Value *prev = cb.b.binary(Opcode::Max, cb.b.binary(Opcode::Sub, lane32, cb.i32(1)),
                              cb.i32(0));
    for (Value *v : incl)
      up.push_back(cb.shuffle(v, prev, "idx"));
    Values inWarp = cb.ifThen(cb.cmp("gt", lane32, cb.i32(0)), identity(),
                              [&] { return up; });
    // Warp totals through shared memory, then each thread folds the warps
    // before its own (and all of them for the tile's total).
    Value *wid = cb.cast(cb.warpId(), ScalarKind::I64);
    cb.when(cb.cmp("eq", lane, cb.i64(31)), [&] {
      for (unsigned c = 0; c < nc; ++c)
        cb.store(warp[c], wid, incl[c]);
    });
    cb.barrier();
    Values before = identity(), all = identity();
    for (int64_t w = 0; w < kThreads / 32; ++w) {
      Values tw;
      for (unsigned c = 0; c < nc; ++c)
        tw.push_back(cb.load(warp[c], cb.i64(w)));
      before = cb.ifThen(cb.cmp("lt", cb.i64(w), wid), before,
                         [&] { return combine(before, tw); });
      all = combine(all, tw);
    }
    // The warp slots are read before the next tile writes them (the
    // barrier after the tile is stored back).
    total = all;
    return combine(before, inWarp);
  }
};

} // namespace

std::string intent::passes::applyGridScan(Program &p, std::string &what) {
  Op *segOp = nullptr;
  const Op *scan = nullptr;
  std::string why = rejection(p, segOp, scan);
  if (!why.empty())
    return why;
  using K = LaunchExpr::Kind;
  const unsigned group = p.segments[0].group;
  const unsigned b = *passes::launchExprOf(p, memberBegin(*scan));
  const unsigned e = *passes::launchExprOf(p, memberEnd(*scan));
  const unsigned n =
      p.binaryExpr(K::Max, p.binaryExpr(K::Sub, e, b), p.constExpr(0));
  // One CTA per tile (none for an empty range).
  const unsigned count = p.binaryExpr(
      K::Div, p.binaryExpr(K::Add, n, p.constExpr(kTile - 1)), p.constExpr(kTile));
  resizeSegment(p, 0, count);

  std::vector<Type> types;
  for (const AccComponent &c : scan->acc)
    types.push_back(c.type);
  auto record = [&](const std::string &name, BufferScope scope, ScalarKind elem,
                    int64_t size) -> Buffer & {
    Buffer buf;
    buf.id = p.buffers.size();
    buf.name = name;
    buf.scope = scope;
    buf.elem = elem;
    buf.rank = 1;
    buf.size = size;
    buf.origin = scan->origin;
    p.buffers.push_back(buf);
    return p.buffers.back();
  };
  const unsigned wsId = p.buffers.size();
  {
    // Word 0 the ticket counter, then the tiles' status words
    // (ScanLowering::flagWord, valueWord); every access an atomic, zeroed
    // per launch.
    Buffer &ws = record("scan_status", BufferScope::InvocationWorkspace,
                        ScalarKind::U64, 0);
    ws.sizeExpr = static_cast<int>(p.binaryExpr(
        K::Add, p.constExpr(1),
        p.binaryExpr(K::Mul, count,
                     p.constExpr(ScanLowering::wordsPerTile(*scan, types)))));
    ws.workspaceOffset = 0;
    ws.init = InitMode::Value;
    ws.initValue = 0;
    ws.ownership = Ownership::Atomic;
    ws.sharing = Sharing::Launch;
    ws.writerGroups = {group};
  }
  const unsigned ticketId = p.buffers.size();
  {
    Buffer &t = record("scan_ticket", BufferScope::CTAShared, ScalarKind::I64, 1);
    t.init = InitMode::FirstWrite;
    t.ownership = Ownership::Private;
    t.writerGroups = {group};
    t.readerGroups = {group};
  }
  std::vector<unsigned> tiles, warps, results;
  for (unsigned c = 0; c < types.size(); ++c) {
    const std::string sfx = std::to_string(c);
    for (auto [ids, name, size] :
         {std::tuple{&tiles, "scan_tile", kTile + kTile / 32},
          std::tuple{&warps, "scan_warp", int64_t(32)},
          std::tuple{&results, "scan_result", int64_t(1)}}) {
      ids->push_back(p.buffers.size());
      Buffer &s = record(std::string(name) + sfx, BufferScope::CTAShared,
                         types[c].elem, size);
      s.init = InitMode::FirstWrite;
      s.ownership = Ownership::Private;
      s.writerGroups = {group};
      s.readerGroups = {group};
    }
  }
  p.scope = ExecScope::CTA;
  p.ctaThreads = kThreads;
  p.minCtasPerSm = kMinCtasPerSm;
  layoutSharedBuffers(p);
  const std::string kind = scan->strAttr("kind");
  ScanLowering(p, *segOp, *scan, wsId, ticketId, tiles, warps, results).run();
  what = "grid-scan: the " + kind + " scan runs in one pass on " +
         p.exprToString(count) + " CTAs of " + std::to_string(kThreads) +
         " threads, a tile of " + std::to_string(kTile) +
         " members each, taken in the order the CTAs start: each tile "
         "publishes its aggregate, looks back over the tiles before it "
         "(32 at a time) and publishes its inclusive prefix";
  return "";
}

void intent::passes::gridScan(Program &p, phys::RemarkSink &sink) {
  std::string what, why = applyGridScan(p, what);
  if (why.empty()) {
    sink.remark(p.segments[0].loc, what);
    return;
  }
  // Only a single instance with a scan is a candidate.
  if (why.find("scan") != std::string::npos &&
      why.find("no top-level scan") == std::string::npos &&
      !p.segments.empty())
    sink.remark(p.segments[0].loc, "grid-scan: not applied: " + why);
}
