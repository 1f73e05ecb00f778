//===- EmitGridReduce.cpp - grid_reduce -> cooperative CUDA C++ ------------===//
//
// A grid_reduce (docs/passes.md) in a program of exec scope cta, written
// with the cooperative helpers of intent/runtime/coop.hpp only (cta_thread,
// lane, warp_shfl_xor, cta_shared, cta_barrier, ...; /work COOP_API):
//
//   <ops before the reduction>                        (every thread)
//   acc = identity
//   for (i = (local * T + thread) * V; i < n; i += count * T * V)
//     [vector path: one load_vec<V> per streamed load when every streamed
//      view has unit stride and an aligned base; else V scalar steps]
//     acc = combine(acc, value(begin + i + j))        j = 0..V-1, in order
//     [arg-reductions: lane j's own accumulator on the vector path, the
//      V lanes folded into acc after the loop; there, 4 steps per
//      iteration, their 4 vector loads issued before any merge]
//   acc = warp tree (shuffle xor 16..1) -> shared[warp] -> warp 0 tree
//   thread 0: workspace[1 + c * M + local] = acc; ticket = atomic add
//             (acq_rel) on workspace[0]; shared flag = last arrival
//   if (last) {                                       (uniform per CTA)
//     acc = identity; thread t folds partials t, t + T, ... (zeroing them)
//     CTA tree as above
//     thread 0: result = combine(init, acc); workspace[0] = 0; <the rest>
//   }
//
// Arg-reductions merge (value, position) pairs by value, then position
// (the tie rule), NaN first under nan = propagate, skipped under ignore:
// exact in any combine order.
//
//===----------------------------------------------------------------------===//

#include "Emit/ProgramEmitter.h"

#include "Physical/Coop.h"
#include "Physical/Structured.h"

#include "llvm/Support/ErrorHandling.h"

using namespace intent;
using namespace intent::phys;
using namespace intent::emit::detail;

namespace {

const char *const kRt = "::intent::rt::";

unsigned kindBytes(ScalarKind k) {
  return kir::Type::scalar(k).bitWidth() / 8;
}

} // namespace

void ProgramEmitter::emitGridReduce(const Op &op, const std::string &pid) {
  const Op *t = gridReduceTarget(op);
  if (!t)
    llvm::report_fatal_error("CUDA emitter: grid_reduce without its reduction");
  const bool arg = t->opcode == Opcode::ArgReduce;
  const std::string id = std::to_string(op.id);
  const int64_t threads = p.ctaThreads;
  const int64_t vec = op.intAttr("vector", 1);
  const int64_t maxPrograms = op.intAttr("max_programs", 1);
  const std::string ws = "gw" + id, local = "gl" + id, count = "gc" + id;

  // Component types and identities.
  std::vector<Type> types;
  std::vector<std::string> identity;
  accComponents(*t, types, identity); // built-in combines: literal identities
  const unsigned nc = types.size();
  auto names = [&](const std::string &prefix) {
    return componentNames(prefix, id, nc);
  };
  const std::vector<std::string> acc = names("ga");

  // The accumulator an arg-merge updates: acc, or one lane accumulator of
  // the vector path (see lanes below).
  std::vector<std::string> target = acc;
  // acc = combine(acc, other): the combine region, or the arg-merge
  // (`increasing`: other's position follows target's, see emitArgMerge).
  auto combineInto = [&](const std::vector<std::string> &other,
                         bool increasing = false) {
    emitCombineInto(*t, target, other, pid, increasing);
  };
  // The CTA's threads combine their accumulators; thread 0 ends with all.
  auto ctaTree = [&](const std::string &tag) {
    std::vector<std::string> other = names("gx" + tag);
    auto warpTree = [&]() {
      open("for (int go = 16; go > 0; go >>= 1) {");
      for (unsigned c = 0; c < nc; ++c)
        line("const " + emit::cxxType(types[c]) + " " + other[c] + " = " +
             kRt + "warp_shfl_xor(" + acc[c] + ", go);");
      combineInto(other);
      close();
    };
    warpTree();
    open(std::string("if (") + kRt + "lane() == 0) {");
    for (unsigned c = 0; c < nc; ++c)
      line(kRt + std::string("cta_shared<") + emit::cxxType(types[c]) + ">(" +
           std::to_string(256 * c) + ")[" + kRt + "warp_in_cta()] = " +
           acc[c] + ";");
    close();
    line(kRt + std::string("cta_barrier();"));
    open(std::string("if (") + kRt + "warp_in_cta() == 0) {");
    for (unsigned c = 0; c < nc; ++c)
      line(acc[c] + " = " + kRt + "lane() < " + kRt + "cta_size() / 32 ? " +
           kRt + "cta_shared<" + emit::cxxType(types[c]) + ">(" +
           std::to_string(256 * c) + ")[" + kRt + "lane()] : " + identity[c] +
           ";");
    warpTree();
    close();
  };
  auto slot = [&](unsigned c, const std::string &program) {
    return ws + "[1 + " + std::to_string(c * maxPrograms) + " + " + program +
           "]";
  };

  indent();
  os << "// grid_reduce: " << opcodeName(t->opcode) << " over " << "programs "
     << "of " << threads << " threads, " << vec << " members per step\n";
  open("{");
  line("uint64_t *const " + ws + " = static_cast<uint64_t *>(a.workspace);");
  line("const int64_t " + local + " = " + name(op.operands[0]) + ";");
  line("const int64_t " + count + " = " + name(op.operands[1]) + ";");
  const Block &body = op.region(0)->block;
  size_t at = 0;
  for (; at < body.ops.size() && body.ops[at].get() != t; ++at)
    emitOp(*body.ops[at], pid);

  // This program's partial.
  for (unsigned c = 0; c < nc; ++c)
    line(emit::cxxType(types[c]) + " " + acc[c] + " = " + identity[c] + ";");
  declareCallbackResults(*t, ValueRegion);
  if (!arg)
    declareCallbackResults(*t, CombineRegion);
  const std::string gb = "gb" + id, gn = "gn" + id, gi = "gi" + id,
                    gj = "gj" + id, k = "k" + id;
  const std::string begin = name(memberBegin(*t)), end = name(memberEnd(*t));
  line("const int64_t " + gb + " = " + begin + ";");
  line("const int64_t " + gn + " = " + end + " > " + begin + " ? " + end +
       " - " + begin + " : 0;");
  std::vector<const Op *> streamed = streamedLoads(*t);
  bool vectorPath = vec > 1 && !streamed.empty();
  if (vectorPath) {
    // Not under INTENT_CHECK=bounds: the scalar steps check each access.
    std::string ok = hostSerial ? "true" : uncheckedLaunch();
    for (const Op *l : streamed) {
      std::string v = name(l->memory());
      unsigned bytes = kindBytes(l->result()->type.elem) * vec;
      ok += " && " + v + ".stride(0) == 1 && " + kRt + "is_aligned(" + v +
            ".data() + " + gb + ", " + std::to_string(bytes) + ")";
    }
    line("const bool gvec" + id + " = " + ok + ";");
  }
  // Arg-reductions on the vector path keep one accumulator per vector lane
  // (gaN_cv[j] takes the members j, j + V, ... of the thread's stream), so
  // the V merges of one step are independent instead of one chain through
  // the tie and NaN logic; the lanes are folded into acc after the loop.
  // Exact: the arg-merge keeps the better of two (value, position) pairs
  // under one strict total order (NaN first under propagate, NaN never
  // under ignore; then by value; equal values, -0.0 == +0.0 included, by
  // position, first or last), and positions are distinct, so every merge
  // order of a set of pairs keeps that set's best pair, the one the serial
  // loop keeps. (Float sums are not regrouped this way: their rounding
  // would change with V.)
  //
  // On that path an arg-reduction also unrolls its stream by kArgUnroll: one
  // iteration loads the thread's next kArgUnroll vectors (members i, i + S,
  // ..., S = count * T * V apart, the same members in the same programs)
  // before merging any, so that many 16-byte loads are in flight per thread
  // while the merges run (vector u's lane j merges into lane accumulator j:
  // independent chains per lane, registers for only V of them). The remaining (fewer than kArgUnroll) steps take the loop
  // below. A sum keeps one vector per step: its members fold in stream order.
  const bool lanes = arg && vectorPath;
  const int64_t kArgUnroll = 4;
  const int64_t laneCount = lanes ? vec : 0;
  std::vector<std::string> laneAcc;
  if (lanes) {
    for (unsigned c = 0; c < nc; ++c) {
      laneAcc.push_back(acc[c] + "v");
      std::string init;
      for (int64_t j = 0; j < laneCount; ++j)
        init += (j ? ", " : "") + identity[c];
      line(emit::cxxType(types[c]) + " " + laneAcc[c] + "[" +
           std::to_string(laneCount) + "] = {" + init + "};");
    }
  }
  // One member: gi + offset + gj; vector u (-1: none) supplies the
  // streamed loads and, for arg-reductions, picks the lane accumulators.
  auto step = [&](bool vectorLoads, int64_t u = 0,
                  const std::string &offset = "") {
    line("const int64_t " + k + " = " + gb + " + " + gi + offset + " + " + gj +
         ";");
    const std::string sfx = u > 0 ? "_" + std::to_string(u) : "";
    if (vectorLoads)
      for (const Op *l : streamed)
        loadOverride[l] =
            "gv" + std::to_string(l->id) + sfx + "[" + gj + "]";
    emitRegion(*t->region(ValueRegion), {k}, pid);
    loadOverride.clear();
    if (arg) {
      const std::string slot = "[" + gj + "]";
      if (lanes && vectorLoads)
        target = {laneAcc[0] + slot, laneAcc[1] + slot};
      // Each accumulator (acc, or one vector lane's) receives its members
      // in increasing order: the merge needs no position comparison.
      combineInto(memberValue(*t, k), true);
      target = acc;
    } else {
      combineInto(memberValue(*t, k));
    }
  };
  // Vector u of an unrolled step (0: the only one): its loads, named gvL_u,
  // at gi + offset; then its V members, one step each.
  auto vectorLoads = [&](int64_t u, const std::string &offset) {
    for (const Op *l : streamed)
      line("const auto gv" + std::to_string(l->id) +
           (u > 0 ? "_" + std::to_string(u) : "") + " = " + kRt + "load_vec<" +
           std::to_string(vec) + ">(" + name(l->memory()) + ".data() + " + gb +
           " + " + gi + offset + ");");
  };
  auto vectorSteps = [&](int64_t u, const std::string &offset) {
    line("#pragma unroll");
    open("for (int " + gj + " = 0; " + gj + " < " + std::to_string(vec) +
         "; ++" + gj + ") {");
    step(true, u, offset);
    close();
  };
  const std::string stride = count + " * " + std::to_string(threads * vec);
  line("int64_t " + gi + " = (" + local + " * " + std::to_string(threads) +
       " + " + kRt + "cta_thread()) * " + std::to_string(vec) + ";");
  if (lanes) {
    const std::string gs = "gs" + id;
    line("const int64_t " + gs + " = " + stride + ";");
    open("if (gvec" + id + ") {");
    open("for (; " + gi + " + " + std::to_string(kArgUnroll - 1) + " * " +
         gs + " + " + std::to_string(vec) + " <= " + gn + "; " + gi + " += " +
         std::to_string(kArgUnroll) + " * " + gs + ") {");
    auto offset = [&](int64_t u) {
      return u > 0 ? " + " + std::to_string(u) + " * " + gs : std::string();
    };
    for (int64_t u = 0; u < kArgUnroll; ++u)
      vectorLoads(u, offset(u));
    for (int64_t u = 0; u < kArgUnroll; ++u)
      vectorSteps(u, offset(u));
    close();
    close();
  }
  open("for (; " + gi + " < " + gn + "; " + gi + " += " + stride + ") {");
  if (vectorPath) {
    open("if (gvec" + id + " && " + gi + " + " + std::to_string(vec) +
         " <= " + gn + ") {");
    vectorLoads(0, "");
    vectorSteps(0, "");
    close("} else {");
    ++depth;
  }
  open("for (int " + gj + " = 0; " + gj + " < " + std::to_string(vec) +
       " && " + gi + " + " + gj + " < " + gn + "; ++" + gj + ") {");
  step(false);
  close();
  if (vectorPath)
    close();
  close();
  for (int64_t j = 0; lanes && j < laneCount; ++j) {
    const std::string jj = "[" + std::to_string(j) + "]";
    open("{");
    combineInto({laneAcc[0] + jj, laneAcc[1] + jj});
    close();
  }

  // The CTA's partial, published; the last arrival continues.
  ctaTree("p");
  const std::string flag = kRt + std::string("cta_shared<int>(") +
                           std::to_string(256 * nc) + ")[0]";
  open(std::string("if (") + kRt + "cta_thread() == 0) {");
  for (unsigned c = 0; c < nc; ++c) {
    line("uint64_t gbits" + std::to_string(c) + " = 0;");
    line("__builtin_memcpy(&gbits" + std::to_string(c) + ", &" + acc[c] +
         ", sizeof(" + acc[c] + "));");
    line(slot(c, local) + " = gbits" + std::to_string(c) + ";");
  }
  line("const uint64_t gticket = " + std::string(kRt) + "atomic_add<" + kRt +
       "atomic_scope::gpu, ::intent::memory_order::acq_rel>(&" + ws +
       "[0], uint64_t(1));");
  line(flag + " = gticket + 1 == static_cast<uint64_t>(" + count + ") ? 1 : 0;");
  close();
  line(kRt + std::string("cta_barrier();"));
  open("if (" + flag + " != 0) {");
  for (unsigned c = 0; c < nc; ++c)
    line(acc[c] + " = " + identity[c] + ";");
  {
    std::vector<std::string> other = names("gq");
    open("for (int64_t gq = " + std::string(kRt) + "cta_thread(); gq < " +
         count + "; gq += " + kRt + "cta_size()) {");
    for (unsigned c = 0; c < nc; ++c) {
      line("const uint64_t gbits" + std::to_string(c) + " = " + kRt +
           "atomic_load<" + kRt + "atomic_scope::gpu>(&" + slot(c, "gq") +
           ");");
      line(slot(c, "gq") + " = 0;");
      line(emit::cxxType(types[c]) + " " + other[c] + ";");
      line("__builtin_memcpy(&" + other[c] + ", &gbits" + std::to_string(c) +
           ", sizeof(" + other[c] + "));");
    }
    combineInto(other);
    close();
  }
  ctaTree("f");
  open(std::string("if (") + kRt + "cta_thread() == 0) {");
  line(ws + "[0] = 0;");
  if (arg) {
    declare(t->result(0), acc[0]);
    declare(t->result(1), acc[1]);
  } else {
    // result = combine(init, all members).
    std::vector<std::string> pair;
    for (const Value *v : accInits(*t))
      pair.push_back(name(v));
    pair.insert(pair.end(), acc.begin(), acc.end());
    emitRegion(*t->region(CombineRegion), pair, pid);
    for (unsigned c = 0; c < nc; ++c)
      declare(t->result(c), callbackResult(*t, CombineRegion, c));
  }
  for (++at; at < body.ops.size(); ++at)
    emitOp(*body.ops[at], pid);
  close();
  close();
  // Shared memory is reused by the CTA's next program.
  line(kRt + std::string("cta_barrier();"));
  close();
}

void ProgramEmitter::accComponents(const Op &t, std::vector<Type> &types,
                                   std::vector<std::string> &identity) {
  types.clear();
  identity.clear();
  if (t.opcode == Opcode::ArgReduce) {
    types = {t.result(0)->type, Type::index()};
    identity = {literal(t.acc[0].value, types[0].elem), "INT64_C(-1)"};
    return;
  }
  llvm::ArrayRef<Value *> inits = accInits(t);
  for (unsigned c = 0; c < t.acc.size(); ++c) {
    types.push_back(t.acc[c].type);
    identity.push_back(t.acc[c].identity == AccComponent::Identity::Init
                           ? name(inits[c])
                           : literal(t.acc[c].value, t.acc[c].type.elem));
  }
}

std::vector<std::string>
ProgramEmitter::componentNames(const std::string &prefix, const std::string &id,
                               unsigned n) {
  std::vector<std::string> v;
  for (unsigned c = 0; c < n; ++c)
    v.push_back(prefix + id + "_" + std::to_string(c));
  return v;
}

void ProgramEmitter::emitCombineInto(const Op &t,
                                     const std::vector<std::string> &target,
                                     const std::vector<std::string> &other,
                                     const std::string &pid, bool increasing) {
  if (t.opcode == Opcode::ArgReduce) {
    emitArgMerge(t, target[0], target[1], other[0], other[1], increasing);
    return;
  }
  std::vector<std::string> pair = target;
  pair.insert(pair.end(), other.begin(), other.end());
  emitRegion(*t.region(CombineRegion), pair, pid);
  for (unsigned c = 0; c < target.size(); ++c)
    line(target[c] + " = " + callbackResult(t, CombineRegion, c) + ";");
}

std::vector<std::string> ProgramEmitter::memberValue(const Op &t,
                                                     const std::string &k) const {
  if (t.opcode == Opcode::ArgReduce)
    return {callbackResult(t, ValueRegion, 0), k};
  std::vector<std::string> x;
  for (unsigned c = 0; c < t.acc.size(); ++c)
    x.push_back(callbackResult(t, ValueRegion, c));
  return x;
}

void ProgramEmitter::emitArgMerge(const Op &t, const std::string &b,
                                  const std::string &q, const std::string &x,
                                  const std::string &k, bool increasing) {
  const bool fp = isFloatKind(t.result(0)->type.elem);
  const bool isMax = t.strAttr("which") == "max";
  const bool tieLast = t.strAttr("tie") == "last";
  const bool ignoreNaN = t.strAttr("nan") == "ignore";
  std::string cond = k + " >= 0";
  if (fp && ignoreNaN)
    cond += " && !(" + x + " != " + x + ")";
  open("if (" + cond + ") {");
  if (increasing) {
    // k comes after q: an equal value wins only under tie = last; a NaN x
    // beats a number and, under last, an earlier NaN.
    const std::string rel = tieLast ? " <= " : " < ";
    std::string better = isMax ? b + rel + x : x + rel + b;
    std::string take = better;
    if (fp) {
      line("const bool gna = " + b + " != " + b + ", gnb = " + x + " != " +
           x + ";");
      take = std::string("gnb ? ") + (tieLast ? "true" : "!gna") +
             " : (!gna && " + better + ")";
    }
    line("const bool gtake = " + q + " < 0 || (" + take + ");");
    line(b + " = gtake ? " + x + " : " + b + ";");
    line(q + " = gtake ? " + k + " : " + q + ";");
    close();
    return;
  }
  std::string later = tieLast ? k + " > " + q : k + " < " + q;
  std::string better = isMax ? b + " < " + x : x + " < " + b;
  line("bool gtake = " + q + " < 0;");
  open("if (!gtake) {");
  if (fp) {
    line("const bool gna = " + b + " != " + b + ", gnb = " + x + " != " + x +
         ";");
    line("if (gna || gnb) gtake = gnb && (!gna || " + later + ");");
    line("else if (" + x + " == " + b + ") gtake = " + later + ";");
  } else {
    line("if (" + x + " == " + b + ") gtake = " + later + ";");
  }
  line("else gtake = " + better + ";");
  close();
  open("if (gtake) {");
  line(b + " = " + x + ";");
  line(q + " = " + k + ";");
  close();
  close();
}
