//===- KIRInterpreter.cpp - Reference semantics straight from KIR ----------===//

#include "Interpreter/KIRInterpreter.h"

#include "KIR/Atomic.h"
#include "KIR/Contract.h"

#include "llvm/ADT/DenseMap.h"

#include <algorithm>
#include <cmath>
#include <deque>

using namespace intent;
using namespace intent::interp;
using kir::Op;
using kir::Opcode;

namespace {

/// A runtime value: a scalar or a view.
struct RtValue {
  bool isView = false;
  Scalar s;
  View v;
};

struct Flow {
  Opcode kind = Opcode::Yield;
  std::vector<RtValue> values;
};

class Machine {
public:
  Machine(const kir::Kernel &k, int64_t maxOps, KIRRunResult &r)
      : k(k), maxOps(maxOps), result(r) {}

  void run(const std::vector<Arg> &args) {
    for (unsigned i = 0; i < args.size(); ++i) {
      RtValue v;
      v.isView = args[i].isView;
      v.v = args[i].view;
      v.s = args[i].scalar;
      env[k.param(i)] = v;
    }
    Flow f;
    execBlock(k.body->block, f);
  }

private:
  const kir::Kernel &k;
  int64_t maxOps, executed = 0;
  KIRRunResult &result;
  llvm::DenseMap<const kir::Value *, RtValue> env;
  /// Storage of every buffer allocation instance (alloc), alive until the
  /// run ends.
  std::deque<std::vector<char>> buffers;

  /// A fresh allocation instance: `value` fills every element, an
  /// uninitialized buffer reads as zero here (the author must write first).
  bool alloc(const Op &op) {
    kir::ScalarKind elem = op.result()->type.elem;
    int64_t n = op.intAttr("size");
    unsigned size = elemSize(elem);
    if (n <= 0 || !size)
      return fail(op, "bad buffer size or element type");
    buffers.emplace_back(static_cast<size_t>(n) * size, 0);
    char *data = buffers.back().data();
    if (op.strAttr("init") == "value") {
      Scalar v = kir::Type::scalar(elem).isFloat()
                     ? Scalar::ofFloat(elem, op.floatAttr("value"))
                     : Scalar::ofInt(elem, op.intAttr("value"));
      for (int64_t i = 0; i < n; ++i)
        storeElem(data + i * size, v);
    }
    RtValue r;
    r.isView = true;
    r.v = View::contiguous(data, elem, {n});
    env[op.result()] = r;
    return true;
  }

  bool fail(const Op &op, const std::string &msg) {
    result.ok = false;
    result.error = "op " + std::to_string(op.id) + " (" +
                   kir::opcodeName(op.opcode).str() + "): " + msg;
    return false;
  }

  Scalar sc(const kir::Value *v) { return env[v].s; }
  void set(const kir::Value *v, Scalar s) {
    RtValue r;
    r.s = s;
    env[v] = r;
  }

  bool execBlock(const kir::Block &b, Flow &flow) {
    for (const auto &op : b.ops) {
      if (++executed > maxOps)
        return fail(*op, "operation limit exceeded");
      if (kir::isTerminator(op->opcode)) {
        flow.kind = op->opcode;
        flow.values.clear();
        for (const kir::Value *v : op->operands)
          flow.values.push_back(env[v]);
        return true;
      }
      if (!execOp(*op, flow))
        return false;
      if (flow.kind == Opcode::Break || flow.kind == Opcode::Continue)
        return true;
    }
    return true;
  }

  bool execRegion(const kir::Region &r, const std::vector<RtValue> &in,
                  Flow &flow) {
    for (unsigned i = 0; i < r.block.args.size(); ++i)
      env[r.block.args[i]] = in[i];
    flow = Flow();
    return execBlock(r.block, flow);
  }

  bool subview(const Op &op) {
    View base = env[op.operands[0]].v;
    View r = base;
    std::string kind = op.strAttr("kind");
    unsigned size = elemSize(base.elem);
    auto arg = [&](unsigned i) { return sc(op.operands[i]).i; };
    if (kind == "row") {
      r.rank = base.rank - 1;
      r.data = static_cast<char *>(base.data) + arg(1) * base.strides[0] * size;
      for (int d = 0; d < r.rank; ++d) {
        r.extents[d] = base.extents[d + 1];
        r.strides[d] = base.strides[d + 1];
      }
    } else if (kind == "slice") {
      int d = op.intAttr("dim");
      r.data = static_cast<char *>(base.data) + arg(1) * base.strides[d] * size;
      r.extents[d] = arg(2) - arg(1);
    } else if (kind == "transpose") {
      int d0 = op.intAttr("dim0"), d1 = op.intAttr("dim1");
      std::swap(r.extents[d0], r.extents[d1]);
      std::swap(r.strides[d0], r.strides[d1]);
    } else if (kind == "broadcast") {
      int dim = op.intAttr("dim");
      r.rank = base.rank + 1;
      for (int d = 0, s = 0; d < r.rank; ++d) {
        if (d == dim) {
          r.extents[d] = arg(1);
          r.strides[d] = 0;
          continue;
        }
        r.extents[d] = base.extents[s];
        r.strides[d] = base.strides[s++];
      }
    } else if (kind == "expand") {
      int d = op.intAttr("dim");
      r.extents[d] = arg(1);
      r.strides[d] = 0;
    } else if (kind == "reshape") {
      std::vector<int64_t> ext;
      for (unsigned i = 1; i < op.operands.size(); ++i)
        ext.push_back(arg(i));
      r = View::contiguous(base.data, base.elem, ext);
    } else {
      return fail(op, "unknown subview kind '" + kind + "'");
    }
    RtValue v;
    v.isView = true;
    v.v = r;
    env[op.result()] = v;
    return true;
  }

  bool access(const Op &op) {
    const View v = env[op.operands[0]].v; // a copy: env may grow
    bool isStore = op.opcode == Opcode::Store;
    bool atomic = kir::isAtomic(op.opcode);
    int64_t c[8];
    unsigned first =
        atomic ? 1 + kir::atomicValueCount(op.opcode) : isStore ? 2 : 1;
    for (unsigned i = first; i < op.operands.size(); ++i)
      c[i - first] = sc(op.operands[i]).i;
    if (!v.inBounds(c))
      return fail(op, "access out of bounds");
    unsigned size = elemSize(v.elem);
    if (!size)
      return fail(op, "element type not supported by the interpreter");
    void *addr = static_cast<char *>(v.data) + v.offset(c) * size;
    if (atomic)
      return atomicUpdate(op, addr, v.elem);
    if (isStore)
      storeElem(addr, sc(op.operands[1]));
    else
      set(op.result(), loadElem(addr, v.elem));
    return true;
  }

  /// The serial matmul of intent/matmul.hpp: for every (b,) i, j in
  /// row-major order, k ascending, accumulate in Acc, store T(sum).
  bool contract(const Op &op) {
    const View c = env[op.operands[0]].v, a = env[op.operands[1]].v,
               bv = env[op.operands[2]].v;
    const int r = c.rank;
    const ScalarKind acc = kir::contractAccumulator(c.elem);
    const unsigned size = elemSize(c.elem);
    if (!size)
      return fail(op, "element type not supported by the interpreter");
    const int64_t batches = r == 3 ? c.extents[0] : 1;
    const int64_t n = c.extents[r - 2], m = c.extents[r - 1],
                  kn = a.extents[r - 1];
    std::string err;
    for (int64_t bb = 0; bb < batches; ++bb)
      for (int64_t i = 0; i < n; ++i)
        for (int64_t j = 0; j < m; ++j) {
          Scalar s = acc == ScalarKind::F32 || acc == ScalarKind::F64
                         ? Scalar::ofFloat(acc, 0.0)
                         : Scalar::ofInt(acc, 0);
          for (int64_t k = 0; k < kn; ++k) {
            int64_t ca[3], cb[3];
            int d = 0;
            if (r == 3)
              ca[d] = cb[d] = bb, ++d;
            ca[d] = i, ca[d + 1] = k;
            cb[d] = k, cb[d + 1] = j;
            if (!a.inBounds(ca) || !bv.inBounds(cb))
              return fail(op, "access out of bounds");
            Scalar x = evalCast(loadElem(static_cast<char *>(a.data) +
                                             a.offset(ca) * size,
                                         a.elem),
                                acc);
            Scalar y = evalCast(loadElem(static_cast<char *>(bv.data) +
                                             bv.offset(cb) * size,
                                         bv.elem),
                                acc);
            Scalar p;
            if (!evalBinary("mul", x, y, p, err) ||
                !evalBinary("add", s, p, s, err))
              return fail(op, err);
          }
          int64_t cc[3];
          int d = 0;
          if (r == 3)
            cc[d++] = bb;
          cc[d] = i, cc[d + 1] = j;
          if (!c.inBounds(cc))
            return fail(op, "access out of bounds");
          storeElem(static_cast<char *>(c.data) + c.offset(cc) * size,
                    evalCast(s, c.elem));
        }
    return true;
  }

  /// The serial semantics of intent/atomic.hpp.
  bool atomicUpdate(const Op &op, void *addr, ScalarKind elem) {
    Scalar old = loadElem(addr, elem);
    set(op.result(0), old);
    if (op.opcode == Opcode::AtomicCas) {
      bool hit = sameBits(old, sc(op.operands[1]));
      if (hit)
        storeElem(addr, sc(op.operands[2]));
      set(op.result(1), Scalar::ofBool(hit));
      return true;
    }
    Scalar updated;
    std::string err;
    if (!evalAtomic(op.strAttr("kind"), old, sc(op.operands[1]), updated, err))
      return fail(op, err);
    storeElem(addr, updated);
    return true;
  }

  bool parallelFor(const Op &op) {
    std::vector<int64_t> n;
    for (const kir::Value *e : op.operands)
      n.push_back(sc(e).i);
    int64_t count = 1;
    for (int64_t x : n)
      count *= std::max<int64_t>(x, 0);
    for (int64_t lin = 0; lin < count; ++lin) {
      std::vector<RtValue> idx(n.size());
      int64_t rem = lin;
      for (unsigned d = n.size(); d > 0; --d) {
        idx[d - 1].s = Scalar::ofInt(kir::ScalarKind::I64, rem % n[d - 1]);
        rem /= n[d - 1];
      }
      Flow f;
      if (!execRegion(*op.regions[0], idx, f))
        return false;
    }
    return true;
  }

  /// Runs a callback region with scalar arguments; returns its yields.
  bool callback(const kir::Region &r, const std::vector<Scalar> &in,
                std::vector<Scalar> &out) {
    std::vector<RtValue> args(in.size());
    for (unsigned i = 0; i < in.size(); ++i)
      args[i].s = in[i];
    Flow f;
    if (!execRegion(r, args, f))
      return false;
    out.clear();
    for (const RtValue &v : f.values)
      out.push_back(v.s);
    return true;
  }

  static Scalar index(int64_t v) { return Scalar::ofInt(kir::ScalarKind::I64, v); }

  /// The header's scan over [begin, end) (include/intent/reduce.hpp), with
  /// `lead` (the region index of a region_scan) prepended to the value and
  /// emit arguments.
  bool scanRange(const Op &op, int64_t begin, int64_t end,
                 std::vector<Scalar> acc, const std::vector<Scalar> &lead) {
    bool exclusive = op.strAttr("kind") == "exclusive";
    bool reverse = op.strAttr("direction") == "reverse";
    std::vector<Scalar> x, pair, none;
    for (int64_t step = 0, n = std::max<int64_t>(end - begin, 0); step < n;
         ++step) {
      int64_t k = reverse ? end - 1 - step : begin + step;
      std::vector<Scalar> at = lead;
      at.push_back(index(k));
      std::vector<Scalar> emitArgs = at;
      if (exclusive) {
        emitArgs.insert(emitArgs.end(), acc.begin(), acc.end());
        if (!callback(*op.regions[2], emitArgs, none))
          return false;
      }
      if (!callback(*op.regions[0], at, x))
        return false;
      pair = acc;
      pair.insert(pair.end(), x.begin(), x.end());
      if (!callback(*op.regions[1], pair, acc))
        return false;
      if (!exclusive) {
        emitArgs.insert(emitArgs.end(), acc.begin(), acc.end());
        if (!callback(*op.regions[2], emitArgs, none))
          return false;
      }
    }
    return true;
  }

  /// The header's reduce over [begin, end): acc = combine(acc, value(k)).
  bool reduceRange(const Op &op, int64_t begin, int64_t end,
                   std::vector<Scalar> &acc, const std::vector<Scalar> &lead) {
    std::vector<Scalar> x, pair;
    for (int64_t k = begin; k < end; ++k) {
      std::vector<Scalar> at = lead;
      at.push_back(index(k));
      if (!callback(*op.regions[0], at, x))
        return false;
      pair = acc;
      pair.insert(pair.end(), x.begin(), x.end());
      if (!callback(*op.regions[1], pair, acc))
        return false;
    }
    return true;
  }

  std::vector<Scalar> inits(const Op &op) {
    std::vector<Scalar> acc;
    for (const kir::Value *v : kir::accumulatorInits(op))
      acc.push_back(sc(v));
    return acc;
  }

  /// region_fold / region_scan: regions r of the offsets view, in order.
  bool regionOp(const Op &op) {
    // A copy: the callbacks below add values to env, which may rehash it.
    const View off = env[op.operands[0]].v;
    int64_t n = off.extents[0] > 0 ? off.extents[0] - 1 : 0;
    for (int64_t r = 0; r < n; ++r) {
      int64_t c0[1] = {r}, c1[1] = {r + 1};
      unsigned size = elemSize(off.elem);
      const char *base = static_cast<const char *>(off.data);
      int64_t begin = loadElem(base + off.offset(c0) * size, off.elem).i;
      int64_t end = loadElem(base + off.offset(c1) * size, off.elem).i;
      if (begin > end)
        return fail(op, "region offsets must be non-decreasing");
      std::vector<Scalar> acc = inits(op), none;
      if (op.opcode == Opcode::RegionScan) {
        if (!scanRange(op, begin, end, acc, {index(r)}))
          return false;
        continue;
      }
      if (!reduceRange(op, begin, end, acc, {index(r)}))
        return false;
      std::vector<Scalar> storeArgs{index(r)};
      storeArgs.insert(storeArgs.end(), acc.begin(), acc.end());
      if (!callback(*op.regions[2], storeArgs, none))
        return false;
    }
    return true;
  }

  /// intent::argmax / argmin (include/intent/argreduce.hpp).
  bool argReduce(const Op &op) {
    bool isMax = op.strAttr("which") == "max";
    bool last = op.strAttr("tie") == "last";
    bool ignore = op.strAttr("nan") == "ignore";
    kir::ScalarKind t = op.result(0)->type.elem;
    bool fp = kir::Type::scalar(t).isFloat();
    Scalar best;
    if (fp) {
      best = Scalar::ofFloat(t, isMax ? -INFINITY : INFINITY);
    } else {
      // lowest / highest through the type's own wrap-around.
      unsigned w = kir::Type::scalar(t).bitWidth();
      bool sgn = kir::Type::scalar(t).isSigned();
      uint64_t top = t == kir::ScalarKind::Bool ? 1
                     : w == 64 ? ~uint64_t(0) >> (sgn ? 1 : 0)
                               : (uint64_t(1) << (sgn ? w - 1 : w)) - 1;
      int64_t hi = static_cast<int64_t>(top);
      int64_t lo = sgn ? -hi - 1 : 0;
      best = Scalar::ofInt(t, isMax ? lo : hi);
    }
    int64_t pos = -1;
    bool bestNaN = false;
    std::vector<Scalar> x;
    for (int64_t k = sc(op.operands[0]).i, e = sc(op.operands[1]).i; k < e;
         ++k) {
      if (!callback(*op.regions[0], {index(k)}, x))
        return false;
      Scalar v = x[0];
      if (v.isFloat() && v.f != v.f) {
        if (!ignore) {
          if (!bestNaN || last) {
            best = v;
            pos = k;
          }
          bestNaN = true;
        }
        continue;
      }
      if (bestNaN)
        continue;
      double a = v.asDouble(), b = best.asDouble();
      bool better = fp ? (isMax ? b < a : a < b)
                       : (isMax ? evalCmp("lt", best, v) : evalCmp("lt", v, best)).truthy();
      bool equal = fp ? a == b : evalCmp("eq", v, best).truthy();
      if (pos < 0 || better || (equal && last)) {
        best = v;
        pos = k;
      }
    }
    set(op.result(0), best);
    set(op.result(1), index(pos));
    return true;
  }

  bool execOp(const Op &op, Flow &flow) {
    std::string err;
    Scalar out;
    auto operand = [&](unsigned i) { return sc(op.operands[i]); };
    switch (op.opcode) {
    case Opcode::Constant: {
      kir::ScalarKind kind = op.result()->type.elem;
      const kir::AttrValue *a = op.attr("value");
      if (const auto *i = std::get_if<int64_t>(a))
        out = Scalar::ofInt(kind, *i);
      else if (const auto *d = std::get_if<double>(a))
        out = Scalar::ofFloat(kind, *d);
      else if (const auto *b = std::get_if<bool>(a))
        out = Scalar::ofInt(kind, *b);
      set(op.result(), out);
      return true;
    }
    case Opcode::Neg:
    case Opcode::BitNot:
    case Opcode::Not:
      if (!evalUnary(kir::opcodeName(op.opcode), operand(0), out, err))
        return fail(op, err);
      set(op.result(), out);
      return true;
    case Opcode::Cmp:
      set(op.result(), evalCmp(op.strAttr("pred"), operand(0), operand(1)));
      return true;
    case Opcode::Select:
      env[op.result()] = operand(0).truthy() ? env[op.operands[1]] : env[op.operands[2]];
      return true;
    case Opcode::Cast:
      set(op.result(), evalCast(operand(0), op.result()->type.elem));
      return true;
    case Opcode::Math: {
      std::vector<Scalar> as;
      for (unsigned i = 0; i < op.operands.size(); ++i)
        as.push_back(operand(i));
      if (!evalMath(op.strAttr("fn"), as, op.result()->type.elem, out, err))
        return fail(op, err);
      set(op.result(), out);
      return true;
    }
    case Opcode::Rng:
      if (!evalRng(op.strAttr("fn"), operand(0), operand(1), operand(2), out))
        return fail(op, "unknown rng fn");
      set(op.result(), out);
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
      const View v = env[op.operands[0]].v; // a copy: env may grow
      int64_t d = op.intAttr("dim");
      set(op.result(), Scalar::ofInt(kir::ScalarKind::I64,
                                     op.opcode == Opcode::Extent ? v.extents[d]
                                                                 : v.strides[d]));
      return true;
    }
    case Opcode::SubView:
      return subview(op);
    case Opcode::Alloc:
      return alloc(op);
    case Opcode::Contract:
      return contract(op);
    case Opcode::Load:
    case Opcode::Store:
    case Opcode::Atomic:
    case Opcode::AtomicCas:
      return access(op);
    case Opcode::ParallelFor:
      return parallelFor(op);
    case Opcode::Reduce: {
      std::vector<Scalar> acc = inits(op);
      if (!reduceRange(op, sc(op.operands[0]).i, sc(op.operands[1]).i, acc, {}))
        return false;
      for (unsigned i = 0; i < op.results.size(); ++i)
        set(op.results[i], acc[i]);
      return true;
    }
    case Opcode::Scan:
      return scanRange(op, sc(op.operands[0]).i, sc(op.operands[1]).i,
                       inits(op), {});
    case Opcode::ArgReduce:
      return argReduce(op);
    case Opcode::RegionFold:
    case Opcode::RegionScan:
      return regionOp(op);
    case Opcode::If: {
      Flow inner;
      if (!execRegion(*op.regions[operand(0).truthy() ? 0 : 1], {}, inner))
        return false;
      if (inner.kind == Opcode::Break || inner.kind == Opcode::Continue) {
        flow = inner;
        return true;
      }
      for (unsigned i = 0; i < op.results.size(); ++i)
        env[op.results[i]] = inner.values[i];
      return true;
    }
    case Opcode::Loop: {
      std::vector<RtValue> carried;
      for (const kir::Value *v : op.operands)
        carried.push_back(env[v]);
      bool testFirst = op.boolAttr("test_first", true);
      for (bool first = true;; first = false) {
        Flow f;
        if (testFirst || !first) {
          if (!execRegion(*op.regions[0], carried, f))
            return false;
          if (!f.values[0].s.truthy())
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
      for (unsigned i = 0; i < op.results.size(); ++i)
        env[op.results[i]] = carried[i];
      return true;
    }
    default:
      if (op.operands.size() != 2)
        return fail(op, "not supported by the KIR interpreter");
      if (!evalBinary(kir::opcodeName(op.opcode), operand(0), operand(1), out, err))
        return fail(op, err);
      set(op.result(), out);
      return true;
    }
  }
};

} // namespace

KIRRunResult interp::runKernel(const kir::Kernel &k, const std::vector<Arg> &args,
                               int64_t maxOps) {
  KIRRunResult r;
  if (args.size() != k.params.size()) {
    r.ok = false;
    r.error = "expected " + std::to_string(k.params.size()) + " arguments";
    return r;
  }
  Machine(k, maxOps, r).run(args);
  return r;
}
