//===- EmitRowRegs.cpp - cta-rows with the rows in registers -------------===//
//
// The register form of cta-rows (docs/passes.md §3), for programs whose
// `regMaxK` is set. The program function is a template on RK, the elements
// of a row each thread holds (0: the staged / global form of
// EmitCtaRows.cpp), with one __global__ per variant; the wrapper picks RK
// and the CTA size T from the row length n (`<m>_row_k`, `<m>_row_threads`,
// the same pure function as phys::rowRegChoice) and launches that variant:
//
//   after the row coordinate r is decoded, every register view's row is
//   loaded once: slot C v + q of thread t holds column k = (v T + t) C + q,
//   for v < RK / C, with the chunk C = phys::rowRegChunk (8 elements when
//   every register view is 16-bit or narrower, else 4: a 128-bit load_vec
//   per chunk when the row is contiguous and aligned, scalar otherwise;
//   columns >= n are not loaded);
//   reduce {dist = "cta"}: each thread folds its slots k < n (slot q of a
//     chunk into accumulator q: C chains), folds the C, an ordered
//     xor butterfly over the warp, warp partials into one of two alternating
//     shared buffers, one barrier, an ordered butterfly over the partials:
//     every thread holds the same result, no broadcast round;
//   for {dist = "cta"}: the same slots; a full chunk runs its C iterations
//     and writes the row of a vectorizable store with one store_vec; side
//     loads at the column (gamma[c]) read through a pointer opaque per row
//     (intent::rt::opaque), so they are not hoisted out of the program loop.
//
// `reg` loads read the register slot of their member instead of memory; an
// op with `row_cache` (Passes/RowCache.cpp) also writes its value into that
// slot, and one with `row_cached` reads the slot instead of computing.
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

std::string str(int64_t v) { return std::to_string(v); }
} // namespace

std::string ProgramEmitter::regChunk() const {
  return str(rowRegChunk(p));
}

void ProgramEmitter::emitRowRegFunctions() {
  if (!p.regMaxK)
    return;
  const std::string n = "a." + p.params[p.regLengthParam].name + ".extent(" +
                        str(p.regLengthDim) + ")";
  os << "/// cta-rows register rows of " << p.name
     << ": the row elements each thread holds (0: rows not in registers, "
        "the staged / global form) and the CTA size, from the row length "
        "alone (phys::rowRegChoice).\n";
  os << "static INTENT_HD inline int " << m << "_row_k(const " << m
     << "_args &a) {\n  const int64_t n = " << n << ";\n";
  for (int k = rowRegChunk(p); k <= p.regMaxK; k *= 2)
    os << "  if (n <= " << static_cast<int64_t>(k) * rowRegMaxThreads(k, p.regMaxK)
       << ") return " << k << ";\n";
  os << "  return 0;\n}\n\n";
  os << "static INTENT_HD inline int " << m << "_row_threads(const " << m
     << "_args &a) {\n  const int64_t n = " << n << ";\n  const int k = " << m
     << "_row_k(a);\n  if (k == 0) return " << p.ctaThreads
     << ";\n  const int64_t t = (n + k - 1) / k;\n"
        "  return t <= 32 ? 32 : static_cast<int>((t + 31) / 32 * 32);\n}\n\n";
}

std::string ProgramEmitter::rowRegBound() const {
  // Variant K runs up to rowRegMaxThreads(K) threads; asking for
  // 1024 / that many CTAs per SM caps every variant at 64 registers, so
  // small-row variants keep several CTAs per SM (more rows in flight).
  std::string t = "RK == 0 ? " + str(p.ctaThreads);
  std::string b = "RK == 0 ? " + str(1024 / p.ctaThreads);
  for (int k = rowRegChunk(p); k <= p.regMaxK; k *= 2) {
    int threads = rowRegMaxThreads(k, p.regMaxK);
    t += " : RK == " + str(k) + " ? " + str(threads);
    b += " : RK == " + str(k) + " ? " + str(1024 / threads);
  }
  return "(" + t + " : 1024), (" + b + " : 1)";
}

bool ProgramEmitter::ownRowSlot(const Op &op, int64_t param) const {
  return op.result()->type.elem ==
         p.params[static_cast<size_t>(param)].type.elem;
}

std::string ProgramEmitter::rowCacheArray(const Op &op, int64_t param) const {
  return (ownRowSlot(op, param) ? "rr" : "rkc") + str(param);
}

void ProgramEmitter::emitRowRegisters(const std::vector<const Value *> &rows) {
  const std::string n = name(p.param(p.regLengthParam)) + ".extent(" +
                        str(p.regLengthDim) + ")";
  line("// rows in registers (cta-rows): slot C v + q of thread t holds "
       "column (v T + t) C + q, C = " + regChunk());
  for (unsigned i : p.regParams) {
    const std::string t = scalarCxx(p.params[i].type.elem);
    const std::string v = name(p.param(i)), rr = "rr" + str(i);
    line(t + " " + rr + "[RK > 0 ? RK : 1];");
    line("(void)" + rr + ";");
  }
  // Row-cached values of another type than their view's elements.
  walk(*p.body, [&](const Op &o) {
    if (!o.attr("row_cache") || ownRowSlot(o, o.intAttr("row_cache")))
      return;
    const std::string rk = rowCacheArray(o, o.intAttr("row_cache"));
    line(scalarCxx(o.result()->type.elem) + " " + rk + "[RK > 0 ? RK : 1];");
    line("(void)" + rk + ";");
  });
  line("if constexpr (RK > 0) {");
  ++depth;
  // (A 64-bit n here measured 62 registers for softmax at RK = 32 against
  // 64 and a spill with a 32-bit one: ptxas' allocation at the 64-register
  // cap of 1024 threads is that tight.)
  line("const int64_t rn = " + n + ";");
  for (unsigned i : p.regParams) {
    const std::string t = scalarCxx(p.params[i].type.elem);
    const std::string v = name(p.param(i)), rr = "rr" + str(i);
    const std::string rp = "rp" + str(i);
    line("const " + t + " *const " + rp + " = " + rowStart(p.param(i), rows) +
         ";");
    // src: the row's pointer; stride: its element stride (empty: 1, vector
    // loads).
    auto chunks = [&](const std::string &src, bool vec) {
      if (vec) {  // a row of exactly RK x T: every chunk is full
        line("if (rn == RK * " + std::string(kRt) + "cta_size()) {");
        ++depth;
        line("#pragma unroll");
        line("for (int rv = 0; rv < RK / " + regChunk() + "; ++rv) {");
        line("  const " + std::string(kRt) + "vec<" + t + ", " + regChunk() + "> rx = " + kRt +
             "load_vec<" + regChunk() + ">(" + src + " + (rv * " + kRt + "cta_size() + " + kRt +
             "cta_thread()) * " + regChunk() + ");");
        line("  #pragma unroll");
        line("  for (int rq = 0; rq < " + regChunk() + "; ++rq) " + rr + "[rv * " + regChunk() + " + rq] = rx[rq];");
        line("}");
        --depth;
        line("} else");
      }
      line("#pragma unroll");
      line("for (int rv = 0; rv < RK / " + regChunk() + "; ++rv) {");
      ++depth;
      line("const int rb = (rv * " + std::string(kRt) + "cta_size() + " + kRt +
           "cta_thread()) * " + regChunk() + ";");
      if (vec) {
        line("if (rb + " + regChunk() + " <= rn) {");
        line("  const " + std::string(kRt) + "vec<" + t + ", " + regChunk() + "> rx = " + kRt +
             "load_vec<" + regChunk() + ">(" + src + " + rb);");
        line("  #pragma unroll");
        line("  for (int rq = 0; rq < " + regChunk() + "; ++rq) " + rr + "[rv * " + regChunk() + " + rq] = rx[rq];");
        line("} else {");
        line("  #pragma unroll");
        line("  for (int rq = 0; rq < " + regChunk() + "; ++rq) " + rr + "[rv * " + regChunk() + " + rq] = rb + rq < rn ? " +
             src + "[rb + rq] : " + t + "{};");
        line("}");
      } else {
        line("#pragma unroll");
        line("for (int rq = 0; rq < " + regChunk() + "; ++rq) " + rr + "[rv * " + regChunk() + " + rq] = rb + rq < rn ? " +
             src + "[(rb + rq) * " + v + lastStride(p.params[i].type) + "] : " + t + "{};");
      }
      --depth;
      line("}");
    };
    line("if (" + v + lastStride(p.params[i].type) + " == 1 && " + kRt + "is_aligned(" + rp +
         ", " + str(rowRegChunk(p) * elemBytes(p.params[i].type.elem)) + ")) {");
    ++depth;
    chunks(rp, true);
    --depth;
    line("} else {");
    ++depth;
    chunks(rp, false);
    --depth;
    line("}");
  }
  --depth;
  line("}");
}

void ProgramEmitter::overrideRegLoads(const Block &b, const std::string &slot,
                                      bool set) {
  regSlot = set ? slot : "";
  for (const auto &l : b.ops)
    if (l->opcode == Opcode::Load && l->boolAttr("reg")) {
      if (set)
        loadOverride[l.get()] =
            "rr" + str(l->memory()->argNo) + "[" + slot + "]";
      else
        loadOverride.erase(l.get());
    }
}

void ProgramEmitter::emitCtaReduceRegs(const Op &t, const std::string &pid,
                                       const std::vector<std::string> &out) {
  const bool arg = t.opcode == Opcode::ArgReduce;
  const std::string id = str(t.id);
  std::vector<Type> types;
  std::vector<std::string> identity;
  accComponents(t, types, identity);
  const unsigned nc = types.size();
  auto names = [&](const std::string &prefix) {
    return componentNames(prefix, id, nc);
  };
  const std::vector<std::string> acc = names("ra");
  std::vector<std::string> target = acc;
  auto combineInto = [&](const std::vector<std::string> &other) {
    emitCombineInto(t, target, other, pid);
  };
  // acc = combine(low lane's value, high lane's value) at each level: every
  // lane computes the same ordered tree, so all hold the same bits (also
  // for a max whose NaN handling is not symmetric).
  auto butterfly = [&](const std::string &levels, const std::string &tag) {
    std::vector<std::string> other = names("rx" + tag), lo = names("rl" + tag),
                             hi = names("rh" + tag);
    open("for (int go = 1; go < " + levels + "; go <<= 1) {");
    line("const bool rup = (" + std::string(kRt) + "lane() & go) != 0;");
    for (unsigned c = 0; c < nc; ++c) {
      const std::string ty = emit::cxxType(types[c]);
      line("const " + ty + " " + other[c] + " = " + kRt + "warp_shfl_xor(" +
           acc[c] + ", go);");
      line("const " + ty + " " + lo[c] + " = rup ? " + other[c] + " : " +
           acc[c] + ";");
      line("const " + ty + " " + hi[c] + " = rup ? " + acc[c] + " : " +
           other[c] + ";");
    }
    for (unsigned c = 0; c < nc; ++c)
      line(acc[c] + " = " + lo[c] + ";");
    open("{");
    combineInto(hi);
    close();
    close();
  };

  line("// " + opcodeName(t.opcode).str() +
       " spread over the CTA (row in registers)");
  for (unsigned c = 0; c < nc; ++c)
    line(emit::cxxType(types[c]) + " " + acc[c] + " = " + identity[c] + ";");
  declareCallbackResults(t, ValueRegion);
  if (!arg)
    declareCallbackResults(t, CombineRegion);
  // C independent accumulators: slot q of every chunk into lane q.
  std::vector<std::string> lanes;
  for (unsigned c = 0; c < nc; ++c) {
    lanes.push_back("ru" + id + "_" + str(c));
    std::string init;
    for (int j = 0; j < rowRegChunk(p); ++j)
      init += (j ? ", " : "") + identity[c];
    line(emit::cxxType(types[c]) + " " + lanes[c] + "[" + regChunk() +
         "] = {" + init + "};");
  }
  const std::string end = name(memberEnd(t));
  const std::string rv = "rv" + id, rq = "rq" + id, k = "k" + id;
  // n <= 32 * 1024 in a register variant: 32-bit indices and compares.
  const std::string rn = "rn" + id;
  line("const int " + rn + " = static_cast<int>(" + end + ");");
  // One member: its value, combined into accumulator q.
  auto member = [&]() {
    const Block &vb = t.region(ValueRegion)->block;
    overrideRegLoads(vb, rv + " * " + regChunk() + " + " + rq, true);
    emitRegion(*t.region(ValueRegion), {k}, pid);
    overrideRegLoads(vb, "", false);
    target.clear();
    for (unsigned c = 0; c < nc; ++c)
      target.push_back(lanes[c] + "[" + rq + "]");
    combineInto(memberValue(t, k));
    target = acc;
  };
  auto chunkMembers = [&](bool guarded) {
    line("#pragma unroll");
    open("for (int " + rq + " = 0; " + rq + " < " + regChunk() + "; ++" + rq + ") {");
    line("const int " + k + " = rb" + id + " + " + rq + ";");
    if (guarded)
      open("if (" + k + " < " + rn + ") {");
    member();
    if (guarded)
      close();
    close();
  };
  emitChunkLoop(id, rn, [&]() { chunkMembers(false); },
                [&]() { chunkMembers(true); });
  for (int j = 0; j < rowRegChunk(p); ++j) {
    std::vector<std::string> other;
    for (unsigned c = 0; c < nc; ++c)
      other.push_back(lanes[c] + "[" + str(j) + "]");
    open("{");
    combineInto(other);
    close();
  }
  butterfly("32", "w");
  // Alternate scratch buffers: a fast thread may write the next
  // reduction's partials while a slow one still reads these; the next
  // reduction's barrier separates a buffer's reads from its next writes.
  // With an odd count per instance the next row's first reduction would
  // reuse the buffer of this row's last one, so it waits first.
  const int64_t buf = (regReduceIndex % 2) * 256 * nc;
  const bool firstOfOdd = regReduceIndex == 0 && regReduceCount % 2 == 1;
  ++regReduceIndex;
  open(std::string("if (") + kRt + "cta_size() > 32) {");
  if (firstOfOdd)
    line(std::string(kRt) + "cta_barrier(); // the previous row's partials "
                            "are read");
  open(std::string("if (") + kRt + "lane() == 0) {");
  for (unsigned c = 0; c < nc; ++c)
    line(kRt + std::string("cta_shared<") + emit::cxxType(types[c]) + ">(" +
         str(buf + 256 * c) + ")[" + kRt + "warp_in_cta()] = " + acc[c] + ";");
  close();
  line(kRt + std::string("cta_barrier();"));
  // T is a multiple of 32, not always a power of two: the butterfly runs
  // over P, the power of two >= the warp count W; lane l reads partial
  // l mod P, the identity where that is >= W, so every group of P lanes
  // computes the same total (every thread needs it).
  line("const int rnw" + id + " = " + kRt + "cta_size() / 32;");
  line("int rpw" + id + " = 1;");
  line("while (rpw" + id + " < rnw" + id + ") rpw" + id + " <<= 1;");
  line("const int rlw" + id + " = " + kRt + "lane() & (rpw" + id + " - 1);");
  for (unsigned c = 0; c < nc; ++c)
    line(acc[c] + " = rlw" + id + " < rnw" + id + " ? " + kRt + "cta_shared<" +
         emit::cxxType(types[c]) + ">(" + str(buf + 256 * c) + ")[rlw" + id +
         "] : " + identity[c] + ";");
  butterfly("rpw" + id, "c");
  close();
  if (arg) {
    for (unsigned c = 0; c < nc; ++c)
      line(out[c] + " = " + acc[c] + ";");
    return;
  }
  std::vector<std::string> pair;
  for (const Value *v : accInits(t))
    pair.push_back(name(v));
  pair.insert(pair.end(), acc.begin(), acc.end());
  emitRegion(*t.region(CombineRegion), pair, pid);
  for (unsigned c = 0; c < nc; ++c)
    line(out[c] + " = " + callbackResult(t, CombineRegion, c) + ";");
}

void ProgramEmitter::emitCtaForRegs(const Op &op, const std::string &pid) {
  const Block &body = op.region(0)->block;
  const std::string id = str(op.id), iv = name(body.args[0]);
  const std::string rv = "rv" + id, rq = "rq" + id, rb = "rb" + id;
  const std::string ub = "rn" + id;
  const std::vector<const Value *> rows = rowCoordinates(*op.parent);
  // Stores of row r at the iteration, the only access to their view in the
  // body: a full chunk collects its 4 values and writes them at once.
  std::vector<const Op *> vecStores;
  for (const auto &s : body.ops) {
    if (s->opcode != Opcode::Store || s->guard())
      continue;
    const Value *m = s->memory();
    if (!m->isBlockArg() || m->owner != &p.body->block || !m->type.isView() ||
        !addressesRow(*s, rows) || s->coords().back() != body.args[0])
      continue;
    unsigned uses = 0;
    walk(*op.region(0), [&](const Op &a) {
      for (const Value *v : a.operands)
        if (v == m)
          ++uses;
    });
    if (uses == 1)
      vecStores.push_back(s.get());
  }
  // Other loads at the iteration in the last coordinate (gamma[c]): a full
  // chunk reads their C elements with one vector load when contiguous.
  auto outside = [&](const Value *v) {
    if (v == body.args[0])
      return false;
    for (const Op *d = v->def; d; d = d->parentOp())
      if (d == &op)
        return false;
    return true;
  };
  std::vector<const Op *> sideLoads;
  for (const auto &l : body.ops) {
    if (l->opcode != Opcode::Load || l->guard() || l->boolAttr("reg"))
      continue;
    const Value *m = l->memory();
    llvm::ArrayRef<Value *> c = l->coords();
    if (!m->isBlockArg() || m->owner != &p.body->block || !m->type.isView() ||
        c.empty() || c.back() != body.args[0])
      continue;
    bool invariant = true;
    for (unsigned d = 0; d + 1 < c.size(); ++d)
      invariant = invariant && outside(c[d]);
    if (invariant)
      sideLoads.push_back(l.get());
  }
  line("// for spread over the CTA (row in registers)");
  // n <= 32 * 1024 in a register variant: 32-bit indices and compares.
  line("const int " + ub + " = static_cast<int>(" + name(op.operands[1]) +
       ");");
  for (const Op *s : vecStores) {
    const Value *m = s->memory();
    const std::string v = name(m), sid = str(s->id);
    line(scalarCxx(m->type.elem) + " *const rw" + sid + " = " +
         rowStart(m, rows) + ";");
    line("const bool rs" + sid + " = " + v + lastStride(m->type) + " == 1 && " + kRt +
         "is_aligned(rw" + sid + ", " + str(rowRegChunk(p) * elemBytes(m->type.elem)) +
         ");");
  }
  // The side views' element 0 of the row (their other coordinates are
  // invariant) and whether they are contiguous and aligned there: then
  // every chunk start (a multiple of C elements) is aligned too, so the
  // test is made once, not per chunk.
  for (const Op *l : sideLoads) {
    const Value *m = l->memory();
    const std::string lid = str(l->id), v = name(m),
                      t = scalarCxx(m->type.elem);
    const std::string last = str(m->type.rank - 1);
    // Opaque per row: the row-invariant loads stay in the row's loop (see
    // intent::rt::opaque).
    std::string ptr = std::string(kRt) + "opaque(" + kRt + "element_ptr(" + v;
    llvm::ArrayRef<Value *> c = l->coords();
    for (unsigned d = 0; d + 1 < c.size(); ++d)
      ptr += ", " + name(c[d]);
    ptr += ", 0))";
    line("const " + t + " *const rp" + lid + " = " + ptr + ";");
    line("const bool rgv" + lid + " = " + v + ".stride(" + last + ") == 1 && " +
         kRt + "is_aligned(rp" + lid + ", " +
         str(rowRegChunk(p) * elemBytes(m->type.elem)) + ");");
  }
  // A full chunk: side loads and stores of C elements at once.
  auto fullChunk = [&]() {
    for (const Op *l : sideLoads) {
      const Value *m = l->memory();
      const std::string lid = str(l->id), v = name(m),
                        t = scalarCxx(m->type.elem);
      const std::string last = str(m->type.rank - 1);
      line(std::string(kRt) + "vec<" + t + ", " + regChunk() + "> rg" + lid + ";");
      line("if (rgv" + lid + ") rg" + lid + " = " + kRt + "load_vec<" + regChunk() + ">(rp" + lid +
           " + " + rb + ");");
      line("else for (int " + rq + " = 0; " + rq + " < " + regChunk() + "; ++" + rq + ") rg" +
           lid + "[" + rq + "] = rp" + lid + "[(" + rb + " + " + rq + ") * " + v +
           ".stride(" + last + ")];");
      loadOverride[l] = "rg" + lid + "[" + rq + "]";
    }
    for (const Op *s : vecStores) {
      const std::string sid = str(s->id);
      line(std::string(kRt) + "vec<" + scalarCxx(s->memory()->type.elem) +
           ", " + regChunk() + "> rc" + sid + ";");
      storeOverride[s] = "rc" + sid + "[" + rq + "]";
    }
    line("#pragma unroll");
    open("for (int " + rq + " = 0; " + rq + " < " + regChunk() + "; ++" + rq + ") {");
    line("const int64_t " + iv + " = " + rb + " + " + rq + ";");
    emitOps(body, pid);
    close();
    for (const Op *l : sideLoads)
      loadOverride.erase(l);
    for (const Op *s : vecStores) {
      const std::string sid = str(s->id), v = name(s->memory());
      storeOverride.erase(s);
      line("if (rs" + sid + ") " + kRt + "store_vec<" + regChunk() + ">(rw" + sid + " + " + rb +
           ", rc" + sid + ");");
      line("else for (int " + rq + " = 0; " + rq + " < " + regChunk() + "; ++" + rq + ") rw" +
           sid + "[(" + rb + " + " + rq + ") * " + v + lastStride(s->memory()->type) + "] = rc" + sid +
           "[" + rq + "];");
    }
  };
  overrideRegLoads(body, rv + " * " + regChunk() + " + " + rq, true);
  emitChunkLoop(id, ub, fullChunk, [&]() {
    // The chunk holding n: member by member, the side loads and row stores
    // through the same row pointers as a full chunk (the generic addresses
    // kept every view's data and strides live across the unrolled chunks:
    // rmsnorm's K = 16 variant spilled 148 bytes at 64 registers).
    for (const Op *l : sideLoads)
      loadOverride[l] = "rp" + str(l->id) + "[(" + rb + " + " + rq + ") * " +
                        name(l->memory()) + lastStride(l->memory()->type) +
                        "]";
    for (const Op *s : vecStores)
      storeOverride[s] = "rw" + str(s->id) + "[(" + rb + " + " + rq + ") * " +
                         name(s->memory()) + lastStride(s->memory()->type) +
                         "]";
    line("#pragma unroll");
    open("for (int " + rq + " = 0; " + rq + " < " + regChunk() + "; ++" + rq + ") {");
    line("const int64_t " + iv + " = " + rb + " + " + rq + ";");
    open("if (" + rb + " + " + rq + " < " + ub + ") {");
    emitOps(body, pid);
    close();
    close();
    for (const Op *l : sideLoads)
      loadOverride.erase(l);
    for (const Op *s : vecStores)
      storeOverride.erase(s);
  });
  overrideRegLoads(body, "", false);
}

void ProgramEmitter::emitChunkLoop(const std::string &id, const std::string &n,
                                   const std::function<void()> &full,
                                   const std::function<void()> &tail) {
  const std::string rv = "rv" + id, rb = "rb" + id;
  auto chunks = [&](bool allFull) {
    line("#pragma unroll");
    open("for (int " + rv + " = 0; " + rv + " < RK / " + regChunk() + "; ++" + rv + ") {");
    line("const int " + rb + " = (" + rv + " * " + kRt + "cta_size() + " +
         kRt + "cta_thread()) * " + regChunk() + ";");
    if (allFull) {
      full();
    } else {
      open("if (" + rb + " + " + regChunk() + " <= " + n + ") {");
      full();
      close();
      open("else {");
      tail();
      close();
    }
    close();
  };
  // A row of exactly RK x T (a branch uniform over the CTA): every chunk is
  // full, no checks at all; otherwise one check per chunk (measured: a
  // check per member tripled the instructions of layernorm's variant).
  open("if (" + n + " == RK * " + kRt + "cta_size()) {");
  chunks(true);
  close();
  open("else {");
  chunks(false);
  close();
}
