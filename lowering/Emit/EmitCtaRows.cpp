//===- EmitCtaRows.cpp - CTA-distributed reductions, fors, staged rows ----===//
//
// The cta-rows constructs (docs/passes.md) in a program of exec scope cta,
// written with the cooperative helpers of intent/runtime/coop.hpp only:
//
//   staging (after the row coordinate is decoded, when the launch's rows fit):
//     T *gsP = cta_shared<T>(offset); gsP[c] = x(r, c) strided over the
//     threads (vector loads when the row is contiguous and aligned);
//     cta_barrier()
//   reduce {dist = "cta"}:
//     acc = identity; thread t folds members t, t + T, ... (commutative
//     built-ins, arg-reductions: into 4 independent accumulators, member
//     t + (4s + j) T into accumulator j, tail into acc, then folded) or its
//     contiguous chunk (user combines);
//     ordered shuffle-down tree per warp (offsets 1, 2, .., 16); warp
//     partials in shared memory;
//     warp 0 combines them in warp order; thread 0 stores combine(init, acc)
//     to shared memory; cta_barrier(); every thread reads the result
//   for {dist = "cta"}: iv = lb + cta_thread(); iv < ub; iv += cta_size()
//   store with active `leader`: if (cta_thread() == 0)
//
//===----------------------------------------------------------------------===//

#include "Emit/ProgramEmitter.h"

#include "Physical/Coop.h"
#include "Physical/Structured.h"

using namespace intent;
using namespace intent::phys;
using namespace intent::emit::detail;

namespace {
const char *const kRt = "::intent::rt::";
} // namespace

std::string ProgramEmitter::stageBytesFunction() const {
  return m + "_stage_bytes";
}

void ProgramEmitter::emitStageBytesFunction() {
  if (p.stagedParams.empty())
    return;
  os << "/// Shared bytes of the staged rows of " << p.name
     << " for this launch (0: they do not fit, rows are read from global "
        "memory).\n";
  os << "static INTENT_HD inline int64_t " << stageBytesFunction() << "(const "
     << m << "_args &a) {\n  int64_t bytes = 0;\n";
  for (unsigned i : p.stagedParams)
    os << "  bytes += (a." << p.params[i].name << lastExtent(p.params[i].type) << " * "
       << elemBytes(p.params[i].type.elem) << " + 15) / 16 * 16;\n";
  os << "  return bytes <= " << p.stageLimitBytes << " ? bytes : 0;\n}\n\n";
}

std::string ProgramEmitter::lastStride(const Type &t) {
  return ".stride(" + std::to_string(t.rank - 1) + ")";
}

std::string ProgramEmitter::lastExtent(const Type &t) {
  return ".extent(" + std::to_string(t.rank - 1) + ")";
}

std::string ProgramEmitter::rowStart(const Value *v,
                                     const std::vector<const Value *> &rows) {
  std::string s = name(v) + ".data()";
  for (unsigned d = 0; d < rows.size(); ++d)
    s += " + " + name(rows[d]) + " * " + name(v) + ".stride(" +
         std::to_string(d) + ")";
  return s;
}

void ProgramEmitter::emitRowStaging(const std::vector<const Value *> &rows) {
  indent();
  os << "// stage the rows read in several passes (cta-rows)\n";
  indent();
  // The register variants (RK > 0) never stage, nor does a launch that
  // checks bounds (the staging copy is not checked).
  os << "const bool gstage = " << (p.regMaxK ? "RK == 0 && " : "")
     << (hostSerial ? "" : uncheckedLaunch() + " && ")
     << stageBytesFunction() << "(a) != 0;\n";
  std::string offset = std::to_string(p.sharedBytes);
  for (unsigned i : p.stagedParams) {
    const Param &par = p.params[i];
    std::string t = scalarCxx(par.type.elem);
    indent();
    os << t << " *const gs" << i << " = " << kRt << "cta_shared<" << t
       << ">(" << offset << ");\n";
    offset = "(" + offset + " + (" + name(p.param(i)) + lastExtent(par.type) + " * " +
             std::to_string(elemBytes(par.type.elem)) + " + 15) / 16 * 16)";
  }
  // gstage is uniform over the CTA: the barriers are reached by all.
  indent();
  os << "if (gstage) {\n";
  ++depth;
  // The CTA's previous program may still read its staged rows.
  indent();
  os << kRt << "cta_barrier();\n";
  for (unsigned i : p.stagedParams) {
    const Param &par = p.params[i];
    std::string t = scalarCxx(par.type.elem);
    std::string v = name(p.param(i));
    std::string gs = "gs" + std::to_string(i);
    int64_t bytes = elemBytes(par.type.elem);
    int vec = bytes >= 16 ? 1 : static_cast<int>(16 / bytes);
    if (vec > 4)
      vec = 4;
    indent();
    os << "{\n";
    ++depth;
    indent();
    os << "const " << t << " *const gsrc = " << rowStart(p.param(i), rows)
       << ";\n";
    indent();
    os << "const int64_t gn = " << v << lastExtent(par.type) << ";\n";
    indent();
    os << "if (" << v << lastStride(par.type) << " == 1 && " << kRt << "is_aligned(gsrc, "
       << vec * bytes << ")) {\n";
    indent();
    // Eight vector loads in flight per thread: a long staged row is often
    // the only CTA of its SM, whose loads alone must cover the latency.
    os << "  #pragma unroll 8\n";
    indent();
    os << "  for (int64_t gc = " << kRt << "cta_thread() * " << vec
       << "; gc + " << vec << " <= gn; gc += " << kRt << "cta_size() * " << vec
       << ")\n";
    indent();
    os << "    " << kRt << "store_vec<" << vec << ">(" << gs << " + gc, " << kRt
       << "load_vec<" << vec << ">(gsrc + gc));\n";
    indent();
    os << "  for (int64_t gc = gn / " << vec << " * " << vec << " + " << kRt
       << "cta_thread(); gc < gn; gc += " << kRt << "cta_size())\n";
    indent();
    os << "    " << gs << "[gc] = gsrc[gc];\n";
    indent();
    os << "} else {\n";
    indent();
    os << "  for (int64_t gc = " << kRt << "cta_thread(); gc < gn; gc += "
       << kRt << "cta_size())\n";
    indent();
    os << "    " << gs << "[gc] = gsrc[gc * " << v << lastStride(par.type) << "];\n";
    indent();
    os << "}\n";
    --depth;
    indent();
    os << "}\n";
  }
  indent();
  os << kRt << "cta_barrier();\n";
  --depth;
  indent();
  os << "}\n";
}

void ProgramEmitter::emitCtaReduce(const Op &t, const std::string &pid) {
  if (!p.regMaxK) {
    emitCtaReduceStrided(t, pid, {});
    return;
  }
  // Both forms assign the result; the variant RK picks one at compile time.
  std::vector<std::string> out;
  for (unsigned c = 0; c < t.results.size(); ++c) {
    out.push_back("rs" + std::to_string(t.id) + "_" + std::to_string(c));
    indent();
    os << emit::cxxType(t.result(c)->type) << " " << out.back() << "{};\n";
  }
  indent();
  os << "if constexpr (RK > 0) {\n";
  ++depth;
  emitCtaReduceRegs(t, pid, out);
  --depth;
  indent();
  os << "} else {\n";
  ++depth;
  emitCtaReduceStrided(t, pid, out);
  --depth;
  indent();
  os << "}\n";
  for (unsigned c = 0; c < t.results.size(); ++c)
    declare(t.result(c), out[c]);
}

void ProgramEmitter::emitCtaReduceStrided(const Op &t, const std::string &pid,
                                          const std::vector<std::string> &out) {
  const bool arg = t.opcode == Opcode::ArgReduce;
  const std::string id = std::to_string(t.id);
  std::vector<Type> types;
  std::vector<std::string> identity;
  accComponents(t, types, identity);
  const bool user = !arg && t.strAttr("combiner") == "user";
  const unsigned nc = types.size();
  auto names = [&](const std::string &prefix) {
    return componentNames(prefix, id, nc);
  };
  const std::vector<std::string> acc = names("ra");
  // The accumulator combineInto updates: acc, or one of the unrolled
  // per-thread accumulators (see below).
  std::vector<std::string> target = acc;
  auto combineInto = [&](const std::vector<std::string> &other) {
    emitCombineInto(t, target, other, pid);
  };
  auto warpTree = [&](const std::string &tag) {
    std::vector<std::string> other = names("rx" + tag);
    // Ascending offsets: lane l (a multiple of 2 go) then holds lanes
    // [l, l + 2 go) in order, so lane 0 ends with the warp's members in
    // lane order (descending offsets would mix lanes l, l + 16, l + 8, ...:
    // wrong for a user combine that is not commutative).
    open("for (int go = 1; go < 32; go <<= 1) {");
    for (unsigned c = 0; c < nc; ++c)
      line("const " + emit::cxxType(types[c]) + " " + other[c] + " = " + kRt +
           "warp_shfl_down(" + acc[c] + ", go);");
    open(std::string("if (") + kRt + "lane() + go < 32) {");
    combineInto(other);
    close();
    close();
  };

  indent();
  os << "// " << opcodeName(t.opcode) << " spread over the CTA ("
     << (user ? "contiguous chunks" : "strided") << ")\n";
  for (unsigned c = 0; c < nc; ++c)
    line(emit::cxxType(types[c]) + " " + acc[c] + " = " + identity[c] + ";");
  declareCallbackResults(t, ValueRegion);
  if (!arg)
    declareCallbackResults(t, CombineRegion);
  const std::string begin = name(memberBegin(t)), end = name(memberEnd(t));
  const std::string k = "k" + id;
  if (user) {
    line("const int64_t rn" + id + " = " + end + " > " + begin + " ? " + end +
         " - " + begin + " : 0;");
    line("const int64_t rc" + id + " = (rn" + id + " + " + kRt +
         "cta_size() - 1) / " + kRt + "cta_size();");
    line("const int64_t rb" + id + " = " + begin + " + " + kRt +
         "cta_thread() * rc" + id + ";");
    line("const int64_t re" + id + " = rb" + id + " + rc" + id + " < " + end +
         " ? rb" + id + " + rc" + id + " : " + end + ";");
    open("for (int64_t " + k + " = rb" + id + "; " + k + " < re" + id + "; ++" +
         k + ") {");
  }
  auto member = [&](const std::string &kk) {
    emitRegion(*t.region(ValueRegion), {kk}, pid);
    combineInto(memberValue(t, kk));
  };
  // Strided members: U independent accumulators per thread (member
  // k + j * T of each step goes to accumulator j), so U loads are in flight
  // and the combines form U chains instead of one; the tail steps go to
  // acc, then the U accumulators are folded into acc. Commutative built-ins
  // may be regrouped (reassociate), and an arg-merge keeps the best pair
  // under a strict total order of (value, position), exact in any order
  // (docs/passes.md §2).
  const int unroll = 4;
  std::vector<std::string> lanes;
  if (!user) {
    const std::string rk = "rk" + id, rj = "rj" + id;
    for (unsigned c = 0; c < nc; ++c) {
      lanes.push_back("ru" + id + "_" + std::to_string(c));
      std::string init;
      for (int j = 0; j < unroll; ++j)
        init += (j ? ", " : "") + identity[c];
      line(emit::cxxType(types[c]) + " " + lanes[c] + "[" +
           std::to_string(unroll) + "] = {" + init + "};");
    }
    line("int64_t " + rk + " = " + begin + " + " + kRt + "cta_thread();");
    open("for (; " + rk + " + " + std::to_string(unroll - 1) + " * " + kRt +
         "cta_size() < " + end + "; " + rk + " += " + std::to_string(unroll) +
         " * " + kRt + "cta_size()) {");
    line("#pragma unroll");
    open("for (int " + rj + " = 0; " + rj + " < " + std::to_string(unroll) +
         "; ++" + rj + ") {");
    line("const int64_t " + k + " = " + rk + " + " + rj + " * " + kRt +
         "cta_size();");
    target.clear();
    for (unsigned c = 0; c < nc; ++c)
      target.push_back(lanes[c] + "[" + rj + "]");
    member(k);
    target = acc;
    close();
    close();
    open("for (int64_t " + k + " = " + rk + "; " + k + " < " + end + "; " + k +
         " += " + kRt + "cta_size()) {");
  }
  member(k);
  close();
  for (int j = 0; !user && j < unroll; ++j) {
    std::vector<std::string> other;
    for (unsigned c = 0; c < nc; ++c)
      other.push_back(lanes[c] + "[" + std::to_string(j) + "]");
    open("{");
    combineInto(other);
    close();
  }
  warpTree("w");
  open(std::string("if (") + kRt + "lane() == 0) {");
  for (unsigned c = 0; c < nc; ++c)
    line(kRt + std::string("cta_shared<") + emit::cxxType(types[c]) + ">(" +
         std::to_string(256 * c) + ")[" + kRt + "warp_in_cta()] = " + acc[c] +
         ";");
  close();
  line(kRt + std::string("cta_barrier();"));
  open(std::string("if (") + kRt + "warp_in_cta() == 0) {");
  for (unsigned c = 0; c < nc; ++c)
    line(acc[c] + " = " + kRt + "lane() < " + kRt + "cta_size() / 32 ? " + kRt +
         "cta_shared<" + emit::cxxType(types[c]) + ">(" +
         std::to_string(256 * c) + ")[" + kRt + "lane()] : " + identity[c] +
         ";");
  warpTree("c");
  open(std::string("if (") + kRt + "lane() == 0) {");
  std::string bcast = std::to_string(256 * nc);
  auto slot = [&](unsigned c) {
    return kRt + std::string("cta_shared<") + emit::cxxType(types[c]) + ">(" +
           bcast + " + " + std::to_string(8 * c) + ")[0]";
  };
  if (arg) {
    for (unsigned c = 0; c < nc; ++c)
      line(slot(c) + " = " + acc[c] + ";");
  } else {
    std::vector<std::string> pair;
    for (const Value *v : accInits(t))
      pair.push_back(name(v));
    pair.insert(pair.end(), acc.begin(), acc.end());
    emitRegion(*t.region(CombineRegion), pair, pid);
    for (unsigned c = 0; c < nc; ++c)
      line(slot(c) + " = " + callbackResult(t, CombineRegion, c) + ";");
  }
  close();
  close();
  line(kRt + std::string("cta_barrier();"));
  for (unsigned c = 0; c < nc; ++c) {
    if (out.empty())
      declare(t.result(c), slot(c));
    else
      line(out[c] + " = " + slot(c) + ";");
  }
}
