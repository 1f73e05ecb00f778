//===- Tile.cpp - Tiles of N-D pointwise segments, transposes via shared ---===//
//
// Before: a thread-style parallel segment over a domain of rank >= 2 (one
// instance per thread, the flat program id decoded with 64-bit divisions)
// whose instance is pointwise: pure code, loads and stores of views, `if`s
// (a stencil's guarded neighbours). A warp then covers 32 consecutive
// flat instances: coalesced for accesses contiguous along the last
// instance coordinate, 32 separate rows for a transposed one (out(j, i) =
// a(i, j)).
//
// After (docs/passes.md §9): a tile segment (Physical/Dispatch.h
// tileSegment) of a cta program of T threads (256 for a thread program) with
// K instances per thread (4 at T = 256): each program serves a tile of R =
// K T / TX by TX instances along dimensions (a, last), TX = 32 or the next
// power of two >= a shorter last extent; every thread K direct instances (a
// warp along the last dimension) and K transposed ones (a warp along a),
// no division per instance. An access whose last coordinate is instance
// coordinate a (plus an invariant) while an earlier one follows the last
// instance coordinate is transposed: it is done by the transposed
// instances, through a cta_shared tile of R rows of TX + 1 elements:
//
//   %c_k... = delinearize %local_k          // direct instance k < K
//   %t_k... = delinearize %tlocal_k         // transposed instance k < K
//   s[idxT_k] = load v[coords at %t_k]      // staged loads, unguarded
//   barrier
//   body_k at %c_k for all k, loads and arithmetic first (unguarded: an
//     inactive thread computes instance 0), a staged load read as
//     s[idxD_k], a staged store written as s[idxD_k] = value
//   if %active_k { the view stores of body k }
//   barrier
//   if %tactive_k { store w[coords at %t_k] = s[idxT_k] }   // staged stores
//   barrier                        // a CTA may go on to another tile
//
// idxD_k and idxT_k name the same tile element for the two instances that
// address it. a is the dimension the transposed accesses follow (the one
// most of their bytes name; rank - 2 when there is none). Without
// transposed accesses the tile only replaces the flat decode (N-D
// pointwise, stencils: a CTA's neighbours share its tile and L1). A body
// with a store inside an `if`, or a load of a view after its store, runs
// whole under its `active`, one instance after the other.
//
//===----------------------------------------------------------------------===//

#include "Passes/Passes.h"

#include "Physical/Clone.h"
#include "Physical/Coop.h"
#include "Physical/CoopBuild.h"
#include "Physical/Dispatch.h"
#include "Physical/PhysAffine.h"

#include <algorithm>
#include <map>
#include <set>

using namespace intent;
using namespace intent::phys;

namespace {

/// Threads of a program this pass makes cooperative (4 instances each: a
/// tile of 32 x 32).
constexpr int kTileThreads = 256;
/// Shared-memory bytes of a segment's tiles, at most.
constexpr int64_t kMaxStagedBytes = 32 * 1024;

/// Elements of a shared tile: K TY rows of TX + 1 for every TX (K (T + TY),
/// at most 2 K T at TX = 1).
int64_t tileElements(int threads, int rows) {
  return 2 * static_cast<int64_t>(threads) * rows;
}

/// Instances per thread along the tile dimension in a program of `threads`
/// threads: 4 at 256 (tiles of 32 x 32 with TX = 32), fewer in larger CTAs.
int tileRows(int threads) { return threads <= 256 ? 4 : threads <= 512 ? 2 : 1; }

/// Why `o` (in an instance body) keeps the segment from being tiled, or "".
std::string opProblem(const Op &o) {
  switch (o.opcode) {
  case Opcode::Load:
  case Opcode::Store: {
    const Value *m = o.memory();
    if (!m->type.isView())
      return "the instance accesses a buffer";
    return "";
  }
  case Opcode::If:
  case Opcode::Yield:
    return "";
  case Opcode::ProgramId:
  case Opcode::Rng:
    return "the instance uses " + opcodeName(o.opcode).str();
  default:
    if (!isPure(o.opcode))
      return "the instance has " + opcodeName(o.opcode).str() +
             " (only pure code, loads, stores and ifs are tiled)";
    return "";
  }
}

std::string bodyProblem(const Block &b) {
  for (const auto &op : b.ops) {
    std::string why = opProblem(*op);
    if (!why.empty())
      return why;
    for (const auto &r : op->regions) {
      why = bodyProblem(r->block);
      if (!why.empty())
        return why;
    }
  }
  return "";
}

/// The program's threads when the segment is tiled: a thread program
/// becomes a cta program of kTileThreads; a spread segment keeps its CTA.
int tileThreads(const Program &p) {
  return p.scope == ExecScope::Thread ? kTileThreads : p.ctaThreads;
}

std::string rejection(const Program &p, const Segment &seg, Op *&segOp) {
  if (seg.ordered)
    return "the group is a single instance";
  if (!(p.scope == ExecScope::Thread ||
        (seg.spread && !seg.team && seg.spread == p.ctaThreads &&
         p.ctaThreads % kTileWidth == 0 && p.ctaThreads >= 2 * kTileWidth)))
    return "the group is not one instance per thread";
  if (seg.tile >= 0)
    return "the group is already tiled";
  segOp = segmentOp(p, seg.group);
  if (!segOp)
    return "no segment op";
  if (seg.extents.size() < 2)
    return "the instance domain is one-dimensional";
  auto has = [&](const std::vector<unsigned> &v) {
    return std::find(v.begin(), v.end(), seg.group) != v.end();
  };
  for (const Buffer &buf : p.buffers)
    if (buf.scope != BufferScope::ExternalView &&
        (p.segments.size() == 1 || has(buf.readerGroups) ||
         has(buf.writerGroups)))
      return "the program allocates buffer " + buf.name;
  const Block &b = segOp->regions[0]->block;
  if (b.args.size() != 1)
    return "the segment region does not take one local index";
  if (containsPrint(*segOp->regions[0]))
    return "the instance prints";
  return bodyProblem(b);
}

/// A top-level access of the instance body and how a warp of direct
/// instances meets it.
struct Access {
  Op *op = nullptr;
  /// The instance dimension its last coordinate follows (unit coefficient)
  /// while an earlier coordinate follows the last instance dimension: a
  /// transposed access; -1 otherwise.
  int followsDim = -1;
};

class TileRewriter {
public:
  TileRewriter(Program &p, Op &segOp) : p(p), segOp(segOp), cb(p, "tile", segOp.loc) {}

  /// Classifies the accesses; returns the tile dimension a.
  int plan() {
    Block &b = segOp.regions[0]->block;
    for (const auto &op : b.ops)
      if (op->opcode == Opcode::Delinearize && op->operands[0] == b.args[0])
        dec = op.get();
    rank = dec->results.size();
    InstanceSpace space;
    PhysAffine aff(p, space);
    for (unsigned k = 0; k < rank; ++k)
      aff.setCoord(dec->result(k), k);
    std::set<const Value *> loaded, stored;
    walk(*segOp.regions[0], [&](const Op &o) {
      if (o.opcode == Opcode::Load)
        loaded.insert(o.memory());
      if (o.opcode == Opcode::Store)
        stored.insert(o.memory());
    });
    std::map<int, int64_t> bytesByDim;
    for (const auto &op : b.ops) {
      if (op->opcode != Opcode::Load && op->opcode != Opcode::Store)
        continue;
      Access a;
      a.op = op.get();
      const Value *m = op->memory();
      llvm::ArrayRef<Value *> c = op->coords();
      // A staged access moves across the instances' other accesses: its
      // view is only loaded (a load) or only stored (a store) by the group.
      bool movable = !op->guard() && m->type.rank >= 2 && c.size() >= 2 &&
                     (op->opcode == Opcode::Load ? !stored.count(m)
                                                 : !loaded.count(m));
      if (movable) {
        Affine last = aff.of(c.back());
        bool earlierFollowsLast = false;
        for (unsigned k = 0; k + 1 < c.size(); ++k) {
          Affine e = aff.of(c[k]);
          earlierFollowsLast |=
              e.valid && e.terms.count(instanceAtom(rank - 1));
        }
        if (last.valid && earlierFollowsLast &&
            !last.terms.count(instanceAtom(rank - 1))) {
          int dim = -1;
          bool unit = true;
          for (const auto &[atom, coeff] : last.terms) {
            int d = InstanceSpace::instanceDim(atom);
            if (d >= 0) {
              if (dim >= 0 || coeff != 1)
                unit = false;
              dim = d;
            } else if (!space.isInvariant(atom)) {
              unit = false;
            }
          }
          if (unit && dim >= 0 && dim + 1 < static_cast<int>(rank)) {
            a.followsDim = dim;
            bytesByDim[dim] += scalarBytes(m->type.elem);
          }
        }
      }
      accesses.push_back(a);
    }
    int best = static_cast<int>(rank) - 2;
    int64_t most = 0;
    for (const auto &[d, bytes] : bytesByDim)
      if (bytes > most) {
        most = bytes;
        best = d;
      }
    tileDim = best;
    int64_t bytes = 0;
    for (Access &a : accesses) {
      const Value *v =
          a.op->opcode == Opcode::Load ? a.op->result() : a.op->storedValue();
      int64_t more = tileElements(tileThreads(p), tileRows(tileThreads(p))) *
                     scalarBytes(v->type.elem);
      if (a.followsDim == tileDim && bytes + more <= kMaxStagedBytes) {
        staged.insert(a.op);
        bytes += more;
      }
    }
    findShareable(aff, space);
    return tileDim;
  }

  unsigned stagedCount() const { return staged.size(); }
  /// Loads whose elements a thread's direct instances share, in rows
  /// loaded once each (run()).
  unsigned sharedRows() const { return sharedLoads; }
  /// The loads those rows replace.
  unsigned sharedReads() const { return sharedUses; }

  /// Rewrites the (already tiled) segment's region; K = `rows` instances
  /// per thread.
  void run(int rows) {
    Block &blk = segOp.regions[0]->block;
    std::vector<std::unique_ptr<Op>> old = std::move(blk.ops);
    blk.ops.clear();
    Builder &b = cb.b;
    b.setInsertionBlock(&blk);
    const int K = rows;
    Value *local = blk.args[0];
    auto directIndex = [&](int k) { return blk.args[2 * k]; };
    auto directActive = [&](int k) { return blk.args[2 * k + 1]; };
    auto transIndex = [&](int k) { return blk.args[2 * K + 2 * k]; };
    auto transActive = [&](int k) { return blk.args[2 * K + 2 * k + 1]; };

    // Each instance's coordinates: the old decode (and the launch values
    // it reads, once) per direct instance, and per transposed one when an
    // access is staged.
    ValueMap base;
    for (const Value *x : dec->operands)
      hoist(x, base, old);
    std::vector<ValueMap> direct(K, base), transposed(K, base);
    for (int k = 0; k < K; ++k) {
      direct[k][local] = directIndex(k);
      cloneOp(b, *dec, direct[k]);
      if (!staged.empty()) {
        transposed[k][local] = transIndex(k);
        cloneOp(b, *dec, transposed[k]);
      }
    }
    // The shared tiles and each instance's element of them.
    std::vector<Value *> idxD(K), idxT(K);
    std::map<const Op *, Value *> tileOf;
    if (!staged.empty()) {
      // Offsets in 32 bits by shifts and masks: TX = 2^S, TY = T / TX, R =
      // K TY rows of TX + 1 elements (a warp of transposed instances, a
      // column, hits 32 banks when TX = 32); direct instance k at ((t / TX)
      // K + k, t % TX), transposed instance k at (m % R, m / R), m = t + k T.
      const Segment &seg = p.segments[segOp.intAttr("group")];
      auto i32 = [&](int64_t v) { return cb.i32(v); };
      Value *tid = cb.threadId();
      Value *sh = cb.cast(b.launchValue(tileShiftExpr(p, seg.extents.back())),
                          ScalarKind::I32);
      Value *tx = b.binary(Opcode::Shl, i32(1), sh);
      Value *ty = b.binary(Opcode::Shr, i32(p.ctaThreads), sh);
      Value *R = b.binary(Opcode::Mul, ty, i32(K));
      Value *pitch = b.binary(Opcode::Add, tx, i32(1));
      const bool pow2 = (p.ctaThreads & (p.ctaThreads - 1)) == 0 && (K & (K - 1)) == 0;
      int64_t log2TK = 0;
      while ((int64_t(1) << (log2TK + 1)) <= int64_t(p.ctaThreads) * K)
        ++log2TK;
      auto rowCol = [&](Value *row, Value *col) {
        return cb.cast(b.binary(Opcode::Add, b.binary(Opcode::Mul, row, pitch),
                                col),
                       ScalarKind::I64);
      };
      Value *rowD = b.binary(Opcode::Shr, tid, sh);
      Value *colD = b.binary(Opcode::BitAnd, tid, b.binary(Opcode::Sub, tx, i32(1)));
      for (int k = 0; k < K; ++k) {
        idxD[k] = rowCol(b.binary(Opcode::Add, b.binary(Opcode::Mul, rowD, i32(K)),
                                  i32(k)),
                         colD);
        Value *m = k ? b.binary(Opcode::Add, tid, i32(int64_t(k) * p.ctaThreads))
                     : tid;
        idxT[k] =
            pow2 ? rowCol(b.binary(Opcode::BitAnd, m,
                                   b.binary(Opcode::Sub, R, i32(1))),
                          b.binary(Opcode::Shr, m,
                                   b.binary(Opcode::Sub, i32(log2TK), sh)))
                 : rowCol(b.binary(Opcode::Rem, m, R), b.binary(Opcode::Div, m, R));
      }
      std::vector<std::pair<const Op *, unsigned>> ids;
      for (const auto &op : old)
        if (staged.count(op.get())) {
          Buffer buf;
          buf.id = p.buffers.size();
          const Value *v = op->opcode == Opcode::Load ? op->result()
                                                      : op->storedValue();
          buf.name = "tile" + std::to_string(ids.size()) + "_g" +
                     std::to_string(segOp.intAttr("group"));
          buf.scope = BufferScope::CTAShared;
          buf.elem = v->type.elem;
          buf.size = tileElements(p.ctaThreads, K);
          buf.init = InitMode::FirstWrite;
          buf.ownership = Ownership::Private;
          buf.writerGroups = buf.readerGroups = {
              static_cast<unsigned>(segOp.intAttr("group"))};
          buf.origin = segOp.origin;
          p.buffers.push_back(buf);
          ids.push_back({op.get(), buf.id});
        }
      layoutSharedBuffers(p);
      for (const auto &[op, id] : ids)
        tileOf[op] = cb.alloc(id);
    }

    // Staged loads: every transposed instance loads its element into the
    // tile (a warp along dimension a: the view's contiguous axis). A thread
    // of a partial tile loads at instance 0 (which exists) and keeps the
    // value to itself: no guard, so the K loads are in flight together.
    bool stagedLoads = false, stagedStores = false;
    for (const auto &op : old)
      if (staged.count(op.get()))
        (op->opcode == Opcode::Load ? stagedLoads : stagedStores) = true;
    if (stagedLoads) {
      for (int k = 0; k < K; ++k)
        for (const auto &op : old)
          if (staged.count(op.get()) && op->opcode == Opcode::Load) {
            Op *l = cloneWithSlice(*op, transposed[k], old);
            cb.store(tileOf[op.get()], idxT[k], l->result());
          }
      cb.barrier();
    }
    // Elements the K direct instances share (consecutive along a): one
    // guarded load per row position, before the bodies.
    std::map<std::pair<const Op *, int>, Value *> reuse = loadSharedRows(K, direct);
    // The bodies at the direct instances. When every store is at the top
    // and nothing loads a view after the body stored it, all K bodies run
    // their loads and arithmetic first (unguarded: an inactive thread
    // computes instance 0) and their stores after, each under its
    // `active`; otherwise each body whole under its `active`.
    auto body = [&](int k, bool stores, bool others) {
      for (const auto &op : old) {
        if (op.get() == dec || op->opcode == Opcode::Yield ||
            (!op->results.empty() && base.count(op->result(0))))
          continue; // the decode and what it read are cloned already
        bool store = op->opcode == Opcode::Store;
        if ((store && !stores) || (!store && !others))
          continue;
        if (staged.count(op.get())) {
          if (op->opcode == Opcode::Load)
            direct[k][op->result()] = cb.load(tileOf[op.get()], idxD[k]);
          else
            cb.store(tileOf[op.get()], idxD[k],
                     lookup(direct[k], op->storedValue()));
          continue;
        }
        cloneOp(b, *op, direct[k]);
      }
    };
    if (splittable(old)) {
      for (int k = 0; k < K; ++k)
        body(k, false, true);
      // Staged stores write the shared tile: no guard needed (each thread
      // its own elements); view stores under `active`.
      for (int k = 0; k < K; ++k) {
        for (const auto &op : old)
          if (op->opcode == Opcode::Store && staged.count(op.get()))
            cb.store(tileOf[op.get()], idxD[k],
                     lookup(direct[k], op->storedValue()));
        bool any = false;
        for (const auto &op : old)
          any |= op->opcode == Opcode::Store && !staged.count(op.get());
        if (any)
          cb.when(directActive(k), [&] {
            for (const auto &op : old)
              if (op->opcode == Opcode::Store && !staged.count(op.get()))
                cloneOp(b, *op, direct[k]);
          });
      }
    } else {
      for (int k = 0; k < K; ++k)
        cb.when(directActive(k), [&] { body(k, true, true); });
    }
    useSharedRows(reuse, direct);
    // Staged stores: each transposed instance stores its element.
    if (stagedStores) {
      cb.barrier();
      for (int k = 0; k < K; ++k)
        cb.when(transActive(k), [&] {
          ValueMap m = transposed[k];
          for (const auto &op : old)
            if (staged.count(op.get()) && op->opcode == Opcode::Store) {
              Value *v = cb.load(tileOf[op.get()], idxT[k]);
              Op *s = cloneWithSlice(*op, m, old);
              s->operands[1] = v;
            }
        });
    }
    // A CTA may run several programs in turn (program_stride): the next
    // tile's writes wait until every thread has read this one.
    if (!staged.empty())
      cb.barrier();
    ValueMap none;
    cloneOp(b, *old.back(), none); // the terminator
  }

  /// Whether the body's stores are all at its top level and no load of a
  /// view follows a store to that view (the stores may then move after
  /// all loads).
  static bool splittable(const std::vector<std::unique_ptr<Op>> &old) {
    std::set<const Value *> stored;
    bool ok = true;
    for (const auto &op : old) {
      auto check = [&](const Op &o) {
        if (o.opcode == Opcode::Load && stored.count(o.memory()))
          ok = false;
        if (o.opcode == Opcode::Store && &o != op.get())
          ok = false; // a store inside an `if`
      };
      check(*op);
      for (const auto &r : op->regions)
        walk(*r, check);
      if (op->opcode == Opcode::Store)
        stored.insert(op->memory());
    }
    return ok;
  }

private:
  /// A load whose view the program never writes and whose coordinates are
  /// affine in the instance coordinates and invariants, instance
  /// coordinate a in exactly one of them (with coefficient 1, plus `c`):
  /// direct instance k reads the element at row position k + c of the
  /// thread's rows, and loads of one `key` (the view and the coordinates
  /// without a's term) at one position read the same element.
  struct Shareable {
    const Op *load = nullptr;
    int64_t c = 0;
    std::string key;
  };
  std::vector<Shareable> shareable;
  unsigned sharedLoads = 0, sharedUses = 0;
  /// Every op of the instance body as plan() found it (run() moves them).
  std::set<const Op *> bodyOps;

  /// Whether `v` can be recomputed before the bodies: a value from outside
  /// the segment, the decode's results, or pure region-free ops of those.
  bool recomputable(const Value *v, const std::set<const Op *> &inBody) const {
    if (!v->def)
      return !inBody.count(v->owner && v->owner->parent ? v->owner->parent->parent
                                                         : nullptr) &&
             v->owner != &segOp.regions[0]->block;
    if (v->def == dec || !inBody.count(v->def))
      return true;
    if (!v->def->regions.empty() || !isPure(v->def->opcode))
      return false;
    for (const Value *x : v->def->operands)
      if (!recomputable(x, inBody))
        return false;
    return true;
  }

  void findShareable(PhysAffine &aff, InstanceSpace &space) {
    std::set<const Op *> &inBody = bodyOps;
    walk(*segOp.regions[0], [&](const Op &o) { inBody.insert(&o); });
    const std::set<int> written = writtenParams(p);
    const std::string along = instanceAtom(tileDim);
    walk(*segOp.regions[0], [&](const Op &o) {
      if (o.opcode != Opcode::Load || o.guard() || staged.count(&o))
        return;
      const Value *m = o.memory();
      if (!m->type.isView() || !m->isBlockArg() || m->owner != &p.body->block ||
          written.count(static_cast<int>(m->argNo)))
        return;
      Shareable sh;
      sh.load = &o;
      sh.key = std::to_string(m->id);
      int at = -1;
      llvm::ArrayRef<Value *> cs = o.coords();
      for (unsigned d = 0; d < cs.size(); ++d) {
        if (!recomputable(cs[d], inBody))
          return;
        Affine e = aff.of(cs[d]);
        if (!e.valid)
          return;
        for (const auto &[atom, coeff] : e.terms)
          if (InstanceSpace::instanceDim(atom) < 0 && !space.isInvariant(atom))
            return;
        if (auto it = e.terms.find(along); it != e.terms.end()) {
          if (at >= 0 || it->second != 1)
            return;
          at = static_cast<int>(d);
          sh.c = e.constant;
          e.terms.erase(it);
          e.constant = 0;
        }
        sh.key += "|" + e.str();
      }
      if (at < 0)
        return;
      sh.key += "@" + std::to_string(at);
      shareable.push_back(sh);
    });
  }

  /// Recomputes `v` (recomputable) at the insertion point through `m`.
  Value *recompute(Value *v, ValueMap &m) {
    if (m.count(v))
      return m[v];
    if (!v->def || v->def == dec || !bodyOps.count(v->def))
      return lookup(m, v);
    for (Value *x : v->def->operands)
      recompute(x, m);
    return cloneOp(cb.b, *v->def, m)->result(v->resultNo);
  }

  /// For every key whose loads read fewer distinct row positions than
  /// they are done (K loads each), one load per position before the
  /// bodies: the load of the position's first reader, the smallest
  /// instance k (with load L, k + c = position), at k's coordinates, so it
  /// is that very access (its provenance unchanged), moved out of any
  /// `if` and guarded by the view's extents instead. A later reader k' > k
  /// is active only when k is (direct instances are consecutive rows of
  /// one column, active while inside the domain), and their coordinates
  /// then name the same element; an inactive reader computes nothing it
  /// stores. Returns (load, instance k) -> the position's value.
  std::map<std::pair<const Op *, int>, Value *>
  loadSharedRows(int K, std::vector<ValueMap> &direct) {
    std::map<std::pair<const Op *, int>, Value *> out;
    std::map<std::string, std::vector<const Shareable *>> byKey;
    for (const Shareable &sh : shareable)
      byKey[sh.key].push_back(&sh);
    Builder &b = cb.b;
    for (const auto &[key, loads] : byKey) {
      std::set<int64_t> rows;
      for (const Shareable *sh : loads)
        for (int k = 0; k < K; ++k)
          rows.insert(k + sh->c);
      if (loads.size() * K <= rows.size())
        continue; // nothing shared
      sharedUses += loads.size() * K;
      for (int64_t row : rows) {
        const Shareable *rep = nullptr;
        int first = K;
        for (const Shareable *sh : loads)
          if (row - sh->c >= 0 && row - sh->c < first) {
            first = static_cast<int>(row - sh->c);
            rep = sh;
          }
        Value *mem = rep->load->memory();
        ValueMap m = direct[first];
        ValueMap lm;
        Value *inBounds = nullptr;
        llvm::ArrayRef<Value *> cs = rep->load->coords();
        for (unsigned d = 0; d < cs.size(); ++d) {
          Value *c = recompute(cs[d], m);
          lm[cs[d]] = c;
          Op *e = b.create(Opcode::Extent, {mem}, {Type::index()});
          e->setAttr("dim", static_cast<int64_t>(d));
          Value *ok = cb.both(cb.cmp("ge", c, cb.i64(0)),
                              cb.cmp("lt", c, e->result()));
          inBounds = inBounds ? cb.both(inBounds, ok) : ok;
        }
        Op *l = cloneOp(b, *rep->load, lm);
        l->operands.push_back(inBounds);
        l->access.hasGuard = true;
        l->access.bounds = Bounds::Guarded;
        ++sharedLoads;
        for (const Shareable *sh : loads)
          for (int k = 0; k < K; ++k)
            if (k + sh->c == row)
              out[{sh->load, k}] = l->result();
      }
    }
    return out;
  }

  /// Replaces the uses of each body's copy of a shared load by its row's
  /// value. The copy stays, unused: the unchecked kernel drops it (nvcc
  /// removes a load nothing reads), the bounds-checked one (INTENT_CHECK=
  /// bounds) still checks the user's access where the user's code makes it.
  void useSharedRows(const std::map<std::pair<const Op *, int>, Value *> &rows,
                     std::vector<ValueMap> &direct) {
    llvm::DenseMap<const Value *, Value *> repl;
    for (const auto &[at, v] : rows) {
      Value *copy = lookup(direct[at.second], at.first->result());
      if (copy != at.first->result())
        repl[copy] = v;
    }
    if (repl.empty())
      return;
    walkMutable(*segOp.regions[0], [&](Op &o) {
      for (Value *&x : o.operands)
        if (auto it = repl.find(x); it != repl.end())
          x = it->second;
    });
  }

  Program &p;
  Op &segOp;
  CoopBuilder cb;
  const Op *dec = nullptr;
  unsigned rank = 0;
  int tileDim = 0;
  std::vector<Access> accesses;
  std::set<const Op *> staged;
  ValueMap direct, transposed;

  /// Clones the top-level ops of the old body that `v` needs, through `m`.
  void hoist(const Value *v, ValueMap &m,
             const std::vector<std::unique_ptr<Op>> &old) {
    if (m.count(v) || !v->def)
      return;
    bool inBody = false;
    for (const auto &o : old)
      inBody |= o.get() == v->def;
    if (!inBody)
      return;
    for (const Value *x : v->def->operands)
      hoist(x, m, old);
    cloneOp(cb.b, *v->def, m);
  }

  /// Clones `op` with the top-level ops of the old body its coordinates
  /// need (pure code over the instance coordinates), through `m`. A
  /// store's value is not cloned (the caller sets it).
  Op *cloneWithSlice(const Op &op, ValueMap &m,
                     const std::vector<std::unique_ptr<Op>> &old) {
    for (unsigned k = 0; k < op.operands.size(); ++k) {
      if (op.opcode == Opcode::Store && k == 1)
        continue;
      hoist(op.operands[k], m, old);
    }
    if (op.opcode == Opcode::Store) {
      // A placeholder for the value: the caller replaces it.
      ValueMap withValue = m;
      withValue[op.storedValue()] = op.storedValue();
      return cloneOp(cb.b, op, withValue);
    }
    return cloneOp(cb.b, op, m);
  }
};

} // namespace

std::string intent::passes::applyTileSegment(Program &p, unsigned index,
                                             std::string &what) {
  Op *segOp = nullptr;
  const Segment &seg = p.segments[index];
  std::string why = rejection(p, seg, segOp);
  if (!why.empty())
    return why;
  TileRewriter rw(p, *segOp);
  int dim = rw.plan();
  if (p.scope == ExecScope::Thread) {
    p.ctaThreads = tileThreads(p);
    p.scope = ExecScope::CTA;
    for (unsigned s = 0; s < p.segments.size(); ++s)
      if (s != index)
        spreadSegment(p, s, p.ctaThreads);
  }
  const int rows = tileRows(p.ctaThreads);
  tileSegment(p, index, dim, rows);
  rw.run(rows);
  const int64_t ty = p.ctaThreads / kTileWidth;
  what = "tile: tiles of " + std::to_string(rows * ty) + " x " +
         std::to_string(kTileWidth) + " instances along dimensions (" +
         std::to_string(dim) + ", " +
         std::to_string(p.segments[index].extents.size() - 1) +
         ") per CTA of " + std::to_string(p.ctaThreads) + " threads, " +
         std::to_string(rows) + (rows == 1 ? " instance" : " instances") +
         " per thread (" + std::to_string(rows * ty) + " * 32 / TX x TX when "
         "the last extent TX is below 32)";
  if (unsigned n = rw.sharedRows())
    what += "; a thread's " + std::to_string(rows) +
            " instances are consecutive along dimension " +
            std::to_string(dim) + ": their " +
            std::to_string(rw.sharedReads()) +
            " reads of neighbours along it load " + std::to_string(n) +
            " elements, each once";
  if (unsigned n = rw.stagedCount())
    what += "; " + std::to_string(n) +
            (n == 1 ? " transposed access goes" : " transposed accesses go") +
            " through a shared tile (a warp along each view's last "
            "coordinate)";
  return "";
}

void intent::passes::tile(Program &p, phys::RemarkSink &sink) {
  for (unsigned s = 0; s < p.segments.size(); ++s) {
    // Thread-style segments of rank >= 2 (the others are mapped already).
    const Segment &seg = p.segments[s];
    if (seg.ordered || seg.extents.size() < 2 || seg.team || seg.tile >= 0 ||
        (p.scope != ExecScope::Thread && !seg.spread))
      continue;
    std::string what, why = applyTileSegment(p, s, what);
    sink.remark(p.segments[s].loc,
                why.empty() ? what : "tile: not applied: " + why);
  }
}
