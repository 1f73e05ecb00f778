//===- GridReduce.cpp - Device-wide reduction in one launch ---------------===//
//
// Before: one ordered segment whose single instance computes a reduce or
// argreduce over a (large) axis and then stores the result(s):
//
//   segment %pid, e0, e1 {group = 0} { ^(%local):
//     ...pure code / loads...; %s = reduce %b, %e, %init {...}; store out[0], %s }
//
// After: exec scope cta (kCtaThreads threads), the segment split over
// P = min(max(ceil(n / (T * V * 4)), 1), kMaxPrograms) programs (one per
// CTA), the instance inside a grid_reduce:
//
//   segment %pid, e0, eP {group = 0} { ^(%local):
//     %P = launch_value eP
//     grid_reduce %local, %P {workspace = W, vector = V, max_programs = M} {
//       ...pure code / loads...; %s = reduce ...; store out[0], %s; yield } }
//
// Every program folds its members (strided by T * V over the programs) from
// the identity, the CTA combines its threads' partials (shuffles + shared
// memory), writes the CTA's partial into the invocation workspace and
// arrives at a counter; the last arriving program folds all partials in a
// fixed order, combines with init, runs the rest of the instance and
// leaves the workspace zero for the next launch (docs/passes.md).
//
// Applies only where the combines may be regrouped and reordered: a reduce
// with reassociate and a commutative built-in combiner, or an argreduce
// (exact in any order: partials carry positions).
//
//===----------------------------------------------------------------------===//

#include "Passes/Passes.h"

#include "Physical/Dispatch.h"

#include "Physical/Coop.h"
#include "Physical/Structured.h"

#include <functional>

using namespace intent;
using namespace intent::phys;

namespace {

/// Most programs (CTAs) one grid reduction uses: about one resident wave of
/// 256-thread CTAs on an H200 (132 SMs x 8).
constexpr int64_t kMaxPrograms = 1024;
/// The same for arg-reductions, whose merges keep more registers live (48
/// per thread for f32 argmax: 5 CTAs per SM, 660 on an H200): more
/// programs than that would run as a second, partly empty wave.
constexpr int64_t kMaxArgPrograms = 660;
/// Member steps per thread before another program is worth it.
constexpr int64_t kStepsPerThread = 4;

bool runsEverywhere(const Op &op) {
  return isPure(op.opcode) || op.opcode == Opcode::Load;
}

/// The widest element (bytes) of the loads a vector load can serve.
int streamedElementBytes(const Op &target) {
  int widest = 0;
  for (const Op *op : streamedLoads(target))
    widest = std::max(
        widest,
        static_cast<int>(kir::Type::scalar(op->result()->type.elem).bitWidth() / 8));
  return widest;
}

/// Why the program cannot take a grid reduction (empty: it can).
std::string rejection(const Program &p, Op *&segOp, Op *&target) {
  if (p.scope != ExecScope::Thread)
    return "the program is already cooperative";
  if (p.segments.size() != 1)
    return "the program has several groups (a cooperative program has one)";
  const Segment &seg = p.segments[0];
  if (!seg.ordered || seg.splitPrograms >= 0)
    return "the group is not a single ordered instance";
  for (const Buffer &b : p.buffers)
    if (b.scope == BufferScope::InvocationWorkspace)
      return "the program already uses the invocation workspace (local "
             "buffer " + b.name + ")";
  segOp = nullptr;
  walk(*p.body, [&](const Op &op) {
    if (op.opcode == Opcode::Segment)
      segOp = const_cast<Op *>(&op);
  });
  if (!segOp)
    return "no segment op";
  // A print runs once per instance: the instance's code is not spread over
  // threads (nor over programs) when it prints.
  if (containsPrint(*segOp->regions[0]))
    return "the instance prints";
  target = nullptr;
  unsigned reductions = 0;
  for (const auto &op : segOp->regions[0]->block.ops) {
    if (op->opcode == Opcode::Reduce || op->opcode == Opcode::ArgReduce) {
      ++reductions;
      if (!target)
        target = op.get();
      continue;
    }
    if (!target && !runsEverywhere(*op) && !isTerminator(op->opcode))
      return "code with effects runs before the reduction";
  }
  if (reductions != 1)
    return reductions ? "the instance computes several top-level reductions"
                      : "the instance computes no top-level reduce/argreduce";
  if (target->opcode == Opcode::Reduce) {
    if (!target->boolAttr("reassociate", false))
      return "the reduce may not be reassociated";
    if (!isCommutativeCombiner(target->strAttr("combiner")))
      return "combiner '" + target->strAttr("combiner") +
             "' is not a commutative built-in (partials interleave members)";
    for (const AccComponent &c : target->acc)
      if (!isShuffleKind(c.type.elem))
        return "accumulator type " + typeToString(c.type) +
               " is not exchanged by warp shuffles";
  } else if (!isShuffleKind(target->result(0)->type.elem)) {
    return "arg-reduce value type " + typeToString(target->result(0)->type) +
           " is not exchanged by warp shuffles";
  }
  return "";
}


/// A kernel whose only work is a top-level reduction that may be regrouped
/// but that grid-reduce could not split runs it in one program instance:
/// one GPU thread folds every member. Unless construction already reported
/// the group, that is lost parallelism the user hears about (a
/// -Wintent-serialization warning at the reduction). An `intent::ordered`
/// reduce asked to stay serial and is not reported.
void warnSerialReduce(const Program &p, phys::RemarkSink &sink,
                      const std::string &why) {
  if (p.scope != ExecScope::Thread || p.segments.size() != 1 ||
      !p.segments[0].ordered || p.segments[0].splitPrograms >= 0)
    return;
  for (const phys::Serialization &f : sink.findings())
    if (f.group == 0)
      return;
  const Op *target = nullptr;
  walk(*p.body, [&](const Op &op) {
    if (op.opcode == Opcode::Segment)
      for (const auto &inner : op.regions[0]->block.ops)
        if (!target && (inner->opcode == Opcode::Reduce ||
                        inner->opcode == Opcode::ArgReduce))
          target = inner.get();
  });
  if (!target || (target->opcode == Opcode::Reduce &&
                  !target->boolAttr("reassociate", false)))
    return;
  phys::Serialization f;
  f.loc = target->loc;
  f.group = 0;
  std::string what = target->opcode == Opcode::Reduce ? "reduce" : "arg-reduction";
  std::string reason = why;
  if (why.find("combiner 'user'") != std::string::npos)
    reason = "its combine is a user function, and only built-in commutative "
             "combines are split over the GPU";
  f.cause = "the " + what + " runs in one program instance (one GPU thread "
            "folds every member): " + reason;
  if (why.find("combiner") != std::string::npos)
    f.fix = "use a built-in combine (intent::ops::plus, ops::min, ops::max, "
            "...) on a scalar accumulator, or reduce rows in a parallel_for "
            "and combine the partial results in a second kernel";
  else if (why.find("several top-level") != std::string::npos)
    f.fix = "compute one reduction per kernel, or combine them into one "
            "reduction over a struct accumulator of built-in combines";
  else if (why.find("effects") != std::string::npos)
    f.fix = "move the code with effects after the reduction or into its own "
            "kernel";
  else
    f.fix = "reduce rows in a parallel_for and combine the partial results "
            "in a second kernel";
  sink.lostParallelism(std::move(f));
}

} // namespace

void intent::passes::gridReduce(Program &p, phys::RemarkSink &sink) {
  std::string what, why = applyGridReduce(p, what);
  if (why.empty()) {
    sink.remark(p.segments[0].loc, what);
    return;
  }
  {
    // Only worth a remark where a reduction was a candidate.
    bool hasReduce = false;
    walk(*p.body, [&](const Op &op) {
      hasReduce |= op.opcode == Opcode::Reduce || op.opcode == Opcode::ArgReduce;
    });
    if (hasReduce && p.segments.size() == 1 && p.segments[0].ordered)
      sink.remark(p.segments[0].loc, "grid-reduce: not applied: " + why);
  }
  warnSerialReduce(p, sink, why);
}

std::string intent::passes::applyGridReduce(Program &p, std::string &what,
                                            bool gate) {
  Op *segOp = nullptr, *target = nullptr;
  std::string why = rejection(p, segOp, target);
  if (!why.empty() && (gate || !segOp || !target))
    return why;
  using K = LaunchExpr::Kind;
  int elemBytes = streamedElementBytes(*target);
  int64_t vector = elemBytes == 0 ? 1 : std::min<int64_t>(4, 16 / elemBytes);
  int64_t perProgram = kCtaThreads * vector * kStepsPerThread;

  // P = min(max((n + C - 1) / C, 1), M) with n = max(end - begin, 0); a
  // member range the host cannot compute uses M programs.
  std::optional<unsigned> b = launchExprOf(p, memberBegin(*target));
  std::optional<unsigned> e = launchExprOf(p, memberEnd(*target));
  const int64_t maxPrograms = target->opcode == Opcode::ArgReduce
                                  ? kMaxArgPrograms
                                  : kMaxPrograms;
  unsigned cap = p.constExpr(maxPrograms);
  unsigned wanted = cap;
  if (b && e) {
    unsigned n = p.binaryExpr(K::Max, p.binaryExpr(K::Sub, *e, *b),
                              p.constExpr(0));
    unsigned c = p.constExpr(perProgram);
    unsigned up = p.binaryExpr(
        K::Div, p.binaryExpr(K::Add, n, p.constExpr(perProgram - 1)), c);
    wanted = p.binaryExpr(K::Max, up, p.constExpr(1));
  }
  unsigned count = p.binaryExpr(K::Min, wanted, cap);

  p.segments[0].splitPrograms = static_cast<int>(count);
  resizeSegment(p, 0, count);

  unsigned components = gridComponents(*target);
  Buffer ws;
  ws.id = p.buffers.size();
  ws.name = "grid_partials";
  ws.scope = BufferScope::InvocationWorkspace;
  ws.workspaceOffset = 0;
  ws.keptZero = true;
  ws.elem = ScalarKind::U64;
  ws.rank = 1;
  ws.size = gridWorkspaceWords(components, maxPrograms);
  ws.init = InitMode::Value;
  ws.initValue = 0;
  ws.ownership = Ownership::InstanceUnique;
  ws.writerGroups = {p.segments[0].group};
  ws.readerGroups = {p.segments[0].group};
  ws.origin = target->origin;
  p.buffers.push_back(ws);

  p.scope = ExecScope::CTA;
  p.ctaThreads = kCtaThreads;
  p.sharedBytes = gridSharedBytes(components);

  // Move the instance into the grid_reduce's region.
  Block &segBlock = segOp->regions[0]->block;
  std::vector<std::unique_ptr<Op>> old = std::move(segBlock.ops);
  segBlock.ops.clear();
  std::unique_ptr<Op> terminator = std::move(old.back());
  old.pop_back();
  Builder bld(p);
  bld.setInsertionBlock(&segBlock);
  bld.loc = target->loc;
  bld.origin = target->origin;
  Value *countValue = bld.launchValue(count);
  Op *grid = bld.create(Opcode::GridReduce, {segBlock.args[0], countValue}, {});
  grid->setAttr("workspace", static_cast<int64_t>(ws.id));
  grid->setAttr("vector", vector);
  grid->setAttr("max_programs", maxPrograms);
  Region *r = bld.addRegion(grid);
  for (auto &op : old) {
    op->parent = &r->block;
    r->block.ops.push_back(std::move(op));
  }
  bld.setInsertionBlock(&r->block);
  bld.yield();
  // Who performs each access: every thread before the reduction, each
  // thread for its members, the last CTA's leader thread afterwards.
  bool after = false;
  for (auto &op : r->block.ops) {
    if (op.get() == target) {
      walkMutable(*target->regions[ValueRegion], [](Op &o) {
        if (o.opcode == Opcode::Load)
          o.access.active = ActiveSet::Thread;
      });
      after = true;
      continue;
    }
    std::function<void(Op &)> mark = [&](Op &o) {
      if (o.opcode == Opcode::Load || o.opcode == Opcode::Store)
        o.access.active = after ? ActiveSet::Leader : ActiveSet::All;
      for (auto &sub : o.regions)
        for (auto &inner : sub->block.ops)
          mark(*inner);
    };
    mark(*op);
  }
  segBlock.ops.push_back(std::move(terminator));

  what = "grid-reduce: the " + opcodeName(target->opcode).str() +
               " runs in one launch over " + p.exprToString(count) +
               " CTAs of " + std::to_string(kCtaThreads) + " threads (" +
               std::to_string(vector) +
               " members per thread and step, vector loads where aligned); "
               "partials in the invocation workspace, the last CTA folds "
               "them and runs the rest of the instance";
  return "";
}
