//===- CtaRowsOps.cpp - cta-rows written as cooperative ops ---------------===//
//
// Before: a cta-rows program without register rows (docs/passes.md §3): the
// annotated form, `dist = "cta"` on its top-level reductions and parallel
// fors, `staged` loads, leader stores, Program::stagedParams /
// stageLimitBytes.
//
// After: the same program written with the cooperative primitives
// (docs/physical-ir.md §5.8) and no annotation left; the emitter prints the
// ops, the interpreter runs the CTA as fibers.
//
// In the default pipeline after cta-rows (`--disable-pass=cta-rows-ops`
// keeps the annotated form). cpu mode runs such a program through its
// serial twin (Program::serialTwin), not as 256 host fibers per row. Every
// annotated segment is lowered: a multi-group program may have several
// row groups (their buffers suffixed `_g<group>`) next to spread ones.
//
//===----------------------------------------------------------------------===//

#include "Passes/Passes.h"

#include "Physical/Clone.h"
#include "Physical/Coop.h"
#include "Physical/CoopBuild.h"
#include "Physical/Dispatch.h"
#include "Physical/Structured.h"
#include "Physical/Verifier.h"

#include <algorithm>
#include <functional>
#include <map>

using namespace intent;
using namespace intent::phys;

namespace {

/// Grid form: the most CTAs that run one instance together, and the
/// members (or iterations) each CTA's threads take at least, four per
/// thread, before another CTA joins.
constexpr int64_t kGridSlots = 1024;
constexpr int64_t kGridMembersPerThread = 4;

/// The inner `for` of a nest `for i { for j { ... } }` that came from one
/// 2-D parallel_for (dimensions d and d + 1), when the inner bounds are
/// defined before the nest and its iterations are independent for each i
/// (the outer ones are: cta-rows checked them): the nest can be strided
/// over the threads as one flat range. Null otherwise.
const Op *collapsibleInner(const Program &p, const Op &f) {
  // The body: constants (the inner bounds, e.g. its 0), the inner for, the
  // yield.
  const Block &body = f.region(0)->block;
  if (body.ops.size() < 2 || body.ops.back()->opcode != Opcode::Yield)
    return nullptr;
  for (size_t k = 0; k + 2 < body.ops.size(); ++k)
    if (body.ops[k]->opcode != Opcode::Constant)
      return nullptr;
  const Op &in = *body.ops[body.ops.size() - 2];
  if (in.opcode != Opcode::For || in.origin.op != f.origin.op ||
      in.origin.arg != f.origin.arg + 1)
    return nullptr;
  return iterationConflict(p, in).empty() ? &in : nullptr;
}

/// The largest trip count of segment op `seg`'s distributed ops (`dist`
/// reductions and fors; a collapsible 2-D nest: both dimensions') as a
/// launch expression, or nullopt when one is not known at launch.
std::optional<unsigned> widestTrips(Program &p, const Op &seg) {
  using K = LaunchExpr::Kind;
  // max(e - b, 0) of two launch-visible bounds.
  auto trips = [&](const Value *b, const Value *e) -> std::optional<unsigned> {
    std::optional<unsigned> lb = passes::launchExprOf(p, b);
    std::optional<unsigned> ub = passes::launchExprOf(p, e);
    if (!lb || !ub)
      return std::nullopt;
    return p.binaryExpr(K::Max, p.binaryExpr(K::Sub, *ub, *lb), p.constExpr(0));
  };
  std::optional<unsigned> widest = p.constExpr(0);
  for (const auto &op : seg.regions[0]->block.ops) {
    if (!op->attr("dist") || !widest)
      continue;
    const bool loop = op->opcode == Opcode::For;
    std::optional<unsigned> n =
        trips(loop ? op->operands[0] : memberBegin(*op),
              loop ? op->operands[1] : memberEnd(*op));
    if (const Op *in = loop ? collapsibleInner(p, *op) : nullptr; n && in) {
      std::optional<unsigned> inner = trips(in->operands[0], in->operands[1]);
      n = inner ? std::optional<unsigned>(p.binaryExpr(K::Mul, *n, *inner))
                : std::nullopt;
    }
    widest = n ? std::optional<unsigned>(p.binaryExpr(K::Max, *widest, *n))
               : std::nullopt;
  }
  return widest;
}

/// The launch expression of the device's multiprocessors.
unsigned smCountExpr(Program &p) {
  LaunchExpr sms;
  sms.kind = LaunchExpr::Kind::SmCount;
  return p.addExpr(sms);
}

/// Split rows: the members (or iterations) of its widest distributed op a
/// split instance's CTA takes at least, 16 per thread of 1024, before
/// another CTA joins.
constexpr int64_t kSplitMembersPerThread = 16;

/// The explicit form of cta-rows (docs/passes.md §3) for a program without
/// register rows: rewrites the segment region, planned by the annotations
/// applyCtaRows made (`dist`, `staged`, the access sets), into the
/// cooperative primitives (docs/physical-ir.md §5.8), as the emitter's
/// former cta-rows code did:
///
///   staging, after the row coordinate r is decoded, when the launch's rows
///   fit (a launch-time flag) and the launch is not the bounds-checked one:
///     barrier; per staged view x: gs[c] = x(r, c) strided over the threads
///     (vector_load/vector_store of min(16 / bytes, 4) elements, eight in
///     flight, when the row is contiguous and aligned; then the tail);
///     barrier. gs is a cta_shared buffer sized per launch (the row's length,
///     0 when the rows do not fit), and a staged load reads gs[c] when the
///     flag is set, x(r, c) otherwise.
///   reduce / argreduce: acc = identity; commutative built-ins and
///     arg-reductions: when the value region's streamed loads (member
///     last, other coordinates fixed) are contiguous and aligned, thread t
///     folds V-member chunks t, t + T, ... read by vector loads (lane l
///     into accumulator l), then the tail strided; otherwise thread t
///     folds members t + (4s + j) T into
///     accumulator j (four independent chains), the tail into acc, then the
///     four into acc; user combines (only associative): thread t folds its
///     contiguous chunk in member order. CoopBuilder::ctaReduce combines
///     the threads (ordered shuffle-down trees, warp partials in cta_shared
///     buffers); thread 0 publishes combine(init, acc) (an arg-reduction:
///     acc) and every thread reads it.
///   for: iterations lb + t, lb + t + T, ...
///   a top-level store: by thread 0 (`if (thread_id == 0)`).
///
/// Accesses inside distributed code are done by each thread (`thread`);
/// their member or iteration index no longer has the structured op's range,
/// so a proven bound becomes assumed (still checked by INTENT_CHECK=bounds).
class RowLowering {
public:
  /// `tag`: appended to the names of the buffers (one per segment of a
  /// program that lowers several).
  /// `grid`: the segment's one instance runs on every cooperating CTA;
  /// `splitParts` (a launch expression, split form): the segment is a team
  /// segment of one instance per `splitParts` programs, which run it
  /// together.
  RowLowering(Program &p, Op &segOp, int64_t stageLimit, std::string tag,
              bool grid = false, std::optional<unsigned> splitParts = {})
      : p(p), seg(segOp), cb(p, "cta-rows", segOp.loc),
        stageLimit(stageLimit), tag(std::move(tag)), grid(grid),
        split(splitParts.has_value()), coop(grid || split),
        splitParts(splitParts.value_or(0)) {
    for (const auto &op : segOp.regions[0]->block.ops)
      if (op->opcode == Opcode::For && op->strAttr("dist") == "cta")
        if (const Op *in = collapsibleInner(p, *op))
          collapsible[op.get()] = in;
  }

  /// Grid form: the launch expression of the segment's program count,
  /// min(max(ceil(W / (T * kGridMembersPerThread)), 1), kGridSlots), W the
  /// largest trip count of the instance's distributed ops (a flat 2-D nest:
  /// both dimensions'; kGridSlots when one is not known at launch).
  unsigned gridPrograms();

  void run();

private:
  Program &p;
  Op &seg;
  CoopBuilder cb;
  const int64_t stageLimit;
  const std::string tag;
  /// The split form: the segment's instance runs on every cooperating CTA
  /// (grid_ctas of them), its threads numbered part * T + thread_id.
  const bool grid;
  /// The split form: each instance of the segment runs on its group of
  /// `splitParts` CTAs (a team segment of width 1), its threads numbered
  /// part * T + thread_id (the region's worker argument); group barriers
  /// on the instance's arrival word.
  const bool split;
  const bool coop; ///< grid or split: several CTAs run one instance
  const unsigned splitParts;
  /// Grid and split forms: the kept-zero workspace (the barriers' arrival
  /// counters: word 0 in the grid form, kGridSlots words, one per instance
  /// modulo kGridSlots, in the split form; then kGridSlots words per
  /// (reduction, component)), this CTA's part, the cooperating CTAs (i64),
  /// the instance's first program's slot (split form: instance * parts),
  /// the instance's arrival word, barriers placed so far, reductions
  /// combined so far and the components of the widest one.
  Value *ws = nullptr, *part = nullptr, *ctas = nullptr;
  Value *slotBase = nullptr, *word = nullptr, *several = nullptr;
  Value *active = nullptr; ///< split form: the team segment's argument
  int64_t counterWords = 1;
  unsigned gridBarriers = 0, gridReductions = 0, gridComponents = 1;
  /// Distributed 2-D nests strided as one flat range: outer -> inner for
  /// (decided at construction, on the whole program before the rewrite).
  std::map<const Op *, const Op *> collapsible;
  void planGrid(const Block &body);
  void finishGrid();
  /// The workspace slot of partial word w (reduction r, component c: w = r
  /// * components + c) of part q of the instance (this CTA's part when q
  /// is null).
  Value *partialSlot(unsigned w, Value *q);
  /// A barrier of every CTA that runs the instance (grid or group).
  void coopBarrier();
  ValueMap map;
  using Values = CoopBuilder::Values;
  /// Warp-partial and result buffers per (component slot, element kind),
  /// shared by every reduction of the instance: each reduction's last
  /// barrier separates its reads from the next one's writes.
  std::map<std::pair<unsigned, ScalarKind>, std::pair<Value *, Value *>>
      scratch;
  std::map<unsigned, unsigned> stageBuffer; ///< param -> buffer record
  std::map<unsigned, Value *> stageHandle;  ///< param -> its alloc
  std::map<unsigned, const Op *> stageAccess; ///< param -> a staged load
  /// Loads whose value a vector load already produced (lane values).
  std::map<const Op *, Value *> substitute;
  unsigned fitsExpr = 0;
  Value *stage = nullptr;
  Value *tid = nullptr, *threads = nullptr; ///< i64 thread_id, cta_size

  Buffer &record(const std::string &name, ScalarKind elem, int64_t size) {
    Buffer b;
    b.id = p.buffers.size();
    b.name = name + tag;
    b.scope = BufferScope::CTAShared;
    b.elem = elem;
    b.size = size;
    b.init = InitMode::FirstWrite;
    b.ownership = Ownership::Private;
    b.writerGroups = b.readerGroups = {static_cast<unsigned>(seg.intAttr("group"))};
    b.origin = seg.origin;
    p.buffers.push_back(b);
    return p.buffers.back();
  }
  /// The component types of a distributed reduction.
  static std::vector<Type> componentTypes(const Op &t) {
    if (t.opcode == Opcode::ArgReduce)
      return {t.result(0)->type, Type::index()};
    std::vector<Type> ty;
    for (const AccComponent &c : t.acc)
      ty.push_back(c.type);
    return ty;
  }
  void planBuffers(const Block &body);
  /// `rows`: the instance coordinates (the row x(rows..., :) is staged).
  void emitStaging(const Values &rows);
  /// Copies `op` (regions through emit); accesses in distributed code are
  /// each thread's.
  Op *copy(const Op &op, bool distributed);
  /// Copies `op`, rewriting a staged load and a leader store.
  void emit(const Op &op, bool distributed);
  Values inlineRegion(const Op &t, unsigned r, const Values &args);
  void lowerReduce(const Op &t);
  void lowerFor(const Op &f);
};

/// Grid form: the workspace record (kept zero: its words are zero again
/// when the kernel ends) and its alloc.
void RowLowering::planGrid(const Block &body) {
  unsigned reductions = 0;
  for (const auto &op : body.ops)
    if (op->opcode == Opcode::Reduce || op->opcode == Opcode::ArgReduce) {
      ++reductions;
      gridComponents = std::max<unsigned>(gridComponents,
                                          componentTypes(*op).size());
    }
  Buffer b;
  b.id = p.buffers.size();
  b.name = "phase_workspace" + tag;
  b.scope = BufferScope::InvocationWorkspace;
  b.elem = ScalarKind::U64;
  counterWords = split ? kGridSlots : 1;
  b.size = counterWords +
           static_cast<int64_t>(reductions) * gridComponents * kGridSlots;
  b.workspaceOffset = 0;
  b.keptZero = true;
  b.init = InitMode::Value;
  b.initValue = 0;
  b.ownership = Ownership::Atomic;
  b.sharing = Sharing::Launch;
  // Only the reductions' partials are accesses (atomics, which count as
  // writes); the barrier's counter is the runtime's.
  if (reductions)
    b.writerGroups = {static_cast<unsigned>(seg.intAttr("group"))};
  b.origin = seg.origin;
  p.buffers.push_back(b);
  ws = cb.alloc(b.id);
}

/// Grid form, after the instance: the partials are read by every CTA, so
/// a grid barrier comes first; then each CTA's thread 0 zeroes the words
/// it wrote. The arrival counter is zero again after an even number of
/// grid barriers (each flips its high bit): one more when the count is odd.
void RowLowering::finishGrid() {
  if (gridReductions) {
    coopBarrier();
    ++gridBarriers;
  }
  if (gridBarriers % 2) {
    coopBarrier();
    ++gridBarriers;
  }
  if (!gridReductions)
    return;
  // Split form: a group of one CTA published nothing.
  Value *zeroes = cb.cmp("eq", cb.threadId(), cb.i32(0));
  if (split)
    zeroes = cb.both(zeroes, several);
  cb.when(zeroes, [&] {
    Value *zero = cb.constant(int64_t(0), Type::scalar(ScalarKind::U64));
    for (unsigned w = 0; w < gridReductions * gridComponents; ++w)
      cb.atomic("exch", "relaxed", ws, partialSlot(w, nullptr), zero);
  });
}

Value *RowLowering::partialSlot(unsigned w, Value *q) {
  Value *first = cb.i64(counterWords + static_cast<int64_t>(w) * kGridSlots);
  Value *mine = q ? q : part;
  if (split)
    mine = cb.b.binary(Opcode::Rem, cb.add(slotBase, mine), cb.i64(kGridSlots));
  return cb.add(first, mine);
}

void RowLowering::coopBarrier() {
  if (split)
    cb.groupBarrier(ws, word, ctas, cb.cmp("eq", part, cb.i64(0)));
  else
    cb.gridBarrier(ws);
}

void RowLowering::planBuffers(const Block &body) {
  for (const auto &op : body.ops) {
    if (op->opcode != Opcode::Reduce && op->opcode != Opcode::ArgReduce)
      continue;
    std::vector<Type> ty = componentTypes(*op);
    for (unsigned c = 0; c < ty.size(); ++c)
      scratch[{c, ty[c].elem}] = {nullptr, nullptr};
  }
  std::map<std::pair<unsigned, ScalarKind>, std::pair<unsigned, unsigned>> ids;
  for (auto &[key, handles] : scratch) {
    std::string suffix = std::to_string(key.first) + "_" +
                         kir::scalarKindName(key.second).str();
    unsigned w = record("rows_warp" + suffix, key.second, 32).id;
    unsigned r = record("rows_result" + suffix, key.second, 1).id;
    ids[key] = {w, r};
  }
  // Staged rows: sized per launch, x.extent(1) elements each when all of
  // them fit in stageLimit bytes (rounded to 16 bytes each), else none.
  auto note = [&](const Op &o) {
    if (o.opcode == Opcode::Load && o.boolAttr("staged") &&
        !stageAccess.count(o.memory()->argNo))
      stageAccess[o.memory()->argNo] = &o;
  };
  for (const auto &op : body.ops) {
    note(*op);
    for (const auto &r : op->regions)
      walk(*r, note);
  }
  using K = LaunchExpr::Kind;
  // The row's length: the staged view's last extent.
  auto extent = [&](unsigned param) {
    LaunchExpr e;
    e.kind = K::Extent;
    e.param = param;
    e.dim = static_cast<unsigned>(p.params[param].type.rank - 1);
    return p.addExpr(e);
  };
  if (!stageAccess.empty()) {
    unsigned total = p.constExpr(0);
    for (const auto &[param, l] : stageAccess) {
      unsigned bytes = p.binaryExpr(
          K::Mul, extent(param), p.constExpr(elemBytes(p.params[param].type.elem)));
      unsigned rounded = p.binaryExpr(
          K::Mul,
          p.binaryExpr(K::Div, p.binaryExpr(K::Add, bytes, p.constExpr(15)),
                       p.constExpr(16)),
          p.constExpr(16));
      total = p.binaryExpr(K::Add, total, rounded);
    }
    const unsigned limit = p.constExpr(stageLimit);
    fitsExpr = p.cmpExpr("le", total, limit);
    for (const auto &[param, l] : stageAccess) {
      // One statement per node (argument evaluation order is unspecified).
      const unsigned whole = extent(param), none = p.constExpr(0);
      Buffer &b = record("rows_stage_" + p.params[param].name,
                         p.params[param].type.elem, 0);
      b.sizeExpr = static_cast<int>(p.selectExpr(fitsExpr, whole, none));
      stageBuffer[param] = b.id;
    }
  }
  p.sharedBytes = 0;
  layoutSharedBuffers(p);
  // The allocs at the top of the instance.
  for (auto &[key, handles] : scratch)
    handles = {cb.alloc(ids[key].first), cb.alloc(ids[key].second)};
  for (const auto &[param, id] : stageBuffer)
    stageHandle[param] = cb.alloc(id);
  tid = cb.cast(cb.threadId(), ScalarKind::I64);
  threads = cb.cast(cb.ctaSize(), ScalarKind::I64);
  if (grid) {
    part = seg.regions[0]->block.args[0];
    ctas = cb.cast(cb.gridCtas(), ScalarKind::I64);
    tid = cb.add(cb.mul(part, threads), tid);
    threads = cb.mul(ctas, threads);
  } else if (split) {
    // The team segment's (instance, worker = part * T + thread_id, active).
    const Block &r = seg.regions[0]->block;
    Value *inst = r.args[0];
    ctas = cb.b.launchValue(splitParts);
    several = cb.cmp("gt", ctas, cb.i64(1));
    tid = r.args[1];
    active = r.args[2];
    part = cb.b.binary(Opcode::Div, tid, threads);
    threads = cb.mul(ctas, threads);
    slotBase = cb.mul(inst, ctas);
    word = cb.b.binary(Opcode::Rem, inst, cb.i64(kGridSlots));
  }
}

void RowLowering::emitStaging(const Values &rows) {
  Builder &b = cb.b;
  Value *fits = b.launchValue(fitsExpr);
  // Not in the bounds-checked launch: the copy is not checked.
  stage = cb.both(fits, cb.uncheckedLaunch());
  cb.when(stage, [&] {
    // The CTA's previous program may still read its staged rows.
    cb.barrier();
    for (const auto &[param, gs] : stageHandle) {
      Value *x = p.param(param);
      const Op &proto = *stageAccess[param];
      const ScalarKind elem = p.params[param].type.elem;
      const int64_t bytes = elemBytes(elem);
      const int64_t vec = std::min<int64_t>(bytes >= 16 ? 1 : 16 / bytes, 4);
      const int64_t last = static_cast<int64_t>(rows.size());
      Op *ext = b.create(Opcode::Extent, {x}, {Type::index()});
      ext->setAttr("dim", last);
      Value *n = ext->result();
      // The row's first element: sum_d rows[d] * stride(d).
      Value *base = nullptr;
      for (unsigned d = 0; d < rows.size(); ++d) {
        Op *str = b.create(Opcode::Stride, {x}, {Type::index()});
        str->setAttr("dim", static_cast<int64_t>(d));
        Value *term = cb.mul(rows[d], str->result());
        base = base ? cb.add(base, term) : term;
      }
      auto at = [&](Value *c) {
        llvm::SmallVector<Value *, 4> ops = {x};
        ops.append(rows.begin(), rows.end());
        ops.push_back(c);
        return ops;
      };
      // A row access with the provenance of the staged loads it serves.
      auto rowAccess = [&](Op *op) { CoopBuilder::standsFor(op, proto); };
      auto scalarCopy = [&](Value *from) {
        cb.loop(
            {from}, [&](const Values &c) { return cb.cmp("lt", c[0], n); },
            [&](const Values &c) {
              Op *l = b.create(Opcode::Load, at(c[0]), {Type::scalar(elem)});
              rowAccess(l);
              cb.store(gs, c[0], l->result());
              return c;
            },
            [&](const Values &c) { return Values{cb.add(c[0], threads)}; });
      };
      cb.branch(
          cb.aligned(x, {base}, vec * bytes), {},
          [&] {
            Value *v = cb.i64(vec);
            // Eight vector loads in flight per thread: a long staged row is
            // often the only CTA of its SM, whose loads alone must cover the
            // latency.
            Value *step = cb.mul(threads, v);
            Values end = cb.loop(
                {cb.mul(tid, v)},
                [&](const Values &c) {
                  return cb.cmp("le", cb.add(c[0], v), n);
                },
                [&](const Values &c) {
                  std::vector<Type> rt(vec, Type::scalar(elem));
                  Op *l = b.create(Opcode::VectorLoad, at(c[0]), rt);
                  rowAccess(l);
                  l->setAttr("width", vec);
                  llvm::SmallVector<Value *, 8> ops = {gs};
                  ops.append(l->results.begin(), l->results.end());
                  ops.push_back(c[0]);
                  Op *st = b.create(Opcode::VectorStore, ops, {});
                  st->access.bounds = Bounds::Assumed;
                  st->access.active = ActiveSet::Thread;
                  st->setAttr("width", vec);
                  return c;
                },
                [&](const Values &c) { return Values{cb.add(c[0], step)}; },
                /*unroll=*/8);
            (void)end;
            Value *whole = cb.mul(b.binary(Opcode::Div, n, v), v);
            scalarCopy(cb.add(whole, tid));
            return Values();
          },
          [&] {
            scalarCopy(tid);
            return Values();
          });
    }
    cb.barrier();
  });
}

Op *RowLowering::copy(const Op &op, bool distributed) {
  Builder &b = cb.b;
  llvm::SmallVector<Value *, 4> operands;
  for (Value *v : op.operands)
    operands.push_back(lookup(map, v));
  llvm::SmallVector<Type, 2> types;
  for (const Value *r : op.results)
    types.push_back(r->type);
  Op *c = b.create(op.opcode, operands, types);
  c->loc = op.loc;
  c->origin = op.origin;
  // The plan's annotations are not part of the result.
  for (const NamedAttr &a : op.attrs)
    if (a.name != "dist" && a.name != "staged" && a.name != "reg")
      c->attrs.push_back(a);
  c->access = op.access;
  c->acc = op.acc;
  if (distributed && (op.opcode == Opcode::Load || op.opcode == Opcode::Store ||
                      isAtomic(op.opcode))) {
    c->access.active = ActiveSet::Thread;
    if (c->access.bounds == Bounds::Proven)
      c->access.bounds = Bounds::Assumed;
  }
  // A team segment (the split form) is a distributed region: a load every
  // thread makes at one address (`all`) is each thread's own there, the
  // same load (a fuzz program's instance-level load before its reduce).
  if (split && op.opcode == Opcode::Load && c->access.active == ActiveSet::All)
    c->access.active = ActiveSet::Thread;
  for (unsigned i = 0; i < op.results.size(); ++i) {
    c->results[i]->name = op.results[i]->name;
    c->results[i]->origin = op.results[i]->origin;
    c->results[i]->alsoFrom = op.results[i]->alsoFrom;
    map[op.results[i]] = c->results[i];
  }
  // Regions through emit, so nested staged loads and accesses are
  // rewritten too.
  Block *outer = b.block;
  for (const auto &r : op.regions) {
    Block *nb = &b.addRegion(c)->block;
    for (Value *a : r->block.args) {
      Value *na = b.addBlockArg(nb, a->type, a->name);
      na->origin = a->origin;
      map[a] = na;
    }
    b.setInsertionBlock(nb);
    for (const auto &inner : r->block.ops)
      emit(*inner, distributed);
    b.setInsertionBlock(outer);
  }
  return c;
}

void RowLowering::emit(const Op &op, bool distributed) {
  if (auto it = substitute.find(&op); it != substitute.end()) {
    // A vector lane loaded ahead (lowerReduce's vector path).
    map[op.result()] = it->second;
    return;
  }
  if (op.opcode == Opcode::Load && op.boolAttr("staged")) {
    // The staged copy when this launch has one, else the view.
    Value *gs = stageHandle.at(op.memory()->argNo);
    Value *k = lookup(map, op.coords().back());
    Values v = cb.branch(
        stage, {op.result()->type}, [&] { return Values{cb.load(gs, k)}; },
        [&] { return Values{copy(op, distributed)->result()}; });
    map[op.result()] = v[0];
    return;
  }
  if (op.opcode == Opcode::Store && !distributed &&
      op.access.active == ActiveSet::Leader) {
    Value *leader = cb.cmp("eq", cb.threadId(), cb.i32(0));
    if (coop)
      leader = cb.both(leader, cb.cmp("eq", part, cb.i64(0)));
    if (split)
      leader = cb.both(leader, active);
    cb.when(leader, [&] { copy(op, /*distributed=*/true); });
    return;
  }
  if (split && (op.opcode == Opcode::Store || isAtomic(op.opcode))) {
    // A team segment's effects are its active threads' (every program of
    // the split segment is active: its length is rows * parts).
    cb.when(active, [&] { copy(op, distributed); });
    return;
  }
  if (coop && op.opcode == Opcode::Barrier && op.strAttr("scope") == "cta") {
    // A phase barrier orders the phases of every cooperating CTA.
    coopBarrier();
    ++gridBarriers;
    return;
  }
  copy(op, distributed);
}

RowLowering::Values RowLowering::inlineRegion(const Op &t, unsigned r,
                                              const Values &args) {
  const Block &blk = t.region(r)->block;
  for (unsigned i = 0; i < args.size(); ++i)
    map[blk.args[i]] = args[i];
  for (const auto &op : blk.ops) {
    if (op->opcode == Opcode::Yield) {
      Values out;
      for (Value *v : op->operands)
        out.push_back(lookup(map, v));
      return out;
    }
    emit(*op, /*distributed=*/true);
  }
  return {};
}

void RowLowering::lowerReduce(const Op &t) {
  const bool arg = t.opcode == Opcode::ArgReduce;
  const bool user = !arg && t.strAttr("combiner") == "user";
  const std::vector<Type> types = componentTypes(t);
  const unsigned nc = types.size();
  auto identity = [&]() {
    Values id;
    if (arg)
      return Values{cb.constant(t.acc[0].value, types[0]), cb.i64(-1)};
    for (unsigned c = 0; c < nc; ++c)
      id.push_back(t.acc[c].identity == AccComponent::Identity::Init
                       ? lookup(map, t.operands[2 + c])
                       : cb.constant(t.acc[c].value, types[c]));
    return id;
  };
  auto combine = [&](const Values &lo, const Values &hi, bool increasing) {
    if (arg)
      return cb.argMerge(t.strAttr("which") == "max", t.strAttr("tie") == "last",
                         t.strAttr("nan") == "ignore", lo[0], lo[1], hi[0],
                         hi[1], increasing);
    Values a = lo;
    a.insert(a.end(), hi.begin(), hi.end());
    return inlineRegion(t, CombineRegion, a);
  };
  const Value *kArg = t.region(ValueRegion)->block.args[0];
  auto member = [&](const Values &acc, Value *k) {
    k->origin = kArg->origin;
    Values x = inlineRegion(t, ValueRegion, {k});
    if (arg)
      x = {x[0], k};
    return combine(acc, x, /*increasing=*/arg);
  };
  Value *begin = lookup(map, memberBegin(t)), *end = lookup(map, memberEnd(t));
  // Folds members k = from, from + step, ... below `stop` into one
  // accumulator started at the identity (`step()` builds the stride inside
  // the loop's step region).
  auto foldMembers = [&](Value *from, Value *stop,
                         const std::function<Value *()> &step) {
    Values init = {from};
    Values id = identity();
    init.insert(init.end(), id.begin(), id.end());
    Values out = cb.loop(
        init, [&](const Values &c) { return cb.cmp("lt", c[0], stop); },
        [&](const Values &c) {
          Values next = {c[0]};
          Values a = member(Values(c.begin() + 1, c.end()), c[0]);
          next.insert(next.end(), a.begin(), a.end());
          return next;
        },
        [&](const Values &c) {
          Values next = c;
          next[0] = cb.add(c[0], step());
          return next;
        });
    return Values(out.begin() + 1, out.end());
  };
  Values acc;
  if (user) {
    // Contiguous chunks in member order: [b + t c, min(b + (t + 1) c, e)).
    Value *n = cb.b.binary(Opcode::Max, cb.b.binary(Opcode::Sub, end, begin),
                           cb.i64(0));
    Value *chunk = cb.b.binary(
        Opcode::Div, cb.b.binary(Opcode::Sub, cb.add(n, threads), cb.i64(1)),
        threads);
    Value *first = cb.add(begin, cb.mul(tid, chunk));
    Value *last = cb.b.binary(Opcode::Min, cb.add(first, chunk), end);
    acc = foldMembers(first, last, [&] { return cb.i64(1); });
  } else {
    // Loads of the value region that every member makes at the member
    // index in the last coordinate, the others fixed (x(r, k), y[k]):
    // streamed, V lanes at a time, when every such view is contiguous and
    // aligned at `begin` (and the launch is not the bounds-checked one).
    std::vector<const Op *> streamed;
    int64_t widest = 0;
    for (const auto &o : t.region(ValueRegion)->block.ops) {
      if (o->opcode != Opcode::Load || o->guard() || o->boolAttr("staged") ||
          !o->memory()->type.isView())
        continue;
      llvm::ArrayRef<Value *> c = o->coords();
      bool ok = !c.empty() && c.back() == kArg;
      for (unsigned d = 0; ok && d + 1 < c.size(); ++d)
        ok = !definedInside(c[d], t);
      if (!ok)
        continue;
      streamed.push_back(o.get());
      widest = std::max(widest, elemBytes(o->result()->type.elem));
    }
    const int64_t V = widest ? std::min<int64_t>(4, 16 / widest) : 0;
    auto strided = [&]() -> Values {
      Values acc;
    // Four independent accumulators: member k + j T of each step goes to
    // accumulator j, so four loads are in flight and the combines form four
    // chains; the tail goes to acc, then the four are folded into acc.
    // Commutative built-ins may be regrouped (reassociate), and the
    // arg-merge is exact in any order (docs/passes.md §2).
    const unsigned lanes = 4;
    Value *t3 = cb.mul(threads, cb.i64(lanes - 1));
    Value *t4 = cb.mul(threads, cb.i64(lanes));
    std::vector<Value *> offsets = {nullptr};
    for (unsigned j = 1; j < lanes; ++j)
      offsets.push_back(cb.mul(threads, cb.i64(j)));
    Values init = {cb.add(begin, tid)};
    for (unsigned j = 0; j < lanes; ++j) {
      Values id = identity();
      init.insert(init.end(), id.begin(), id.end());
    }
    Values out = cb.loop(
        init,
        [&](const Values &c) { return cb.cmp("lt", cb.add(c[0], t3), end); },
        [&](const Values &c) {
          Values next = {c[0]};
          for (unsigned j = 0; j < lanes; ++j) {
            Value *k = j ? cb.add(c[0], offsets[j]) : c[0];
            auto at = c.begin() + 1 + j * nc;
            Values a = member(Values(at, at + nc), k);
            next.insert(next.end(), a.begin(), a.end());
          }
          return next;
        },
        [&](const Values &c) {
          Values next = c;
          next[0] = cb.add(c[0], t4);
          return next;
        });
    acc = foldMembers(out[0], end, [&] { return threads; });
    for (unsigned j = 0; j < lanes; ++j) {
      auto at = out.begin() + 1 + j * nc;
      acc = combine(acc, Values(at, at + nc), false);
    }
  
      return acc;
    };
    if (V < 2) {
      acc = strided();
    } else {
      Value *vec = cb.uncheckedLaunch();
      for (const Op *l : streamed) {
        // The row's first streamed element: (its other coordinates, begin).
        llvm::ArrayRef<Value *> c = l->coords();
        llvm::SmallVector<Value *, 4> at;
        for (unsigned d = 0; d + 1 < c.size(); ++d)
          at.push_back(lookup(map, c[d]));
        at.push_back(begin);
        vec = cb.both(vec, cb.aligned(lookup(map, l->memory()), at,
                                      V * elemBytes(l->result()->type.elem)));
      }
      acc = cb.branch(
          vec, types,
          [&]() -> Values {
            // Chunk c of V members [begin + c V, begin + (c + 1) V): thread
            // t takes c = t, t + T, ...; lane l folds into accumulator l.
            Value *vv = cb.i64(V);
            Values init = {tid};
            for (int64_t l = 0; l < V; ++l) {
              Values id = identity();
              init.insert(init.end(), id.begin(), id.end());
            }
            Values out = cb.loop(
                init,
                [&](const Values &c) {
                  return cb.cmp("le", cb.add(begin, cb.mul(cb.add(c[0], cb.i64(1)), vv)),
                                end);
                },
                [&](const Values &c) {
                  Value *base = cb.add(begin, cb.mul(c[0], vv));
                  std::vector<Values> lanes;
                  for (const Op *l : streamed) {
                    llvm::SmallVector<Value *, 4> co;
                    for (unsigned d = 0; d + 1 < l->coords().size(); ++d)
                      co.push_back(lookup(map, l->coords()[d]));
                    co.push_back(base);
                    lanes.push_back(
                        cb.vectorLoad(*l, lookup(map, l->memory()), co, V));
                  }
                  Values next = {c[0]};
                  for (int64_t ln = 0; ln < V; ++ln) {
                    for (unsigned i = 0; i < streamed.size(); ++i)
                      substitute[streamed[i]] = lanes[i][ln];
                    auto at = c.begin() + 1 + ln * nc;
                    Values a = member(Values(at, at + nc), cb.add(base, cb.i64(ln)));
                    substitute.clear();
                    next.insert(next.end(), a.begin(), a.end());
                  }
                  return next;
                },
                [&](const Values &c) {
                  Values next = c;
                  next[0] = cb.add(c[0], threads);
                  return next;
                });
            // The members past the last whole chunk, strided over the
            // threads; then the V lane accumulators.
            Value *n = cb.b.binary(Opcode::Max, cb.b.binary(Opcode::Sub, end, begin),
                                   cb.i64(0));
            Value *whole = cb.mul(cb.b.binary(Opcode::Div, n, vv), vv);
            Values acc = foldMembers(cb.add(cb.add(begin, whole), tid), end,
                                     [&] { return threads; });
            for (int64_t ln = 0; ln < V; ++ln) {
              auto at = out.begin() + 1 + ln * nc;
              acc = combine(acc, Values(at, at + nc), false);
            }
            return acc;
          },
          strided);
    }
  }
  Values warpSlots, resultSlots;
  for (unsigned c = 0; c < nc; ++c) {
    auto &h = scratch.at({c, types[c].elem});
    warpSlots.push_back(h.first);
    resultSlots.push_back(h.second);
  }
  auto combineAll = [&](const Values &lo, const Values &hi) {
    return combine(lo, hi, false);
  };
  auto finish = [&](const Values &a) {
    if (arg)
      return a;
    // combine(init, acc): the reduce's result.
    Values inits;
    for (const Value *v : accInits(t))
      inits.push_back(lookup(map, const_cast<Value *>(v)));
    Values pair = inits;
    pair.insert(pair.end(), a.begin(), a.end());
    return inlineRegion(t, CombineRegion, pair);
  };
  Values result;
  if (!coop) {
    result = cb.ctaReduce(acc, warpSlots, resultSlots, identity, combineAll,
                          finish);
  } else {
    // Each CTA's partial (its threads cover parts of the members in part
    // order) is published in the workspace; after a grid (group) barrier
    // every CTA folds the partials in part order (thread q takes part q's)
    // and combines its threads again: the same result everywhere.
    Values mine = cb.ctaReduce(acc, warpSlots, resultSlots, identity,
                               combineAll, [](const Values &a) { return a; });
    const unsigned r = gridReductions++;
    auto slot = [&](unsigned c, Value *q) {
      return partialSlot(r * gridComponents + c, q);
    };
    auto exchange = [&]() -> Values {
      cb.when(cb.cmp("eq", cb.threadId(), cb.i32(0)), [&] {
        for (unsigned c = 0; c < nc; ++c)
          cb.atomic("exch", "relaxed", ws, slot(c, nullptr), cb.toBits(mine[c]));
      });
      coopBarrier();
      Value *q = cb.cast(cb.threadId(), ScalarKind::I64);
      Values theirs = cb.ifThen(cb.cmp("lt", q, ctas), identity(), [&] {
        Values v;
        Value *zero = cb.constant(int64_t(0), Type::scalar(ScalarKind::U64));
        for (unsigned c = 0; c < nc; ++c)
          v.push_back(cb.fromBits(
              cb.atomic("add", "relaxed", ws, slot(c, q), zero), types[c]));
        return v;
      });
      return cb.ctaReduce(theirs, warpSlots, resultSlots, identity, combineAll,
                          finish);
    };
    // Split form: a group of one CTA (few CTAs per instance were not
    // worth it, or cpu mode) has its result already.
    result = split ? cb.branch(several, types, exchange,
                               [&] { return finish(mine); })
                   : exchange();
    ++gridBarriers;
  }
  for (unsigned c = 0; c < t.results.size(); ++c)
    map[t.result(c)] = result[c];
}

void RowLowering::lowerFor(const Op &f) {
  const Block &body = f.region(0)->block;
  // The loop stands for the parallel_for the `for` came from: its origin
  // (the coverage check reads it) and its iteration variables'. `bind(q)`
  // maps the iteration variables for the strided index q and returns the
  // block whose ops one iteration runs.
  auto stride = [&](Value *start, Value *stop,
                    const std::function<const Block &(Value *)> &bind) {
    Values out = cb.loop(
        {start}, [&](const Values &c) { return cb.cmp("lt", c[0], stop); },
        [&](const Values &c) {
          for (const auto &op : bind(c[0]).ops)
            if (op->opcode != Opcode::Yield)
              emit(*op, /*distributed=*/true);
          return c;
        },
        [&](const Values &c) { return Values{cb.add(c[0], threads)}; });
    Op *loop = out[0]->def;
    loop->loc = f.loc;
    loop->origin = f.origin;
    return loop;
  };
  auto name = [&](Value *v, const Value *as) {
    v->name = as->name;
    v->origin = as->origin;
    map[as] = v;
  };
  Value *lb0 = lookup(map, f.operands[0]), *ub0 = lookup(map, f.operands[1]);
  auto nest = collapsible.find(&f);
  if (nest == collapsible.end()) {
    stride(cb.add(lb0, tid), ub0, [&](Value *i) -> const Block & {
      name(i, body.args[0]);
      return body;
    });
    return;
  }
  // A 2-D nest: the body's constants first (the inner bounds may be among
  // them), then a flat index q over n0 x n1: i = lb0 + q / n1, j = lb1 +
  // q % n1.
  const Op *in = nest->second;
  for (const auto &op : body.ops)
    if (op->opcode == Opcode::Constant)
      emit(*op, /*distributed=*/false);
  Value *lb1 = lookup(map, in->operands[0]), *ub1 = lookup(map, in->operands[1]);
  auto count = [&](Value *lb, Value *ub) {
    return cb.b.binary(Opcode::Max, cb.b.binary(Opcode::Sub, ub, lb), cb.i64(0));
  };
  Value *n1 = count(lb1, ub1);
  const Block &inner = in->region(0)->block;
  Op *loop = stride(tid, cb.mul(count(lb0, ub0), n1),
                    [&](Value *q) -> const Block & {
                      name(cb.add(lb0, cb.b.binary(Opcode::Div, q, n1)),
                           body.args[0]);
                      name(cb.add(lb1, cb.b.binary(Opcode::Rem, q, n1)),
                           inner.args[0]);
                      return inner;
                    });
  loop->setAttr("dims", int64_t(2));
}

void RowLowering::run() {
  Block &blk = seg.regions[0]->block;
  const std::vector<const Value *> rows = rowCoordinates(blk);
  // The old ops stay alive (their values mapped to the new ones) while the
  // new ones are built from them.
  Block old;
  old.ops = std::move(blk.ops);
  blk.ops.clear();
  cb.b.setInsertionBlock(&blk);
  if (coop)
    planGrid(old);
  planBuffers(old);
  // The grid form: only the cooperating CTAs run the instance (a CTA with
  // a later program id has nothing to do); the terminator stays outside.
  Block *outer = cb.b.block;
  if (grid) {
    Op *w = cb.b.create(Opcode::If, {cb.cmp("lt", part, ctas)}, {});
    Block *then = &cb.b.addRegion(w)->block;
    Block *otherwise = &cb.b.addRegion(w)->block;
    cb.b.setInsertionBlock(otherwise);
    cb.b.yield();
    cb.b.setInsertionBlock(then);
  }
  for (const auto &op : old.ops) {
    const Op &o = *op;
    if (grid && isTerminator(o.opcode)) {
      finishGrid();
      cb.b.yield();
      cb.b.setInsertionBlock(outer);
      emit(o, /*distributed=*/false);
      continue;
    }
    if (split && isTerminator(o.opcode))
      finishGrid();
    if (o.strAttr("dist") == "cta" &&
        (o.opcode == Opcode::Reduce || o.opcode == Opcode::ArgReduce)) {
      lowerReduce(o);
      continue;
    }
    if (o.strAttr("dist") == "cta" && o.opcode == Opcode::For) {
      lowerFor(o);
      continue;
    }
    emit(o, /*distributed=*/false);
    if (o.opcode == Opcode::Delinearize && !rows.empty() &&
        o.result(0) == rows[0] && !stageHandle.empty()) {
      Values mapped;
      for (const Value *r : rows)
        mapped.push_back(map.at(r));
      emitStaging(mapped);
    }
  }
}

unsigned RowLowering::gridPrograms() {
  using K = LaunchExpr::Kind;
  const unsigned cap = p.constExpr(kGridSlots);
  std::optional<unsigned> widest = widestTrips(p, seg);
  if (!widest)
    return p.binaryExpr(K::Min, cap, cap);
  const int64_t per = static_cast<int64_t>(p.ctaThreads) * kGridMembersPerThread;
  unsigned up = p.binaryExpr(
      K::Div, p.binaryExpr(K::Add, *widest, p.constExpr(per - 1)),
      p.constExpr(per));
  return p.binaryExpr(K::Min, p.binaryExpr(K::Max, up, p.constExpr(1)), cap);
}

} // namespace

std::optional<unsigned> intent::passes::splitRowParts(Program &p,
                                                      unsigned segment,
                                                      int threads) {
  using K = LaunchExpr::Kind;
  const Segment &s = p.segments[segment];
  Op *segOp = segmentOp(p, s.group);
  if (!segOp || s.ordered || s.spread)
    return std::nullopt;
  std::optional<unsigned> widest = widestTrips(p, *segOp);
  if (!widest)
    return std::nullopt;
  // The CTAs the rows may take: min(sm_count, kGridSlots) / rows (the
  // groups' arrival words and partial slots are kGridSlots each).
  const unsigned rows = p.binaryExpr(K::Max, s.length, p.constExpr(1));
  const unsigned room = p.binaryExpr(
      K::Div, p.binaryExpr(K::Min, smCountExpr(p), p.constExpr(kGridSlots)),
      rows);
  const int64_t per = static_cast<int64_t>(threads) * kSplitMembersPerThread;
  const unsigned need = p.binaryExpr(
      K::Div, p.binaryExpr(K::Add, *widest, p.constExpr(per - 1)),
      p.constExpr(per));
  return p.binaryExpr(K::Max, p.binaryExpr(K::Min, room, need),
                      p.constExpr(1));
}

std::optional<unsigned> intent::passes::splitRowsWhen(Program &p,
                                                      unsigned segment) {
  using K = LaunchExpr::Kind;
  std::optional<unsigned> parts = splitRowParts(p, segment, kPhaseThreads);
  if (!parts)
    return std::nullopt;
  // The rows fill at most half the multiprocessors, a row has two CTAs'
  // share: few && wide.
  const unsigned few = p.cmpExpr(
      "le",
      p.binaryExpr(K::Mul, p.segments[segment].length, p.constExpr(2)),
      smCountExpr(p));
  const unsigned wide = p.cmpExpr("ge", *parts, p.constExpr(2));
  return p.selectExpr(few, wide, few);
}

std::string intent::passes::applyCtaRowsOps(Program &p) {
  if (p.scope != ExecScope::CTA)
    return "not a cta-rows program";
  if (p.regMaxK)
    return "the program has register rows (they stay annotated)";
  // The annotated segments (a multi-group program's others are spread).
  std::vector<Op *> segOps;
  for (const Segment &seg : p.segments) {
    Op *segOp = segmentOp(p, seg.group);
    bool annotated = false;
    if (segOp && !seg.spread)
      walk(*segOp->regions[0], [&](const Op &op) {
        annotated |= op.attr("dist") != nullptr;
      });
    if (annotated)
      segOps.push_back(segOp);
  }
  if (segOps.empty())
    return "not a cta-rows program";
  // A program whose one group is a single instance (dependent phases): the
  // instance runs on a cooperative grid of CTAs, as many as its widest
  // phase needs (kGridMembersPerThread per thread), at most kGridSlots and
  // the CTAs resident at once; one CTA when the phases are small.
  if (p.segments.size() == 1 && p.segments[0].ordered) {
    RowLowering lower(p, *segOps[0], p.stageLimitBytes, "", /*grid=*/true);
    resizeSegment(p, 0, lower.gridPrograms());
    lower.run();
    p.stagedParams.clear();
    p.stageLimitBytes = 0;
    return "";
  }
  // The split-row alternative (Program::splitRows): each row instance runs
  // on a group of CTAs, as many as splitRowParts gives at launch.
  if (p.splitRows && p.segments.size() == 1) {
    std::optional<unsigned> parts = splitRowParts(p, 0, p.ctaThreads);
    if (!parts)
      return "the split rows' trip counts are not known at launch";
    teamSegment(p, 0, 1, *parts);
    RowLowering(p, *segOps[0], 0, "", /*grid=*/false, parts).run();
    p.stagedParams.clear();
    p.stageLimitBytes = 0;
    return "";
  }
  // The annotations are the plan; the program is written as ops. A CTA
  // runs one segment's program at a time, but the buffers of several are
  // laid out side by side: each segment's staged rows get an equal share
  // of the limit.
  const int64_t share = p.stageLimitBytes / static_cast<int64_t>(segOps.size());
  for (Op *segOp : segOps)
    RowLowering(p, *segOp, share,
                segOps.size() == 1
                    ? ""
                    : "_g" + std::to_string(segOp->intAttr("group")))
        .run();
  p.stagedParams.clear();
  p.stageLimitBytes = 0;
  return "";
}

void intent::passes::ctaRowsOps(Program &p, phys::RemarkSink &sink) {
  if (!applyCtaRowsOps(p).empty())
    return;
  if (p.segments.size() == 1 && p.segments[0].ordered &&
      p.exprToString(p.segments[0].length) != "1") {
    sink.remark(p.segments[0].loc,
                "cta-rows-ops: the single instance runs on a cooperative grid "
                "of " + std::to_string(p.ctaThreads) + "-thread CTAs (as many "
                "as its widest phase needs at " +
                std::to_string(kGridMembersPerThread) + " per thread, at "
                "most " + std::to_string(kGridSlots) + " and the CTAs "
                "resident at once); grid barriers between its phases");
    return;
  }
  if (p.splitRows && p.segments.size() == 1 && p.segments[0].team) {
    sink.remark(p.segments[0].loc,
                "cta-rows-ops: each row runs on a group of " +
                    std::to_string(p.ctaThreads) +
                    "-thread CTAs, as many as min(multiprocessors, " +
                    std::to_string(kGridSlots) +
                    ") / rows and one per " +
                    std::to_string(p.ctaThreads * kSplitMembersPerThread) +
                    " members of its widest phase give (at least 1; a "
                    "cooperative launch), partials combined in part order "
                    "after a group barrier; taken when the rows fill at "
                    "most half the multiprocessors and a row has two CTAs' "
                    "share");
    return;
  }
  for (const Segment &seg : p.segments)
    if (!seg.spread)
      sink.remark(seg.loc, "cta-rows-ops: the rows' CTA code is written as "
                           "cooperative ops");
}
