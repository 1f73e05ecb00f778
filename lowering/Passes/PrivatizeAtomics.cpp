//===- PrivatizeAtomics.cpp - Histograms in shared memory per CTA ---------===//
//
// Before: a parallel segment of a thread program whose instances update a
// view only through relaxed atomics whose old value nobody reads (a
// histogram: `atomic_add(bins[bin(x[i])], 1)`; per-cluster sums and counts)
// runs one instance per thread, every update a global atomic: when many
// instances hit few elements the updates of one element serialize in L2
// (256 bins: 69 ms for 2^28 samples, 200x CUB).
//
// After (docs/passes.md §11): a cta program of T = 256 threads and P =
// min(ceil(N / 1024), 8 x sm_count) programs striding over the N instances.
// Each CTA keeps a private copy of every such view in shared memory (a
// cta_shared buffer sized per launch, `privatizes` the view), updated with
// CTA-scope atomics, and merges it into the view once at the end:
//
//   s[j] = identity                   for j = t, t + T, ... < size  (zero)
//   barrier
//   if g0 < N:                        // g0 = q T + t
//     prefetch the loads of instances g0, g0 + PT, g0 + 2PT (clamped to g0)
//     loop g = g0 while g < N:
//       prefetch instance g + 3PT's loads; the rest of instance g with the
//       view atomics `atomic v[c], x` rewritten as
//         if fits && c inside v's extents { atomic s[linear(c)], x (cta) }
//         else { atomic v[c], x (gpu) }    // the original, checked as before
//       g += PT
//   barrier
//   v[delinearize(j)] (atomic kind) s[j]  for j = t, t + T, ... < size
//                                         where s[j] != identity
//
// A one-dimensional group whose prefetched loads read rank-1 views at the
// instance coordinate (plus an invariant) and whose rest stores nothing
// but atomics walks chunks of W = 16 bytes of them instead (chunkLoop):
// one vector load per view and chunk, the rest once per lane in a loop
// over the lanes; the instances past the last full chunk, misaligned
// views and the checked launch one instance per chunk.
//
// The copies take `fits` at launch: the views' elements together take at
// most kMaxSharedBytes and there are at least as many instances as
// elements; otherwise size is 0 and every update takes the original global
// atomic (still one launch of P CTAs). A prefetched op is a top-level load
// of a view the program never writes or pure code over such loads and the
// coordinates: it runs for a clamped instance (g0, which the thread runs
// anyway) when the one it stands for is past the end, so it computes
// nothing the original did not.
//
//===----------------------------------------------------------------------===//

#include "Passes/Passes.h"

#include "Physical/Clone.h"
#include "Physical/Coop.h"
#include "Physical/CoopBuild.h"
#include "Physical/Dispatch.h"
#include "Physical/Structured.h"

#include "llvm/ADT/DenseSet.h"

#include <map>
#include <set>

using namespace intent;
using namespace intent::phys;

namespace {

constexpr int kThreads = 256;
/// Instances per thread before another program is added (4 per thread of
/// the first trip's prefetch depth).
constexpr int64_t kInstancesPerThread = 4;
/// Resident CTAs per multiprocessor the grid is sized for.
constexpr int64_t kCtasPerSm = 8;
/// Loads prefetched ahead: instances g .. g + (kDepth - 1) PT in flight.
constexpr int kDepth = 4;
/// Shared-memory bytes of a CTA's private copies, at most (the default
/// dynamic shared memory limit, so 4 CTAs of 256 threads stay resident).
constexpr int64_t kMaxSharedBytes = 48 * 1024;
/// Copies per CTA at most: warp w updates copy w % R, so the warps of a
/// CTA collide on one address R times less often (few bins, many samples
/// per bin); R as many as fit kCopyBytes.
constexpr int64_t kMaxCopies = 8;
constexpr int64_t kCopyBytes = 16 * 1024;

/// The atomic kinds a CTA copy can accumulate: commutative and
/// associative, with an identity (floating min/max propagate NaN, which
/// is both).
const char *combinerOf(llvm::StringRef kind) {
  return kind == "add" ? "plus" : kind == "min" ? "min"
                                : kind == "max" ? "max" : nullptr;
}

/// One privatized view.
struct Target {
  unsigned param = 0;
  const Value *view = nullptr;
  std::string kind;
  ScalarKind elem = ScalarKind::I32;
  int rank = 1;
  unsigned elements = 0; ///< launch expr: product of its extents
  unsigned buffer = 0;
  unsigned sizeExpr = 0; ///< elements when the copies fit, else 0
  unsigned sharedExpr = 0; ///< the buffer's elements: R copies of sizeExpr
};

/// The view parameters the segment updates only by privatizable atomics.
std::vector<Target> findTargets(const Program &p, const Op &segOp,
                                std::string &why) {
  std::map<unsigned, Target> cands;
  std::map<unsigned, std::string> spoiled; // param -> the first reason
  std::map<unsigned, std::string> kinds;
  std::set<const Op *> inSegment;
  walk(*segOp.regions[0], [&](const Op &o) { inSegment.insert(&o); });
  // The values some op reads (an atomic's old value among them is used).
  llvm::DenseSet<const Value *> used;
  walk(*p.body, [&](const Op &o) { used.insert(o.operands.begin(), o.operands.end()); });
  walk(*p.body, [&](const Op &o) {
    if (o.operands.empty() ||
        !(o.opcode == Opcode::Load || o.opcode == Opcode::Store ||
          o.opcode == Opcode::VectorLoad || o.opcode == Opcode::VectorStore ||
          isAtomic(o.opcode)))
      return;
    const Value *m = o.memory();
    if (!m->isBlockArg() || m->owner != &p.body->block || !m->type.isView())
      return;
    const unsigned param = m->argNo;
    const bool atomic = o.opcode == Opcode::Atomic;
    std::string bad;
    if (!isAtomic(o.opcode))
      bad = "it is also read or written without atomics";
    else if (!atomic || !combinerOf(o.strAttr("kind")))
      bad = "an atomic " + (atomic ? o.strAttr("kind") : std::string("cas")) +
            " has no per-CTA accumulation (only add, min and max do)";
    else if (o.strAttr("order") != "relaxed")
      bad = "an atomic has memory order " + o.strAttr("order") +
            " (only relaxed updates may be deferred to the CTA's end)";
    else if (used.count(o.result()))
      bad = "an atomic's old value is used";
    else if (kinds.count(param) && kinds[param] != o.strAttr("kind"))
      bad = "it is updated by atomics of two kinds";
    if (atomic && !kinds.count(param))
      kinds[param] = o.strAttr("kind");
    if (!bad.empty()) {
      spoiled.emplace(param, bad);
      if (isAtomic(o.opcode) && inSegment.count(&o))
        cands.emplace(param, Target());
      return;
    }
    if (!inSegment.count(&o) || cands.count(param))
      return;
    Target t;
    t.param = param;
    t.view = m;
    t.kind = o.strAttr("kind");
    t.elem = m->type.elem;
    t.rank = m->type.rank;
    cands.emplace(param, t);
  });
  std::vector<Target> out;
  for (auto &[param, t] : cands) {
    auto it = spoiled.find(param);
    if (it == spoiled.end())
      out.push_back(t);
    else if (why.empty())
      why = p.params[param].name + ": " + it->second;
  }
  if (cands.empty())
    why = "no view is updated by atomics";
  return out;
}

std::string rejection(const Program &p, unsigned index, Op *&segOp,
                      std::vector<Target> &targets) {
  const Segment &seg = p.segments[index];
  // Only a group that updates views by atomics is a candidate.
  segOp = segmentOp(p, seg.group);
  if (!segOp)
    return "no segment op";
  std::string why;
  targets = findTargets(p, *segOp, why);
  if (targets.empty())
    return why;
  if (p.scope != ExecScope::Thread)
    return "the program is already cooperative";
  if (seg.ordered)
    return "the group is a single instance";
  if (containsPrint(*segOp->regions[0]))
    return "the instance prints";
  for (const Buffer &b : p.buffers)
    if (b.scope != BufferScope::ExternalView)
      return "the program allocates buffer " + b.name;
  if (seg.spread || seg.team || seg.tile >= 0)
    return "the group is already mapped";
  // The instance coordinates: one delinearize of the instance index, each
  // coordinate one dimension of one KIR parallel_for.
  const Block &body = segOp->regions[0]->block;
  const Op *delin = nullptr;
  for (const auto &o : body.ops)
    if (o->opcode == Opcode::Delinearize && isInstanceIndex(*segOp, o->operands[0]))
      delin = o.get();
  if (!delin)
    return "the instance index is not decoded";
  // (A program parsed from text has no value origins: its coordinates
  // are the segment's parallel_for's, dimensions 0, 1, ...)
  for (unsigned d = 0; d < delin->results.size(); ++d) {
    const Value *c = delin->result(d);
    if (!c->alsoFrom.empty())
      return "the group fuses several parallel_fors";
    const bool unknown = c->origin.op < 0 && segOp->origin.op >= 0;
    if (!unknown &&
        (c->origin.op < 0 || c->origin.op != delin->result(0)->origin.op ||
         c->origin.arg != delin->result(0)->origin.arg + static_cast<int>(d)))
      return "the instance coordinates are not one parallel_for's";
  }
  return "";
}

/// Writes the privatized traversal of one segment.
class Privatizer {
public:
  Privatizer(Program &p, Op &segOp, std::vector<Target> &targets,
             unsigned instances, std::vector<unsigned> extents,
             unsigned programs, unsigned fits, unsigned copies)
      : p(p), segOp(segOp), targets(targets), instances(instances),
        extents(std::move(extents)), programs(programs), fits(fits),
        copies(copies),
        cb(p, "privatize-atomics", segOp.loc) {}

  void run() {
    std::unique_ptr<Region> old = std::move(segOp.regions[0]);
    segOp.regions.clear();
    const Block &body = old->block;
    classify(body);
    findVectorLoads();

    Builder &b = cb.b;
    Region *r = b.addRegion(&segOp);
    b.setInsertionBlock(&r->block);
    Value *local = b.addBlockArg(&r->block, Type::index());
    Value *P = b.launchValue(programs);
    Value *q = b.create(Opcode::Delinearize, {local, P}, {Type::index()})
                   ->result();
    Value *t = cb.cast(cb.threadId(), ScalarKind::I64);
    Value *T = cb.i64(kThreads);
    Value *N = b.launchValue(instances);
    fitsV = b.launchValue(fits);
    copiesV = b.launchValue(copies);
    Value *myCopy = b.binary(Opcode::Rem, cb.cast(cb.warpId(), ScalarKind::I64),
                             copiesV);
    for (Target &tg : targets) {
      allocs.push_back(cb.alloc(tg.buffer));
      sizes.push_back(b.launchValue(tg.sizeExpr));
      totals.push_back(b.launchValue(tg.sharedExpr));
      mineAt.push_back(cb.mul(myCopy, sizes.back()));
      identities.push_back(
          cb.constant(*combinerIdentity(combinerOf(tg.kind), tg.elem),
                      Type::scalar(tg.elem)));
    }
    // The ops every instance computes alike, once.
    for (const Op *o : invariant)
      cloneOp(b, *o, base);

    for (unsigned k = 0; k < targets.size(); ++k)
      strided(t, totals[k], T, [&](Value *j) {
        cb.store(allocs[k], j, identities[k]);
      });
    cb.barrier();

    Value *stride = cb.mul(P, T);
    Value *g0 = cb.add(cb.mul(q, T), t);
    if (!vecLoads.empty())
      chunkLoop(g0, N, stride);
    else
      stridedLoop(g0, N, stride);
    cb.barrier();

    for (unsigned k = 0; k < targets.size(); ++k) {
      const Target &tg = targets[k];
      // Adds, and min / max of integers, fold the copies into copy 0;
      // float min / max (NaN propagates) merge each copy by itself.
      const bool foldCopies =
          tg.kind == "add" || !kir::Type::scalar(tg.elem).isFloat();
      const Opcode op = tg.kind == "add"   ? Opcode::Add
                        : tg.kind == "min" ? Opcode::Min
                                           : Opcode::Max;
      strided(t, sizes[k], T, [&](Value *j0) {
        CoopBuilder::Values acc = {cb.i64(foldCopies ? 1 : 0)};
        if (foldCopies)
          acc.push_back(cb.load(allocs[k], j0));
        Value *j = j0;
        CoopBuilder::Values after = cb.loop(
            acc, [&](const CoopBuilder::Values &c) { return cb.cmp("lt", c[0], copiesV); },
            [&](const CoopBuilder::Values &c) {
              Value *x = cb.load(allocs[k], cb.add(j0, cb.mul(c[0], sizes[k])));
              if (foldCopies)
                return CoopBuilder::Values{c[0], b.binary(op, c[1], x)};
              merge(tg, k, j0, x);
              return c;
            },
            [&](const CoopBuilder::Values &c) {
              CoopBuilder::Values n = c;
              n[0] = cb.add(c[0], cb.i64(1));
              return n;
            });
        if (!foldCopies)
          return;
        cb.store(allocs[k], j, after[1]);
        merge(tg, k, j, cb.load(allocs[k], j));
      });
    }
    b.yield();
    finishAccesses(r);
  }

  /// `atomic V[delinearize(j)], v` when v is not the identity (v loaded
  /// from the copy: the merge of IR.h isPrivatizedMerge).
  void merge(const Target &tg, unsigned k, Value *j, Value *v) {
    Builder &b = cb.b;
    cb.when(cb.cmp("ne", v, identities[k]), [&] {
          std::vector<Value *> exts;
          for (int d = 0; d < tg.rank; ++d) {
            Op *e = b.create(Opcode::Extent, {const_cast<Value *>(tg.view)},
                             {Type::index()});
            e->setAttr("dim", static_cast<int64_t>(d));
            exts.push_back(e->result());
          }
          std::vector<Value *> ops = {j};
          ops.insert(ops.end(), exts.begin(), exts.end());
          std::vector<Type> types(tg.rank, Type::index());
          Op *dl = b.create(Opcode::Delinearize, ops, types);
          relaxedAtomic(tg, const_cast<Value *>(tg.view), v,
                        {dl->results.begin(), dl->results.end()});
    });
  }

  /// `atomic mem[coords], x {kind of tg, relaxed}` (its bounds the
  /// pass's: the element is inside, finishAccesses makes it each
  /// thread's).
  void relaxedAtomic(const Target &tg, Value *mem, Value *x,
                     llvm::ArrayRef<Value *> coords) {
    std::vector<Value *> operands = {mem, x};
    operands.insert(operands.end(), coords.begin(), coords.end());
    Op *a = cb.b.create(Opcode::Atomic, operands, {Type::scalar(tg.elem)});
    a->setAttr("kind", tg.kind);
    a->setAttr("order", std::string("relaxed"));
    a->access.bounds = Bounds::Assumed;
  }

  void finishAccesses(Region *r) {
    // Every access of the new region is each thread's own; a proof of
    // bounds over the old coordinates does not carry over.
    walkMutable(*r, [](Op &o) {
      if (o.opcode == Opcode::Load || o.opcode == Opcode::Store ||
          isAtomic(o.opcode)) {
        o.access.active = ActiveSet::Thread;
        if (o.access.bounds == Bounds::Proven)
          o.access.bounds = Bounds::Assumed;
      }
    });
  }

private:
  Program &p;
  Op &segOp;
  std::vector<Target> &targets;
  unsigned instances;
  std::vector<unsigned> extents;
  unsigned programs, fits, copies;
  CoopBuilder cb;
  Value *copiesV = nullptr;
  std::vector<Value *> totals, mineAt;
  Value *fitsV = nullptr;
  std::vector<Value *> allocs, sizes, identities;

  const Op *delin = nullptr;
  Origin coordOrigin;
  std::vector<const Op *> invariant, hoisted, later;
  /// Hoisted values the rest of the instance uses, in a fixed order.
  std::vector<const Value *> carried;
  ValueMap base; ///< the invariant ops' copies

  /// Splits the instance's top-level ops: invariant (no dependence on the
  /// instance, no effect), hoisted (loads of unwritten views and pure code
  /// over them and the coordinates) and the rest, in order.
  void classify(const Block &body) {
    std::set<int> written;
    walk(*p.body, [&](const Op &o) {
      if ((o.opcode == Opcode::Store || o.opcode == Opcode::VectorStore ||
           isAtomic(o.opcode)) &&
          o.memory()->isBlockArg())
        written.insert(o.memory()->argNo);
    });
    llvm::DenseSet<const Value *> dependent, hoistedVals, restVals;
    dependent.insert(body.args.begin(), body.args.end());
    for (const auto &up : body.ops) {
      const Op &o = *up;
      if (isTerminator(o.opcode))
        continue;
      if (o.opcode == Opcode::Delinearize && o.operands[0] == body.args[0]) {
        delin = &o;
        coordOrigin = o.result(0)->origin;
        if (coordOrigin.op < 0) {
          coordOrigin = segOp.origin;
          coordOrigin.arg = 0;
        }
        for (const Value *c : o.results)
          dependent.insert(c), hoistedVals.insert(c);
        continue;
      }
      bool dep = false, onRest = false;
      for (const Value *v : o.operands) {
        dep |= dependent.count(v) != 0;
        onRest |= restVals.count(v) != 0;
      }
      const bool unwrittenLoad =
          o.opcode == Opcode::Load && o.memory()->isBlockArg() &&
          !written.count(o.memory()->argNo);
      const bool movable =
          o.regions.empty() && (isPure(o.opcode) || unwrittenLoad) &&
          o.opcode != Opcode::Delinearize;
      if (movable && !dep) {
        invariant.push_back(&o);
        continue;
      }
      for (const Value *r : o.results)
        dependent.insert(r);
      if (movable && !onRest) {
        hoisted.push_back(&o);
        for (const Value *r : o.results)
          hoistedVals.insert(r);
      } else {
        later.push_back(&o);
        for (const Value *r : o.results)
          restVals.insert(r);
      }
    }
    // What the rest reads of the hoisted ops (not the coordinates, which
    // the rest decodes itself).
    std::set<unsigned> seen;
    for (const Op *o : later)
      walkOperands(*o, [&](const Value *v) {
        if (hoistedVals.count(v) && v->def && v->def != delin &&
            seen.insert(v->id).second)
          carried.push_back(v);
      });
  }

  static void walkOperands(const Op &o,
                           const std::function<void(const Value *)> &fn) {
    for (const Value *v : o.operands)
      fn(v);
    for (const auto &r : o.regions)
      for (const auto &inner : r->block.ops)
        walkOperands(*inner, fn);
  }

  /// One instance per step (instances g0, g0 + P T, ...), the loads of
  /// the next kDepth - 1 prefetched.
  void stridedLoop(Value *g0, Value *N, Value *stride) {
    Builder &b = cb.b;
    cb.when(cb.cmp("lt", g0, N), [&] {
      // Instances g0 + d PT for d < kDepth - 1 prefetched, then the loop.
      CoopBuilder::Values init = {g0};
      const unsigned depth = carried.empty() ? 1 : kDepth;
      for (unsigned d = 1; d < depth; ++d) {
        Value *gd = cb.add(g0, cb.mul(stride, cb.i64(d - 1)));
        for (Value *v : prefetch(clamp(gd, N, g0)))
          init.push_back(v);
      }
      const size_t w = carried.size();
      cb.loop(
          init, [&](const CoopBuilder::Values &c) { return cb.cmp("lt", c[0], N); },
          [&](const CoopBuilder::Values &c) {
            Value *g = c[0];
            CoopBuilder::Values next = {g};
            // The loads of instance g + (depth - 1) PT.
            std::vector<Value *> ahead;
            if (depth > 1)
              ahead = prefetch(clamp(
                  cb.add(g, cb.mul(stride, cb.i64(depth - 1))), N, g));
            std::vector<Value *> mine(c.begin() + 1, c.begin() + 1 + w);
            rest(g, mine);
            for (size_t i = 1 + w; i < c.size(); ++i)
              next.push_back(c[i]);
            next.insert(next.end(), ahead.begin(), ahead.end());
            return next;
          },
          [&](const CoopBuilder::Values &c) {
            CoopBuilder::Values n = c;
            n[0] = cb.add(c[0], stride);
            return n;
          });
      iteratesInstances(b.block->ops.back().get(), extents.size());
    });
  }

  /// Marks `loop` as iterating the parallel_for's instances (one flat
  /// index over its `dims` dimensions): the [coverage] check counts them.
  void iteratesInstances(Op *loop, size_t dims) {
    loop->origin = coordOrigin;
    loop->origin.synth.clear();
    loop->setAttr("dims", static_cast<int64_t>(dims));
  }

  /// The hoisted loads at the instance itself (a one-dimensional domain;
  /// rank-1 views the program never writes, indexed by the coordinate,
  /// unguarded): the chunk loop reads them as vectors.
  std::vector<const Op *> vecLoads;
  /// The views they read: loads at element coordinate + offset (the same
  /// in every instance; null: 0), one offset per view.
  struct VecView {
    const Value *view = nullptr;
    const Value *offset = nullptr;
    const Op *first = nullptr; ///< a load of it (type, location, access)
  };
  std::vector<VecView> vecViews;
  int64_t width = 1;

  /// The invariant o when `c` is the instance coordinate plus o (either
  /// operand order; `found` false when it is not), null for the
  /// coordinate itself.
  const Value *offsetOf(const Value *c, bool &found) const {
    found = true;
    const Value *coord = delin->result(0);
    if (c == coord)
      return nullptr;
    auto invariantValue = [&](const Value *v) {
      return (v->isBlockArg() && v->owner == &p.body->block) ||
             (v->def && std::find(invariant.begin(), invariant.end(), v->def) !=
                            invariant.end());
    };
    if (c->def && c->def->opcode == Opcode::Add)
      for (unsigned i = 0; i < 2; ++i)
        if (c->def->operands[i] == coord && invariantValue(c->def->operands[1 - i]))
          return c->def->operands[1 - i];
    found = false;
    return nullptr;
  }

  void findVectorLoads() {
    if (!delin || delin->results.size() != 1)
      return;
    // (A plain store's coordinate must be proved unique per instance,
    // which [conflicts] does through the strided loop's own counter: an
    // instance that stores keeps that loop.)
    bool stores = false;
    auto check = [&](const Op &x) {
      stores |= x.opcode == Opcode::Store || x.opcode == Opcode::VectorStore;
    };
    for (const Op *o : later) {
      check(*o);
      for (const auto &r : o->regions)
        walk(*r, check);
    }
    if (stores)
      return;
    int64_t widest = 1;
    for (const Op *o : hoisted) {
      if (o->opcode != Opcode::Load || o->guard())
        continue;
      const Value *m = o->memory();
      bool at = false;
      const Value *off = o->coords().size() == 1 ? offsetOf(o->coords()[0], at)
                                                 : nullptr;
      if (!m->type.isView() || m->type.rank != 1 || !at)
        continue;
      // (One offset per view: its loads at another one stay scalar.)
      auto known = std::find_if(vecViews.begin(), vecViews.end(),
                                [&](const VecView &v) { return v.view == m; });
      if (known != vecViews.end() && known->offset != off)
        continue;
      vecLoads.push_back(o);
      if (known == vecViews.end())
        vecViews.push_back({m, off, o});
      widest = std::max<int64_t>(widest, elemBytes(m->type.elem));
    }
    width = 16 / widest;
    if (width < 2)
      vecLoads.clear(), vecViews.clear();
  }

  /// The instances in chunks (the one-dimensional, vectorizable form):
  /// F = N / W full chunks of W consecutive instances when every vector
  /// view is unit-stride and aligned and the launch is not the checked
  /// one (else F = 0), then the N - F W instances left one per chunk;
  /// chunk c = q T + t, stepping P T:
  ///
  ///   start = c < F ? c W : F W + (c - F)
  ///   raw   = the vector views' elements of chunk c (loaded one step
  ///           ahead: chunk c + P T's, or c's again past the end, are
  ///           loaded at the top of the body and carried)
  ///   lanes = c < F ? the hoisted ops per lane on raw
  ///                 : the hoisted ops of instance start (every lane)
  ///   for l < W, if l < (c < F ? W : 1): the rest of instance start + l
  ///                                       on lane l
  ///
  /// The rest is written once (the loop over the lanes, select chains
  /// pick lane l's values), so [coverage] counts its atomics once. The
  /// loads of the next chunk are in flight while this one's rest runs
  /// (the instance loop prefetches too; without it the 65536-bin
  /// histogram's chunks ran 15% slower than single instances, H100).
  void chunkLoop(Value *g0, Value *N, Value *stride) {
    Builder &b = cb.b;
    Value *W = cb.i64(width);
    Value *vec = cb.uncheckedLaunch();
    for (const VecView &v : vecViews)
      vec = cb.both(vec, cb.aligned(const_cast<Value *>(v.view), {offset(v)},
                                    width * elemBytes(v.view->type.elem)));
    Value *F = cb.select(vec, b.binary(Opcode::Div, N, W), cb.i64(0));
    Value *FW = cb.mul(F, W);
    Value *C = cb.add(F, b.binary(Opcode::Sub, N, FW));
    auto chunkStart = [&](Value *c) {
      return cb.select(cb.cmp("lt", c, F), cb.mul(c, W),
                       cb.add(FW, b.binary(Opcode::Sub, c, F)));
    };
    std::vector<Type> laneTypes;
    for (int64_t l = 0; l < width; ++l)
      for (const Value *v : carried)
        laneTypes.push_back(v->type);
    const size_t nCarried = carried.size();
    cb.when(cb.cmp("lt", g0, C), [&] {
      CoopBuilder::Values init = {g0};
      for (Value *r : rawChunk(g0, F, chunkStart(g0)))
        init.push_back(r);
      cb.loop(
          init,
          [&](const CoopBuilder::Values &c) { return cb.cmp("lt", c[0], C); },
          [&](const CoopBuilder::Values &c) {
            // The next chunk's elements first (this thread's own chunk
            // again past the end: in bounds, never used).
            Value *cn = clamp(cb.add(c[0], stride), C, c[0]);
            CoopBuilder::Values next = {c[0]};
            for (Value *r : rawChunk(cn, F, chunkStart(cn)))
              next.push_back(r);
            std::vector<Value *> raw(c.begin() + 1, c.end());
            Value *full = cb.cmp("lt", c[0], F);
            Value *start = chunkStart(c[0]);
            CoopBuilder::Values lanes = cb.branch(
                full, laneTypes,
                [&] {
                  CoopBuilder::Values all;
                  for (int64_t l = 0; l < width; ++l)
                    for (Value *v : laneValues(start, raw, l))
                      all.push_back(v);
                  return all;
                },
                [&] {
                  std::vector<Value *> one = laneValues(start, raw, 0);
                  CoopBuilder::Values all;
                  for (int64_t l = 0; l < width; ++l)
                    all.insert(all.end(), one.begin(), one.end());
                  return all;
                });
            // W lanes (a constant trip count: unrolled, the select chains
            // fold), the ones past the chunk skipped.
            Value *count = cb.select(full, W, cb.i64(1));
            cb.loop(
                {cb.i64(0)},
                [&](const CoopBuilder::Values &l) { return cb.cmp("lt", l[0], W); },
                [&](const CoopBuilder::Values &l) {
                  cb.when(cb.cmp("lt", l[0], count), [&] {
                    std::vector<Value *> mine;
                    for (size_t j = 0; j < nCarried; ++j) {
                      Value *v = lanes[j];
                      for (int64_t k = 1; k < width; ++k)
                        v = cb.select(cb.cmp("eq", l[0], cb.i64(k)),
                                      lanes[k * nCarried + j], v);
                      mine.push_back(v);
                    }
                    rest(cb.add(start, l[0]), mine);
                  });
                  return l;
                },
                [&](const CoopBuilder::Values &l) {
                  return CoopBuilder::Values{cb.add(l[0], cb.i64(1))};
                },
                /*unroll=*/width);
            return next;
          },
          [&](const CoopBuilder::Values &c) {
            CoopBuilder::Values n = c;
            n[0] = cb.add(c[0], stride);
            return n;
          });
      iteratesInstances(b.block->ops.back().get(), 1);
    });
  }

  /// View v's element offset in this program (0, or its invariant's copy).
  Value *offset(const VecView &v) {
    return v.offset ? lookup(base, const_cast<Value *>(v.offset)) : cb.i64(0);
  }

  /// The vector views' elements of chunk c (instances start ...): W per
  /// view, in vecViews order; one vector load each for a full chunk (c <
  /// F), else instance start's element in every lane (a scalar load).
  std::vector<Value *> rawChunk(Value *c, Value *F, Value *start) {
    std::vector<Type> types;
    for (const VecView &v : vecViews)
      for (int64_t l = 0; l < width; ++l)
        types.push_back(v.first->result()->type);
    return cb.branch(
        cb.cmp("lt", c, F), types,
        [&] {
          CoopBuilder::Values out;
          for (const VecView &v : vecViews) {
            Value *at = v.offset ? cb.add(start, offset(v)) : start;
            for (Value *x : cb.vectorLoad(*v.first, const_cast<Value *>(v.view),
                                          {at}, width))
              out.push_back(x);
          }
          return out;
        },
        [&] {
          CoopBuilder::Values out;
          for (const VecView &v : vecViews) {
            // The load and the hoisted ops its coordinate comes from.
            ValueMap map = decode(start);
            std::set<const Value *> need(v.first->operands.begin(),
                                         v.first->operands.end());
            std::vector<const Op *> deps;
            for (auto o = hoisted.rbegin(); o != hoisted.rend(); ++o)
              if (*o != v.first && need.count((*o)->result())) {
                deps.push_back(*o);
                need.insert((*o)->operands.begin(), (*o)->operands.end());
              }
            for (auto o = deps.rbegin(); o != deps.rend(); ++o)
              cloneOp(cb.b, **o, map);
            cloneOp(cb.b, *v.first, map);
            Value *x = lookup(map, v.first->result());
            for (int64_t l = 0; l < width; ++l)
              out.push_back(x);
          }
          return out;
        });
  }

  /// The carried values of instance start + l: the hoisted ops, the
  /// vector loads' results taken from `raw` (rawChunk's lane l).
  std::vector<Value *> laneValues(Value *start, const std::vector<Value *> &raw,
                                  int64_t l) {
    ValueMap map = decode(l ? cb.add(start, cb.i64(l)) : start);
    for (const Op *o : hoisted) {
      auto vl = std::find(vecLoads.begin(), vecLoads.end(), o);
      if (vl == vecLoads.end()) {
        cloneOp(cb.b, *o, map);
        continue;
      }
      size_t k = 0;
      while (vecViews[k].view != o->memory())
        ++k;
      map[o->result()] = raw[k * width + l];
    }
    std::vector<Value *> out;
    for (const Value *v : carried)
      out.push_back(lookup(map, const_cast<Value *>(v)));
    return out;
  }

  /// `c` when it is below N, else `fallback` (an instance this thread runs).
  Value *clamp(Value *c, Value *N, Value *fallback) {
    return cb.select(cb.cmp("lt", c, N), c, fallback);
  }

  /// The coordinates of instance `g`, with the original ones' origins.
  ValueMap decode(Value *g) {
    ValueMap map = base;
    std::vector<Value *> ops = {g};
    for (unsigned e : extents)
      ops.push_back(cb.b.launchValue(e));
    std::vector<Type> types(delin->results.size(), Type::index());
    Op *dl = cb.b.create(Opcode::Delinearize, ops, types);
    for (unsigned d = 0; d < delin->results.size(); ++d) {
      Value *c = dl->result(d);
      const Value *o = delin->result(d);
      c->origin = o->origin;
      c->name = o->name;
      map[o] = c;
    }
    return map;
  }

  /// The hoisted ops of instance `g`; returns the carried values.
  std::vector<Value *> prefetch(Value *g) {
    ValueMap map = decode(g);
    for (const Op *o : hoisted)
      cloneOp(cb.b, *o, map);
    std::vector<Value *> out;
    for (const Value *v : carried)
      out.push_back(lookup(map, const_cast<Value *>(v)));
    return out;
  }

  /// The rest of instance `g`, its hoisted values `mine`.
  void rest(Value *g, const std::vector<Value *> &mine) {
    ValueMap map = decode(g);
    for (size_t i = 0; i < carried.size(); ++i)
      map[carried[i]] = mine[i];
    // Hoisted values the rest uses but that are not carried (coordinates
    // are decoded above; every other one is carried).
    for (const Op *o : later)
      emit(*o, map);
  }

  /// Copies `o` (recursively), rewriting the atomics on target views.
  void emit(const Op &o, ValueMap &map) {
    cloneOp(cb.b, o, map, [&](const Op &x) {
      if (x.opcode != Opcode::Atomic)
        return false;
      for (unsigned k = 0; k < targets.size(); ++k)
        if (x.memory() == targets[k].view) {
          privatized(x, targets[k], k, map);
          return true;
        }
      return false;
    });
  }

  /// `atomic v[c], x` -> the CTA copy when it fits and c is inside v,
  /// else the original.
  void privatized(const Op &o, const Target &tg, unsigned k, ValueMap &map) {
    llvm::ArrayRef<Value *> cs = o.coords();
    std::vector<Value *> coords;
    for (Value *c : cs)
      coords.push_back(lookup(map, c));
    Value *inside = fitsV;
    if (Value *gd = o.guard())
      inside = cb.both(inside, lookup(map, gd));
    Value *lin = nullptr;
    for (int d = 0; d < tg.rank; ++d) {
      Op *e = cb.b.create(Opcode::Extent, {const_cast<Value *>(tg.view)},
                          {Type::index()});
      e->setAttr("dim", static_cast<int64_t>(d));
      Value *ext = e->result();
      inside = cb.both(inside, cb.both(cb.cmp("ge", coords[d], cb.i64(0)),
                                       cb.cmp("lt", coords[d], ext)));
      lin = lin ? cb.add(cb.mul(lin, ext), coords[d]) : coords[d];
    }
    if (!lin)
      lin = cb.i64(0);
    Value *x = lookup(map, o.storedValue());
    lin = cb.add(lin, mineAt[k]);
    Op *branch = cb.b.create(Opcode::If, {inside}, {});
    Block *saved = cb.b.block;
    cb.b.setInsertionBlock(&cb.b.addRegion(branch)->block);
    relaxedAtomic(tg, allocs[k], x, {lin});
    cb.b.yield();
    cb.b.setInsertionBlock(&cb.b.addRegion(branch)->block);
    cloneOp(cb.b, o, map);
    cb.b.yield();
    cb.b.setInsertionBlock(saved);
  }

  /// for j = t; j < n; j += T: fn(j).
  void strided(Value *t, Value *n, Value *T,
               const std::function<void(Value *)> &fn) {
    cb.loop(
        {t}, [&](const CoopBuilder::Values &c) { return cb.cmp("lt", c[0], n); },
        [&](const CoopBuilder::Values &c) {
          fn(c[0]);
          return c;
        },
        [&](const CoopBuilder::Values &c) {
          return CoopBuilder::Values{cb.add(c[0], T)};
        });
  }
};

} // namespace

namespace {

/// Rewrites segment `index` of a program already made a cta program of
/// kThreads threads (rejection() passed before that).
std::string privatizeSegment(Program &p, unsigned index, Op *segOp,
                             std::vector<Target> &targets) {
  using K = LaunchExpr::Kind;
  Segment &seg = p.segments[index];
  const unsigned instances = seg.length;
  const std::vector<unsigned> extents = seg.extents;

  // The copies' sizes and whether they fit.
  unsigned bytes = p.constExpr(0), elements = p.constExpr(0);
  for (Target &t : targets) {
    unsigned n = p.constExpr(1);
    for (int d = 0; d < t.rank; ++d) {
      LaunchExpr e;
      e.kind = K::Extent;
      e.param = t.param;
      e.dim = d;
      n = p.binaryExpr(K::Mul, n, p.addExpr(e));
    }
    t.elements = n;
    elements = p.binaryExpr(K::Add, elements, n);
    unsigned b = p.binaryExpr(K::Mul, n, p.constExpr(elemBytes(t.elem)));
    bytes = p.binaryExpr(
        K::Add, bytes,
        p.binaryExpr(K::Mul,
                     p.binaryExpr(K::Div, p.binaryExpr(K::Add, b, p.constExpr(15)),
                                  p.constExpr(16)),
                     p.constExpr(16)));
  }
  unsigned fits = p.selectExpr(
      p.cmpExpr("le", bytes, p.constExpr(kMaxSharedBytes)),
      p.cmpExpr("ge", instances, elements), p.cmpExpr("ne", p.constExpr(0),
                                                       p.constExpr(0)));
  // R copies: as many as kCopyBytes hold, 1 .. kMaxCopies.
  const unsigned copies = p.binaryExpr(
      K::Max,
      p.binaryExpr(K::Min, p.constExpr(kMaxCopies),
                   p.binaryExpr(K::Div, p.constExpr(kCopyBytes),
                                p.binaryExpr(K::Max, bytes, p.constExpr(16)))),
      p.constExpr(1));
  LaunchExpr sms;
  sms.kind = K::SmCount;
  unsigned wanted = p.binaryExpr(
      K::Div,
      p.binaryExpr(K::Add, instances,
                   p.constExpr(kThreads * kInstancesPerThread - 1)),
      p.constExpr(kThreads * kInstancesPerThread));
  unsigned count = p.binaryExpr(
      K::Max,
      p.binaryExpr(K::Min, wanted,
                   p.binaryExpr(K::Mul, p.addExpr(sms), p.constExpr(kCtasPerSm))),
      p.constExpr(0));

  for (Target &t : targets) {
    Buffer b;
    b.id = p.buffers.size();
    b.name = "private_" + p.params[t.param].name;
    b.scope = BufferScope::CTAShared;
    b.elem = t.elem;
    b.rank = 1;
    b.size = 0;
    t.sizeExpr = p.selectExpr(fits, t.elements, p.constExpr(0));
    t.sharedExpr = p.binaryExpr(K::Mul, t.sizeExpr, copies);
    b.sizeExpr = static_cast<int>(t.sharedExpr);
    b.init = InitMode::FirstWrite;
    b.ownership = Ownership::Private;
    b.sharing = Sharing::CTA;
    b.privatizes = static_cast<int>(t.param);
    b.readerGroups = {seg.group};
    b.writerGroups = {seg.group};
    b.origin = segOp->origin;
    t.buffer = b.id;
    p.buffers.push_back(b);
  }
  seg.extents = {count};
  resizeSegment(p, index, count);
  layoutSharedBuffers(p);
  Privatizer(p, *segOp, targets, instances, extents, count, fits, copies).run();

  std::string names;
  for (const Target &t : targets)
    names += (names.empty() ? "" : ", ") + p.params[t.param].name;
  return "privatize-atomics: the atomics on " + names +
         " accumulate in a copy per CTA in shared memory, merged once per "
         "CTA (" + std::to_string(kThreads) + " threads, programs " +
         p.exprToString(count) + " striding over the instances; global "
         "atomics when the copies do not fit " +
         std::to_string(kMaxSharedBytes / 1024) + " KiB)";
}

} // namespace

std::string intent::passes::applyPrivatizeAtomics(Program &p,
                                                  std::vector<std::string> &what) {
  // Decide on the thread program, then make it a cta program once: the
  // groups that privatize stride over their instances, the others keep one
  // instance per thread (spread over the threads of their programs).
  std::vector<std::string> why(p.segments.size());
  std::vector<std::vector<Target>> targets(p.segments.size());
  std::vector<Op *> segOps(p.segments.size(), nullptr);
  bool any = false;
  for (unsigned s = 0; s < p.segments.size(); ++s) {
    why[s] = rejection(p, s, segOps[s], targets[s]);
    any |= why[s].empty();
  }
  what.assign(p.segments.size(), "");
  if (!any) {
    for (unsigned s = 0; s < p.segments.size(); ++s)
      what[s] = why[s];
    return "not applied";
  }
  p.scope = ExecScope::CTA;
  p.ctaThreads = kThreads;
  for (unsigned s = 0; s < p.segments.size(); ++s)
    if (!why[s].empty())
      spreadSegment(p, s, kThreads);
  for (unsigned s = 0; s < p.segments.size(); ++s)
    what[s] = why[s].empty() ? privatizeSegment(p, s, segOps[s], targets[s])
                             : "not applied: " + why[s];
  return "";
}

void intent::passes::privatizeAtomics(Program &p, phys::RemarkSink &sink) {
  std::vector<std::string> what;
  bool applied = applyPrivatizeAtomics(p, what).empty();
  for (unsigned s = 0; s < p.segments.size(); ++s) {
    // Only a group that updates views by atomics is a candidate.
    if (what[s].empty() || what[s].find("no view is updated") != std::string::npos)
      continue;
    if (applied && what[s].rfind("privatize-atomics:", 0) == 0)
      sink.remark(p.segments[s].loc, what[s]);
    else
      sink.remark(p.segments[s].loc,
                  "privatize-atomics: " +
                      (applied ? what[s] : "not applied: " + what[s]));
  }
}
