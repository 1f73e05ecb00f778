//===- CtaRows.cpp - One CTA per row instance ------------------------------===//
//
// Before: a parallel segment whose instance (a row r: its coordinates, one
// or several, e.g. (b, r) over a batch of matrices) computes top-level
// reductions over the row and writes it through an inner parallel_for (an
// ordered `for` inside the instance): softmax, layernorm, mean + variance.
//
// After: exec scope cta (kCtaThreads threads); the instance runs on a whole
// CTA (docs/passes.md):
//   * top-level reduce / argreduce get `dist = "cta"`: the members are
//     spread over the threads (strided for commutative built-ins and
//     arg-reductions, contiguous chunks for user combines, which are only
//     associative), combined by an ordered shuffle tree and shared memory,
//     and every thread receives the result;
//   * top-level `for` ops that came from a parallel_for get
//     `dist = "cta"`: iterations strided over the threads;
//   * top-level stores are done by one thread (access active `leader`),
//     accesses in distributed regions by each thread (`thread`), top-level
//     loads by all (`all`);
//   * rows x(r..., :) of const views of rank |r| + 1 that the instance
//     reads in two or more
//     passes are staged: copied into shared memory once per row when they
//     fit (`staged` loads read the copy), else read from global memory;
//   * register rows: when every distributed op ranges over [0, n) (n one
//     view extent) and none has a user combine, loads of row r at the
//     member get `reg`: per launch, rows of up to regMaxK * 1024 elements
//     live in registers (T threads, K per thread chosen from n alone,
//     phys::rowRegChoice) and those loads read them (EmitRowRegs.cpp).
//
// Per group: every group that qualifies gets a CTA per instance; the
// other groups of a multi-group program keep one instance per thread,
// spread over the kCtaThreads threads of their own programs
// (phys::spreadSegment), and register rows are chosen only for a program
// of one group (the launch picks one CTA size).
//
// A group qualifies only when no view it writes is also read by it (so no
// barrier is needed between a thread's store and another thread's load),
// every top-level op is pure code, a load, a store, a reduction or a
// parallel `for`, and every reduce may be reassociated.
//
//===----------------------------------------------------------------------===//

#include "Passes/Passes.h"

#include "Physical/Coop.h"
#include "Physical/Dispatch.h"
#include "Physical/Structured.h"
#include "Physical/Verifier.h"

#include <algorithm>
#include <map>
#include <optional>
#include <set>

using namespace intent;
using namespace intent::phys;

namespace {

/// Bytes of shared memory staged rows may take. Measured on the H200
/// (bench/, 2026-11-30): raising this to the 227 KiB opt-in so that 32768-f32
/// rows stay on chip made softmax 4096x32768 1.35x and layernorm 2.2x SLOWER
/// than re-reading global memory (one 256-thread CTA per SM cannot keep
/// enough loads in flight), so rows above two CTAs' worth per SM are read
/// from global memory again.
constexpr int64_t kMaxSharedBytes = 96 * 1024;

/// A private buffer the instance `body` allocates at its top (one copy per
/// thread once the instance runs on a CTA), or null.
const Op *instanceBuffer(const Program &p, const Block &body) {
  for (const auto &op : body.ops) {
    if (op->opcode != Opcode::Alloc)
      continue;
    int64_t id = op->intAttr("buffer", -1);
    if (id < 0 || id >= static_cast<int64_t>(p.buffers.size()))
      continue;
    BufferScope s = p.buffers[id].scope;
    if (s == BufferScope::ProgramPrivate || s == BufferScope::IterationPrivate)
      return op.get();
  }
  return nullptr;
}

/// Whether every top-level reduction and parallel for of instance `body`
/// (at least one) has a tiny constant trip count (Coop.h kTinyTrip).
bool tinyRows(const Block &body) {
  bool any = false;
  for (const auto &op : body.ops) {
    if (op->opcode != Opcode::Reduce && op->opcode != Opcode::ArgReduce &&
        op->opcode != Opcode::For)
      continue;
    std::optional<int64_t> n = constantTrip(*op);
    if (!n || *n >= kTinyTrip)
      return false;
    any = true;
  }
  return any;
}

/// Why segment `seg` of thread-scope program `p` does not take a CTA per
/// instance ("" when it does); `segOp` is its segment op. A single-instance
/// (ordered) group qualifies too: its instance's phases (parallel fors and
/// reductions, dependent on each other) run on one CTA.
std::string rejection(const Program &p, const Segment &seg, Op *&segOp) {
  if (seg.ordered && p.exprToString(seg.length) != "1")
    return "the group is a single instance spread over several programs";
  segOp = segmentOp(p, seg.group);
  if (!segOp)
    return "no segment op";
  // A print runs once per instance: the instance's code is not spread over
  // threads (nor over programs) when it prints.
  if (containsPrint(*segOp->regions[0]))
    return "the instance prints";
  const Block &body = segOp->regions[0]->block;
  if (const Op *a = instanceBuffer(p, body))
    return "the instance allocates buffer " +
           p.buffers[a->intAttr("buffer")].name +
           " (one copy per thread on a CTA)";
  unsigned reductions = 0, loops = 0;
  bool heavyLoops = false;
  for (const auto &op : body.ops) {
    switch (op->opcode) {
    case Opcode::Reduce:
      if (!op->boolAttr("reassociate", false))
        return "a reduce may not be reassociated";
      for (const AccComponent &c : op->acc)
        if (!isShuffleKind(c.type.elem))
          return "accumulator type " + typeToString(c.type) +
                 " is not exchanged by warp shuffles";
      ++reductions;
      break;
    case Opcode::ArgReduce:
      if (!isShuffleKind(op->result(0)->type.elem))
        return "arg-reduce value type " +
               typeToString(op->result(0)->type) +
               " is not exchanged by warp shuffles";
      ++reductions;
      break;
    case Opcode::For:
      if (op->origin.op < 0)
        return "a `for` at the top of the instance is not a parallel_for";
      if (std::string c = iterationConflict(p, *op); !c.empty())
        return "the iterations of the parallel for at " +
               std::to_string(op->loc.line) + ":" +
               std::to_string(op->loc.col) + " may conflict (" + c + ")";
      ++loops;
      // Iterations that each compute a reduction (a counted loop of
      // reductions, counted-loops) are work enough for a CTA's threads.
      walk(*op->region(0), [&](const Op &o) {
        heavyLoops |= o.opcode == Opcode::Reduce || o.opcode == Opcode::ArgReduce;
      });
      break;
    case Opcode::Load:
    case Opcode::Store:
    case Opcode::Yield:
      break;
    case Opcode::If: {
      // A conditional value (`n > 0 ? m2 / n : 0`): every thread computes
      // it when its branches hold only pure code and loads.
      bool pure = true;
      for (auto &r : op->regions)
        walk(*r, [&](const Op &o) {
          pure = pure && (isPure(o.opcode) || o.opcode == Opcode::Load ||
                          o.opcode == Opcode::Yield);
        });
      if (pure)
        break;
      return "the instance has a top-level if with effects (only pure code, "
             "loads, stores, reductions and parallel fors are distributed)";
    }
    default:
      if (!isPure(op->opcode))
        return "the instance has top-level " + opcodeName(op->opcode).str() +
               " (only pure code, loads, stores, reductions and parallel "
               "fors are distributed)";
    }
  }
  if (!reductions && !(seg.ordered && loops) && !heavyLoops)
    return seg.ordered ? "the instance has no parallel for or reduction"
                       : "the instance computes no top-level reduction";
  // A reduction down a column reads 32 rows per warp load on a CTA per
  // instance; col-reduce maps it (threads across the contiguous axis).
  const std::vector<const Value *> coords = rowCoordinates(body);
  for (const auto &op : body.ops)
    if (walksOuterAxis(*op, coords))
      return "a reduction walks an outer axis (col-reduce maps it)";
  // Rows of a few members (the norm of a 3-vector) would idle most of a
  // CTA; region-teams gives them teams of threads sized by the length.
  if (!seg.ordered && p.rowTeams &&
      passes::regionTeamsRejection(p, seg.group).empty())
    return "region-teams maps these rows (a constant member count below "
           "256, or a runtime one: cta-rows maps rows of 256 or more in the "
           "launch-time alternative)";
  // Tiny rows (normalizing a 3-vector in place: a reduction, then a
  // parallel_for over the same 3 members) run best as construction left
  // them: one thread per instance, its loops serial.
  if (!seg.ordered && tinyRows(body))
    return "every reduction and parallel for has a constant trip count "
           "below " + std::to_string(kTinyTrip) +
           " (one thread per instance)";
  return "";
}

/// Puts a CTA barrier before every top-level op of `body` that the
/// phases before it leave unordered (phys::firstUnorderedPhase): the phases
/// run on different threads (a leader store, each thread's part of a
/// parallel for). Returns the number of barriers placed.
unsigned placePhaseBarriers(Program &p, Block &body) {
  unsigned placed = 0;
  while (const Op *o = firstUnorderedPhase(p, body)) {
    const auto at = std::find_if(body.ops.begin(), body.ops.end(),
                                 [&](const auto &x) { return x.get() == o; }) -
                    body.ops.begin();
    Builder b(p);
    b.setInsertionBlock(&body);
    b.loc = o->loc;
    b.origin.synth = "cta-rows";
    Op *bar = b.create(Opcode::Barrier, {}, {});
    bar->setAttr("scope", std::string("cta"));
    // create appended it: move it before o.
    std::unique_ptr<Op> owned = std::move(body.ops.back());
    body.ops.pop_back();
    body.ops.insert(body.ops.begin() + at, std::move(owned));
    ++placed;
  }
  return placed;
}

/// The register-row form (docs/passes.md §3): marks the loads of row r at
/// the member of a distributed op `reg` and fills the program's register
/// fields; returns why not when it does not apply.
std::string chooseRegisterRows(Program &p, Block &body,
                               const std::vector<const Value *> &rows) {
  if (rows.empty())
    return "the instance has no row coordinates";
  // Every distributed op ranges over [0, extent(v, d)) of one view.
  const Op *length = nullptr;
  std::vector<Op *> dist;
  for (auto &op : body.ops) {
    if (op->strAttr("dist") != "cta")
      continue;
    if (op->opcode == Opcode::Reduce && op->strAttr("combiner") == "user")
      return "a reduction has a user combine (only associative: it keeps "
             "contiguous chunks in member order)";
    const Value *b = op->opcode == Opcode::For ? op->operands[0]
                                               : memberBegin(*op);
    const Value *e = op->opcode == Opcode::For ? op->operands[1]
                                               : memberEnd(*op);
    bool zero = b->def && b->def->opcode == Opcode::Constant &&
                b->def->intAttr("value", -1) == 0;
    const Op *x = e->def;
    bool extent = x && x->opcode == Opcode::Extent &&
                  x->operands[0]->isBlockArg() &&
                  x->operands[0]->owner == &p.body->block;
    if (!zero || !extent ||
        (length && (length->operands[0] != x->operands[0] ||
                    length->intAttr("dim") != x->intAttr("dim"))))
      return "the distributed ops do not all range over [0, n) with n one "
             "extent of one view";
    length = x;
    dist.push_back(op.get());
  }
  if (!length)
    return "nothing is distributed";
  // Loads of row r at the member, unconditional at the top of the region:
  // every member of [0, n) reads them, so loading them ahead is in bounds.
  std::vector<Op *> loads;
  std::set<unsigned> params;
  for (Op *o : dist) {
    Block &b = o->region(o->opcode == Opcode::For ? 0 : ValueRegion)->block;
    for (auto &l : b.ops) {
      if (l->opcode != Opcode::Load || l->guard())
        continue;
      const Value *m = l->memory();
      if (!m->isBlockArg() || m->owner != &p.body->block || !m->type.isView() ||
          !m->type.constElem || !addressesRow(*l, rows) ||
          l->coords().back() != b.args[0])
        continue;
      loads.push_back(l.get());
      params.insert(m->argNo);
    }
  }
  if (loads.empty())
    return "no distributed op reads row r at its member";
  int64_t bytes = 0;
  for (unsigned i : params)
    bytes += elemBytes(p.params[i].type.elem);
  int maxK = rowRegMaxK(bytes, params.size());
  if (!maxK)
    return "four members of the " + std::to_string(params.size()) +
           " row views take more than the register budget (" +
           std::to_string(kRowRegWords) + " words over the number of views)";
  for (Op *l : loads)
    l->setAttr("reg", true);
  p.regParams.assign(params.begin(), params.end());
  p.regMaxK = maxK;
  p.regLengthParam = length->operands[0]->argNo;
  p.regLengthDim = static_cast<unsigned>(length->intAttr("dim"));
  return "";
}

} // namespace

namespace {

/// What annotating one segment found.
struct RowPlan {
  unsigned maxComponents = 1;    ///< accumulator components (the scratch)
  unsigned barriers = 0;         ///< phase barriers placed
  std::set<unsigned> staged;     ///< params whose row r is staged
  std::vector<const Value *> rows; ///< the instance coordinates
  Block *body = nullptr;         ///< the segment's region
};

/// Marks the segment's top-level reductions and parallel fors `dist =
/// "cta"`, the access sets, and the loads of rows read in two or more passes
/// `staged`.
RowPlan annotate(Program &p, Op &segOp) {
  RowPlan plan;
  Block &body = segOp.regions[0]->block;
  plan.body = &body;
  const std::vector<const Value *> rows = plan.rows = rowCoordinates(body);
  // Row staging candidates: param -> top-level ops that read its row r.
  std::map<unsigned, std::set<const Op *>> passesOver;
  std::vector<Op *> rowLoads;
  for (auto &op : body.ops) {
    Op &o = *op;
    if (o.opcode == Opcode::Reduce || o.opcode == Opcode::ArgReduce) {
      o.setAttr("dist", std::string("cta"));
      plan.maxComponents = std::max(plan.maxComponents, gridComponents(o));
    }
    if (o.opcode == Opcode::For)
      o.setAttr("dist", std::string("cta"));
    if (o.opcode == Opcode::Load || o.opcode == Opcode::Store)
      o.access.active =
          o.opcode == Opcode::Store ? ActiveSet::Leader : ActiveSet::All;
    // Accesses in distributed regions are each thread's; loads in a
    // top-level `if` of pure code run on every thread, like top-level ones.
    const bool everyThread = o.opcode == Opcode::If;
    for (auto &r : o.regions)
      walkMutable(*r, [&](Op &inner) {
        if (inner.opcode == Opcode::Load || inner.opcode == Opcode::Store ||
            isAtomic(inner.opcode))
          inner.access.active =
              everyThread ? ActiveSet::All : ActiveSet::Thread;
      });
    auto consider = [&](Op &l, const Op &top) {
      if (l.opcode != Opcode::Load)
        return;
      const Value *m = l.memory();
      if (!m->type.isView() || !m->type.constElem || l.guard() ||
          !addressesRow(l, rows) || m->owner != &p.body->block)
        return;
      passesOver[m->argNo].insert(&top);
      rowLoads.push_back(&l);
    };
    if (o.opcode == Opcode::Load)
      consider(o, o);
    for (auto &r : o.regions)
      walkMutable(*r, [&](Op &inner) { consider(inner, o); });
  }
  for (const auto &[param, tops] : passesOver)
    if (tops.size() >= 2)
      plan.staged.insert(param);
  for (Op *l : rowLoads)
    if (plan.staged.count(l->memory()->argNo))
      l->setAttr("staged", true);
  plan.barriers = placePhaseBarriers(p, body);
  return plan;
}

} // namespace

std::string intent::passes::applyCtaRows(Program &p, std::string &what,
                                         std::vector<std::string> *perSegment) {
  if (p.scope != ExecScope::Thread)
    return "the program is already cooperative";
  std::vector<std::string> why(p.segments.size());
  std::vector<Op *> segOps(p.segments.size(), nullptr);
  std::string first;
  bool any = false;
  for (unsigned s = 0; s < p.segments.size(); ++s) {
    why[s] = rejection(p, p.segments[s], segOps[s]);
    any |= why[s].empty();
    if (!why[s].empty() && first.empty())
      first = why[s];
  }
  if (perSegment)
    *perSegment = why;
  if (!any)
    return first.empty() ? "no segment" : first;
  // The other groups keep one instance per thread: T of them per program.
  for (unsigned s = 0; s < p.segments.size(); ++s)
    if (!why[s].empty())
      spreadSegment(p, s, kCtaThreads);
  unsigned maxComponents = 1, barriers = 0;
  std::set<unsigned> staged;
  RowPlan single;
  bool onlySingle = true; // every segment is one instance on one CTA
  for (unsigned s = 0; s < p.segments.size(); ++s) {
    onlySingle &= why[s].empty() && p.segments[s].ordered;
    if (!why[s].empty())
      continue;
    RowPlan plan = annotate(p, *segOps[s]);
    if (p.splitRows) {
      // A split row is spread over several CTAs: no CTA holds all of it.
      walkMutable(*segOps[s]->regions[0], [](Op &o) {
        llvm::erase_if(o.attrs,
                       [](const NamedAttr &a) { return a.name == "staged"; });
      });
      plan.staged.clear();
    }
    maxComponents = std::max(maxComponents, plan.maxComponents);
    staged.insert(plan.staged.begin(), plan.staged.end());
    barriers += plan.barriers;
    single = plan;
  }
  p.scope = ExecScope::CTA;
  // One instance has one CTA of the GPU: the largest one. Rows keep
  // kCtaThreads (many rows per SM).
  // Split rows: each row on several CTAs of the largest size.
  const bool split = p.splitRows && p.segments.size() == 1 && !onlySingle;
  p.ctaThreads = onlySingle || split ? kPhaseThreads : kCtaThreads;
  p.sharedBytes = rowScratchBytes(maxComponents);
  p.stagedParams.assign(staged.begin(), staged.end());
  // Register rows pick the CTA size per launch from one row length: one
  // group only.
  std::string regWhy =
      split ? "each row is spread over several CTAs"
      : p.segments.size() == 1
          ? chooseRegisterRows(p, *single.body, single.rows)
          : "the program has several groups (a launch has one CTA size)";
  if (p.regMaxK) {
    p.sharedBytes =
        std::max(p.sharedBytes, rowRegScratchBytes(maxComponents));
  }
  p.stageLimitBytes = staged.empty() ? 0 : kMaxSharedBytes - p.sharedBytes;
  what = onlySingle
             ? "cta-rows: the single instance runs on one CTA of " +
                   std::to_string(kPhaseThreads) +
                   " threads; its reductions and parallel fors spread over "
                   "them"
         : split ? "cta-rows: each instance runs on a group of " +
                       std::to_string(kPhaseThreads) +
                       "-thread CTAs; reductions and parallel fors spread "
                       "over their threads"
             : std::string("cta-rows: one CTA per instance; reductions and "
                           "parallel fors spread over its threads");
  if (barriers)
    what += "; " + std::to_string(barriers) +
            " CTA barrier(s) between dependent phases";
  if (p.regMaxK) {
    what += "; rows of";
    for (unsigned i : p.regParams)
      what += " " + p.params[i].name;
    int64_t upTo = static_cast<int64_t>(p.regMaxK) * 1024;
    what += " in registers up to n = " + std::to_string(upTo) +
            " (T threads, K per thread by row length n = " +
            p.params[p.regLengthParam].name + ".extent(" +
            std::to_string(p.regLengthDim) + ")), else " +
            std::to_string(kCtaThreads) + " threads";
  } else if (!onlySingle && !split) {
    what += "; " + std::to_string(kCtaThreads) +
            " threads (rows not in registers: " + regWhy + ")";
  }
  for (unsigned i : p.stagedParams)
    what += "; rows of " + p.params[i].name + " staged in shared memory "
            "(read once) when they fit in " +
            std::to_string(p.stageLimitBytes) + " bytes";
  // Few long rows would leave most of the GPU idle: a launch-time
  // alternative spreads each over a group of CTAs (the split-row form of
  // cta-rows-ops) when the rows fill at most half the multiprocessors and
  // a row gives at least two CTAs their share.
  if (!p.splitRows && !onlySingle && p.segments.size() == 1 &&
      p.alternativeWhen < 0) {
    if (std::optional<unsigned> when = splitRowsWhen(p, 0)) {
      p.alternativeWhen = static_cast<int>(*when);
      p.alternativeKind = Program::AlternativeKind::SplitRows;
    }
  }
  return "";
}

void intent::passes::ctaRows(Program &p, phys::RemarkSink &sink) {
  bool thread = p.scope == ExecScope::Thread;
  std::vector<std::string> why;
  std::string what, first = applyCtaRows(p, what, &why);
  for (unsigned s = 0; s < why.size(); ++s) {
    const Segment &seg = p.segments[s];
    if (first.empty() && why[s].empty())
      sink.remark(seg.loc, what);
    else if (first.empty())
      sink.remark(seg.loc,
                  "cta-rows: this group keeps one instance per thread, " +
                      std::to_string(kCtaThreads) +
                      " of them per CTA (another group of the kernel takes a "
                      "CTA per instance; here: " + why[s] + ")");
    else if (thread && why[s] != "the instance computes no top-level "
                                 "reduction" &&
             why[s] != "the instance has no parallel for or reduction" &&
             why[s] != "the group is a single instance spread over several "
                       "programs")
      sink.remark(seg.loc, "cta-rows: not applied: " + why[s]);
  }
}
