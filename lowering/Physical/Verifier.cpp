//===- Verifier.cpp - Construction verifier: structure, types, launch ------===//
//
// The structural half of the construction verifier ([scope] [launch]
// [segments] [dispatch] [structure] [schema] [types] [attrs] [access]
// [buffers]);
// VerifierStructured.cpp holds the [structured] checks, VerifierEffects.cpp
// the effect checks.
//
//===----------------------------------------------------------------------===//

#include "Physical/Verifier.h"

#include "KIR/Print.h"

#include "Physical/Dispatch.h"
#include "Physical/OpTable.h"
#include "Physical/Structured.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringSet.h"

using namespace intent;
using namespace intent::phys;

namespace {

using LK = LaunchExpr::Kind;

class StructureVerifier {
public:
  StructureVerifier(const Program &p, std::vector<std::string> &errors)
      : p(p), errors(errors) {}

  void run() {
    if (p.scope == ExecScope::Thread) {
      if (p.ctaThreads != 0 || p.sharedBytes != 0)
        error("scope", "exec scope 'thread' fixes no CTA size and no shared "
                       "memory");
    } else if (p.scope == ExecScope::CTA) {
      if (p.ctaThreads < 32 || p.ctaThreads > 1024 || p.ctaThreads % 32)
        error("scope", "exec scope 'cta' needs threads per CTA, a multiple "
                       "of 32 in [32, 1024]; has " +
                           std::to_string(p.ctaThreads));
      if (p.sharedBytes < 0 || p.sharedBytes > 48 * 1024)
        error("scope", "shared memory per CTA must be in [0, 48 KiB]");
    } else {
      error("scope", "exec scope '" + execScopeName(p.scope).str() +
                         "' is not produced by any pass (thread or cta)");
    }
    // A multiprocessor holds at most 2048 threads; the ask is a cta
    // program's (its threads fixed).
    if (p.minCtasPerSm < 0 ||
        (p.minCtasPerSm > 0 &&
         (p.scope != ExecScope::CTA ||
          int64_t(p.ctaThreads) * p.minCtasPerSm > 2048)))
      error("scope", "min_ctas " + std::to_string(p.minCtasPerSm) +
                         " needs a cta program whose CTAs fit a "
                         "multiprocessor that many at once (at most 2048 "
                         "threads)");
    verifyLaunch();
    verifySegments();
    verifyBody();
    verifyDispatch();
    verifyBuffers();
  }

private:
  const Program &p;
  std::vector<std::string> &errors;
  std::vector<const Value *> scope;
  llvm::DenseSet<const Value *> visible;
  llvm::DenseSet<unsigned> valueIds, opIds;

  void error(llvm::StringRef tag, const std::string &msg) {
    errors.push_back("[" + tag.str() + "] " + msg);
  }
  void opError(llvm::StringRef tag, const Op &op, const std::string &msg) {
    error(tag, "op " + std::to_string(op.id) + " (" +
                   opcodeName(op.opcode).str() + "): " + msg);
  }

  //===--------------------------------------------------------------------===//
  // Launch expressions and segments
  //===--------------------------------------------------------------------===//

  bool validExpr(unsigned e) const { return e < p.exprs.size(); }

  void verifyLaunch() {
    for (unsigned i = 0; i < p.exprs.size(); ++i) {
      const LaunchExpr &e = p.exprs[i];
      std::string at = "e" + std::to_string(i) + ": ";
      for (unsigned o : e.operands)
        if (o >= i)
          error("launch", at + "operand e" + std::to_string(o) +
                              " is not an earlier expression");
      if (kir::Type::scalar(e.type).isFloat())
        error("launch", at + "launch expressions are integer or bool");
      switch (e.kind) {
      case LK::Param:
        if (e.param >= p.params.size() || !p.params[e.param].type.isScalar() ||
            p.params[e.param].type.isFloat())
          error("launch", at + "param " + std::to_string(e.param) +
                              " is not an integer ABI scalar");
        break;
      case LK::Extent:
      case LK::Stride:
        if (e.param >= p.params.size() || !p.params[e.param].type.isView() ||
            static_cast<int>(e.dim) >= p.params[e.param].type.rank)
          error("launch", at + "not an extent/stride of a view parameter");
        break;
      default:
        break;
      }
    }
  }

  std::string render(unsigned e) const { return p.exprToString(e); }

  void verifySegments() {
    if (!validExpr(p.total)) {
      error("segments", "total is not a launch expression");
      return;
    }
    std::string offset = "0";
    for (unsigned s = 0; s < p.segments.size(); ++s) {
      const Segment &seg = p.segments[s];
      std::string at = "segment " + std::to_string(s) + ": ";
      bool ok = validExpr(seg.length) && validExpr(seg.offset) &&
                ((!seg.spread && seg.tile < 0) || validExpr(seg.instances)) &&
                (!seg.team ||
                 (seg.spread && validExpr(seg.lanes ? seg.shift : seg.parts)));
      for (unsigned e : seg.extents)
        ok &= validExpr(e);
      if (!ok) {
        error("segments", at + "refers to a missing launch expression");
        return;
      }
      if (seg.group != s)
        error("segments", at + "belongs to group " + std::to_string(seg.group) +
                              "; segments are numbered by group");
      // The instance count: the length, or for a spread segment its own
      // expression ([dispatch] checks the length is ceil(count / spread)).
      unsigned count =
          seg.spread || seg.tile >= 0 ? seg.instances : seg.length;
      if (seg.ordered) {
        // A cooperative program may run the one instance on several
        // programs (grid-reduce: they cooperate through a kept-zero
        // workspace, [coop]); otherwise one program runs it.
        if (!seg.extents.empty() ||
            ((p.scope != ExecScope::CTA || seg.spread) &&
             render(count) != "1"))
          error("segments", at + "an ordered segment has no extents and "
                                 "length 1 (in a cta program: any program "
                                 "count)");
      } else {
        std::string len;
        for (unsigned i = 0; i < seg.extents.size(); ++i) {
          const LaunchExpr &x = p.exprs[seg.extents[i]];
          if (x.kind != LK::Max || render(x.operands[1]) != "0")
            error("segments", at + "extent " + std::to_string(i) +
                                  " is not clamped as max(n, 0)");
          len = i == 0 ? render(seg.extents[i])
                       : "(" + len + " * " + render(seg.extents[i]) + ")";
        }
        if (seg.extents.empty() || render(count) != len)
          error("segments", at + (seg.spread ? "instance count " : "length ") +
                                render(count) +
                                " is not the product of its extents " + len);
      }
      if (render(seg.offset) != offset)
        error("segments", at + "offset " + render(seg.offset) +
                              " is not the sum of earlier lengths " + offset);
      offset = offset == "0" ? render(seg.length)
                             : "(" + offset + " + " + render(seg.length) + ")";
    }
    if (render(p.total) != offset)
      error("segments", "total " + render(p.total) +
                            " is not the sum of the segment lengths " + offset);
  }

  //===--------------------------------------------------------------------===//
  // Dispatch
  //===--------------------------------------------------------------------===//

  bool isLaunchValueOf(const Value *v, unsigned expr) const {
    return v && v->def && v->def->opcode == Opcode::LaunchValue &&
           static_cast<unsigned>(v->def->intAttr("expr", -1)) == expr;
  }

  void verifyDispatch() {
    const Block &entry = p.body->block;
    const Op *pidOp = nullptr, *guard = nullptr;
    for (const auto &op : entry.ops) {
      if (op->opcode == Opcode::ProgramId && !pidOp)
        pidOp = op.get();
      if (op->opcode == Opcode::If && !guard)
        guard = op.get();
    }
    if (!pidOp || !guard) {
      error("dispatch", "the body needs program_id and the program-validity "
                        "guard `if pid < total`");
      return;
    }
    const Value *c = guard->operands[0];
    const Op *cmp = c->def;
    if (!cmp || cmp->opcode != Opcode::Cmp || cmp->strAttr("pred") != "lt" ||
        cmp->operands[0] != pidOp->result() ||
        !isLaunchValueOf(cmp->operands[1], p.total))
      error("dispatch", "the guard is not `program_id < total`");
    std::vector<const Op *> segOps;
    for (const auto &op : guard->regions[0]->block.ops)
      if (op->opcode == Opcode::Segment)
        segOps.push_back(op.get());
    unsigned nested = 0;
    walk(*p.body, [&](const Op &op) { nested += op.opcode == Opcode::Segment; });
    if (nested != segOps.size())
      error("dispatch", "segment ops must sit directly in the guard");
    if (segOps.size() != p.segments.size()) {
      error("dispatch", std::to_string(segOps.size()) + " segment ops for " +
                            std::to_string(p.segments.size()) + " segments");
      return;
    }
    for (unsigned s = 0; s < segOps.size(); ++s) {
      const Op &op = *segOps[s];
      const Segment &seg = p.segments[s];
      std::string at = "segment op for segment " + std::to_string(s) + ": ";
      if (op.intAttr("group", -1) != static_cast<int64_t>(seg.group))
        error("dispatch", at + "wrong group");
      if (seg.tile >= 0) {
        verifyTileDispatch(op, seg, pidOp, at);
        continue;
      }
      if (op.intAttr("tile", -1) >= 0)
        error("dispatch", at + "`tile` differs from the segment record");
      if (op.operands.size() != (seg.team ? 5u : seg.spread ? 4u : 3u) ||
          op.operands[0] != pidOp->result() ||
          !isLaunchValueOf(op.operands[1], seg.offset) ||
          !isLaunchValueOf(op.operands[2], seg.length) ||
          (seg.spread && !isLaunchValueOf(op.operands[3], seg.instances)) ||
          (seg.team && !isLaunchValueOf(op.operands[4], seg.lanes
                                                              ? seg.shift
                                                              : seg.parts))) {
        error("dispatch", at + (seg.team && seg.lanes
                                    ? "operands must be (program_id, O_g, "
                                      "L_g, N_g, S_g)"
                                : seg.team ? "operands must be (program_id, "
                                             "O_g, L_g, N_g, P_g)"
                                : seg.spread ? "operands must be (program_id, "
                                               "O_g, L_g, N_g)"
                                             : "operands must be (program_id, "
                                               "O_g, L_g)"));
        continue;
      }
      if (op.intAttr("spread", 0) != seg.spread)
        error("dispatch", at + "`spread` differs from the segment record's " +
                              std::to_string(seg.spread));
      if (op.boolAttr("team") != seg.team)
        error("dispatch", at + "`team` differs from the segment record");
      if (op.boolAttr("lanes") != (seg.team && seg.lanes))
        error("dispatch", at + "`lanes` differs from the segment record");
      if (seg.team && seg.lanes) {
        // Teams of 2^S consecutive threads, T >> S instances per program:
        // ceil(N / (T >> S)) programs, every thread in the region with
        // (instance, worker, active).
        const Block &r = op.regions[0]->block;
        const int t = p.ctaThreads;
        if (p.scope != ExecScope::CTA || seg.ordered || t <= 0 ||
            (t & (t - 1)) != 0 || seg.spread != t)
          error("dispatch", at + "a lane-team segment needs exec scope cta, "
                                 "a power-of-two CTA size and spread equal "
                                 "to it (has " +
                                std::to_string(p.ctaThreads) + " threads, "
                                "spread " + std::to_string(seg.spread) + ")");
        else if (render(seg.length) != laneTeamLengthString(seg))
          error("dispatch", at + "length " + render(seg.length) +
                                " is not ceil(instances / (T >> S)) " +
                                laneTeamLengthString(seg));
        if (r.args.size() != 3 || !r.args[0]->type.isScalar() ||
            r.args[2]->type.elem != ScalarKind::Bool)
          error("dispatch", at + "a lane-team segment's region takes "
                                "(instance, worker, active)");
      } else if (seg.team) {
        // A team of ctaThreads / W threads per instance, P programs per
        // group of W instances: ceil(N / W) * P programs, every thread in
        // the region with (instance, worker, active).
        const Block &r = op.regions[0]->block;
        if (p.scope != ExecScope::CTA || seg.ordered || seg.spread <= 0 ||
            p.ctaThreads % seg.spread != 0)
          error("dispatch", at + "a team segment of " +
                                std::to_string(seg.spread) +
                                " instances per program needs exec scope cta "
                                "and a CTA size they divide (has " +
                                std::to_string(p.ctaThreads) + ")");
        if (!isTeamLength(seg))
          error("dispatch", at + "length e" + std::to_string(seg.length) +
                                " is not ceil(e" +
                                std::to_string(seg.instances) + " / " +
                                std::to_string(seg.spread) + ") * e" +
                                std::to_string(seg.parts));
        if (r.args.size() != 3 || !r.args[0]->type.isScalar() ||
            r.args[2]->type.elem != ScalarKind::Bool)
          error("dispatch", at + "a team segment's region takes (instance, "
                                "worker, active)");
      } else if (seg.spread) {
        // Spread over the threads of a cta program, ceil(N / T) programs.
        if (p.scope != ExecScope::CTA || seg.spread != p.ctaThreads)
          error("dispatch", at + "spread over " + std::to_string(seg.spread) +
                                " threads in a program of " +
                                std::to_string(p.ctaThreads) +
                                " threads per CTA (a spread segment needs "
                                "exec scope cta and spreads over all of them)");
        if (!isSpreadLength(seg))
          error("dispatch", at + "length e" + std::to_string(seg.length) +
                                " is not ceil(e" +
                                std::to_string(seg.instances) + " / " +
                                std::to_string(seg.spread) + ")");
      }
      const Block &b = op.regions[0]->block;
      const Op *dec = nullptr;
      for (const auto &o : b.ops)
        if (o->opcode == Opcode::Delinearize) {
          dec = o.get();
          break;
        }
      if (seg.ordered) {
        if (dec && dec->operands[0] == b.args[0])
          error("dispatch", at + "an ordered segment has no instance coordinates");
        continue;
      }
      if (!dec || dec->operands.empty() || dec->operands[0] != b.args[0] ||
          dec->operands.size() != seg.extents.size() + 1) {
        error("dispatch", at + "needs `delinearize %local` by its " +
                              std::to_string(seg.extents.size()) + " extents");
        continue;
      }
      for (unsigned i = 0; i < seg.extents.size(); ++i)
        if (!isLaunchValueOf(dec->operands[i + 1], seg.extents[i]))
          error("dispatch", at + "delinearize extent " + std::to_string(i) +
                                " is not the segment's extent e" +
                                std::to_string(seg.extents[i]));
    }
  }

  /// A tile segment (Physical/Dispatch.h tileSegment): operands (pid, O_g,
  /// L_g, N_g, extents...), the record's dimension and rows, L_g the tile
  /// count, a cta program of whole warps, the region's (instance, active)
  /// pairs, every instance decoded by the extents.
  void verifyTileDispatch(const Op &op, const Segment &seg, const Op *pidOp,
                          const std::string &at) {
    const unsigned r = seg.extents.size();
    bool operandsOk = op.operands.size() == 4 + r &&
                      op.operands[0] == pidOp->result() &&
                      isLaunchValueOf(op.operands[1], seg.offset) &&
                      isLaunchValueOf(op.operands[2], seg.length) &&
                      isLaunchValueOf(op.operands[3], seg.instances);
    for (unsigned d = 0; operandsOk && d < r; ++d)
      operandsOk = isLaunchValueOf(op.operands[4 + d], seg.extents[d]);
    if (!operandsOk) {
      error("dispatch", at + "a tile segment's operands must be (program_id, "
                             "O_g, L_g, N_g, its extents)");
      return;
    }
    if (op.intAttr("tile", -1) != seg.tile ||
        op.intAttr("rows", 1) != seg.tileRows)
      error("dispatch", at + "`tile` / `rows` differ from the segment "
                             "record's " + std::to_string(seg.tile) + " / " +
                            std::to_string(seg.tileRows));
    if (seg.spread || seg.team || seg.ordered || r < 2 ||
        seg.tile + 1 >= static_cast<int>(r))
      error("dispatch", at + "a tile segment is parallel, of rank >= 2, cut "
                             "along a dimension before the last, and neither "
                             "spread nor a team");
    if (p.scope != ExecScope::CTA || p.ctaThreads <= 0 ||
        p.ctaThreads % kTileWidth != 0)
      error("dispatch", at + "a tile segment needs exec scope cta and whole "
                             "warps per CTA (has " +
                            std::to_string(p.ctaThreads) + " threads)");
    else if (render(seg.length) != tileLengthString(seg))
      error("dispatch", at + "length " + render(seg.length) +
                            " is not the tile count " + tileLengthString(seg));
    const Block &b = op.regions[0]->block;
    if (seg.tileRows < 1 ||
        b.args.size() != 4 * static_cast<unsigned>(seg.tileRows)) {
      error("dispatch", at + "a tile segment's region takes (instance, active) "
                             "for each of its direct and transposed instances");
      return;
    }
    bool direct = false;
    for (const auto &o : b.ops) {
      if (o->opcode != Opcode::Delinearize || !isInstanceIndex(op, o->operands[0]))
        continue;
      direct |= o->operands[0] == b.args[0];
      bool byExtents = o->operands.size() == r + 1;
      for (unsigned i = 0; byExtents && i < r; ++i)
        byExtents = isLaunchValueOf(o->operands[i + 1], seg.extents[i]);
      if (!byExtents)
        error("dispatch", at + "a tile segment's instances are decoded by its " +
                              std::to_string(r) + " extents");
    }
    if (!direct)
      error("dispatch", at + "needs `delinearize %local` by its " +
                            std::to_string(r) + " extents");
  }

  /// The tile count as Physical/Dispatch.cpp tileLength builds it (built
  /// over a copy of the program's launch expressions).
  std::string tileLengthString(const Segment &seg) const {
    Program scratch;
    scratch.exprs = p.exprs;
    scratch.params = p.params;
    return scratch.exprToString(
        tileLength(scratch, seg.extents, seg.tile, p.ctaThreads, seg.tileRows));
  }

  /// A lane-team segment's length as Physical/Dispatch.cpp laneTeamLength
  /// builds it.
  std::string laneTeamLengthString(const Segment &seg) const {
    Program scratch;
    scratch.exprs = p.exprs;
    scratch.params = p.params;
    return scratch.exprToString(
        laneTeamLength(scratch, seg.instances, p.ctaThreads, seg.shift));
  }

  /// `seg.length` is ceil(instances / W) * parts.
  bool isTeamLength(const Segment &seg) const {
    if (seg.length >= p.exprs.size())
      return false;
    const LaunchExpr &mul = p.exprs[seg.length];
    if (mul.kind != LaunchExpr::Kind::Mul || mul.operands.size() != 2 ||
        mul.operands[1] != seg.parts)
      return false;
    Segment inner = seg;
    inner.length = mul.operands[0];
    return isSpreadLength(inner);
  }

  /// `seg.length` is (instances + (T - 1)) / T, T = seg.spread.
  bool isSpreadLength(const Segment &seg) const {
    using K = LaunchExpr::Kind;
    if (seg.length >= p.exprs.size() || seg.instances >= p.exprs.size())
      return false;
    auto isConst = [&](unsigned e, int64_t v) {
      return e < p.exprs.size() && p.exprs[e].kind == K::Const &&
             p.exprs[e].value == v;
    };
    const LaunchExpr &n = p.exprs[seg.instances];
    if (n.kind == K::Const)
      return isConst(seg.length, (std::max<int64_t>(n.value, 0) +
                                  seg.spread - 1) / seg.spread);
    const LaunchExpr &div = p.exprs[seg.length];
    if (div.kind != K::Div || div.operands.size() != 2 ||
        !isConst(div.operands[1], seg.spread))
      return false;
    const LaunchExpr &add = p.exprs[div.operands[0]];
    return add.kind == K::Add && add.operands.size() == 2 &&
           add.operands[0] == seg.instances &&
           isConst(add.operands[1], seg.spread - 1);
  }

  //===--------------------------------------------------------------------===//
  // Body: structure, types, attributes, accesses
  //===--------------------------------------------------------------------===//

  void define(const Value *v) {
    if (!valueIds.insert(v->id).second)
      error("structure", "value id %" + std::to_string(v->id) +
                             " is not unique");
    if (v->type.isNone())
      error("types", "value %" + std::to_string(v->id) + " has no type");
    scope.push_back(v);
    visible.insert(v);
  }

  void popTo(size_t mark) {
    while (scope.size() > mark) {
      visible.erase(scope.back());
      scope.pop_back();
    }
  }

  void verifyBody() {
    const Block &entry = p.body->block;
    if (entry.args.size() != p.params.size())
      error("structure", "the body needs one argument per parameter");
    for (unsigned i = 0; i < entry.args.size() && i < p.params.size(); ++i)
      if (entry.args[i]->type != p.params[i].type)
        error("types", "body argument " + std::to_string(i) +
                           " does not have its parameter's type");
    for (const Value *a : entry.args)
      define(a);
    verifyBlock(entry, Opcode::Return, /*inLoopBody=*/false);
  }

  void verifyBlock(const Block &b, Opcode term, bool inLoopBody) {
    size_t mark = scope.size();
    for (size_t i = 0; i < b.ops.size(); ++i) {
      const Op &op = *b.ops[i];
      if (isTerminator(op.opcode) && i + 1 != b.ops.size())
        opError("structure", op, "terminator is not last in its block");
      verifyOp(op, inLoopBody);
      for (const Value *r : op.results)
        define(r);
    }
    const Op *t = b.terminator();
    if (!t || !isTerminator(t->opcode)) {
      error("structure", "block without terminator");
    } else if (t->opcode == Opcode::Break || t->opcode == Opcode::Continue) {
      if (!inLoopBody)
        opError("structure", *t, "break/continue outside a loop body");
    } else if (t->opcode != term) {
      opError("structure", *t,
              "block must end in " + opcodeName(term).str());
    }
    popTo(mark);
  }

  void verifyRegion(const Region &r, Opcode term, bool inLoopBody) {
    size_t mark = scope.size();
    for (const Value *a : r.block.args)
      define(a);
    verifyBlock(r.block, term, inLoopBody);
    popTo(mark);
  }

  void expectRegions(const Op &op, unsigned n) {
    if (op.regions.size() != n)
      opError("structure", op, "needs " + std::to_string(n) + " regions");
  }

  void checkYields(const Op &op, const Region &r, size_t n) {
    const Op *t = r.block.terminator();
    if (t && t->opcode == Opcode::Yield && t->operands.size() != n)
      opError("structure", *t, "yields " + std::to_string(t->operands.size()) +
                                   " values, parent expects " +
                                   std::to_string(n));
  }

  void verifyOp(const Op &op, bool inLoopBody) {
    if (!opIds.insert(op.id).second)
      opError("structure", op, "op id is not unique");
    for (const Value *v : op.operands)
      if (!visible.count(v))
        opError("structure", op, "operand %" + std::to_string(v->id) +
                                     " does not dominate its use");
    verifyTypesAndAttrs(op);
    switch (op.opcode) {
    case Opcode::Segment:
      expectRegions(op, 1);
      if (op.regions.size() == 1) {
        const Block &b = op.regions[0]->block;
        if (op.boolAttr("team")) {
          if (b.args.size() != 3 || !b.args[0]->type.isIndex() ||
              !b.args[1]->type.isIndex() || !b.args[2]->type.isBool())
            opError("structure", op, "team segment region takes `(%local: "
                                     "i64, %worker: i64, %active: bool)`");
        } else if (op.intAttr("tile", -1) >= 0) {
          bool pairs = !b.args.empty() &&
                       b.args.size() == 4 * static_cast<size_t>(
                                                std::max<int64_t>(1, op.intAttr("rows", 1)));
          for (unsigned i = 0; pairs && i < b.args.size(); ++i)
            pairs = i % 2 ? b.args[i]->type.isBool() : b.args[i]->type.isIndex();
          if (!pairs)
            opError("structure", op, "tile segment region takes `(%local: "
                                     "i64, %active: bool)` for each of its "
                                     "2 * rows instances");
        } else if (b.args.size() != 1 || !b.args[0]->type.isIndex()) {
          opError("structure", op, "segment region takes `%local: i64`");
        }
        verifyRegion(*op.regions[0], Opcode::Yield, false);
      }
      break;
    case Opcode::If:
      expectRegions(op, 2);
      for (const auto &r : op.regions) {
        verifyRegion(*r, Opcode::Yield, inLoopBody);
        checkYields(op, *r, op.results.size());
      }
      break;
    case Opcode::For:
      expectRegions(op, 1);
      if (op.regions.size() == 1) {
        const Block &b = op.regions[0]->block;
        if (b.args.size() != 1 || !b.args[0]->type.isIndex())
          opError("structure", op, "for region takes `%iv: i64`");
        verifyRegion(*op.regions[0], Opcode::Yield, false);
        checkYields(op, *op.regions[0], 0);
      }
      break;
    case Opcode::Loop:
      expectRegions(op, 3);
      if (op.regions.size() != 3)
        break;
      for (const auto &r : op.regions)
        if (r->block.args.size() != op.operands.size())
          opError("structure", op, "each loop region takes the carried values");
      verifyRegion(*op.regions[0], Opcode::Condition, false);
      verifyRegion(*op.regions[1], Opcode::Yield, true);
      verifyRegion(*op.regions[2], Opcode::Yield, false);
      checkYields(op, *op.regions[1], op.operands.size());
      checkYields(op, *op.regions[2], op.operands.size());
      if (op.results.size() != op.operands.size())
        opError("structure", op, "a loop has one result per carried value");
      break;
    default:
      if (isStructured(op.opcode)) {
        // Callback regions: no break/continue out of them.
        expectRegions(op, structuredRegionCount(op.opcode));
        for (const auto &r : op.regions)
          verifyRegion(*r, Opcode::Yield, false);
        break;
      }
      if (!op.regions.empty())
        opError("structure", op, "this op has no regions");
      break;
    }
  }

  void verifyTypesAndAttrs(const Op &op) {
    auto operandsScalar = [&]() {
      for (const Value *v : op.operands)
        if (!v->type.isScalar())
          opError("types", op, "operand %" + std::to_string(v->id) +
                                   " is not a scalar");
    };
    auto oneResult = [&](bool needScalar) {
      if (op.results.size() != 1) {
        opError("types", op, "needs exactly one result");
        return false;
      }
      if (needScalar && !op.result()->type.isScalar())
        opError("types", op, "result must be a scalar");
      return true;
    };
    switch (op.opcode) {
    case Opcode::ProgramId:
      if (oneResult(true) && !op.result()->type.isIndex())
        opError("types", op, "program id is i64");
      break;
    case Opcode::LaunchValue: {
      int64_t e = op.intAttr("expr", -1);
      if (e < 0 || e >= static_cast<int64_t>(p.exprs.size())) {
        opError("attrs", op, "needs an `expr` naming a launch expression");
        break;
      }
      if (oneResult(true) && op.result()->type.elem != p.exprs[e].type)
        opError("types", op, "result type differs from the expression's");
      break;
    }
    case Opcode::Segment:
      if (op.intAttr("group", -1) < 0)
        opError("attrs", op, "needs a `group`");
      for (const Value *v : op.operands)
        if (!v->type.isIndex())
          opError("types", op, "operands are i64");
      break;
    case Opcode::Delinearize:
      for (const Value *v : op.operands)
        if (!v->type.isIndex())
          opError("types", op, "operands are i64");
      if (op.results.size() + 1 != op.operands.size())
        opError("types", op, "one result per extent");
      for (const Value *r : op.results)
        if (!r->type.isIndex())
          opError("types", op, "results are i64");
      break;
    case Opcode::Constant:
      if (!op.attr("value"))
        opError("attrs", op, "needs a `value`");
      oneResult(true);
      break;
    case Opcode::Cmp: {
      static const llvm::StringSet<> preds = {"eq", "ne", "lt", "le", "gt", "ge"};
      if (!preds.count(op.strAttr("pred")))
        opError("attrs", op, "needs a `pred` in eq ne lt le gt ge");
      operandsScalar();
      if (op.operands.size() != 2 || op.operands[0]->type != op.operands[1]->type)
        opError("types", op, "compares two values of one type");
      if (oneResult(true) && !op.result()->type.isBool())
        opError("types", op, "result is bool");
      break;
    }
    case Opcode::Select:
      if (op.operands.size() != 3 || !op.operands[0]->type.isBool() ||
          op.operands[1]->type != op.operands[2]->type)
        opError("types", op, "takes (bool, a, b) with a and b of one type");
      else if (oneResult(true) && op.result()->type != op.operands[1]->type)
        opError("types", op, "result type differs from the arms'");
      break;
    case Opcode::Cast:
      operandsScalar();
      oneResult(true);
      break;
    case Opcode::Math:
      if (op.strAttr("fn").empty())
        opError("attrs", op, "needs a function name `fn`");
      operandsScalar();
      oneResult(true);
      break;
    case Opcode::Rng: {
      std::string fn = op.strAttr("fn");
      if (fn != "u32" && fn != "uniform" && fn != "normal")
        opError("attrs", op, "`fn` is \"u32\", \"uniform\" or \"normal\"");
      bool u64s = op.operands.size() == 3;
      for (const Value *v : op.operands)
        u64s = u64s && v->type == Type::scalar(ScalarKind::U64);
      if (!u64s)
        opError("types", op, "takes (seed, stream, counter), all u64");
      if (oneResult(true) &&
          op.result()->type != Type::scalar(fn == "u32" ? ScalarKind::U32
                                                        : ScalarKind::F32))
        opError("types", op, "result is u32 for fn \"u32\", f32 otherwise");
      break;
    }
    case Opcode::Print: {
      operandsScalar();
      if (!op.results.empty())
        opError("types", op, "has no results");
      std::vector<kir::FormatPiece> pieces;
      std::string why;
      if (!kir::splitFormat(op.strAttr("format"), pieces, why)) {
        opError("attrs", op, "bad `format`: " + why);
        break;
      }
      unsigned next = 0;
      for (const kir::FormatPiece &piece : pieces)
        if (piece.conv && (next >= op.operands.size() ||
                           !kir::formatArgFits(
                               piece, kir::Type::scalar(
                                          op.operands[next++]->type.elem))))
          opError("types", op, "operands do not match the format");
      if (next != op.operands.size())
        opError("types", op, "operands do not match the format");
      break;
    }
    case Opcode::Extent:
    case Opcode::Stride:
      if (op.operands.size() != 1 || !op.operands[0]->type.isView())
        opError("types", op, "takes a view parameter");
      else if (op.intAttr("dim", -1) < 0 ||
               op.intAttr("dim") >= op.operands[0]->type.rank)
        opError("attrs", op, "`dim` out of range");
      if (oneResult(true) && !op.result()->type.isIndex())
        opError("types", op, "result is i64");
      break;
    case Opcode::Alloc: {
      int64_t id = op.intAttr("buffer", -1);
      if (id < 0 || id >= static_cast<int64_t>(p.buffers.size()))
        opError("attrs", op, "needs a `buffer` naming a buffer record");
      if (oneResult(false) && !op.result()->type.isBuffer())
        opError("types", op, "result is a buffer");
      break;
    }
    case Opcode::Load:
    case Opcode::Store:
    case Opcode::Atomic:
    case Opcode::AtomicCas:
    case Opcode::VectorLoad:
    case Opcode::VectorStore:
      verifyAccess(op); // atomics: [atomic] checks in VerifierAtomic.cpp
      break;
    case Opcode::ThreadId:
    case Opcode::LaneId:
    case Opcode::WarpId:
    case Opcode::CtaSize:
    case Opcode::GridCtas:
    case Opcode::CheckedLaunch: {
      ScalarKind k = op.opcode == Opcode::CheckedLaunch ? ScalarKind::Bool
                                                        : ScalarKind::I32;
      if (oneResult(true) && op.result()->type != Type::scalar(k))
        opError("types", op, std::string("result is ") +
                                 (k == ScalarKind::Bool ? "bool" : "i32"));
      break;
    }
    case Opcode::Barrier:
      if (op.strAttr("scope") == "grid") {
        // The arrival counter: a workspace buffer of 32- or 64-bit words.
        const Value *c = op.operands.empty() ? nullptr : op.operands[0];
        if (op.operands.size() != 1 || !op.results.empty() ||
            !c->type.isBuffer() ||
            (c->type.elem != ScalarKind::U32 && c->type.elem != ScalarKind::U64))
          opError("types", op, "a grid barrier takes its arrival counter (a "
                               "buffer of u32 or u64) and has no results");
      } else if (op.strAttr("scope") == "group") {
        // The group's arrival word counter[word], its CTAs, whether this
        // CTA is its first.
        const auto &o = op.operands;
        if (o.size() != 4 || !op.results.empty() || !o[0]->type.isBuffer() ||
            o[0]->type.elem != ScalarKind::U64 ||
            o[1]->type != Type::scalar(ScalarKind::I64) ||
            o[2]->type != Type::scalar(ScalarKind::I64) || !o[3]->type.isBool())
          opError("types", op, "a group barrier takes (arrival counter: a u64 "
                               "buffer, word: i64, ctas: i64, first: bool) and "
                               "has no results");
      } else if (!op.operands.empty() || !op.results.empty()) {
        opError("types", op, "a barrier has no operands or results");
      }
      break;
    case Opcode::Shuffle:
      operandsScalar();
      if (op.operands.size() != 2 ||
          op.operands[1]->type != Type::scalar(ScalarKind::I32))
        opError("types", op, "takes (value, i32 lane argument)");
      else if (oneResult(true) && op.result()->type != op.operands[0]->type)
        opError("types", op, "result type differs from the shuffled value's");
      else if (scalarBytes(op.result()->type.elem) != 4 &&
               scalarBytes(op.result()->type.elem) != 8 &&
               !op.result()->type.isBool())
        opError("types", op, "shuffles move 4- or 8-byte values and bool");
      break;
    case Opcode::Aligned: {
      int64_t b = op.intAttr("bytes", 0);
      if (b <= 0 || (b & (b - 1)))
        opError("attrs", op, "`bytes` is a power of two");
      // (view, the tested element's i64 offset from the base) or (view,
      // its i64 coordinates, one per dimension)
      bool ok = op.operands.size() >= 2 && op.operands[0]->type.isView() &&
                (op.operands.size() == 2 ||
                 op.operands.size() ==
                     1 + static_cast<size_t>(op.operands[0]->type.rank));
      for (size_t i = 1; ok && i < op.operands.size(); ++i)
        ok = op.operands[i]->type.isIndex();
      if (!ok)
        opError("types", op, "takes (view, i64 element offset) or (view, an "
                             "i64 coordinate per dimension)");
      if (oneResult(true) && !op.result()->type.isBool())
        opError("types", op, "result is bool");
      break;
    }
    case Opcode::Bitcast:
      operandsScalar();
      if (oneResult(true) && op.operands.size() == 1 &&
          scalarBytes(op.result()->type.elem) !=
              scalarBytes(op.operands[0]->type.elem))
        opError("types", op, "changes the size of the value");
      break;
    case Opcode::If:
      if (op.operands.size() != 1 || !op.operands[0]->type.isBool())
        opError("types", op, "condition must be one bool");
      break;
    case Opcode::For:
      if (op.operands.size() != 2 || !op.operands[0]->type.isIndex() ||
          !op.operands[1]->type.isIndex())
        opError("types", op, "bounds are two i64");
      break;
    case Opcode::Condition:
      if (op.operands.size() != 1 || !op.operands[0]->type.isBool())
        opError("types", op, "takes one bool");
      break;
    case Opcode::Loop:
      for (unsigned i = 0; i < op.results.size() && i < op.operands.size(); ++i)
        if (op.results[i]->type != op.operands[i]->type)
          opError("types", op, "carried value " + std::to_string(i) +
                                   " changes type");
      break;
    case Opcode::Yield:
    case Opcode::Break:
    case Opcode::Continue:
    case Opcode::Return:
      break;
    default: // arithmetic
      if (isStructured(op.opcode))
        break; // [structured] checks (VerifierStructured.cpp)
      operandsScalar();
      if (oneResult(true) && op.operands.size() == 2 &&
          (op.operands[0]->type != op.operands[1]->type ||
           op.result()->type != op.operands[0]->type))
        opError("types", op, "operands and result must have one type");
      break;
    }
  }

  void verifyAccess(const Op &op) {
    bool isStore =
        op.opcode == Opcode::Store || op.opcode == Opcode::VectorStore;
    bool isVector =
        op.opcode == Opcode::VectorLoad || op.opcode == Opcode::VectorStore;
    unsigned width = isVector ? static_cast<unsigned>(
                                    std::max<int64_t>(op.intAttr("width"), 0))
                              : 1;
    if (op.operands.size() < (isStore ? 1u + width : 1u) ||
        !op.operands[0]->type.isMemory()) {
      opError("access", op, "first operand must be a view or buffer");
      return;
    }
    const Value *mem = op.memory();
    bool rootView = mem->isBlockArg() && mem->owner == &p.body->block;
    bool buffer = mem->def && mem->def->opcode == Opcode::Alloc;
    if (!rootView && !buffer)
      opError("access", op, "must address a root ABI view or an alloc");
    const Type &mt = mem->type;
    llvm::ArrayRef<Value *> cs = op.coords();
    if (static_cast<int>(cs.size()) != mt.rank)
      opError("access", op, "needs one coordinate per dimension (" +
                                std::to_string(mt.rank) + "), has " +
                                std::to_string(cs.size()));
    for (const Value *c : cs)
      if (!c->type.isIndex())
        opError("access", op, "coordinate %" + std::to_string(c->id) +
                                  " is not i64");
    switch (op.access.bounds) {
    case Bounds::Unknown:
      opError("access", op, "has no validity (assumed in bounds or guarded)");
      break;
    case Bounds::Guarded:
      if (!op.access.hasGuard || !op.guard()->type.isBool())
        opError("access", op, "guarded access without a bool guard operand");
      break;
    case Bounds::Assumed:
    case Bounds::Proven: // re-proven by [bounds] (VerifierAccess.cpp)
      break;
    }
    // An access a pass synthesized to a buffer of its own (shared memory,
    // workspace) stands for no KIR access; every other needs its KIR op.
    if (op.access.kirOp < 0 && !(buffer && !op.origin.synth.empty()) &&
        !isPrivatizedMerge(p, op))
      opError("access", op, "has no provenance (KIR op)");
    Type elem = Type::scalar(mt.elem);
    if (isAtomic(op.opcode))
      return;
    if (isVector) {
      if ((width != 2 && width != 4 && width != 8 && width != 16) ||
          width * scalarBytes(mt.elem) > 16)
        opError("attrs", op, "`width` is 2, 4, 8 or 16 elements of at most "
                             "16 bytes together");
      if (isStore) {
        if (mt.isView() && mt.constElem)
          opError("access", op, "stores through a view of const elements");
        for (unsigned i = 0; i < width && 1 + i < op.operands.size(); ++i)
          if (op.operands[1 + i]->type != elem)
            opError("types", op, "stored value type differs from the element "
                                 "type");
      } else if (op.results.size() != width) {
        opError("types", op, "has one result per vector element");
      }
      for (const Value *r : op.results)
        if (r->type != elem)
          opError("types", op, "result type differs from the element type");
      return;
    }
    if (isStore) {
      if (mt.isView() && mt.constElem)
        opError("access", op, "stores through a view of const elements");
      if (op.storedValue()->type != elem)
        opError("types", op, "stored value type differs from the element type");
      if (!op.results.empty())
        opError("types", op, "a store has no result");
    } else if (op.results.size() != 1 || op.result()->type != elem) {
      opError("types", op, "load result type differs from the element type");
    }
  }

  //===--------------------------------------------------------------------===//
  // Buffers
  //===--------------------------------------------------------------------===//

  void verifyBuffers() {
    std::vector<unsigned> perParam(p.params.size());
    llvm::DenseSet<int64_t> allocated;
    walk(*p.body, [&](const Op &op) {
      if (op.opcode == Opcode::Alloc)
        allocated.insert(op.intAttr("buffer", -1));
    });
    for (unsigned i = 0; i < p.buffers.size(); ++i) {
      const Buffer &b = p.buffers[i];
      std::string at = "buffer " + std::to_string(i) + " (" + b.name + "): ";
      if (b.id != i)
        error("buffers", at + "id differs from its position");
      if (b.scope == BufferScope::ExternalView) {
        if (b.param < 0 || b.param >= static_cast<int>(p.params.size()) ||
            !p.params[b.param].type.isView()) {
          error("buffers", at + "an external view needs its view parameter");
          continue;
        }
        ++perParam[b.param];
        const Type &t = p.params[b.param].type;
        if (t.elem != b.elem || t.rank != b.rank)
          error("buffers", at + "element type/rank differ from the parameter");
        if (b.init != InitMode::Host)
          error("buffers", at + "an external view's contents are owned by the "
                                "host (init host)");
        continue;
      }
      if (b.scope == BufferScope::InvocationWorkspace &&
          b.ownership != Ownership::InstanceUnique &&
          b.ownership != Ownership::Atomic)
        error("buffers", at + "invocation workspace needs an ownership slice "
                              "per instance (instance_unique) or atomic "
                              "updates only (atomic)");
      // A buffer sized per launch ([shared] checks its expressions).
      if (b.size <= 0 && b.sizeExpr < 0)
        error("buffers", at + "needs a positive size");
      if (b.init == InitMode::Host)
        error("buffers", at + "needs an init value or a first-write "
                              "obligation");
      if (b.scope != BufferScope::InvocationWorkspace &&
          b.ownership != Ownership::Private)
        error("buffers", at + "program/iteration-private buffers are owned "
                              "privately");
      if (b.scope != BufferScope::InvocationWorkspace && !allocated.count(i))
        error("buffers", at + "has no alloc op (no allocation instance)");
    }
    for (unsigned i = 0; i < p.params.size(); ++i)
      if (p.params[i].type.isView() && perParam[i] != 1)
        error("buffers", "view parameter " + p.params[i].name + " has " +
                             std::to_string(perParam[i]) +
                             " external buffer records, expected 1");
    walk(*p.body, [&](const Op &op) {
      if (op.opcode != Opcode::Alloc)
        return;
      int64_t id = op.intAttr("buffer", -1);
      if (id < 0 || id >= static_cast<int64_t>(p.buffers.size()))
        return;
      if (p.buffers[id].scope == BufferScope::ExternalView)
        opError("buffers", op, "allocates an external view");
      else if (op.result()->type.size != p.buffers[id].size ||
               op.result()->type.elem != p.buffers[id].elem)
        opError("buffers", op, "type differs from its buffer record");
    });
  }
};

} // namespace

bool intent::phys::verifyProgram(const Program &p, const kir::Kernel *kernel,
                                 std::vector<std::string> &errors) {
  const size_t before = errors.size();
  // [schema]: every op against its op table row (OpTable.h). It gates
  // nothing: the per-op checks below say more about the same op (types,
  // which structured/atomic rule is broken) and guard their own indexing.
  walk(*p.body, [&](const Op &op) { checkOpSchema(op, errors); });
  const size_t start = errors.size();
  StructureVerifier(p, errors).run();
  const bool wellFormed = errors.size() == start;
  // Structured-op and effect checks assume a well-formed body.
  if (errors.size() == start)
    verifyStructuredOps(p, errors);
  if (errors.size() == start)
    verifyAtomics(p, errors);
  verifyCooperative(p, errors);
  if (wellFormed)
    verifyUniform(p, errors);
  verifyBuffers(p, errors);
  verifySharedBuffers(p, errors);
  if (errors.size() == start)
    verifyEffects(p, kernel, errors);
  // Last, so that a broken access still gets the effect checks above.
  if (wellFormed)
    verifyAccesses(p, kernel, errors);
  return errors.size() == before;
}
