//===- Emit.cpp - CUDA C++ for a scheduled copy ---------------------------===//

#include "Copy/Emit.h"
#include "Copy/Gate.h"

#include <cassert>
#include <sstream>

namespace intent::copy {

std::string ptxAccess(bool load, MemSpace space, unsigned bytes,
                      CacheHint cache) {
  std::string s = load ? "ld." : "st.";
  s += memSpaceName(space);
  if (load && space == MemSpace::Global)
    s += cacheHintSuffix(cache);
  switch (bytes) {
  case 1: return s + ".u8";
  case 2: return s + ".u16";
  case 4: return s + ".u32";
  case 8: return s + ".v2.u32";
  case 16: return s + ".v4.u32";
  case 32:
    assert(space == MemSpace::Global && "256-bit accesses are global only");
    return s + ".v8.u32";
  }
  assert(false && "unsupported access width");
  return s;
}

namespace {

/// One side of the copy as the emitter addresses it.
struct Side {
  const Tile *tile;
  const char *buf;  ///< icp_dst / icp_src
  const char *lin;  ///< pre-swizzle offset variable
  const char *thr;  ///< per-thread offset variable
  const char *off;  ///< per-access offset variable
  bool dst;
};

/// "a * b" for an int64 stride (elided for 1, "0" for 0).
std::string scaled(const std::string &var, int64_t stride) {
  if (stride == 1)
    return var;
  return var + " * " + std::to_string(stride);
}

/// Joins terms with " + ", "0" when there are none.
std::string sum(const std::vector<std::string> &terms) {
  std::string s;
  for (const std::string &t : terms)
    s += (s.empty() ? "" : " + ") + t;
  return s.empty() ? "0" : s;
}

/// The base offset as a list of terms.
std::vector<std::string> baseTerms(const Offset &base) {
  std::vector<std::string> terms;
  if (!base.expr.empty())
    terms.push_back("static_cast<long long>(" + base.expr + ")");
  if (base.constant != 0)
    terms.push_back(std::to_string(base.constant));
  return terms;
}

/// The structured swizzle of variable `x`: ADD-high (atom-aligned part),
/// XOR-low (chunk bits within the atom); no division or remainder.
std::string swizzled(const Swizzle &s, const std::string &x) {
  std::string atomMask = std::to_string(s.atomElems() - 1) + "LL";
  return "(" + x + " & ~" + atomMask + ") + ((" + x + " & " + atomMask +
         ") ^ ((" + x + " >> " + std::to_string(s.shift) + ") & " +
         std::to_string(s.yMask()) + "LL))";
}

class Emitter {
public:
  Emitter(const CopyPlan &plan, const EmitNames &names)
      : plan(plan), op(plan.op), names(names),
        elemBytes(elemBits(op.src.elem) / 8) {}

  std::string run();

private:
  void line(const std::string &s) {
    out << names.indent << std::string(2 * depth, ' ') << s << "\n";
  }
  void open(const std::string &s) {
    line(s + " {");
    ++depth;
  }
  void close() {
    --depth;
    line("}");
  }
  void prologue();
  void emitVector();
  void emitScalar();
  /// Emits `const long long <off> = ...` for side `s` from the pre-swizzle
  /// offset expression `linear`.
  void defineOffset(const Side &s, const char *var, const std::string &linear,
                    bool applySwizzle);
  /// The byte address of side `s` at element offset `off` (+ `plus` bytes).
  std::string address(const Side &s, unsigned plus = 0) const;
  void emitAccess(const Side &from, const Side &to, unsigned bytes);
  /// Decomposes the linear index `icp_l` row-major over `dims` (innermost
  /// first, the outermost digit takes the rest) and defines both sides'
  /// access offsets from the digits, swizzle applied.
  void decompose(const std::vector<PDim> &dims);
  std::vector<std::string> ptxChunk(bool load, const Side &s, unsigned bytes,
                                    unsigned firstReg, unsigned plus);

  const CopyPlan &plan;
  const CopyOp &op;
  const EmitNames &names;
  unsigned elemBytes;
  std::ostringstream out;
  unsigned depth = 0;
  Side dstSide{&op.dst, "icp_dst", "icp_dl", "icp_dt", "icp_do", true};
  Side srcSide{&op.src, "icp_src", "icp_sl", "icp_st", "icp_so", false};
};

void Emitter::prologue() {
  line("const unsigned char *const icp_src = reinterpret_cast<const unsigned "
       "char *>(" + names.src + ");");
  line("unsigned char *const icp_dst = reinterpret_cast<unsigned char *>(" +
       names.dst + ");");
  if (op.scope.threads > 1)
    line("const long long icp_tid = static_cast<long long>(" + names.tid +
         ");");
  else
    line("const long long icp_tid = 0;");
  line("(void)icp_tid;");
}

void Emitter::defineOffset(const Side &s, const char *var,
                           const std::string &linear, bool applySwizzle) {
  if (!applySwizzle || !s.tile->swizzle) {
    line(std::string("const long long ") + var + " = " + linear + ";");
    return;
  }
  line(std::string("const long long ") + s.lin + " = " + linear + ";");
  line(std::string("const long long ") + var + " = " +
       swizzled(*s.tile->swizzle, s.lin) + ";");
}

std::string Emitter::address(const Side &s, unsigned plus) const {
  std::string a = std::string(s.buf) + " + " + scaled(s.off, elemBytes);
  if (plus)
    a += " + " + std::to_string(plus);
  return a;
}

std::vector<std::string> Emitter::ptxChunk(bool load, const Side &s,
                                           unsigned bytes, unsigned firstReg,
                                           unsigned plus) {
  unsigned regs = bytes >= 4 ? bytes / 4 : 1;
  MemSpace space = s.tile->space;
  std::string ptr = address(s, plus);
  std::string addr = space == MemSpace::Shared
                         ? "\"r\"(::intent::rt::shared_address(" + ptr + "))"
                         : "\"l\"(" + ptr + ")";
  std::string list;
  for (unsigned i = 0; i < regs; ++i)
    list += (i ? ", %" : "%") + std::to_string(load ? i : i + 1);
  if (regs > 1)
    list = "{" + list + "}";
  std::string mem = load ? "[%" + std::to_string(regs) + "]" : "[%0]";
  std::string text = "asm volatile(\"" + ptxAccess(load, space, bytes,
                                                   op.cache) + " " +
                     (load ? list + ", " + mem : mem + ", " + list) + ";\"";
  std::string vals;
  for (unsigned i = 0; i < regs; ++i)
    vals += std::string(i ? ", " : "") + (load ? "\"=r\"" : "\"r\"") +
            "(icp_r[" + std::to_string(firstReg + i) + "])";
  std::vector<std::string> lines = {text};
  if (load) {
    lines.push_back("             : " + vals);
    lines.push_back("             : " + addr + " : \"memory\");");
  } else {
    lines.push_back("             :: " + addr + ", " + vals);
    lines.push_back("             : \"memory\");");
  }
  return lines;
}

void Emitter::emitAccess(const Side &from, const Side &to, unsigned bytes) {
  std::string b = std::to_string(bytes);
  std::string hostLoad =
      "::intent::rt::copy_load_bits<" + b + ">(icp_r, " + address(from) + ");";
  std::string hostStore =
      "::intent::rt::copy_store_bits<" + b + ">(" + address(to) + ", icp_r);";
  auto device = [&](bool load, const Side &s) {
    if (s.tile->space == MemSpace::Local) {
      line(load ? hostLoad : hostStore);
      return;
    }
    auto emit = [&](bool split) {
      for (unsigned half = 0; half < (split ? 2u : 1u); ++half)
        for (const std::string &l : ptxChunk(load, s, split ? 16 : bytes,
                                             half * 4, half * 16))
          line(l);
    };
    // PTX has 256-bit accesses for global memory only, and from sm_100 on:
    // a shared side, or an older GPU, moves the same bytes as two 128-bit
    // halves.
    if (bytes != 32 || s.tile->space != MemSpace::Global)
      return emit(bytes == 32);
    out << "#if __CUDA_ARCH__ >= 1000\n";
    emit(false);
    out << "#else\n";
    emit(true);
    out << "#endif\n";
  };
  out << "#if defined(__CUDA_ARCH__)\n";
  device(true, from);
  device(false, to);
  out << "#else\n";
  line(hostLoad);
  line(hostStore);
  out << "#endif\n";
}

/// A dimension's extent as C++: the constant or the runtime expression.
static std::string extentExpr(const PDim &d) {
  return d.dynExtent.empty() ? std::to_string(d.extent)
                             : "static_cast<long long>(" + d.dynExtent + ")";
}

void Emitter::decompose(const std::vector<PDim> &dims) {
  for (size_t i = dims.size(); i-- > 0;) {
    std::string q = "icp_q" + std::to_string(i);
    if (i == 0) {
      line("const long long " + q + " = icp_l;");
      continue;
    }
    line("const long long " + q + " = icp_l % " + extentExpr(dims[i]) + ";");
    line("icp_l /= " + extentExpr(dims[i]) + ";");
  }
  if (dims.empty())
    line("(void)icp_l;");
  for (const Side *s : {&dstSide, &srcSide}) {
    std::vector<std::string> terms = baseTerms(s->tile->base);
    for (size_t i = 0; i < dims.size(); ++i) {
      int64_t stride = s->dst ? dims[i].dst : dims[i].src;
      if (stride != 0)
        terms.push_back(scaled("icp_q" + std::to_string(i), stride));
    }
    defineOffset(*s, s->off, sum(terms), true);
  }
}

void Emitter::emitVector() {
  const Partition &p = plan.part;
  unsigned bytes = plan.vecBits / 8;
  if (p.elements == 0) {
    line("// empty region: nothing to move");
    return;
  }
  // Per-thread offsets (factored) or the decomposed fused index (not).
  std::vector<std::string> tdigits;
  if (p.factored) {
    int64_t inner = 1;
    std::vector<std::string> exprs(p.threadDims.size());
    for (size_t i = p.threadDims.size(); i-- > 0;) {
      std::string e = inner == 1 ? "icp_tid"
                                 : "icp_tid / " + std::to_string(inner);
      if (i != 0)
        e = (inner == 1 ? e : "(" + e + ")") + " % " +
            std::to_string(p.threadDims[i].extent);
      exprs[i] = e;
      inner *= p.threadDims[i].extent;
    }
    for (size_t i = 0; i < exprs.size(); ++i) {
      if (p.threadDims.size() == 1) {
        tdigits.push_back("icp_tid");
        break;
      }
      std::string v = "icp_t" + std::to_string(i);
      line("const long long " + v + " = " + exprs[i] + ";");
      tdigits.push_back(v);
    }
    for (const Side *s : {&dstSide, &srcSide}) {
      std::vector<std::string> terms = baseTerms(s->tile->base);
      for (size_t i = 0; i < p.threadDims.size(); ++i) {
        int64_t stride = s->dst ? p.threadDims[i].dst : p.threadDims[i].src;
        if (stride != 0)
          terms.push_back(scaled(tdigits[i], stride));
      }
      bool hoist = s->tile->swizzle && swizzleHoistable(plan, s->dst);
      defineOffset(*s, s->thr, sum(terms), hoist);
    }
  }
  unsigned regs = bytes >= 4 ? bytes / 4 : 1;
  line("unsigned int icp_r[" + std::to_string(regs) + "];");

  // The serial outer loop nest, kept rolled (`#pragma unroll 1`).
  std::vector<std::string> fvars;
  const std::vector<PDim> &loops =
      p.factored ? p.outerDims : std::vector<PDim>{{p.outer, 0, 0, ""}};
  for (size_t i = 0; i < loops.size(); ++i) {
    std::string f = "icp_f" + std::to_string(i);
    out << "#pragma unroll 1\n";
    open("for (long long " + f + " = 0; " + f + " < " +
         std::to_string(loops[i].extent) + "; ++" + f + ")");
    fvars.push_back(f);
  }
  if (p.factored) {
    for (const Side *s : {&dstSide, &srcSide}) {
      std::vector<std::string> terms = {s->thr};
      for (size_t i = 0; i < loops.size(); ++i) {
        int64_t stride = s->dst ? loops[i].dst : loops[i].src;
        if (stride != 0)
          terms.push_back(scaled(fvars[i], stride));
      }
      bool perIteration = s->tile->swizzle && !swizzleHoistable(plan, s->dst);
      defineOffset(*s, s->off, sum(terms), perIteration);
    }
  } else {
    line("long long icp_l = icp_f0 * " + std::to_string(p.threads) +
         " + icp_tid;");
    decompose(p.fused);
  }
  emitAccess(srcSide, dstSide, bytes);
  for (size_t i = 0; i < loops.size(); ++i)
    close();
}

void Emitter::emitScalar() {
  const std::vector<PDim> &dims = plan.scalarDims;
  std::vector<std::string> factors;
  for (const PDim &d : dims)
    factors.push_back(extentExpr(d));
  std::string n;
  for (const std::string &f : factors)
    n += (n.empty() ? "" : " * ") + f;
  line("const long long icp_n = " + (n.empty() ? "1" : n) + ";");
  if (!plan.distributed && op.scope.threads > 1)
    open("if (icp_tid == " + std::to_string(plan.runner) + ")");
  std::string first = plan.distributed ? "icp_tid" : "0";
  std::string step =
      plan.distributed ? std::to_string(op.scope.threads) : std::string("1");
  out << "#pragma unroll 1\n";
  open("for (long long icp_e = " + first + "; icp_e < icp_n; icp_e += " +
       step + ")");
  line("long long icp_l = icp_e;");
  decompose(dims);
  line("::intent::rt::copy_bytes<" + std::to_string(elemBytes) + ">(" +
       address(dstSide) + ", " + address(srcSide) + ");");
  close();
  if (!plan.distributed && op.scope.threads > 1)
    close();
}

std::string Emitter::run() {
  std::ostringstream head;
  head << "{ // copy " << plan.variant << "/" << plan.path << " "
       << directionName(op) << " " << elemTypeName(op.src.elem) << " ";
  if (plan.isVector())
    head << partitionShape(plan.part) << " " << plan.vecBits << "-bit";
  else
    head << (plan.distributed ? "round-robin" : "single thread");
  head << ": " << op.dst.name << " <- " << op.src.name;
  line(head.str());
  ++depth;
  prologue();
  if (plan.isVector())
    emitVector();
  else
    emitScalar();
  --depth;
  line("}");
  return out.str();
}

} // namespace

std::string emitCopy(const CopyPlan &plan, const EmitNames &names) {
  return Emitter(plan, names).run();
}

} // namespace intent::copy
