//===- VerifierCoop.cpp - Construction verifier: cooperative constructs ----===//
//
// [coop]: the cooperative constructs are where their lowering is legal.
//
// Grid reductions (docs/passes.md §2) are written with the cooperative
// primitives; what is checked here is the part of their contract the ops
// alone do not show: an ordered segment run by several programs (its length
// is not 1) belongs to a cta program, has its program count bounded as
// min(..., C), and its programs cooperate through a kept-zero invocation
// workspace the segment region allocates, one word (the arrival counter)
// plus at least one per program; a kept-zero workspace is zero-filled
// (init value 0) and touched only by atomics (ownership atomic), so it can
// be left zero by the kernel without racing with it. A chained split
// (grid-scan's look-back: programs take tickets and wait only for earlier
// ones) may have any program count; its programs publish through a
// workspace zero-filled per launch of a ticket word plus a word or more
// per program. The interpreter checks the rest (barriers reached by every
// thread, shared-memory races).
//
// cta-rows: `dist` only on reduce/argreduce/parallel fors directly in a
// segment of a cta program, staged and register rows.
//
//===----------------------------------------------------------------------===//

#include "Physical/Coop.h"
#include "Physical/RowCache.h"
#include "Physical/Structured.h"
#include "Physical/Verifier.h"
#include "Physical/Dispatch.h"

#include <functional>

#include <algorithm>
#include <map>
#include <set>

using namespace intent;
using namespace intent::phys;

namespace {

class CoopVerifier {
public:
  CoopVerifier(const Program &p, std::vector<std::string> &errors)
      : p(p), errors(errors) {}

  void run() {
    verifyRows();
    for (const Buffer &b : p.buffers)
      if (b.keptZero)
        verifyKeptZero(b);
    walk(*p.body, [&](const Op &op) {
      if (op.opcode != Opcode::Segment)
        return;
      int64_t g = op.intAttr("group", -1);
      if (g >= 0 && g < static_cast<int64_t>(p.segments.size()) &&
          p.segments[g].ordered && !p.segments[g].spread &&
          p.exprToString(p.segments[g].length) != "1")
        verifySplit(op, p.segments[g]);
      if (op.boolAttr("team") && op.regions[0]->block.args.size() == 3)
        verifyTeam(op);
      if (op.intAttr("tile", -1) >= 0 &&
          op.regions[0]->block.args.size() ==
              4 * static_cast<size_t>(std::max<int64_t>(1, op.intAttr("rows", 1))))
        verifyTeam(op);
    });
  }

  /// A team segment: every thread runs the region, the inactive ones with
  /// a copy of the last instance, so a store or atomic on a view (the
  /// instance's effects) sits under an `if` whose condition requires
  /// `active` (the argument itself, or an `and` with it).
  /// A tile segment: the same with the `active` argument of the instance
  /// whose decode the store's coordinates use (the direct one's, or the
  /// transposed one's when they use its decode), every thread entering.
  void verifyTeam(const Op &seg) {
    const Block &args = seg.regions[0]->block;
    const bool tile = seg.intAttr("tile", -1) >= 0;
    const Value *active = tile ? args.args[1] : args.args[2];
    const Value *wanted = active;
    // `wanted`, or a conjunction with it (CoopBuilder::both: select(x, y,
    // false)).
    std::function<bool(const Value *)> requires_ = [&](const Value *c) {
      if (c == wanted)
        return true;
      const Op *d = c->def;
      if (!d || d->opcode != Opcode::Select || d->operands.size() != 3)
        return false;
      const Op *f = d->operands[2]->def;
      bool falseElse = f && f->opcode == Opcode::Constant &&
                       f->attr("value") && std::holds_alternative<bool>(*f->attr("value")) &&
                       !std::get<bool>(*f->attr("value"));
      return falseElse &&
             (requires_(d->operands[0]) || requires_(d->operands[1]));
    };
    walk(*seg.regions[0], [&](const Op &op) {
      if (op.opcode != Opcode::Store && !isAtomic(op.opcode) &&
          op.opcode != Opcode::VectorStore)
        return;
      if (!op.memory()->type.isView())
        return;
      wanted = active;
      if (tile)
        if (const Value *index = decodedIndex(seg, op))
          wanted = tileActiveOf(seg, index);
      bool guarded = false;
      for (const Op *o = op.parentOp(); o && o != &seg && !guarded;
           o = o->parentOp())
        guarded = o->opcode == Opcode::If && requires_(o->operands[0]) &&
                  inThen(op, *o);
      if (!guarded)
        opError(op, tile ? "a store in a tile segment must be guarded by "
                           "the `active` argument of the instance it decodes "
                           "(a thread of a partial tile has no instance)"
                         : "a store in a team segment must be guarded by the "
                           "segment's `active` argument (inactive threads "
                           "repeat the last instance)");
    });
  }

  /// Whether `op` lies in the then-region of `ifOp`.
  static bool inThen(const Op &op, const Op &ifOp) {
    for (const Op *o = &op; o; o = o->parentOp())
      if (o->parentOp() == &ifOp)
        return o->parent == &ifOp.regions[0]->block;
    return false;
  }

private:
  const Program &p;
  std::vector<std::string> &errors;

  void error(const std::string &msg) { errors.push_back("[coop] " + msg); }
  void opError(const Op &op, const std::string &msg) {
    error("op " + std::to_string(op.id) + " (" + opcodeName(op.opcode).str() +
          "): " + msg);
  }

  /// cta-rows constructs: distributed reductions and fors, leader stores,
  /// staged loads.
  void verifyRows() {
    for (unsigned i : p.stagedParams) {
      if (i >= p.params.size() || !p.params[i].type.isView() ||
          p.params[i].type.rank < 2 || !p.params[i].type.constElem)
        error("staged parameter " + std::to_string(i) +
              " is not a view of const elements of rank 2 or more");
    }
    if (!p.stagedParams.empty() &&
        (p.stageLimitBytes <= 0 || p.sharedBytes % 16))
      error("staged rows need a positive stage limit and 16-byte aligned "
            "scratch");
    verifyRegisterRows();
    walk(*p.body, [&](const Op &op) {
      if (op.attr("dist"))
        verifyDistributed(op);
      if (op.opcode == Opcode::Load && op.boolAttr("staged"))
        verifyStaged(op);
      if (op.opcode == Opcode::Load && op.attr("reg"))
        verifyRegLoad(op);
      if (op.attr("row_cache"))
        verifyRowCache(op);
      if (op.attr("row_cached"))
        verifyRowCached(op);
    });
  }

  /// The distributed ops of the segment holding distributed op `d`, and
  /// d's position among them.
  std::vector<const Op *> distributedSiblings(const Op &d, size_t &at) {
    std::vector<const Op *> all;
    at = 0;
    for (const auto &o : d.parent->ops)
      if (o->strAttr("dist") == "cta") {
        if (o.get() == &d)
          at = all.size();
        all.push_back(o.get());
      }
    return all;
  }

  /// row_cache (Physical/RowCache.h): a row expression (of any scalar type)
  /// with no register read of the view after it in its block; every later
  /// distributed op reads the view only through equal expressions, and
  /// exactly their roots are `row_cached`; one per view and instance.
  void verifyRowCache(const Op &op) {
    const int64_t param = op.intAttr("row_cache", -1);
    std::string why;
    if (!p.regMaxK || param < 0 ||
        !rowCacheSite(p, op, static_cast<unsigned>(param), &why)) {
      opError(op, "`row_cache` on an op that cannot write the register row: " +
                      (p.regMaxK ? why : std::string("no register rows")));
      return;
    }
    const Op &d = *op.parentOp();
    size_t at = 0;
    std::vector<const Op *> dist = distributedSiblings(d, at);
    for (size_t j = 0; j < dist.size(); ++j) {
      const Block &b = memberBlock(*dist[j]);
      if (j < at) {
        walk(*dist[j]->region(dist[j]->opcode == Opcode::For ? 0 : ValueRegion),
             [&](const Op &o) {
               if (o.intAttr("row_cache", -1) == param)
                 opError(o, "a second `row_cache` of the same view in one "
                            "instance");
             });
        continue;
      }
      if (j == at)
        continue;
      std::vector<const Op *> roots;
      if (!rowReadsCovered(op.result(), *op.parent, b,
                           static_cast<unsigned>(param), &roots, &why)) {
        opError(*dist[j], "reads the register row that op " +
                              std::to_string(op.id) +
                              " overwrote (`row_cache`) other than through "
                              "the cached value: " + why);
        continue;
      }
      std::set<const Op *> want(roots.begin(), roots.end());
      for (const auto &o : b.ops) {
        const bool marked = o->intAttr("row_cached", -1) == param;
        if (marked != (want.count(o.get()) != 0))
          opError(*o, marked ? "`row_cached` on a value that is not the "
                               "cached expression"
                             : "computes the cached expression from the "
                               "overwritten register row without "
                               "`row_cached`");
      }
    }
  }

  /// row_cached: at the top of a member block, after a `row_cache` of the
  /// same view in an earlier distributed op of the instance.
  void verifyRowCached(const Op &op) {
    const int64_t param = op.intAttr("row_cached", -1);
    const Op *d = op.parentOp();
    if (!p.regMaxK || !d || d->strAttr("dist") != "cta" ||
        op.parent != &memberBlock(*d)) {
      opError(op, "`row_cached` outside the member block of a distributed "
                  "op of a register-row program");
      return;
    }
    size_t at = 0;
    std::vector<const Op *> dist = distributedSiblings(*d, at);
    bool cached = false;
    for (size_t j = 0; j < at; ++j)
      for (const auto &o : memberBlock(*dist[j]).ops)
        cached = cached || o->intAttr("row_cache", -1) == param;
    if (!cached)
      opError(op, "`row_cached` reads a register row that no earlier "
                  "distributed op caches (`row_cache`)");
  }

  /// Register rows: K in {4, 8, 16, 32} within the word budget, rank-2
  /// const register views, a view extent as the row length.
  void verifyRegisterRows() {
    if (!p.regMaxK) {
      if (!p.regParams.empty())
        error("register row views without a register form (regMaxK 0)");
      return;
    }
    if (p.scope != ExecScope::CTA)
      error("register rows need exec scope cta");
    if (p.regMaxK != 4 && p.regMaxK != 8 && p.regMaxK != 16 &&
        p.regMaxK != 32) {
      error("register rows: K up to " + std::to_string(p.regMaxK) +
            " is not one of 4, 8, 16, 32");
      return;
    }
    if (p.regParams.empty())
      error("register rows without register views");
    int64_t bytes = 0;
    for (unsigned i : p.regParams) {
      if (i >= p.params.size() || !p.params[i].type.isView() ||
          p.params[i].type.rank < 2 || !p.params[i].type.constElem) {
        error("register row parameter " + std::to_string(i) +
              " is not a view of const elements of rank 2 or more");
        return;
      }
      bytes += elemBytes(p.params[i].type.elem);
    }
    if (rowRegMaxK(bytes, p.regParams.size()) < p.regMaxK)
      error("register rows of K = " + std::to_string(p.regMaxK) +
            " elements take more than the register budget (" +
            std::to_string(kRowRegWords) +
            " words over the number of views) per thread");
    if (p.regLengthParam >= p.params.size() ||
        !p.params[p.regLengthParam].type.isView() ||
        static_cast<int>(p.regLengthDim) >=
            p.params[p.regLengthParam].type.rank)
      error("the register row length is not an extent of a view parameter");
  }

  /// A distributed op of a register-row program ranges over [0, n) with n
  /// the program's row length, and is not a user combine.
  void verifyRegisterRange(const Op &op) {
    if (op.opcode == Opcode::Reduce && op.strAttr("combiner") == "user")
      opError(op, "a user combine keeps contiguous chunks; it cannot run on "
                  "register rows");
    const Value *b = op.opcode == Opcode::For ? op.operands[0]
                                              : memberBegin(op);
    const Value *e = op.opcode == Opcode::For ? op.operands[1]
                                              : memberEnd(op);
    bool zero = b->def && b->def->opcode == Opcode::Constant &&
                b->def->intAttr("value", -1) == 0;
    const Op *x = e->def;
    bool length = x && x->opcode == Opcode::Extent &&
                  x->operands[0]->isBlockArg() &&
                  x->operands[0]->owner == &p.body->block &&
                  x->operands[0]->argNo == p.regLengthParam &&
                  x->intAttr("dim", -1) == p.regLengthDim;
    if (!zero || !length)
      opError(op, "with register rows a distributed op ranges over [0, n), "
                  "n the program's row length");
  }

  /// A `reg` load reads row r at the member, unconditionally, at the top of
  /// a distributed op's member region.
  void verifyRegLoad(const Op &op) {
    if (!p.regMaxK) {
      opError(op, "a `reg` load needs register rows (regMaxK)");
      return;
    }
    if (!isParamIn(op.memory(), p.regParams)) {
      opError(op, "a `reg` load must read a register row parameter");
      return;
    }
    const Op *dist = op.parentOp();
    if (!dist || dist->strAttr("dist") != "cta" ||
        op.parent != &memberBlock(*dist)) {
      opError(op, "a `reg` load sits at the top of the member region of a "
                  "distributed op");
      return;
    }
    const Op *seg = dist->parentOp();
    const std::vector<const Value *> rows =
        seg && seg->opcode == Opcode::Segment
            ? rowCoordinates(seg->regions[0]->block)
            : std::vector<const Value *>();
    if (op.guard() || !addressesRow(op, rows) ||
        op.coords().back() != op.parent->args[0])
      opError(op, "a `reg` load reads row r at the member, unguarded");
  }

  /// `m` is one of the program's parameters `params`.
  bool isParamIn(const Value *m, const std::vector<unsigned> &params) const {
    return m->isBlockArg() && m->owner == &p.body->block &&
           std::find(params.begin(), params.end(), m->argNo) != params.end();
  }

  const Op *segmentOf(const Op &op) const {
    for (const Op *o = op.parentOp(); o; o = o->parentOp())
      if (o->opcode == Opcode::Segment)
        return o;
    return nullptr;
  }

  void verifyDistributed(const Op &op) {
    if (p.scope != ExecScope::CTA)
      opError(op, "`dist` needs exec scope cta");
    if (op.strAttr("dist") != "cta")
      opError(op, "`dist` must be \"cta\"");
    if (op.opcode != Opcode::Reduce && op.opcode != Opcode::ArgReduce &&
        op.opcode != Opcode::For) {
      opError(op, "only reduce, argreduce and for are distributed");
      return;
    }
    const Op *seg = op.parentOp();
    if (!seg || seg->opcode != Opcode::Segment) {
      opError(op, "a distributed op must sit directly in its segment region "
                  "(all threads reach it together)");
      return;
    }
    if (op.opcode == Opcode::For && op.origin.op < 0)
      opError(op, "only a `for` that came from a parallel_for has "
                  "independent iterations to distribute");
    if (op.opcode == Opcode::Reduce && !op.boolAttr("reassociate", false))
      opError(op, "a distributed reduce regroups the combines; the reduce "
                  "does not allow reassociation");
    if (p.regMaxK)
      verifyRegisterRange(op);
    if (op.opcode != Opcode::For) {
      unsigned c = gridComponents(op);
      for (unsigned i = 0; i < c; ++i) {
        ScalarKind k = op.opcode == Opcode::ArgReduce
                           ? (i ? ScalarKind::I64 : op.result(0)->type.elem)
                           : op.acc[i].type.elem;
        if (!isShuffleKind(k))
          opError(op, "accumulator component " +
                          kir::scalarKindName(k).str() +
                          " cannot be exchanged by a warp shuffle");
      }
      int64_t need = rowScratchBytes(c);
      if (p.regMaxK)
        need = std::max(need, rowRegScratchBytes(c));
      if (p.sharedBytes < need)
        opError(op, "needs " + std::to_string(need) +
                        " bytes of shared scratch per CTA, the program has " +
                        std::to_string(p.sharedBytes));
    }
    // Iterations of a distributed for run on different threads.
    if (op.opcode == Opcode::For)
      if (std::string c = iterationConflict(p, op); !c.empty())
        opError(op, "its iterations run on different threads but may "
                    "conflict: " + c);
    // Phases that share memory are ordered by CTA barriers.
    // (Checked once per segment: at its first distributed op.)
    const Block &inst = seg->regions[0]->block;
    const Op *firstDist = nullptr;
    for (const auto &o : inst.ops)
      if (!firstDist && o->attr("dist"))
        firstDist = o.get();
    if (firstDist == &op)
      if (const Op *u = firstUnorderedPhase(p, inst))
        opError(*u, "it accesses memory an earlier top-level op of its "
                    "instance wrote (or writes memory one read) with no CTA "
                    "barrier between them; their threads are not ordered");
    // Who performs each access (leader stores, per-thread accesses in the
    // distributed regions) is [active] (VerifierAccess.cpp).
  }

  void verifyStaged(const Op &op) {
    if (p.scope != ExecScope::CTA)
      opError(op, "a staged load needs exec scope cta");
    if (!isParamIn(op.memory(), p.stagedParams)) {
      opError(op, "a staged load must read a staged parameter");
      return;
    }
    const Op *seg = segmentOf(op);
    const std::vector<const Value *> rows =
        seg ? rowCoordinates(seg->regions[0]->block)
            : std::vector<const Value *>();
    if (!addressesRow(op, rows))
      opError(op, "a staged load reads row r of its instance: its first "
                  "coordinates must be the segment's instance coordinates, "
                  "in order");
  }

  /// A kept-zero workspace: zero-filled once per allocation and left zero
  /// by the kernel, through atomics only.
  void verifyKeptZero(const Buffer &b) {
    if (b.scope != BufferScope::InvocationWorkspace || b.init != InitMode::Value ||
        b.initValue != 0)
      error("buffer " + b.name + " is kept zero but is not an invocation "
            "workspace with init value 0");
    if (b.ownership != Ownership::Atomic)
      error("buffer " + b.name + " is kept zero, so the kernel writes it "
            "while other programs read it: ownership must be atomic (only "
            "atomics touch it)");
  }

  /// Whether the segment's CTAs must all be resident at once (a grid
  /// barrier, grid_ctas).
  static bool usesWholeGrid(const Op &seg) {
    bool grid = false;
    walk(*seg.regions[0], [&](const Op &o) {
      grid |= o.opcode == Opcode::GridCtas ||
              (o.opcode == Opcode::Barrier && o.strAttr("scope") == "grid");
    });
    return grid;
  }

  /// The buffer records the segment region allocates (its top-level
  /// allocs).
  std::vector<const Buffer *> allocated(const Op &seg) const {
    std::vector<const Buffer *> out;
    for (const auto &o : seg.regions[0]->block.ops) {
      if (o->opcode != Opcode::Alloc)
        continue;
      int64_t id = o->intAttr("buffer", -1);
      if (id >= 0 && id < static_cast<int64_t>(p.buffers.size()))
        out.push_back(&p.buffers[id]);
    }
    return out;
  }

  /// A chained split (grid-scan's look-back, docs/passes.md §12): the
  /// programs take tickets in the order they start and wait only for
  /// programs holding earlier tickets, so any program count works (none
  /// waits for a program that has not started). They publish through a
  /// workspace sized per launch and zero-filled per launch (not kept
  /// zero: nothing clears it), touched by atomics only, of at least one
  /// word (the ticket counter) plus one per program: its size expression
  /// is C + K * count with C, K >= 1. A grid barrier or grid_ctas (every
  /// CTA resident) is not chained.
  bool chained(const Op &seg, const Segment &s) const {
    if (usesWholeGrid(seg))
      return false;
    auto constAtLeast1 = [&](unsigned e) {
      return p.exprs[e].kind == LaunchExpr::Kind::Const && p.exprs[e].value >= 1;
    };
    auto perProgram = [&](unsigned e) {
      const LaunchExpr &m = p.exprs[e];
      return m.kind == LaunchExpr::Kind::Mul && m.operands.size() == 2 &&
             ((m.operands[0] == s.length && constAtLeast1(m.operands[1])) ||
              (m.operands[1] == s.length && constAtLeast1(m.operands[0])));
    };
    for (const Buffer *bp : allocated(seg)) {
      const Buffer &b = *bp;
      if (b.scope != BufferScope::InvocationWorkspace || b.sizeExpr < 0 ||
          static_cast<size_t>(b.sizeExpr) >= p.exprs.size() || b.keptZero ||
          b.init != InitMode::Value || b.initValue != 0 ||
          b.ownership != Ownership::Atomic)
        continue;
      const LaunchExpr &size = p.exprs[b.sizeExpr];
      if (size.kind == LaunchExpr::Kind::Add && size.operands.size() == 2 &&
          ((constAtLeast1(size.operands[0]) && perProgram(size.operands[1])) ||
           (constAtLeast1(size.operands[1]) && perProgram(size.operands[0]))))
        return true;
    }
    return false;
  }

  /// An ordered segment whose instance several programs run.
  void verifySplit(const Op &seg, const Segment &s) {
    const std::string at = "segment of group " + std::to_string(s.group) +
                           " runs its one instance on several programs";
    if (p.scope != ExecScope::CTA) {
      error(at + ", which needs exec scope cta");
      return;
    }
    if (chained(seg, s))
      return;
    const LaunchExpr &count = p.exprs[s.length];
    const bool bounded =
        count.kind == LaunchExpr::Kind::Min && count.operands.size() == 2 &&
        p.exprs[count.operands[1]].kind == LaunchExpr::Kind::Const &&
        p.exprs[count.operands[1]].value >= 1;
    if (!bounded) {
      error(at + ": its program count must be min(..., C) with C >= 1");
      return;
    }
    const int64_t cap = p.exprs[count.operands[1]].value;
    // A grid barrier's arrival counter is a word of it; grid-reduce's
    // partials (without a grid barrier) take one more word per program.
    const bool gridBarrier = usesWholeGrid(seg);
    const int64_t need = gridBarrier ? 1 : 1 + cap;
    bool cooperates = false;
    for (const Buffer *b : allocated(seg))
      if (b->keptZero && b->size >= need)
        cooperates = true;
    if (!cooperates)
      error(at + ": they cooperate through a kept-zero invocation workspace "
                 "of at least " + (gridBarrier ? std::string("1") : "1 + " + std::to_string(cap)) +
                 " words that the segment region allocates");
  }
};

} // namespace

void intent::phys::verifyCooperative(const Program &p,
                                     std::vector<std::string> &errors) {
  CoopVerifier(p, errors).run();
}
