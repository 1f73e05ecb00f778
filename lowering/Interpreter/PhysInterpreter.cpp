//===- PhysInterpreter.cpp - Executes a physical program on the host -------===//

#include "Interpreter/PhysInterpreter.h"

#include "Physical/Coop.h"
#include "Physical/Structured.h"

#include "llvm/ADT/DenseMap.h"

#include <algorithm>
#include <map>
#include <cmath>
#include <map>
#include <random>
#include <unordered_map>

using namespace intent;
using namespace intent::interp;
using phys::Op;
using phys::Opcode;

std::optional<Scalar> interp::evalLaunchExpr(const phys::Program &p, unsigned idx,
                                             const std::vector<Arg> &args,
                                             std::string &error) {
  using K = phys::LaunchExpr::Kind;
  const phys::LaunchExpr &e = p.exprs[idx];
  std::vector<Scalar> ops;
  for (unsigned o : e.operands) {
    std::optional<Scalar> v = evalLaunchExpr(p, o, args, error);
    if (!v)
      return std::nullopt;
    ops.push_back(*v);
  }
  Scalar out;
  switch (e.kind) {
  case K::Const:
    return Scalar::ofInt(e.type, e.value);
  case K::Param:
    return evalCast(args[e.param].scalar, e.type);
  case K::Extent:
    return Scalar::ofInt(e.type, args[e.param].view.extents[e.dim]);
  case K::Stride:
    return Scalar::ofInt(e.type, args[e.param].view.strides[e.dim]);
  case K::Cast:
    return evalCast(ops[0], e.type);
  case K::Neg:
    if (!evalUnary("neg", ops[0], out, error))
      return std::nullopt;
    return out;
  case K::Cmp:
    return evalCmp(e.pred, ops[0], ops[1]);
  case K::Select:
    return ops[0].truthy() ? ops[1] : ops[2];
  default:
    if (!evalBinary(phys::launchExprKindName(e.kind), ops[0], ops[1], out, error))
      return std::nullopt;
    return out;
  }
}

namespace {

/// How control leaves a block.
struct Flow {
  Opcode kind = Opcode::Yield;
  std::vector<Scalar> values;
};

class Machine {
public:
  Machine(const phys::Program &p, const std::vector<Arg> &args,
          const PhysRunOptions &opts, PhysRunResult &result)
      : p(p), args(args), opts(opts), result(result) {}

  bool runProgram(int64_t pid) {
    this->pid = pid;
    env.clear();
    buffers.clear();
    for (unsigned i = 0; i < p.params.size(); ++i)
      if (!args[i].isView)
        env[p.param(i)] = args[i].scalar;
    Flow f;
    return execBlock(p.body->block, f);
  }

private:
  const phys::Program &p;
  const std::vector<Arg> &args;
  const PhysRunOptions &opts;
  PhysRunResult &result;
  int64_t pid = 0;
  int64_t opsExecuted = 0;
  llvm::DenseMap<const phys::Value *, Scalar> env;
  std::vector<std::vector<Scalar>> buffers;
  /// Invocation workspace buffers by record id: one per launch, shared by
  /// every program (handles are -(id + 1)).
  std::map<int64_t, std::vector<Scalar>> workspace;
  /// Race detection: element address -> (writer pid, reader pid or -2).
  struct Touch {
    int64_t writer = -1, reader = -1;
    int64_t atomic = -1; ///< program of the atomics, -2: several
  };
  std::unordered_map<uintptr_t, Touch> touched;
  /// grid_reduce state across the programs of one run: the partial of each
  /// program that arrived, and how many arrived (the invocation workspace).
  struct GridState {
    std::map<int64_t, std::vector<Scalar>> partials;
    int64_t arrived = 0;
  };
  std::map<unsigned, GridState> grids;

  bool fail(const Op &op, const std::string &msg) {
    result.ok = false;
    result.error = "program " + std::to_string(pid) + ", op " +
                   std::to_string(op.id) + " (" +
                   phys::opcodeName(op.opcode).str() + "): " + msg;
    return false;
  }

  Scalar get(const phys::Value *v) { return env.lookup(v); }

  bool execBlock(const phys::Block &b, Flow &flow) {
    for (const auto &op : b.ops) {
      if (++opsExecuted > opts.maxOps)
        return fail(*op, "operation limit exceeded (non-terminating loop?)");
      if (phys::isTerminator(op->opcode)) {
        flow.kind = op->opcode;
        flow.values.clear();
        for (const phys::Value *v : op->operands)
          flow.values.push_back(get(v));
        return true;
      }
      if (!execOp(*op, flow))
        return false;
      if (flow.kind == Opcode::Break || flow.kind == Opcode::Continue)
        return true; // propagating out of an if
    }
    return true;
  }

  bool execRegion(const phys::Region &r, const std::vector<Scalar> &argsIn,
                  Flow &flow) {
    for (unsigned i = 0; i < r.block.args.size(); ++i)
      env[r.block.args[i]] = argsIn[i];
    flow = Flow();
    return execBlock(r.block, flow);
  }

  void bind(const Op &op, const std::vector<Scalar> &vals) {
    for (unsigned i = 0; i < op.results.size(); ++i)
      env[op.results[i]] = vals[i];
  }

  /// The serial semantics of intent/atomic.hpp on the element `read`
  /// returns and `write` replaces.
  template <class Read, class Write>
  bool atomicUpdate(const Op &op, Read read, Write write) {
    Scalar old = read();
    env[op.result(0)] = old;
    if (op.opcode == Opcode::AtomicCas) {
      bool hit = sameBits(old, get(op.operands[1]));
      if (hit)
        write(get(op.operands[2]));
      env[op.result(1)] = Scalar::ofBool(hit);
      return true;
    }
    Scalar updated;
    std::string err;
    if (!evalAtomic(op.strAttr("kind"), old, get(op.operands[1]), updated, err))
      return fail(op, err);
    write(updated);
    return true;
  }

  bool access(const Op &op, Flow &) {
    bool atomic = phys::isAtomic(op.opcode);
    bool isStore = op.opcode == Opcode::Store;
    if (const phys::Value *g = op.guard())
      if (!get(g).truthy()) {
        for (unsigned i = 0; i < op.results.size(); ++i)
          env[op.result(i)] = Scalar::ofInt(op.result(i)->type.elem, 0);
        return true;
      }
    llvm::ArrayRef<phys::Value *> cs = op.coords();
    int64_t c[8];
    for (unsigned i = 0; i < cs.size(); ++i)
      c[i] = get(cs[i]).i;
    const phys::Value *mem = op.memory();
    void *addr;
    if (mem->type.isBuffer()) {
      int64_t h = get(mem).i;
      std::vector<Scalar> &buf = h >= 0 ? buffers[h] : workspace[-h - 1];
      if (c[0] < 0 || c[0] >= static_cast<int64_t>(buf.size()))
        return fail(op, "buffer index out of bounds");
      if (atomic)
        return atomicUpdate(op, [&] { return buf[c[0]]; },
                            [&](Scalar v) { buf[c[0]] = v; });
      if (h < 0 && opts.detectRaces) {
        // A workspace element is owned by one program (unique slices).
        Touch &t = touched[reinterpret_cast<uintptr_t>(&buf[c[0]])];
        bool race = (t.writer >= 0 && t.writer != pid) ||
                    (isStore && t.reader != -1 && t.reader != pid);
        if (race)
          return fail(op, std::string(isStore ? "write" : "read") +
                              " races on workspace buffer " +
                              p.buffers[-h - 1].name + "[" +
                              std::to_string(c[0]) + "]");
        if (isStore)
          t.writer = pid;
        else
          t.reader = t.reader == -1 || t.reader == pid ? pid : -2;
      }
      if (isStore)
        buf[c[0]] = get(op.storedValue());
      else
        env[op.result()] = buf[c[0]];
      return true;
    }
    const View &v = args[mem->argNo].view;
    if (opts.checkBounds && !v.inBounds(c)) {
      std::string s;
      for (unsigned i = 0; i < cs.size(); ++i)
        s += (i ? ", " : "") + std::to_string(c[i]);
      return fail(op, "access to " + p.params[mem->argNo].name + "(" + s +
                          ") out of bounds");
    }
    unsigned size = elemSize(v.elem);
    if (!size)
      return fail(op, "element type not supported by the interpreter");
    addr = static_cast<char *>(v.data) + v.offset(c) * size;
    if (opts.detectRaces) {
      Touch &t = touched[reinterpret_cast<uintptr_t>(addr)];
      // Atomics of different programs do not race with each other, only
      // with plain accesses of other programs.
      bool race = (t.writer >= 0 && t.writer != pid) ||
                  ((isStore || atomic) && t.reader != -1 && t.reader != pid) ||
                  (!atomic && t.atomic != -1 && t.atomic != pid);
      if (race) {
        std::string other =
            t.writer >= 0 && t.writer != pid
                ? "written by program " + std::to_string(t.writer)
            : !atomic && t.atomic != -1 && t.atomic != pid
                ? "updated atomically by another program"
            : t.reader >= 0 ? "read by program " + std::to_string(t.reader)
                            : "read by several programs";
        return fail(op, std::string(atomic ? "atomic" : isStore ? "write" : "read") + " races on " +
                            p.params[mem->argNo].name + ": the element was " +
                            other);
      }
      if (atomic)
        t.atomic = t.atomic == -1 || t.atomic == pid ? pid : -2;
      else if (isStore)
        t.writer = pid;
      else
        t.reader = t.reader == -1 || t.reader == pid ? pid : -2;
    }
    if (atomic)
      return atomicUpdate(op, [&] { return loadElem(addr, v.elem); },
                          [&](Scalar x) { storeElem(addr, x); });
    if (isStore)
      storeElem(addr, get(op.storedValue()));
    else
      env[op.result()] = loadElem(addr, v.elem);
    return true;
  }

  /// Runs a callback region; its yielded values land in `out`.
  bool call(const phys::Region &r, const std::vector<Scalar> &in,
            std::vector<Scalar> &out) {
    Flow f;
    if (!execRegion(r, in, f))
      return false;
    out = f.values;
    return true;
  }

  static std::vector<Scalar> concat(std::vector<Scalar> a,
                                    const std::vector<Scalar> &b) {
    a.insert(a.end(), b.begin(), b.end());
    return a;
  }

  /// reduce, scan, region_fold, region_scan (docs/physical-ir.md §5.5):
  /// acc = init; members k in order (reverse scans from end - 1 down);
  /// acc = combine(acc, value(k)); scans emit acc before (exclusive) or
  /// after (inclusive) the update; reduce yields acc, region_fold stores it.
  bool fold(const Op &op) {
    using phys::StructuredRegion;
    if (phys::chunkLength(op))
      return chunkedFold(op);
    bool region = phys::isRegionOp(op.opcode);
    bool isScan = op.opcode == Opcode::Scan || op.opcode == Opcode::RegionScan;
    Scalar r = region ? get(phys::regionIndex(op)) : Scalar();
    int64_t begin = get(phys::memberBegin(op)).i;
    int64_t end = get(phys::memberEnd(op)).i;
    std::vector<Scalar> acc;
    for (const phys::Value *v : phys::accInits(op))
      acc.push_back(get(v));
    bool reverse = isScan && op.strAttr("direction") == "reverse";
    bool exclusive = isScan && op.strAttr("kind") == "exclusive";
    auto idx = [](int64_t k) { return Scalar::ofInt(ScalarKind::I64, k); };
    std::vector<Scalar> x, emitted;
    for (int64_t step = 0, n = end > begin ? end - begin : 0; step < n;
         ++step) {
      int64_t k = reverse ? end - 1 - step : begin + step;
      std::vector<Scalar> at = region ? std::vector<Scalar>{r, idx(k)}
                                      : std::vector<Scalar>{idx(k)};
      if (isScan && exclusive &&
          !call(*op.regions[phys::OutRegion], concat(at, acc), emitted))
        return false;
      if (!call(*op.regions[phys::ValueRegion], at, x) ||
          !call(*op.regions[phys::CombineRegion], concat(acc, x), acc))
        return false;
      if (isScan && !exclusive &&
          !call(*op.regions[phys::OutRegion], concat(at, acc), emitted))
        return false;
    }
    if (op.opcode == Opcode::Reduce)
      bind(op, acc);
    if (op.opcode == Opcode::RegionFold)
      return call(*op.regions[phys::OutRegion], concat({r}, acc), emitted);
    if (op.opcode == Opcode::RegionScan)
      return call(*op.regions[phys::FinalRegion], concat({r}, acc), emitted);
    return true;
  }

  /// The identity of each accumulator component: the built-in combiner's,
  /// or (a user combine) the init operand.
  std::vector<Scalar> identities(const Op &op) {
    std::vector<Scalar> id;
    llvm::ArrayRef<phys::Value *> inits = phys::accInits(op);
    for (unsigned i = 0; i < op.acc.size(); ++i)
      id.push_back(op.acc[i].identity == phys::AccComponent::Identity::Value
                       ? constantOf(op.acc[i].value, op.acc[i].type.elem)
                       : get(inits[i]));
    return id;
  }

  /// A region_fold / region_scan with `chunk = C` (docs/physical-ir.md
  /// §5.5): the members, in scan order, split into chunks of C. Each chunk's
  /// summary folds its values from the identity; the incoming state of chunk
  /// c is init combined with the summaries of chunks 0..c-1 (the transition);
  /// a region_fold stores the state after the last chunk; a region_scan
  /// re-walks each chunk with a local prefix from the identity and emits
  /// apply(r, incoming, local), then runs final with the last state.
  bool chunkedFold(const Op &op) {
    bool isScan = op.opcode == Opcode::RegionScan;
    Scalar r = get(phys::regionIndex(op));
    int64_t begin = get(phys::memberBegin(op)).i;
    int64_t end = get(phys::memberEnd(op)).i;
    int64_t chunk = *phys::chunkLength(op);
    int64_t n = end > begin ? end - begin : 0;
    bool reverse = isScan && op.strAttr("direction") == "reverse";
    bool exclusive = isScan && op.strAttr("kind") == "exclusive";
    auto member = [&](int64_t step) {
      return Scalar::ofInt(ScalarKind::I64,
                           reverse ? end - 1 - step : begin + step);
    };
    std::vector<Scalar> state, id = identities(op), x, emitted;
    for (const phys::Value *v : phys::accInits(op))
      state.push_back(get(v));
    // Chunk summaries and the carried incoming state of every chunk.
    std::vector<std::vector<Scalar>> incoming;
    for (int64_t c0 = 0; c0 < n; c0 += chunk) {
      incoming.push_back(state);
      std::vector<Scalar> summary = id;
      for (int64_t s = c0; s < std::min(n, c0 + chunk); ++s)
        if (!call(*op.regions[phys::ValueRegion], {r, member(s)}, x) ||
            !call(*op.regions[phys::CombineRegion], concat(summary, x),
                  summary))
          return false;
      if (!call(*op.regions[phys::CombineRegion], concat(state, summary),
                state))
        return false;
    }
    if (!isScan)
      return call(*op.regions[phys::OutRegion], concat({r}, state), emitted);
    // Apply the incoming state to each chunk's local prefixes and emit.
    std::vector<Scalar> q;
    for (int64_t c0 = 0, c = 0; c0 < n; c0 += chunk, ++c) {
      std::vector<Scalar> local = id;
      for (int64_t s = c0; s < std::min(n, c0 + chunk); ++s) {
        Scalar k = member(s);
        if (!exclusive &&
            (!call(*op.regions[phys::ValueRegion], {r, k}, x) ||
             !call(*op.regions[phys::CombineRegion], concat(local, x), local)))
          return false;
        if (!call(*op.regions[phys::ApplyRegion],
                  concat(concat({r}, incoming[c]), local), q) ||
            !call(*op.regions[phys::OutRegion], concat({r, k}, q), emitted))
          return false;
        if (exclusive &&
            (!call(*op.regions[phys::ValueRegion], {r, k}, x) ||
             !call(*op.regions[phys::CombineRegion], concat(local, x), local)))
          return false;
      }
    }
    return call(*op.regions[phys::FinalRegion], concat({r}, state), emitted);
  }

  /// argmax / argmin exactly as include/intent/argreduce.hpp: NaN wins under
  /// propagate (first or last NaN per tie), is skipped under ignore; values
  /// compare with < and ==, so -0.0 and +0.0 tie.
  bool argReduce(const Op &op) {
    std::vector<Scalar> r;
    if (!argReduceMembers(op, [](int64_t) { return true; }, r))
      return false;
    bind(op, r);
    return true;
  }

  /// The arg-reduction over the members k in [begin, end) with take(k), in
  /// increasing order; `out` = (best, pos).
  template <class Take>
  bool argReduceMembers(const Op &op, Take take, std::vector<Scalar> &out) {
    bool isMax = op.strAttr("which") == "max";
    bool tieLast = op.strAttr("tie") == "last";
    bool ignoreNaN = op.strAttr("nan") == "ignore";
    ScalarKind t = op.result(0)->type.elem;
    Scalar best = constantOf(op.acc[0].value, t);
    int64_t pos = -1;
    bool bestIsNaN = false;
    int64_t begin = get(phys::memberBegin(op)).i;
    int64_t end = get(phys::memberEnd(op)).i;
    std::vector<Scalar> x;
    for (int64_t k = begin; k < end; ++k) {
      if (!take(k))
        continue;
      if (!call(*op.regions[phys::ValueRegion],
                {Scalar::ofInt(ScalarKind::I64, k)}, x))
        return false;
      const Scalar &v = x[0];
      if (v.isFloat() && std::isnan(v.f)) {
        if (ignoreNaN)
          continue;
        if (!bestIsNaN || tieLast) {
          best = v;
          pos = k;
        }
        bestIsNaN = true;
        continue;
      }
      if (bestIsNaN)
        continue;
      bool better = isMax ? evalCmp("lt", best, v).truthy()
                          : evalCmp("lt", v, best).truthy();
      bool equal = evalCmp("eq", v, best).truthy();
      if (pos < 0 || better || (equal && tieLast)) {
        best = v;
        pos = k;
      }
    }
    out = {best, Scalar::ofInt(ScalarKind::I64, pos)};
    return true;
  }

  /// Merges arg-reduce partial `b` into `a` by value, then position (exact
  /// in any order: the positions carry the tie and NaN rules).
  void argMerge(const Op &op, std::vector<Scalar> &a,
                const std::vector<Scalar> &b) {
    bool isMax = op.strAttr("which") == "max";
    bool tieLast = op.strAttr("tie") == "last";
    int64_t pa = a[1].i, pb = b[1].i;
    if (pb < 0)
      return;
    bool laterWins = tieLast ? pb > pa : pb < pa;
    bool take;
    if (pa < 0) {
      take = true;
    } else {
      bool na = a[0].isFloat() && std::isnan(a[0].f);
      bool nb = b[0].isFloat() && std::isnan(b[0].f);
      if (na || nb)
        take = nb && (!na || laterWins);
      else if (evalCmp("eq", a[0], b[0]).truthy())
        take = laterWins;
      else
        take = isMax ? evalCmp("lt", a[0], b[0]).truthy()
                     : evalCmp("lt", b[0], a[0]).truthy();
    }
    if (take)
      a = b;
  }

  /// grid_reduce (docs/passes.md): this program computes its partial of the
  /// cooperative reduction (members whose (k - begin) / (threads * vector)
  /// is local modulo count, folded from the identity in increasing order),
  /// arrives, and only the last arriving program folds the partials in
  /// program order and runs the rest of the region.
  bool gridReduce(const Op &op) {
    int64_t local = get(op.operands[0]).i, count = get(op.operands[1]).i;
    const Op *t = phys::gridReduceTarget(op);
    int64_t chunk = std::max<int64_t>(p.ctaThreads, 1) *
                    std::max<int64_t>(op.intAttr("vector", 1), 1);
    bool started = false;
    for (const auto &o : op.regions[0]->block.ops) {
      if (phys::isTerminator(o->opcode))
        break;
      if (o.get() != t) {
        Flow f;
        if (!execOp(*o, f))
          return false;
        continue;
      }
      started = true;
      int64_t begin = get(phys::memberBegin(*t)).i;
      auto mine = [&](int64_t k) {
        return ((k - begin) / chunk) % count == local;
      };
      std::vector<Scalar> part;
      if (t->opcode == Opcode::ArgReduce) {
        if (!argReduceMembers(*t, mine, part))
          return false;
      } else {
        for (unsigned c = 0; c < t->acc.size(); ++c)
          part.push_back(constantOf(t->acc[c].value, t->acc[c].type.elem));
        int64_t end = get(phys::memberEnd(*t)).i;
        std::vector<Scalar> x;
        for (int64_t k = begin; k < end; ++k) {
          if (!mine(k))
            continue;
          if (!call(*t->regions[phys::ValueRegion],
                    {Scalar::ofInt(ScalarKind::I64, k)}, x) ||
              !call(*t->regions[phys::CombineRegion], concat(part, x), part))
            return false;
        }
      }
      GridState &g = grids[op.id];
      if (g.partials.count(local))
        return fail(op, "program " + std::to_string(local) +
                            " arrived twice at the grid reduction");
      g.partials[local] = part;
      if (++g.arrived < count)
        return true; // not the last: the rest of the instance is not ours
      // Everything the other programs did happened before this point.
      touched.clear();
      std::vector<Scalar> acc;
      if (t->opcode == Opcode::ArgReduce) {
        acc = {constantOf(t->acc[0].value, t->result(0)->type.elem),
               Scalar::ofInt(ScalarKind::I64, -1)};
        for (const auto &[q, v] : g.partials)
          argMerge(*t, acc, v);
      } else {
        for (const phys::Value *v : phys::accInits(*t))
          acc.push_back(get(v));
        for (const auto &[q, v] : g.partials)
          if (!call(*t->regions[phys::CombineRegion], concat(acc, v), acc))
            return false;
      }
      g = GridState();
      bind(*t, acc);
    }
    if (!started)
      return fail(op, "grid_reduce without its reduction");
    return true;
  }

  static Scalar constantOf(const phys::AttrValue &a, ScalarKind k) {
    if (const auto *i = std::get_if<int64_t>(&a))
      return Scalar::ofInt(k, *i);
    if (const auto *d = std::get_if<double>(&a))
      return Scalar::ofFloat(k, *d);
    return Scalar::ofInt(k, 0);
  }

  bool execOp(const Op &op, Flow &flow) {
    std::string err;
    Scalar out;
    auto operand = [&](unsigned i) { return get(op.operands[i]); };
    switch (op.opcode) {
    case Opcode::ProgramId:
      env[op.result()] = Scalar::ofInt(ScalarKind::I64, pid);
      return true;
    case Opcode::LaunchValue: {
      std::optional<Scalar> v =
          evalLaunchExpr(p, op.intAttr("expr"), args, err);
      if (!v)
        return fail(op, err);
      env[op.result()] = *v;
      return true;
    }
    case Opcode::Segment: {
      int64_t off = operand(1).i, len = operand(2).i;
      if (pid < off || pid - off >= len)
        return true;
      Flow inner;
      return execRegion(*op.regions[0], {Scalar::ofInt(ScalarKind::I64, pid - off)},
                        inner);
    }
    case Opcode::Delinearize: {
      int64_t rem = operand(0).i;
      for (unsigned d = op.results.size(); d > 0; --d) {
        int64_t n = operand(d).i;
        if (n <= 0)
          return fail(op, "delinearize by a non-positive extent");
        env[op.results[d - 1]] = Scalar::ofInt(ScalarKind::I64, rem % n);
        rem /= n;
      }
      return true;
    }
    case Opcode::Constant: {
      ScalarKind k = op.result()->type.elem;
      const phys::AttrValue *a = op.attr("value");
      if (const auto *i = std::get_if<int64_t>(a))
        out = Scalar::ofInt(k, *i);
      else if (const auto *d = std::get_if<double>(a))
        out = Scalar::ofFloat(k, *d);
      else if (const auto *b = std::get_if<bool>(a))
        out = Scalar::ofInt(k, *b);
      env[op.result()] = out;
      return true;
    }
    case Opcode::Neg:
    case Opcode::BitNot:
    case Opcode::Not:
      if (!evalUnary(phys::opcodeName(op.opcode), operand(0), out, err))
        return fail(op, err);
      env[op.result()] = out;
      return true;
    case Opcode::Cmp:
      env[op.result()] = evalCmp(op.strAttr("pred"), operand(0), operand(1));
      return true;
    case Opcode::Select:
      env[op.result()] = operand(0).truthy() ? operand(1) : operand(2);
      return true;
    case Opcode::Cast:
      env[op.result()] = evalCast(operand(0), op.result()->type.elem);
      return true;
    case Opcode::Math: {
      std::vector<Scalar> as;
      for (unsigned i = 0; i < op.operands.size(); ++i)
        as.push_back(operand(i));
      if (!evalMath(op.strAttr("fn"), as, op.result()->type.elem, out, err))
        return fail(op, err);
      env[op.result()] = out;
      return true;
    }
    case Opcode::Rng:
      if (!evalRng(op.strAttr("fn"), operand(0), operand(1), operand(2), out))
        return fail(op, "unknown rng fn");
      env[op.result()] = out;
      return true;
    case Opcode::Print: {
      std::vector<Scalar> as;
      for (unsigned i = 0; i < op.operands.size(); ++i)
        as.push_back(operand(i));
      emitPrint(op.strAttr("format"), as);
      return true;
    }
    case Opcode::Extent:
    case Opcode::Stride: {
      const View &v = args[op.operands[0]->argNo].view;
      int64_t d = op.intAttr("dim");
      env[op.result()] = Scalar::ofInt(
          ScalarKind::I64, op.opcode == Opcode::Extent ? v.extents[d] : v.strides[d]);
      return true;
    }
    case Opcode::Alloc: {
      const phys::Buffer &b = p.buffers[op.intAttr("buffer")];
      Scalar init = Scalar::ofFloat(b.elem, b.init == phys::InitMode::Value
                                                ? b.initValue
                                                : 0);
      if (!kir::Type::scalar(b.elem).isFloat())
        init = Scalar::ofInt(b.elem, static_cast<int64_t>(
                                         b.init == phys::InitMode::Value ? b.initValue : 0));
      if (b.scope == phys::BufferScope::InvocationWorkspace) {
        // Allocated (and zero-filled if required) once per launch.
        int64_t id = op.intAttr("buffer");
        workspace.try_emplace(id, std::vector<Scalar>(b.size, init));
        env[op.result()] = Scalar::ofInt(ScalarKind::I64, -id - 1);
        return true;
      }
      buffers.push_back(std::vector<Scalar>(b.size, init));
      env[op.result()] = Scalar::ofInt(ScalarKind::I64, buffers.size() - 1);
      return true;
    }
    case Opcode::Load:
    case Opcode::Store:
    case Opcode::Atomic:
    case Opcode::AtomicCas:
      return access(op, flow);
    case Opcode::If: {
      Flow inner;
      if (!execRegion(*op.regions[operand(0).truthy() ? 0 : 1], {}, inner))
        return false;
      if (inner.kind == Opcode::Break || inner.kind == Opcode::Continue) {
        flow = inner;
        return true;
      }
      bind(op, inner.values);
      return true;
    }
    case Opcode::For: {
      int64_t lb = operand(0).i, ub = operand(1).i;
      for (int64_t iv = lb; iv < ub; ++iv) {
        Flow inner;
        if (!execRegion(*op.regions[0], {Scalar::ofInt(ScalarKind::I64, iv)}, inner))
          return false;
      }
      return true;
    }
    case Opcode::Loop: {
      std::vector<Scalar> carried;
      for (unsigned i = 0; i < op.operands.size(); ++i)
        carried.push_back(operand(i));
      bool testFirst = op.boolAttr("test_first", true);
      for (bool first = true;; first = false) {
        Flow f;
        if (testFirst || !first) {
          if (!execRegion(*op.regions[0], carried, f))
            return false;
          if (!f.values[0].truthy())
            break;
        }
        if (!execRegion(*op.regions[1], carried, f))
          return false;
        if (f.kind == Opcode::Break) {
          carried = f.values;
          break;
        }
        if (!execRegion(*op.regions[2], f.values, f))
          return false;
        carried = f.values;
      }
      bind(op, carried);
      return true;
    }
    case Opcode::Reduce:
    case Opcode::Scan:
    case Opcode::RegionFold:
    case Opcode::RegionScan:
      return fold(op);
    case Opcode::ArgReduce:
      return argReduce(op);
    case Opcode::GridReduce:
      return gridReduce(op);
    default: {
      if (!evalBinary(phys::opcodeName(op.opcode), operand(0), operand(1), out, err))
        return fail(op, err);
      env[op.result()] = out;
      return true;
    }
    }
  }
};

} // namespace

PhysRunResult interp::runProgram(const phys::Program &p,
                                 const std::vector<Arg> &args,
                                 const PhysRunOptions &opts) {
  PhysRunResult result;
  if (args.size() != p.params.size()) {
    result.ok = false;
    result.error = "expected " + std::to_string(p.params.size()) + " arguments";
    return result;
  }
  std::string err;
  std::optional<Scalar> total = evalLaunchExpr(p, p.total, args, err);
  if (!total) {
    result.ok = false;
    result.error = "launch: " + err;
    return result;
  }
  for (const phys::Segment &s : p.segments) {
    std::optional<Scalar> l = evalLaunchExpr(p, s.length, args, err);
    result.segmentLengths.push_back(l ? l->i : -1);
  }
  result.total = total->i;
  int64_t bs = std::max<int64_t>(opts.blockSize, 1);
  result.programs = (result.total + bs - 1) / bs * bs;
  std::vector<int64_t> order(result.programs);
  for (int64_t i = 0; i < result.programs; ++i)
    order[i] = i;
  if (opts.order == PhysRunOptions::Order::Reverse)
    std::reverse(order.begin(), order.end());
  else if (opts.order == PhysRunOptions::Order::Shuffled)
    std::shuffle(order.begin(), order.end(), std::mt19937_64(opts.seed));
  Machine m(p, args, opts, result);
  for (int64_t pid : order)
    if (!m.runProgram(pid))
      break;
  return result;
}
