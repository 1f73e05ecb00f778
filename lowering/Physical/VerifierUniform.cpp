//===- VerifierUniform.cpp - Construction verifier: CTA uniformity ---------===//
//
// [uniform]: a barrier or shuffle must be reached by every thread of its
// scope (docs/physical-ir.md §5.8), so it may only sit under control flow
// that is the same for all of them. A forward analysis computes how much
// each value varies across the threads of one program instance:
//
//   uniform   the same in every thread (parameters, program_id, launch
//             values, cta_size, checked_launch, ...);
//   per warp  the same in the threads of a warp (warp_id; an `idx` shuffle
//             of a warp-uniform lane);
//   per thread (thread_id, lane_id, other shuffles, the old value of an
//             atomic, a load whose coordinates or guard vary).
//
// Results of pure ops vary as much as their operands; an `if`'s results as
// much as its condition and its yielded values; loop-carried values and
// structured-op accumulators iterate to a fixpoint (levels only grow). The
// control level of an op is the highest level of the conditions that decide
// whether it runs: enclosing `if` conditions, a `loop`'s condition and its
// breaks / continues, a `for`'s bounds, a structured op's member range, a
// `dist` op (members spread over the threads), and an earlier `if` in the
// same block that breaks or continues. A CTA barrier needs a uniform
// control level, a warp barrier or shuffle at most per-warp.
//
// [shared]: a cta_shared buffer record lies inside the CTA's dynamic shared
// memory (shared_offset >= 0, offset + size * element bytes <= sharedBytes)
// and overlaps no other cta_shared record; only cta programs have them.
// (Accesses to them are in bounds by the [bounds] proof, whose ranges of
// thread_id, lane_id and warp_id come from the CTA size, or are guarded or
// assumed and then checked by the interpreter.)
//
// [scope]: a program using the cooperative primitives has exec scope cta
// with a CTA size that is a positive multiple of 32 (whole warps).
//
//===----------------------------------------------------------------------===//

#include "Physical/Coop.h"
#include "Physical/Structured.h"
#include "Physical/Verifier.h"

#include "llvm/ADT/DenseMap.h"

#include <algorithm>

using namespace intent;
using namespace intent::phys;

namespace {

enum Level : uint8_t { Uniform, PerWarp, PerThread };

const char *levelName(Level l) {
  return l == Uniform ? "uniform" : l == PerWarp ? "per warp" : "per thread";
}

/// A control level and the op whose condition raised it.
struct Ctl {
  Level level = Uniform;
  const Op *why = nullptr;
};

Ctl raise(Ctl c, Level l, const Op *why) {
  if (l > c.level)
    return {l, why};
  return c;
}

class UniformityAnalysis {
public:
  UniformityAnalysis(const Program &p, std::vector<std::string> &errors)
      : p(p), errors(errors) {}

  void run() {
    // Levels only grow and are bounded: this terminates.
    do {
      changed = false;
      block(p.body->block, Ctl());
    } while (changed);
    check = true;
    block(p.body->block, Ctl());
  }

private:
  const Program &p;
  std::vector<std::string> &errors;
  llvm::DenseMap<const Value *, Level> levels;
  /// Control level inside each loop (its condition, breaks, continues).
  llvm::DenseMap<const Op *, Ctl> loopCtl;
  bool changed = false;
  bool check = false;

  Level of(const Value *v) const {
    auto it = levels.find(v);
    return it == levels.end() ? Uniform : it->second;
  }
  void set(const Value *v, Level l) {
    if (l > of(v)) {
      levels[v] = l;
      changed = true;
    }
  }
  Level operands(const Op &op) const {
    Level l = Uniform;
    for (const Value *v : op.operands)
      l = std::max(l, of(v));
    return l;
  }
  /// The highest level among the values that `r`'s terminator passes on
  /// when it is a `kind` (any terminator: `anyKind`).
  Level yields(const Region &r, Opcode kind, bool anyKind = false) const {
    const Op *t = r.block.ops.empty() ? nullptr : r.block.ops.back().get();
    Level l = Uniform;
    if (t && isTerminator(t->opcode) && (anyKind || t->opcode == kind))
      for (const Value *v : t->operands)
        l = std::max(l, of(v));
    return l;
  }
  /// The level of the `k`th value `r`'s terminator passes on when it is a
  /// `kind` (Uniform otherwise).
  Level slotYield(const Region &r, Opcode kind, unsigned k) const {
    const Op *t = r.block.ops.empty() ? nullptr : r.block.ops.back().get();
    if (t && t->opcode == kind && k < t->operands.size())
      return of(t->operands[k]);
    return Uniform;
  }
  void setSlotArgs(const Region &r, const std::vector<Level> &l) {
    for (unsigned k = 0; k < r.block.args.size(); ++k)
      set(r.block.args[k], k < l.size() ? l[k] : Uniform);
  }
  void setArgs(const Region &r, Level l) {
    for (const Value *a : r.block.args)
      set(a, l);
  }
  void setResults(const Op &op, Level l) {
    for (const Value *v : op.results)
      set(v, l);
  }

  /// Walks block `b` under control level `ctl`; returns the highest control
  /// level of a break or continue in it (outside nested loops).
  Ctl block(const Block &b, Ctl ctl) {
    Ctl escape;
    for (const auto &o : b.ops) {
      const Op &op = *o;
      if (op.opcode == Opcode::Break || op.opcode == Opcode::Continue) {
        escape = raise(escape, ctl.level, ctl.why);
        continue;
      }
      Ctl e = this->op(op, ctl);
      escape = raise(escape, e.level, e.why);
      // Code after a conditional break/continue runs in fewer threads.
      ctl = raise(ctl, e.level, e.why);
    }
    return escape;
  }

  Ctl op(const Op &op, Ctl ctl) {
    switch (op.opcode) {
    case Opcode::ThreadId:
    case Opcode::LaneId:
    case Opcode::Atomic:
    case Opcode::AtomicCas:
      setResults(op, PerThread);
      return {};
    case Opcode::WarpId:
      setResults(op, PerWarp);
      return {};
    case Opcode::Shuffle:
      setResults(op, op.strAttr("mode") == "idx" && op.operands.size() == 2
                         ? std::max(PerWarp, of(op.operands[1]))
                         : PerThread);
      requireLevel(op, ctl, PerWarp);
      return {};
    case Opcode::Barrier:
      // A grid barrier: every thread of every cooperating CTA; control flow
      // uniform over the CTA is uniform over the grid here (each CTA runs
      // the instance's one region).
      requireLevel(op, ctl, op.strAttr("scope") == "warp" ? PerWarp : Uniform);
      return {};
    case Opcode::Load:
    case Opcode::VectorLoad: {
      // The coordinates and guard (the memory is a parameter or an alloc).
      Level l = Uniform;
      for (const Value *c : op.coords())
        l = std::max(l, of(c));
      if (const Value *g = op.guard())
        l = std::max(l, of(g));
      setResults(op, l);
      return {};
    }
    case Opcode::If: {
      Level c = op.operands.empty() ? Uniform : of(op.operands[0]);
      Ctl inner = raise(ctl, c, &op);
      Ctl escape;
      Level l = c;
      for (const auto &r : op.regions) {
        Ctl e = block(r->block, inner);
        escape = raise(escape, e.level, e.why);
        l = std::max(l, yields(*r, Opcode::Yield));
      }
      setResults(op, l);
      return escape;
    }
    case Opcode::Loop: {
      if (op.regions.size() != 3)
        return {};
      Ctl own = loopCtl.lookup(&op); // a copy: nested loops insert
      Ctl inner = raise(ctl, own.level, own.why);
      // Per carried slot: a uniform counter carried next to per-thread
      // accumulators (a shuffle tree's offset) stays uniform.
      const unsigned n = op.operands.size();
      const Region &before = *op.regions[0], &body = *op.regions[1],
                   &step = *op.regions[2];
      std::vector<Level> carried(n);
      for (unsigned k = 0; k < n; ++k)
        carried[k] = std::max(of(op.operands[k]),
                              slotYield(step, Opcode::Yield, k));
      setSlotArgs(before, carried);
      setSlotArgs(body, carried);
      block(before.block, inner);
      Level cond = yields(before, Opcode::Condition);
      Ctl e = block(body.block, inner);
      std::vector<Level> stepIn(step.block.args.size());
      for (unsigned k = 0; k < stepIn.size(); ++k)
        stepIn[k] = std::max(slotYield(body, Opcode::Yield, k),
                             slotYield(body, Opcode::Continue, k));
      setSlotArgs(step, stepIn);
      block(step.block, inner);
      Ctl updated = raise(raise(own, cond, &op), e.level, e.why);
      if (updated.level != own.level) {
        loopCtl[&op] = updated;
        changed = true;
      }
      // Break values leave the loop as its results.
      std::vector<Level> out(op.results.size(), updated.level);
      for (unsigned k = 0; k < out.size(); ++k)
        out[k] = std::max(out[k], k < n ? carried[k] : Uniform);
      walk(body, [&](const Op &b) {
        if (b.opcode == Opcode::Break)
          for (unsigned k = 0; k < b.operands.size() && k < out.size(); ++k)
            out[k] = std::max(out[k], of(b.operands[k]));
      });
      for (unsigned k = 0; k < out.size(); ++k)
        set(op.results[k], out[k]);
      return {};
    }
    case Opcode::For: {
      Level bounds = operands(op);
      bool dist = op.attr("dist") != nullptr;
      Ctl inner = raise(ctl, dist ? PerThread : bounds, &op);
      if (!op.regions.empty()) {
        setArgs(*op.regions[0], dist ? PerThread : bounds);
        block(op.regions[0]->block, inner);
      }
      return {};
    }
    case Opcode::Segment: {
      // A spread segment's instance is the thread's own, and whether the
      // thread has one varies per thread.
      // Every thread enters a team segment (its arguments still vary per
      // thread): control stays as uniform as the dispatch.
      // So does every thread of a tile segment's programs.
      bool spread = op.intAttr("spread", 0) > 0;
      bool perThreadArgs = spread || op.intAttr("tile", -1) >= 0;
      Ctl inner = spread && !op.boolAttr("team") ? raise(ctl, PerThread, &op)
                                                 : ctl;
      for (const auto &r : op.regions) {
        if (perThreadArgs)
          setArgs(*r, PerThread);
        block(r->block, inner);
      }
      return {};
    }
    default:
      break;
    }
    if (isStructured(op.opcode)) {
      // Accumulators and member indices: as much as the operands and
      // anything the regions yield (to a fixpoint); a `dist` op spreads
      // its members over the threads.
      bool dist = op.attr("dist") != nullptr;
      Level l = operands(op);
      for (const auto &r : op.regions)
        l = std::max(l, yields(*r, Opcode::Yield, /*anyKind=*/true));
      if (dist)
        l = PerThread;
      // Which members run is decided by (r,) begin and end alone.
      bool region = isRegionOp(op.opcode);
      Level range = op.operands.size() < (region ? 3u : 2u)
                        ? operands(op)
                        : std::max(of(memberBegin(op)), of(memberEnd(op)));
      if (region && !op.operands.empty())
        range = std::max(range, of(regionIndex(op)));
      Ctl inner = raise(ctl, dist ? PerThread : range, &op);
      for (const auto &r : op.regions) {
        setArgs(*r, l);
        block(r->block, inner);
      }
      setResults(op, l);
      return {};
    }
    // Pure and other ops: as much as their operands.
    setResults(op, operands(op));
    for (const auto &r : op.regions)
      block(r->block, ctl);
    return {};
  }

  void requireLevel(const Op &op, Ctl ctl, Level allowed) {
    if (!check || ctl.level <= allowed)
      return;
    std::string what = op.opcode == Opcode::Shuffle ? "a shuffle"
                       : allowed == PerWarp         ? "a warp barrier"
                                                    : "a CTA barrier";
    std::string why =
        ctl.why ? " (op " + std::to_string(ctl.why->id) + ", " +
                      opcodeName(ctl.why->opcode).str() + ")"
                : "";
    errors.push_back("[uniform] op " + std::to_string(op.id) + " (" +
                     opcodeName(op.opcode).str() + "): " + what +
                     " must be reached by every thread of its " +
                     (allowed == PerWarp ? "warp" : "CTA") +
                     ", but it sits under control flow that varies " +
                     levelName(ctl.level) + why);
  }
};

/// [shared]: the records alone (no body needed).
void verifySharedRecords(const Program &p, std::vector<std::string> &errors) {
  auto error = [&](const std::string &m) { errors.push_back("[shared] " + m); };
  std::vector<std::pair<int64_t, int64_t>> placed; // [begin, end), buffer
  std::vector<unsigned> ids;
  for (const Buffer &b : p.buffers) {
    if (b.scope != BufferScope::CTAShared)
      continue;
    std::string at = "cta_shared buffer " + std::to_string(b.id) + " (" +
                     b.name + ")";
    if (p.scope != ExecScope::CTA) {
      error(at + " in a program of exec scope " +
            execScopeName(p.scope).str() + " (only cta programs have shared "
                                           "memory)");
      continue;
    }
    if (b.sizeExpr >= 0) {
      // Sized per launch: i64 launch expressions for the size and the
      // offset, which layoutSharedBuffers places after every static
      // buffer, and a dynamic total for the launch.
      auto index = [&](int e) {
        return e >= 0 && static_cast<size_t>(e) < p.exprs.size() &&
               p.exprs[e].type == ScalarKind::I64;
      };
      if (!index(b.sizeExpr) || !index(b.sharedOffsetExpr) || b.size != 0 ||
          b.sharedOffset >= 0)
        error(at + " is sized per launch: it needs i64 launch expressions "
                   "for its size and shared_offset (and no static ones)");
      if (!index(p.sharedBytesExpr))
        error(at + " is sized per launch, but the program has no dynamic "
                   "shared bytes (shared S dynamic eK)");
      // Placed after every static buffer: a constant offset (the first
      // dynamic buffer's) is at least the static bytes.
      if (index(b.sharedOffsetExpr) &&
          p.exprs[b.sharedOffsetExpr].kind == LaunchExpr::Kind::Const &&
          p.exprs[b.sharedOffsetExpr].value < p.sharedBytes)
        error(at + " is sized per launch at offset " +
              std::to_string(p.exprs[b.sharedOffsetExpr].value) +
              ", inside the " + std::to_string(p.sharedBytes) +
              " bytes of the static buffers");
      continue;
    }
    if (b.sharedOffset < 0) {
      error(at + " has no shared_offset");
      continue;
    }
    int64_t end = b.sharedOffset + b.size * elemBytes(b.elem);
    if (b.size < 0 || end > p.sharedBytes)
      error(at + " occupies bytes [" + std::to_string(b.sharedOffset) + ", " +
            std::to_string(end) + "), beyond the CTA's " +
            std::to_string(p.sharedBytes) + " bytes of shared memory");
    for (unsigned i = 0; i < placed.size(); ++i)
      if (b.sharedOffset < placed[i].second && placed[i].first < end &&
          b.size > 0 && placed[i].second > placed[i].first)
        error(at + " overlaps cta_shared buffer " + std::to_string(ids[i]) +
              " (" + p.buffers[ids[i]].name + ")");
    placed.push_back({b.sharedOffset, end});
    ids.push_back(b.id);
  }
}

} // namespace

void intent::phys::verifySharedBuffers(const Program &p,
                                       std::vector<std::string> &errors) {
  verifySharedRecords(p, errors);
}

void intent::phys::verifyUniform(const Program &p,
                                 std::vector<std::string> &errors) {
  const Op *coop = nullptr;
  walk(*p.body, [&](const Op &op) {
    if (!coop && isCooperative(op.opcode))
      coop = &op;
  });
  if (!coop)
    return;
  if (p.scope != ExecScope::CTA || p.ctaThreads <= 0 || p.ctaThreads % 32)
    errors.push_back("[scope] op " + std::to_string(coop->id) + " (" +
                     opcodeName(coop->opcode).str() +
                     "): the cooperative primitives need exec scope cta with "
                     "a CTA size that is a positive multiple of 32 (has " +
                     execScopeName(p.scope).str() + ", " +
                     std::to_string(p.ctaThreads) + " threads)");
  UniformityAnalysis(p, errors).run();
}
