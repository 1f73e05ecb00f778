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
#include "Physical/Verifier.h"

#include <map>

using namespace intent;
using namespace intent::phys;

namespace {

class CoopVerifier {
public:
  CoopVerifier(const Program &p, std::vector<std::string> &errors)
      : p(p), errors(errors) {}

  void run() {
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
