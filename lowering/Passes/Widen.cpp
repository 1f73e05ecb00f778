//===- Widen.cpp - Ownership widening of pointwise thread segments --------===//
//
// Before: a parallel segment over a 1-D domain of n instances, one program
// per element, whose instance only loads and stores rank-1 views at its own
// coordinate (saxpy: y[i] = a * x[i] + y[i]). Every such thread-style
// segment (of a thread-scope program, or spread over the threads of a cta
// program: Segment::spread) is widened, each on its own (a multi-group
// program keeps its other segments as they are).
//
// After (docs/passes.md §6): the segment has P = min((n + W - 1) / W, C)
// instances (W = 16 bytes / the widest accessed element, 4 for f32;
// C = kWidenMaxPrograms), resized with phys::resizeSegment, and instance q
// runs the traversal the emitter used to special-case, as explicit ops:
//
//   full = n / W; chunks = full + (n % W != 0)
//   vec = !checked_launch && aligned(v, 0) for every accessed view v
//   c = loop (q) while vec && c + 3P < full:      // 4 chunks per step
//         vector_load every load of chunks c, c + P, c + 2P, c + 3P,
//         the body once per lane on the loaded values,
//         vector_store every store; step c += 4P
//   loop (c) while c < chunks:                     // one chunk per step
//         if (vec && c < full) { the same for chunk c }
//         else for k in [cW, min(cW + W, n)) { the body at k }
//         step c += P
//
// Chunk c covers elements [cW, min(cW + W, n)); instance q owns the chunks
// c = q (mod P), so every element has one owner (the [conflicts] check
// recognizes the scalar path's elements as members of q's chunks,
// Physical/Widen.h). A view with stride != 1 or a base not aligned to the
// vector (checked once per instance) and the bounds-checked kernel variant
// take the scalar path; so does the n % W remainder chunk.
//
//===----------------------------------------------------------------------===//

#include "Passes/Passes.h"

#include "Physical/Clone.h"
#include "Physical/Dispatch.h"
#include "Physical/Widen.h"

#include <algorithm>
#include <set>

using namespace intent;
using namespace intent::phys;

namespace {

/// Chunks the vector path moves per step of its first loop: every load of
/// the four is issued before the first store, so four times the bytes are
/// in flight per thread.
constexpr int64_t kWidenUnroll = 4;

std::string rejection(const Program &p, const Segment &seg, Op *&segOp) {
  // A thread-style segment: a thread program's, or one spread over the
  // threads of a cta program (one instance per thread either way).
  if (p.scope != ExecScope::Thread && (!seg.spread || seg.team))
    return "the program is already cooperative";
  if (seg.ordered)
    return "the group is a single instance";
  segOp = segmentOp(p, seg.group);
  if (!segOp)
    return "no segment op";
  if (isWidened(*segOp))
    return "the group is already widened";
  if (seg.extents.size() != 1)
    return "the instance domain is not one-dimensional";
  // A buffer the group uses (any buffer of a one-group program).
  auto has = [&](const std::vector<unsigned> &v) {
    return std::find(v.begin(), v.end(), seg.group) != v.end();
  };
  for (const Buffer &buf : p.buffers)
    if (buf.scope != BufferScope::ExternalView &&
        (p.segments.size() == 1 || has(buf.readerGroups) ||
         has(buf.writerGroups)))
      return "the program allocates buffer " + buf.name;
  // A print runs once per instance: the instance's code is not spread over
  // threads (nor over programs) when it prints.
  if (containsPrint(*segOp->regions[0]))
    return "the instance prints";
  std::string why = pointwiseProblem(p, *segOp);
  if (!why.empty())
    return why;
  if (widenWidth(*segOp) < 2)
    return "the accessed elements are already 16 bytes wide";
  return "";
}

/// Writes the widened traversal of one pointwise segment.
class WidenRewriter {
public:
  WidenRewriter(Program &p, Op &segOp, int w)
      : p(p), segOp(segOp), w(w), b(p) {}

  void run(unsigned elements, unsigned programs) {
    std::unique_ptr<Region> old = std::move(segOp.regions[0]);
    segOp.regions.clear();
    body = &old->block;
    for (const auto &op : body->ops)
      if (op->opcode == Opcode::Delinearize)
        coord = op->result(0);
    markLive();

    b.loc = segOp.loc;
    b.origin = Origin();
    b.origin.synth = "widen";
    Region *r = b.addRegion(&segOp);
    b.setInsertionBlock(&r->block);
    Value *local = b.addBlockArg(&r->block, Type::index());
    // The instance index q in [0, P): the chunks it owns are iterations of
    // the parallel_for the replaced coordinate stood for, so it keeps that
    // coordinate's origins.
    P = b.launchValue(programs);
    Op *delin = b.create(Opcode::Delinearize, {local, P}, {Type::index()});
    Value *q = delin->result();
    q->origin = coord->origin;
    q->alsoFrom = coord->alsoFrom;
    q->name = coord->name;

    n = b.launchValue(elements);
    W = b.constInt(w);
    Value *zero = b.constInt(0);
    full = b.binary(Opcode::Div, n, W);
    Value *rem = b.binary(Opcode::Rem, n, W);
    Value *extra = b.create(Opcode::Select,
                            {b.cmp("ne", rem, zero), b.constInt(1), zero},
                            {Type::index()})
                       ->result();
    Value *chunks = b.binary(Opcode::Add, full, extra);
    Op *f = b.create(Opcode::Constant, {}, {Type::boolean()});
    f->setAttr("value", false);
    falseV = f->result();
    vec = b.create(Opcode::Not,
                   {b.create(Opcode::CheckedLaunch, {}, {Type::boolean()})
                        ->result()},
                   {Type::boolean()})
              ->result();
    std::set<const Value *> seen;
    for (const Op *o : live)
      if ((o->opcode == Opcode::Load || o->opcode == Opcode::Store) &&
          seen.insert(o->memory()).second) {
        Op *a = b.create(Opcode::Aligned, {o->memory(), zero},
                         {Type::boolean()});
        a->setAttr("bytes", w * scalarBytes(o->memory()->type.elem));
        vec = andV(vec, a->result());
      }
    std::vector<Value *> strides = {nullptr};
    for (int64_t u = 1; u <= kWidenUnroll; ++u)
      strides.push_back(u == 1 ? P : b.binary(Opcode::Mul, P, b.constInt(u)));

    // Four chunks c, c + P, c + 2P, c + 3P per step while all are full.
    Value *c1 = loop(q, [&](Value *c) {
      Value *last = b.binary(Opcode::Add, c, strides[kWidenUnroll - 1]);
      return andV(vec, b.cmp("lt", last, full));
    }, [&](Value *c) {
      std::vector<Value *> bases;
      for (int64_t u = 0; u < kWidenUnroll; ++u)
        bases.push_back(b.binary(Opcode::Mul,
                                 u ? b.binary(Opcode::Add, c, strides[u]) : c,
                                 W));
      vectorChunks(bases);
    }, strides[kWidenUnroll]);

    // The rest one chunk at a time: vector when full and aligned, else
    // element by element.
    loop(c1, [&](Value *c) { return b.cmp("lt", c, chunks); },
         [&](Value *c) {
           Value *v = andV(vec, b.cmp("lt", c, full));
           Op *branch = b.create(Opcode::If, {v}, {});
           Block *saved = b.block;
           b.setInsertionBlock(&b.addRegion(branch)->block);
           vectorChunks({b.binary(Opcode::Mul, c, W)});
           b.yield();
           b.setInsertionBlock(&b.addRegion(branch)->block);
           Value *base = b.binary(Opcode::Mul, c, W);
           Value *end = b.binary(Opcode::Min,
                                 b.binary(Opcode::Add, base, W), n);
           Op *f = b.create(Opcode::For, {base, end}, {});
           Block *fb = &b.addRegion(f)->block;
           // k is the KIR iteration the replaced coordinate was ([coverage],
           // [provenance] compare against its origin).
           Value *k = b.addBlockArg(fb, Type::index(), coord->name);
           k->origin = coord->origin;
           k->alsoFrom = coord->alsoFrom;
           b.setInsertionBlock(fb);
           scalarElement(k);
           b.yield();
           b.setInsertionBlock(&branch->regions[1]->block);
           b.yield();
           b.setInsertionBlock(saved);
         },
         P);
    b.yield();
  }

private:
  Program &p;
  Op &segOp;
  int w;
  Builder b;
  const Block *body = nullptr;
  const Value *coord = nullptr;
  /// The ops of the old body the traversal repeats, in order: every
  /// access and what the stored values need (not the delinearize nor what
  /// only it used).
  std::vector<const Op *> live;
  Value *P = nullptr, *n = nullptr, *W = nullptr, *full = nullptr;
  Value *vec = nullptr, *falseV = nullptr;

  void markLive() {
    std::set<const Value *> needed;
    std::vector<const Op *> rev;
    for (auto it = body->ops.rbegin(); it != body->ops.rend(); ++it) {
      const Op &o = **it;
      bool keep = o.opcode == Opcode::Load || o.opcode == Opcode::Store;
      for (const Value *r : o.results)
        keep |= needed.count(r) != 0;
      if (!keep || o.opcode == Opcode::Delinearize)
        continue;
      rev.push_back(&o);
      for (const Value *v : o.operands)
        needed.insert(v);
    }
    live.assign(rev.rbegin(), rev.rend());
  }

  Value *andV(Value *a, Value *c) {
    return b.create(Opcode::Select, {a, c, falseV}, {Type::boolean()})
        ->result();
  }

  /// `loop %init { cond } { body; yield c } { c + step }` with one carried
  /// chunk index; returns the index at exit.
  template <class Cond, class Body>
  Value *loop(Value *init, Cond cond, Body bodyFn, Value *step) {
    Op *l = b.create(Opcode::Loop, {init}, {Type::index()});
    l->setAttr("test_first", true);
    Block *saved = b.block;
    Value *args[3];
    for (unsigned i = 0; i < 3; ++i)
      args[i] = b.addBlockArg(&b.addRegion(l)->block, Type::index(), "wc");
    b.setInsertionBlock(&l->regions[0]->block);
    b.create(Opcode::Condition, {cond(args[0])}, {});
    b.setInsertionBlock(&l->regions[1]->block);
    bodyFn(args[1]);
    b.yield({args[1]});
    b.setInsertionBlock(&l->regions[2]->block);
    b.yield({b.binary(Opcode::Add, args[2], step)});
    b.setInsertionBlock(saved);
    return l->result();
  }

  /// An access op of the traversal: the original's access info and
  /// provenance, bounds `assumed` (the element lies in [0, n), the range
  /// the original coordinate had; the chunk arithmetic is beyond the
  /// [bounds] prover).
  void copyAccess(const Op &from, Op *to) {
    to->loc = from.loc;
    to->origin = from.origin;
    to->access = from.access;
    to->access.bounds = Bounds::Assumed;
  }

  /// Full chunks starting at elements `bases`: every load of every chunk
  /// as a vector, then the body once per chunk and lane on the loaded
  /// values, then every store as a vector.
  void vectorChunks(const std::vector<Value *> &bases) {
    size_t nb = bases.size();
    // loaded[u][load] / stored[u][store]: the W lane values.
    std::vector<std::map<const Op *, llvm::SmallVector<Value *, 16>>> loaded(nb),
        stored(nb);
    for (size_t u = 0; u < nb; ++u)
      for (const Op *o : live)
        if (o->opcode == Opcode::Load) {
          llvm::SmallVector<Type, 16> types(w, o->result()->type);
          Op *vl = b.create(Opcode::VectorLoad, {o->memory(), bases[u]}, types);
          vl->setAttr("width", static_cast<int64_t>(w));
          copyAccess(*o, vl);
          loaded[u][o].assign(vl->results.begin(), vl->results.end());
        }
    bool coordUsed = false;
    for (const Op *o : live)
      if (o->opcode != Opcode::Load && o->opcode != Opcode::Store)
        for (const Value *v : o->operands)
          coordUsed |= v == coord;
    for (size_t u = 0; u < nb; ++u)
      for (int l = 0; l < w; ++l) {
        ValueMap map;
        if (coordUsed)
          map[coord] = l ? b.binary(Opcode::Add, bases[u], b.constInt(l))
                         : bases[u];
        for (const Op *o : live) {
          if (o->opcode == Opcode::Load)
            map[o->result()] = loaded[u][o][l];
          else if (o->opcode == Opcode::Store)
            stored[u][o].push_back(lookup(map, o->storedValue()));
          else
            cloneOp(b, *o, map);
        }
      }
    for (size_t u = 0; u < nb; ++u)
      for (const Op *o : live)
        if (o->opcode == Opcode::Store) {
          llvm::SmallVector<Value *, 18> operands = {o->memory()};
          operands.append(stored[u][o].begin(), stored[u][o].end());
          operands.push_back(bases[u]);
          Op *vs = b.create(Opcode::VectorStore, operands, {});
          vs->setAttr("width", static_cast<int64_t>(w));
          copyAccess(*o, vs);
        }
  }

  /// The body at element `k` with its own loads and stores.
  void scalarElement(Value *k) {
    ValueMap map;
    map[coord] = k;
    for (const Op *o : live) {
      Op *c = cloneOp(b, *o, map);
      if (o->opcode == Opcode::Load || o->opcode == Opcode::Store)
        c->access.bounds = Bounds::Assumed;
    }
  }
};

} // namespace

std::string intent::passes::applyWidenSegment(Program &p, unsigned index,
                                              std::string &what) {
  Op *segOp = nullptr;
  Segment &seg = p.segments[index];
  std::string why = rejection(p, seg, segOp);
  if (!why.empty())
    return why;
  using K = LaunchExpr::Kind;
  int w = widenWidth(*segOp);
  unsigned n = seg.extents[0];
  unsigned chunks = p.binaryExpr(
      K::Div, p.binaryExpr(K::Add, n, p.constExpr(w - 1)), p.constExpr(w));
  unsigned count = p.binaryExpr(
      K::Max,
      p.binaryExpr(K::Min, chunks, p.constExpr(kWidenMaxPrograms)),
      p.constExpr(0));
  seg.extents = {count};
  resizeSegment(p, index, count);
  WidenRewriter(p, *segOp, w).run(n, count);
  what = "widen: each program owns chunks of " + std::to_string(w) +
         " contiguous elements, at most " + std::to_string(kWidenMaxPrograms) +
         " programs striding over them; vector loads/stores when every view "
         "is unit-stride and aligned";
  return "";
}

std::string intent::passes::applyWiden(Program &p, std::string &what) {
  std::string first;
  bool any = false;
  for (unsigned s = 0; s < p.segments.size(); ++s) {
    std::string segWhat, why = applyWidenSegment(p, s, segWhat);
    if (why.empty()) {
      what = any ? what : segWhat;
      any = true;
    } else if (first.empty()) {
      first = why;
    }
  }
  return any ? "" : first;
}

void intent::passes::widen(Program &p, phys::RemarkSink &sink) {
  // One remark per parallel segment of a thread-scope program.
  for (unsigned s = 0; s < p.segments.size(); ++s) {
    bool candidate = (p.scope == ExecScope::Thread ||
                      (p.segments[s].spread && !p.segments[s].team)) &&
                     !p.segments[s].ordered;
    std::string what, why = applyWidenSegment(p, s, what);
    if (why.empty())
      sink.remark(p.segments[s].loc, what);
    else if (candidate)
      sink.remark(p.segments[s].loc, "widen: not applied: " + why);
  }
}
