//===- PhysInterpreter.cpp - Executes a physical program on the host -------===//

#include "Interpreter/PhysInterpreter.h"

#include "Physical/Structured.h"

#include "llvm/ADT/DenseMap.h"

#include <algorithm>
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
  };
  std::unordered_map<uintptr_t, Touch> touched;

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

  bool access(const Op &op, Flow &) {
    bool isStore = op.opcode == Opcode::Store;
    if (const phys::Value *g = op.guard())
      if (!get(g).truthy()) {
        if (!isStore)
          env[op.result()] = Scalar::ofInt(op.result()->type.elem, 0);
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
      bool race = (t.writer >= 0 && t.writer != pid) ||
                  (isStore && t.reader != -1 && t.reader != pid);
      if (race) {
        std::string other = t.writer >= 0 && t.writer != pid
                                ? "written by program " + std::to_string(t.writer)
                            : t.reader >= 0 ? "read by program " + std::to_string(t.reader)
                                            : "read by several programs";
        return fail(op, std::string(isStore ? "write" : "read") + " races on " +
                            p.params[mem->argNo].name + ": the element was " +
                            other);
      }
      if (isStore)
        t.writer = pid;
      else
        t.reader = t.reader == -1 || t.reader == pid ? pid : -2;
    }
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
    return true;
  }

  /// argmax / argmin exactly as include/intent/argreduce.hpp: NaN wins under
  /// propagate (first or last NaN per tie), is skipped under ignore; values
  /// compare with < and ==, so -0.0 and +0.0 tie.
  bool argReduce(const Op &op) {
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
    bind(op, {best, Scalar::ofInt(ScalarKind::I64, pos)});
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
