//===- AggregateAtomics.cpp - The aggregate-atomics pass -------------------===//
//
// docs/passes.md §14. A global atomic whose lanes may hit one element (a
// data-dependent bin `bins[b(x[i])]`, a counter `n[0]`, a row total
// `out[i / 32]`) serializes those updates in the L2's atomic unit: 32 lanes
// on one address cost 32 round trips. The pass marks such an atomic
// `aggregate = "warp"` (or "ticket"): the lanes of a warp that execute it together and
// address the same element combine their values first (match_any on the
// address, a redux or shuffle fold over the peers) and the lowest of them
// applies one atomic (intent::rt::warp_atomic_*). The memory ends with the
// value one atomic per lane gives; a ticket (`k = atomic_add(n[0], 1)`, an
// add of a constant whose old value is used) gets old + (rank among its
// peers) x the constant, the value of some serial order of the group's adds.
//
// Applies to user atomics (not a pass's own: look-back statuses, arrival
// counters, privatized merges) of kind add, min or max, memory order
// relaxed, scope gpu or sys (shared-memory copies are privatize-atomics'),
// whose old value nothing reads, or an integer add of a constant whose
// old value is a ticket; and not when a coordinate separates the lanes (the
// instance coordinate, up to invariant offsets and constant factors:
// `y[i]` updates distinct elements, where the match would only cost).
//
//===----------------------------------------------------------------------===//

#include "Passes/Passes.h"

#include "Physical/AtomicScope.h"
#include "Physical/PhysAffine.h"

using namespace intent;
using namespace intent::phys;

namespace {

/// True when `v` differs between the lanes of a warp that run different
/// instances: a segment's local, the counter of a loop over instances, a
/// thread or lane index, the innermost coordinate of one of those, and sums
/// (one side such a value), constant multiples of them, selects between
/// two of them and an `if`'s results that both branches yield so.
bool separatesLanes(const Value *v, int depth = 0) {
  if (depth > 32)
    return false;
  if (v->isBlockArg()) {
    const Op *o = v->owner && v->owner->parent ? v->owner->parent->parent
                                               : nullptr;
    if (!o)
      return false;
    if (o->opcode == Opcode::Segment)
      return true;
    // The counter (argument 0) of a loop that iterates instances.
    return o->opcode == Opcode::Loop && o->attr("dims") && v->argNo == 0;
  }
  const Op &d = *v->def;
  switch (d.opcode) {
  case Opcode::ThreadId:
  case Opcode::LaneId:
    return true;
  case Opcode::Cast:
    return separatesLanes(d.operands[0], depth + 1);
  case Opcode::Delinearize:
    return v->resultNo + 1 == d.results.size() &&
           separatesLanes(d.operands[0], depth + 1);
  case Opcode::Add:
  case Opcode::Sub:
    return separatesLanes(d.operands[0], depth + 1) !=
           separatesLanes(d.operands[1], depth + 1);
  case Opcode::If: // both branches yield such a value (a chunk's lanes)
    for (const auto &r : d.regions) {
      const Op *y = r->block.terminator();
      if (!y || v->resultNo >= y->operands.size() ||
          !separatesLanes(y->operands[v->resultNo], depth + 1))
        return false;
    }
    return !d.regions.empty();
  case Opcode::Select: // either arm: a chunk's start or a leftover's
    return separatesLanes(d.operands[1], depth + 1) &&
           separatesLanes(d.operands[2], depth + 1);
  case Opcode::Mul:
    for (unsigned i = 0; i < 2; ++i) {
      const Op *c = d.operands[1 - i]->def;
      if (c && c->opcode == Opcode::Constant && c->attr("value") &&
          std::holds_alternative<int64_t>(*c->attr("value")) &&
          std::get<int64_t>(*c->attr("value")) != 0 &&
          separatesLanes(d.operands[i], depth + 1))
        return true;
    }
    return false;
  default:
    return false;
  }
}

/// Why atomic `op` (of scope gpu or sys; `uses` of its old value) is not
/// aggregated, or "": the marking's rule (Physical/AtomicScope.h), then
/// whether its lanes may share the element at all.
std::string rejection(const Op &op, unsigned uses) {
  if (std::string why = aggregateProblem(op, uses ? "ticket" : "warp", uses);
      !why.empty())
    return why;
  for (const Value *c : op.coords())
    if (separatesLanes(c))
      return "its element differs per instance";
  return "";
}

} // namespace

void intent::passes::aggregateAtomics(Program &p, RemarkSink &sink) {
  const llvm::DenseMap<const Value *, unsigned> uses = countUses(p);
  walkMutable(*p.body, [&](Op &op) {
    if (op.opcode != Opcode::Atomic || !op.origin.synth.empty() ||
        op.attr("aggregate"))
      return;
    const std::string scope = op.strAttr("scope");
    if (scope != "gpu" && scope != "sys")
      return; // shared-memory or private: no L2 round trip to save
    auto u = uses.find(op.result());
    const unsigned n = u == uses.end() ? 0 : u->second;
    const std::string what = "atomic_" + op.strAttr("kind");
    if (std::string why = rejection(op, n); !why.empty()) {
      sink.remark(op.loc, "aggregate-atomics: " + what + " not combined: " +
                              why);
      return;
    }
    op.setAttr("aggregate", std::string(n ? "ticket" : "warp"));
    sink.remark(op.loc, "aggregate-atomics: " + what +
                            " combined over the lanes of a warp that update "
                            "one element" +
                            (n ? " (a ticket: old + its rank among them)"
                               : ""));
  });
}
