//===- VerifierCoop.cpp - Construction verifier: cooperative constructs ----===//
//
// [coop]: a grid_reduce (docs/passes.md) is only legal where its lowering is:
// a program of exec scope cta; directly in the region of a split ordered
// segment, with operands (%local, launch_value of the split count); the
// segment region holds only pure code or loads before it; its own region
// holds exactly one top-level reduce/argreduce, preceded only by pure code
// or loads (they run in every program); a reduce must be reassociable with
// a commutative built-in combiner (partials are formed from interleaved
// elements and combined in a tree); exchanged components are shuffle-able;
// the `workspace` attribute names a kept-zero invocation workspace big
// enough for `max_programs` partials, and the split count is bounded by it;
// the CTA's shared memory holds the cross-warp exchange.
//
//===----------------------------------------------------------------------===//

#include "Physical/Coop.h"
#include "Physical/RowCache.h"
#include "Physical/Structured.h"
#include "Physical/Verifier.h"

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
    std::map<const Op *, unsigned> gridsPerSegment;
    walk(*p.body, [&](const Op &op) {
      if (op.opcode == Opcode::GridReduce)
        verifyGrid(op, gridsPerSegment);
    });
    walk(*p.body, [&](const Op &op) {
      if (op.opcode != Opcode::Segment)
        return;
      int64_t g = op.intAttr("group", -1);
      if (g < 0 || g >= static_cast<int64_t>(p.segments.size()))
        return;
      if (p.segments[g].splitPrograms >= 0 && gridsPerSegment[&op] != 1)
        error("segment of group " + std::to_string(g) +
              " is split over several programs but does not hold exactly one "
              "grid_reduce");
    });
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
          p.params[i].type.rank != 2 || !p.params[i].type.constElem)
        error("staged parameter " + std::to_string(i) +
              " is not a rank-2 view of const elements");
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

  /// row_cache (Physical/RowCache.h): a row expression of the slot's type
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
          p.params[i].type.rank != 2 || !p.params[i].type.constElem) {
        error("register row parameter " + std::to_string(i) +
              " is not a rank-2 view of const elements");
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
    const Value *row = seg && seg->opcode == Opcode::Segment
                           ? rowCoordinate(seg->regions[0]->block)
                           : nullptr;
    if (op.guard() || !row || op.coords().size() != 2 ||
        op.coords()[0] != row || op.coords()[1] != op.parent->args[0])
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
    // A view the instance writes is never read by it (no barrier orders
    // them across threads).
    std::set<const Value *> loaded, stored;
    walk(*seg->regions[0], [&](const Op &a) {
      if (a.opcode == Opcode::Load)
        loaded.insert(a.memory());
      if (a.opcode == Opcode::Store)
        stored.insert(a.memory());
    });
    for (const Value *v : stored)
      if (loaded.count(v))
        opError(op, "its instance reads a view it writes; threads of the CTA "
                    "are not ordered between a store and a load");
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
    const Value *row = seg ? rowCoordinate(seg->regions[0]->block) : nullptr;
    if (!row || op.coords().size() != 2 || op.coords()[0] != row)
      opError(op, "a staged load reads row r of its instance: its first "
                  "coordinate must be the segment's (only) instance "
                  "coordinate");
  }

  static bool runsEverywhere(const Op &op) {
    return isPure(op.opcode) || op.opcode == Opcode::Load;
  }

  bool isLaunchValueOf(const Value *v, int64_t expr) const {
    return v->def && v->def->opcode == Opcode::LaunchValue &&
           v->def->intAttr("expr", -1) == expr;
  }

  void verifyGrid(const Op &op, std::map<const Op *, unsigned> &perSegment) {
    if (p.scope != ExecScope::CTA)
      opError(op, "a grid_reduce needs exec scope cta");
    const Op *seg = op.parentOp();
    if (!seg || seg->opcode != Opcode::Segment) {
      opError(op, "must sit directly in a segment region");
      return;
    }
    ++perSegment[seg];
    int64_t g = seg->intAttr("group", -1);
    if (g < 0 || g >= static_cast<int64_t>(p.segments.size()))
      return;
    const Segment &s = p.segments[g];
    if (!s.ordered || s.splitPrograms < 0) {
      opError(op, "its segment must be an ordered segment split over "
                  "programs");
      return;
    }
    const Block &segBlock = seg->regions[0]->block;
    if (op.operands[0] != segBlock.args[0] ||
        !isLaunchValueOf(op.operands[1], s.splitPrograms))
      opError(op, "operands must be (%local, the segment's program count)");
    for (const auto &o : segBlock.ops) {
      if (o.get() == &op)
        break;
      if (!runsEverywhere(*o))
        opError(*o, "runs in every program of a split segment; only pure "
                    "code and loads may precede the grid_reduce");
    }
    if (segBlock.ops.size() < 2 ||
        segBlock.ops[segBlock.ops.size() - 2].get() != &op)
      opError(op, "must be the last op of its segment region (the rest of "
                  "the instance belongs in its region)");

    const Op *t = gridReduceTarget(op);
    if (!t) {
      opError(op, "needs exactly one top-level reduce or argreduce");
      return;
    }
    for (const auto &o : op.regions[0]->block.ops) {
      if (o.get() == t)
        break;
      if (!runsEverywhere(*o))
        opError(*o, "precedes the cooperative reduction, so it runs in every "
                    "program; only pure code and loads may");
    }
    if (t->opcode == Opcode::Reduce) {
      if (!t->boolAttr("reassociate", false))
        opError(*t, "a grid reduction regroups the combines; the reduce "
                    "does not allow reassociation");
      if (!isCommutativeCombiner(t->strAttr("combiner")))
        opError(*t, "a grid reduction reorders the combines; combiner '" +
                        t->strAttr("combiner") +
                        "' is not a commutative built-in");
      for (const AccComponent &c : t->acc)
        if (!c.type.isScalar() || !isShuffleKind(c.type.elem))
          opError(*t, "accumulator component " + typeToString(c.type) +
                          " cannot be exchanged by a warp shuffle");
    } else if (!t->results.empty() &&
               !isShuffleKind(t->result(0)->type.elem)) {
      opError(*t, "arg-reduce value " + typeToString(t->result(0)->type) +
                      " cannot be exchanged by a warp shuffle");
    }
    int64_t vec = op.intAttr("vector", 0);
    if (vec != 1 && vec != 2 && vec != 4)
      opError(op, "`vector` (elements per thread and step) must be 1, 2 or 4");
    int64_t maxPrograms = op.intAttr("max_programs", 0);
    if (maxPrograms < 1)
      opError(op, "needs `max_programs` >= 1");
    const LaunchExpr &count = p.exprs[s.splitPrograms];
    bool bounded = count.kind == LaunchExpr::Kind::Min &&
                   count.operands.size() == 2 &&
                   p.exprs[count.operands[1]].kind == LaunchExpr::Kind::Const &&
                   p.exprs[count.operands[1]].value >= 1 &&
                   p.exprs[count.operands[1]].value <= maxPrograms;
    if (!bounded)
      opError(op, "the program count must be min(..., C) with 1 <= C <= "
                  "max_programs");
    unsigned components = gridComponents(*t);
    int64_t ws = op.intAttr("workspace", -1);
    if (ws < 0 || ws >= static_cast<int64_t>(p.buffers.size())) {
      opError(op, "needs a `workspace` naming a buffer record");
    } else {
      const Buffer &b = p.buffers[ws];
      if (b.scope != BufferScope::InvocationWorkspace ||
          b.elem != ScalarKind::U64 || b.init != InitMode::Value ||
          b.initValue != 0)
        opError(op, "its workspace must be a u64 invocation workspace kept "
                    "zero (init value 0)");
      if (b.size < gridWorkspaceWords(components, maxPrograms))
        opError(op, "workspace " + b.name + " holds " +
                        std::to_string(b.size) + " words, needs " +
                        std::to_string(
                            gridWorkspaceWords(components, maxPrograms)));
    }
    if (p.sharedBytes < gridSharedBytes(components))
      opError(op, "needs " + std::to_string(gridSharedBytes(components)) +
                      " bytes of shared memory per CTA, the program has " +
                      std::to_string(p.sharedBytes));
  }
};

} // namespace

void intent::phys::verifyCooperative(const Program &p,
                                     std::vector<std::string> &errors) {
  CoopVerifier(p, errors).run();
}
