//===- EmitStructured.cpp - Structured physical ops -> CUDA C++ ------------===//
//
// The initial, unblocked lowering of reduce, scan, argreduce, region_fold and
// region_scan (docs/physical-ir.md §5.5): one ordered loop over the members
// inside the program instance, exactly the header's serial semantics. Each
// callback region becomes a `{ }` block whose block arguments are bound to
// the loop's locals and whose `yield` assigns `y<op>_<region>_<k>`.
//
//   reduce / region_fold            scan / region_scan
//   T a0 = init0; ...               T a0 = init0; ...
//   for (k = begin; k < end; ++k) { for (s = 0, n = max(end - begin, 0); s < n; ++s) {
//     { value(k) }                    k = forward ? begin + s : end - 1 - s;
//     { combine(a..., y0...) }        [exclusive] { emit(k, a...) }
//     a = y1;                         { value(k) } { combine } a = y1;
//   }                                 [inclusive] { emit(k, a...) }
//   results = a / { store(r, a) }   }
//
//===----------------------------------------------------------------------===//

#include "Emit/ProgramEmitter.h"

#include "Physical/Structured.h"

#include <functional>

using namespace intent;
using namespace intent::phys;
using namespace intent::emit::detail;

std::string ProgramEmitter::callbackResult(const Op &op, unsigned region,
                                           unsigned k) {
  return "y" + std::to_string(op.id) + "_" + std::to_string(region) + "_" +
         std::to_string(k);
}

void ProgramEmitter::declareCallbackResults(const Op &op, unsigned region) {
  const Op *t = op.region(region)->block.terminator();
  for (unsigned k = 0; t && k < t->operands.size(); ++k) {
    indent();
    os << emit::cxxType(t->operands[k]->type) << " "
       << callbackResult(op, region, k) << "{};\n";
  }
}

void ProgramEmitter::emitFold(const Op &op, const std::string &pid) {
  if (chunkLength(op))
    return emitChunkedFold(op, pid);
  bool regionOp = isRegionOp(op.opcode);
  bool isScan = op.opcode == Opcode::Scan || op.opcode == Opcode::RegionScan;
  bool reverse = isScan && op.strAttr("direction") == "reverse";
  bool exclusive = isScan && op.strAttr("kind") == "exclusive";
  std::string id = std::to_string(op.id);
  std::string k = "k" + id;
  std::string begin = name(memberBegin(op)), end = name(memberEnd(op));

  indent();
  os << "// " << opcodeName(op.opcode) << " {combiner = \""
     << op.strAttr("combiner") << "\"";
  if (isScan)
    os << ", kind = \"" << op.strAttr("kind") << "\", direction = \""
       << op.strAttr("direction") << "\"";
  os << "}\n";
  std::vector<std::string> acc;
  llvm::ArrayRef<Value *> inits = accInits(op);
  for (unsigned i = 0; i < op.acc.size(); ++i) {
    acc.push_back("a" + id + "_" + std::to_string(i));
    indent();
    os << emit::cxxType(op.acc[i].type) << " " << acc.back() << " = "
       << name(inits[i]) << ";\n";
  }
  declareCallbackResults(op, ValueRegion);
  declareCallbackResults(op, CombineRegion);

  indent();
  if (isScan) {
    std::string s = "s" + id, n = "n" + id;
    os << "for (int64_t " << s << " = 0, " << n << " = " << end << " > "
       << begin << " ? " << end << " - " << begin << " : 0; " << s << " < "
       << n << "; ++" << s << ") {\n";
    ++depth;
    indent();
    os << "const int64_t " << k << " = "
       << (reverse ? end + " - 1 - " + s : begin + " + " + s) << ";\n";
  } else {
    os << "for (int64_t " << k << " = " << begin << "; " << k << " < " << end
       << "; ++" << k << ") {\n";
    ++depth;
  }
  // Callback arguments: (k) or (r, k), then the accumulator where needed.
  std::vector<std::string> at;
  if (regionOp)
    at.push_back(name(regionIndex(op)));
  at.push_back(k);
  std::vector<std::string> emitArgs = at;
  emitArgs.insert(emitArgs.end(), acc.begin(), acc.end());
  if (isScan && exclusive)
    emitRegion(*op.region(OutRegion), emitArgs, pid);
  emitRegion(*op.region(ValueRegion), at, pid);
  std::vector<std::string> pair = acc;
  for (unsigned i = 0; i < acc.size(); ++i)
    pair.push_back(callbackResult(op, ValueRegion, i));
  emitRegion(*op.region(CombineRegion), pair, pid);
  for (unsigned i = 0; i < acc.size(); ++i) {
    indent();
    os << acc[i] << " = " << callbackResult(op, CombineRegion, i) << ";\n";
  }
  if (isScan && !exclusive)
    emitRegion(*op.region(OutRegion), emitArgs, pid);
  --depth;
  indent();
  os << "}\n";

  if (op.opcode == Opcode::Reduce)
    for (unsigned i = 0; i < op.results.size(); ++i)
      declare(op.result(i), acc[i]);
  if (op.opcode == Opcode::RegionFold || op.opcode == Opcode::RegionScan) {
    // region_fold: store(r, a...); region_scan: final(r, a...).
    std::vector<std::string> args{name(regionIndex(op))};
    args.insert(args.end(), acc.begin(), acc.end());
    emitRegion(*op.region(op.opcode == Opcode::RegionFold ? OutRegion
                                                          : FinalRegion),
               args, pid);
  }
}

void ProgramEmitter::emitChunkedFold(const Op &op, const std::string &pid) {
  bool isScan = op.opcode == Opcode::RegionScan;
  bool reverse = isScan && op.strAttr("direction") == "reverse";
  bool exclusive = isScan && op.strAttr("kind") == "exclusive";
  std::string id = std::to_string(op.id);
  std::string begin = name(memberBegin(op)), end = name(memberEnd(op));
  std::string r = name(regionIndex(op));
  std::string chunk = std::to_string(*chunkLength(op));
  std::string n = "n" + id, c0 = "c" + id, s = "s" + id, k = "k" + id;
  llvm::ArrayRef<Value *> inits = accInits(op);

  indent();
  os << "// " << opcodeName(op.opcode) << " {combiner = \""
     << op.strAttr("combiner") << "\", chunk = " << chunk;
  if (isScan)
    os << ", kind = \"" << op.strAttr("kind") << "\", direction = \""
       << op.strAttr("direction") << "\"";
  os << "}\n";
  // Components: state (carried across chunks), identity, incoming state,
  // chunk summary, chunk-local prefix.
  auto vars = [&](const std::string &prefix) {
    std::vector<std::string> v;
    for (unsigned i = 0; i < op.acc.size(); ++i)
      v.push_back(prefix + id + "_" + std::to_string(i));
    return v;
  };
  std::vector<std::string> state = vars("a"), ident = vars("e"),
                           in = vars("in"), sum = vars("m"), local = vars("l");
  for (unsigned i = 0; i < op.acc.size(); ++i) {
    const AccComponent &c = op.acc[i];
    indent();
    os << emit::cxxType(c.type) << " " << state[i] << " = " << name(inits[i])
       << ";\n";
    indent();
    os << "const " << emit::cxxType(c.type) << " " << ident[i] << " = "
       << (c.identity == AccComponent::Identity::Value
               ? literal(c.value, c.type.elem)
               : name(inits[i]))
       << ";\n";
  }
  declareCallbackResults(op, ValueRegion);
  declareCallbackResults(op, CombineRegion);
  if (isScan)
    declareCallbackResults(op, ApplyRegion);
  auto assign = [&](const std::vector<std::string> &to, unsigned region) {
    for (unsigned i = 0; i < to.size(); ++i) {
      indent();
      os << to[i] << " = " << callbackResult(op, region, i) << ";\n";
    }
  };
  auto declareFrom = [&](const std::vector<std::string> &to,
                         const std::vector<std::string> &from) {
    for (unsigned i = 0; i < to.size(); ++i) {
      indent();
      os << emit::cxxType(op.acc[i].type) << " " << to[i] << " = " << from[i]
         << ";\n";
    }
  };
  // Folds value(r, k) into `into` over the members of the current chunk.
  auto memberLoop = [&](const std::function<void()> &body) {
    indent();
    os << "for (int64_t " << s << " = " << c0 << "; " << s << " < " << n
       << " && " << s << " < " << c0 << " + " << chunk << "; ++" << s
       << ") {\n";
    ++depth;
    indent();
    os << "const int64_t " << k << " = "
       << (reverse ? end + " - 1 - " + s : begin + " + " + s) << ";\n";
    body();
    --depth;
    indent();
    os << "}\n";
  };
  auto foldValue = [&](const std::vector<std::string> &into) {
    emitRegion(*op.region(ValueRegion), {r, k}, pid);
    std::vector<std::string> pair = into;
    for (unsigned i = 0; i < into.size(); ++i)
      pair.push_back(callbackResult(op, ValueRegion, i));
    emitRegion(*op.region(CombineRegion), pair, pid);
    assign(into, CombineRegion);
  };

  indent();
  os << "const int64_t " << n << " = " << end << " > " << begin << " ? "
     << end << " - " << begin << " : 0;\n";
  indent();
  os << "for (int64_t " << c0 << " = 0; " << c0 << " < " << n << "; " << c0
     << " += " << chunk << ") {\n";
  ++depth;
  if (isScan)
    declareFrom(in, state);
  declareFrom(sum, ident);
  memberLoop([&] { foldValue(sum); });
  // The transition: state = combine(state, summary).
  std::vector<std::string> pair = state;
  pair.insert(pair.end(), sum.begin(), sum.end());
  emitRegion(*op.region(CombineRegion), pair, pid);
  assign(state, CombineRegion);
  if (isScan) {
    declareFrom(local, ident);
    memberLoop([&] {
      if (!exclusive)
        foldValue(local);
      std::vector<std::string> applyArgs{r};
      applyArgs.insert(applyArgs.end(), in.begin(), in.end());
      applyArgs.insert(applyArgs.end(), local.begin(), local.end());
      emitRegion(*op.region(ApplyRegion), applyArgs, pid);
      std::vector<std::string> emitArgs{r, k};
      for (unsigned i = 0; i < op.acc.size(); ++i)
        emitArgs.push_back(callbackResult(op, ApplyRegion, i));
      emitRegion(*op.region(OutRegion), emitArgs, pid);
      if (exclusive)
        foldValue(local);
    });
  }
  --depth;
  indent();
  os << "}\n";
  std::vector<std::string> args{r};
  args.insert(args.end(), state.begin(), state.end());
  emitRegion(*op.region(isScan ? FinalRegion : OutRegion), args, pid);
}

void ProgramEmitter::emitArgReduce(const Op &op, const std::string &pid) {
  bool isMax = op.strAttr("which") == "max";
  bool tieLast = op.strAttr("tie") == "last";
  bool propagate = op.strAttr("nan") == "propagate";
  const Type &t = op.result(0)->type;
  bool fp = isFloatKind(t.elem);
  std::string id = std::to_string(op.id);
  std::string best = "b" + id, pos = "p" + id, bestNaN = "nan" + id;
  std::string k = "k" + id, x = callbackResult(op, ValueRegion, 0);

  indent();
  os << "// argreduce {which = \"" << op.strAttr("which") << "\", tie = \""
     << op.strAttr("tie") << "\", nan = \"" << op.strAttr("nan") << "\"}\n";
  indent();
  os << emit::cxxType(t) << " " << best << " = "
     << literal(op.acc[0].value, t.elem) << ";\n";
  indent();
  os << "int64_t " << pos << " = -1;\n";
  if (fp) {
    indent();
    os << "bool " << bestNaN << " = false;\n";
  }
  declareCallbackResults(op, ValueRegion);
  indent();
  os << "for (int64_t " << k << " = " << name(memberBegin(op)) << "; " << k
     << " < " << name(memberEnd(op)) << "; ++" << k << ") {\n";
  ++depth;
  emitRegion(*op.region(ValueRegion), {k}, pid);
  auto take = [&]() {
    indent();
    os << "  " << best << " = " << x << ";\n";
    indent();
    os << "  " << pos << " = " << k << ";\n";
  };
  // A NaN (x != x) wins under propagate (the first one, or under tie last
  // the last one) and is skipped under ignore; once the best is NaN, numbers
  // no longer compete.
  if (fp) {
    indent();
    os << "if (" << x << " != " << x << ") {\n";
    if (propagate) {
      indent();
      os << "  if (" << (tieLast ? "true" : "!" + bestNaN) << ") {\n";
      ++depth;
      take();
      --depth;
      indent();
      os << "  }\n";
      indent();
      os << "  " << bestNaN << " = true;\n";
    }
    indent();
    os << "} else if (!" << bestNaN << ") {\n";
  } else {
    indent();
    os << "{\n";
  }
  // Values compare with < and ==, so -0.0 and +0.0 tie.
  std::string better = isMax ? best + " < " + x : x + " < " + best;
  indent();
  os << "  if (" << pos << " < 0 || " << better;
  if (tieLast)
    os << " || " << x << " == " << best;
  os << ") {\n";
  ++depth;
  take();
  --depth;
  indent();
  os << "  }\n";
  indent();
  os << "}\n";
  --depth;
  indent();
  os << "}\n";
  declare(op.result(0), best);
  declare(op.result(1), pos);
}

//===----------------------------------------------------------------------===//
// Accumulators of the cooperative reductions (cta-rows, register rows)
//===----------------------------------------------------------------------===//

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
