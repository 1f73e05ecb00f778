//===- CudaEmitter.cpp - Physical program -> CUDA C++ ---------------------===//
//
// Program structure, scalars, memory and control (the naming scheme is in
// ProgramEmitter.h; structured ops are in EmitStructured.cpp).
// `break`/`continue` inside nested ifs assign the carried values and jump to
// the loop's exit/step label: every region is a `{ }` scope, so the jumps
// only ever leave scopes. A loop emitted more than once (its region is, e.g.
// a cta-rows reduce's value) gets distinct labels per emission.
//
//===----------------------------------------------------------------------===//

#include "Emit/CudaEmitter.h"

#include "Physical/Dispatch.h"

#include "Emit/ProgramEmitter.h"
#include "Physical/IndexRange.h"
#include "Physical/Coop.h"
#include "Physical/Structured.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/Format.h"

#include <cmath>
#include <cstdint>
#include <cstdio>

using namespace intent;
using namespace intent::phys;
using intent::emit::EmitOptions;
using namespace intent::emit::detail;


std::string intent::emit::detail::scalarCxx(ScalarKind k) {
  switch (k) {
  case ScalarKind::Bool:
    return "bool";
  case ScalarKind::I8:
    return "int8_t";
  case ScalarKind::I16:
    return "int16_t";
  case ScalarKind::I32:
    return "int32_t";
  case ScalarKind::I64:
    return "int64_t";
  case ScalarKind::U8:
    return "uint8_t";
  case ScalarKind::U16:
    return "uint16_t";
  case ScalarKind::U32:
    return "uint32_t";
  case ScalarKind::U64:
    return "uint64_t";
  case ScalarKind::F16:
    return "intent::half";
  case ScalarKind::BF16:
    return "intent::bfloat16";
  case ScalarKind::F32:
    return "float";
  case ScalarKind::F64:
    return "double";
  }
  llvm_unreachable("bad scalar kind");
}

bool intent::emit::detail::isFloatKind(ScalarKind k) {
  return k == ScalarKind::F16 || k == ScalarKind::BF16 ||
         k == ScalarKind::F32 || k == ScalarKind::F64;
}

bool intent::emit::detail::isSignedInt(ScalarKind k) {
  return k == ScalarKind::I8 || k == ScalarKind::I16 || k == ScalarKind::I32 ||
         k == ScalarKind::I64;
}

namespace {

/// A floating-point literal of type `k` that denotes exactly `d`.
std::string floatLiteral(double d, ScalarKind k) {
  std::string t = scalarCxx(k);
  if (std::isnan(d))
    return "static_cast<" + t + ">(NAN)";
  if (std::isinf(d))
    return std::string("static_cast<") + t + ">(" + (d < 0 ? "-" : "") +
           "INFINITY)";
  char buf[64];
  std::snprintf(buf, sizeof(buf), "%a", d);
  return "static_cast<" + t + ">(" + buf + ")";
}

std::string cmpOperator(llvm::StringRef pred) {
  if (pred == "eq")
    return "==";
  if (pred == "ne")
    return "!=";
  if (pred == "lt")
    return "<";
  if (pred == "le")
    return "<=";
  if (pred == "gt")
    return ">";
  if (pred == "ge")
    return ">=";
  llvm::report_fatal_error(llvm::Twine("unknown comparison predicate ") +
                           pred);
}

std::string binaryOperator(Opcode opc) {
  switch (opc) {
  case Opcode::Add:
    return "+";
  case Opcode::Sub:
    return "-";
  case Opcode::Mul:
    return "*";
  case Opcode::Div:
    return "/";
  case Opcode::Rem:
    return "%";
  case Opcode::BitAnd:
    return "&";
  case Opcode::BitOr:
    return "|";
  case Opcode::BitXor:
    return "^";
  case Opcode::Shl:
    return "<<";
  case Opcode::Shr:
    return ">>";
  default:
    return "";
  }
}

/// The C math function for `fn` (a double-precision C name such as "exp")
/// at scalar kind `k`; with `fast`, the runtime's approximate form of the
/// single-precision functions that have one.
std::string mathFunction(llvm::StringRef fn, ScalarKind k, bool fast) {
  bool f32 = k == ScalarKind::F32;
  if (fast && f32 &&
      llvm::is_contained({"exp", "exp2", "log", "log2", "log10", "sin", "cos",
                          "tan", "pow"},
                         fn))
    return "::intent::rt::fast_" + fn.str();
  if (fn == "abs") {
    if (isFloatKind(k))
      return f32 ? "fabsf" : "fabs";
    return k == ScalarKind::I64 ? "llabs" : "abs";
  }
  std::string name = fn.str();
  if (name == "isnan" || name == "isinf" || name == "isfinite" ||
      name == "signbit")
    return name;
  return f32 ? name + "f" : name;
}

/// Whether a launch expression of `p` reads the device's multiprocessor
/// count (the ABI struct then carries it).
bool usesSmCount(const phys::Program &p) {
  for (const LaunchExpr &e : p.exprs)
    if (e.kind == LaunchExpr::Kind::SmCount)
      return true;
  return false;
}

/// The options that name Program::alternative's symbols apart from the
/// program's own.
EmitOptions alternativeOptions(const phys::Program &p,
                               const EmitOptions &opts) {
  EmitOptions alt = opts;
  alt.symbolPrefix +=
      p.alternativeKind == phys::Program::AlternativeKind::SplitRows
          ? "split_rows_"
          : "long_rows_";
  return alt;
}

/// Stands for `#line <next line> "<generated file>"` until the whole file is
/// written and line numbers are known.
const char *const kLineReset = "//@intent-line-reset";

} // namespace

std::string intent::emit::detail::literal(const AttrValue &v, ScalarKind k) {
  if (const auto *b = std::get_if<bool>(&v))
    return *b ? "true" : "false";
  if (k == ScalarKind::Bool) {
    bool on = std::holds_alternative<int64_t>(v) ? std::get<int64_t>(v) != 0
              : std::holds_alternative<double>(v) ? std::get<double>(v) != 0
                                                   : false;
    return on ? "true" : "false";
  }
  if (const auto *d = std::get_if<double>(&v))
    return isFloatKind(k) ? floatLiteral(*d, k)
                          : "static_cast<" + scalarCxx(k) + ">(" +
                                std::to_string(*d) + ")";
  int64_t i = std::holds_alternative<int64_t>(v) ? std::get<int64_t>(v) : 0;
  if (isFloatKind(k))
    return floatLiteral(static_cast<double>(i), k);
  // INT64_C(-9223372036854775808) would negate an out-of-range literal.
  std::string text = i == INT64_MIN ? "(-INT64_C(9223372036854775807) - 1)"
                                    : "INT64_C(" + std::to_string(i) + ")";
  return "static_cast<" + scalarCxx(k) + ">(" + text + ")";
}

void ProgramEmitter::emit() {
  emitArgs();
  emitLaunchEvaluator();
  emitStageBytesFunction();
  emitRowRegFunctions();
  emitProgramFunction();
  if (hasDenseVariant()) {
    dense = true;
    narrow = phys::denseInt32Values(p);
    emitProgramFunction();
    emitGlobal();
    dense = false;
    narrow.clear();
  }
  if (hasHostSerial()) {
    hostSerial = true;
    emitProgramFunction();
    hostSerial = false;
  }
  if (hasSerialTwin())
    ProgramEmitter(os, *p.serialTwin, opts).emitSerialTwin(m);
  emitGlobal();
  emitWrapper();
}

bool ProgramEmitter::hasDenseVariant() const {
  if (p.regMaxK)
    return false;
  for (const phys::Segment &s : p.segments)
    if (s.tile >= 0)
      return true;
  return false;
}

bool ProgramEmitter::hasSerialTwin() const {
  return p.serialTwin && !hasHostSerial() && spreadsOverThreads(p) &&
         p.serialTwin->scope == ExecScope::Thread &&
         !spreadsOverThreads(*p.serialTwin);
}

void ProgramEmitter::emitSerialTwin(const std::string &owner) {
  m = owner + "_serial";
  os << "/// cpu mode's serial form of " << p.name
     << ": the kernel as the physical passes found it, one host thread per "
        "program id (Program::serialTwin).\n";
  os << "using " << m << "_args = " << owner << "_args;\n";
  emitLaunchEvaluator();
  emitProgramFunction();
}

bool ProgramEmitter::hasHostSerial() const {
  if (p.scope != ExecScope::CTA)
    return false;
  // A program written with cooperative primitives runs
  // its threads as host fibers in cpu mode: it has no serial form.
  return !spreadsOverThreads(p);
}

void ProgramEmitter::indent() {
  for (unsigned i = 0; i < depth; ++i)
    os << "  ";
}

void ProgramEmitter::line(const std::string &text) {
  indent();
  os << text << "\n";
}

void ProgramEmitter::open(const std::string &text) {
  line(text);
  ++depth;
}

void ProgramEmitter::close(const std::string &text) {
  --depth;
  line(text);
}

void ProgramEmitter::lineDirective(const Loc &l) {
  if (!opts.lineDirectives || !l.valid() || l.line == lastLine)
    return;
  lastLine = l.line;
  os << "#line " << l.line << " \"" << opts.sourceFile << "\"\n";
}

void ProgramEmitter::emitArgs() {
  os << "/// ABI of " << p.name << ": the wrapper's parameters plus the "
     << "invocation workspace.\n";
  os << "struct " << m << "_args {\n";
  for (const Param &par : p.params)
    os << "  " << emit::cxxType(par.type) << " " << par.name << ";\n";
  os << "  void *workspace;\n";
  // INTENT_CHECK=bounds: set by the runtime, null when checks are off.
  os << "  ::intent::rt::bounds_record *check;\n";
  // The device's multiprocessors, read once by the wrapper (a launch
  // expression the program evaluates on the device too).
  if (usesSmCount(p))
    os << "  int64_t sm_count;\n";
  os << "};\n\n";
}

std::string ProgramEmitter::exprText(unsigned e) {
  const LaunchExpr &x = p.exprs[e];
  auto operand = [&](unsigned i) { return "e" + std::to_string(x.operands[i]); };
  std::string t = scalarCxx(x.type);
  switch (x.kind) {
  case LaunchExpr::Kind::Const:
    if (x.type == ScalarKind::Bool)
      return x.value ? "true" : "false";
    return "static_cast<" + t + ">(INT64_C(" + std::to_string(x.value) + "))";
  case LaunchExpr::Kind::Param:
    return "a." + p.params[x.param].name;
  case LaunchExpr::Kind::Extent:
    return "a." + p.params[x.param].name + ".extent(" + std::to_string(x.dim) +
           ")";
  case LaunchExpr::Kind::Stride:
    return "a." + p.params[x.param].name + ".stride(" + std::to_string(x.dim) +
           ")";
  case LaunchExpr::Kind::Cast:
    return "static_cast<" + t + ">(" + operand(0) + ")";
  case LaunchExpr::Kind::Add:
    return operand(0) + " + " + operand(1);
  case LaunchExpr::Kind::Sub:
    return operand(0) + " - " + operand(1);
  case LaunchExpr::Kind::Mul:
    return operand(0) + " * " + operand(1);
  case LaunchExpr::Kind::Div:
    return operand(0) + " / " + operand(1);
  case LaunchExpr::Kind::Rem:
    return operand(0) + " % " + operand(1);
  case LaunchExpr::Kind::Shr:
    return operand(0) + " >> " + operand(1);
  case LaunchExpr::Kind::Min:
    return operand(0) + " < " + operand(1) + " ? " + operand(0) + " : " +
           operand(1);
  case LaunchExpr::Kind::Max:
    return operand(0) + " > " + operand(1) + " ? " + operand(0) + " : " +
           operand(1);
  case LaunchExpr::Kind::Neg:
    return "-" + operand(0);
  case LaunchExpr::Kind::Cmp:
    return operand(0) + " " + cmpOperator(x.pred) + " " + operand(1);
  case LaunchExpr::Kind::Select:
    return operand(0) + " ? " + operand(1) + " : " + operand(2);
  case LaunchExpr::Kind::SmCount:
    return "static_cast<" + t + ">(a.sm_count)";
  }
  llvm_unreachable("bad launch expression");
}

void ProgramEmitter::emitLaunchEvaluator() {
  os << "/// Launch expressions of " << p.name
     << " (segment lengths, offsets, total).\n";
  os << "struct " << m << "_launch {\n";
  for (unsigned e = 0; e < p.exprs.size(); ++e)
    os << "  " << scalarCxx(p.exprs[e].type) << " e" << e << ";\n";
  os << "};\n";
  os << "static INTENT_HD inline " << m << "_launch " << m
     << "_eval(const " << m << "_args &a) {\n";
  for (unsigned e = 0; e < p.exprs.size(); ++e)
    os << "  const " << scalarCxx(p.exprs[e].type) << " e" << e << " = "
       << exprText(e) << ";\n";
  os << "  return {";
  for (unsigned e = 0; e < p.exprs.size(); ++e)
    os << (e ? ", " : "") << "e" << e;
  os << "};\n}\n\n";
}

void ProgramEmitter::emitProgramFunction() {
  if (hostSerial) {
    // cpu mode's default for this program (docs/runtime.md §5): the CTA's
    // work on one host thread, no fibers.
    os << "/// One program instance of " << p.name
       << " run serially by one host thread (cpu mode).\n";
    os << "static inline void " << m << "_host_program(int64_t pid, const "
       << m << "_args &a) {\n";
  } else {
    os << "/// One program instance of " << p.name << " (exec scope "
       << execScopeName(p.scope) << ").\n";
    // CK: the bounds-checked variant (INTENT_CHECK=bounds); RK (cta-rows):
    // RK row elements per thread in registers.
    os << "template <" << (p.regMaxK ? "int RK, " : "") << "bool CK>\n";
    os << "static INTENT_HD void " << m << (dense ? "_dense" : "")
       << "_program(int64_t pid, const " << m << "_args &a) {\n";
  }
  depth = 1;
  regReduceIndex = regReduceCount = 0;
  if (p.regMaxK && !hostSerial)
    walk(*p.body, [&](const Op &o) {
      if ((o.opcode == Opcode::Reduce || o.opcode == Opcode::ArgReduce) &&
          o.strAttr("dist") == "cta")
        ++regReduceCount;
    });
  indent();
  os << "const " << m << "_launch L = " << m << "_eval(a);\n";
  indent();
  os << "(void)L;\n";
  const Block &entry = p.body->block;
  for (unsigned i = 0; i < entry.args.size(); ++i) {
    indent();
    os << "const auto " << name(entry.args[i]) << " = a." << p.params[i].name
       << ";\n";
    indent();
    os << "(void)" << name(entry.args[i]) << ";\n";
  }
  emitOps(entry, /*pid=*/"pid");
  depth = 0;
  os << "}\n";
  if (lastLine)
    os << kLineReset << "\n";
  lastLine = 0;
  os << "\n";
}

void ProgramEmitter::emitOps(const Block &b, const std::string &pid) {
  for (const auto &op : b.ops) {
    // Register rows (EmitRowRegs.cpp): a value kept in the row slot.
    if (!regSlot.empty() && op->attr("row_cached")) {
      lineDirective(op->loc);
      declare(op->result(),
              rowCacheArray(*op, op->intAttr("row_cached")) + "[" + regSlot +
                  "]");
      continue;
    }
    emitOp(*op, pid);
    if (!regSlot.empty() && op->attr("row_cache"))
      line(rowCacheArray(*op, op->intAttr("row_cache")) + "[" + regSlot +
           "] = " + name(op->result()) + ";  // row-cache");
  }
}

void ProgramEmitter::declare(const Value *v, const std::string &init) {
  indent();
  // Not `const`: nvcc's front end spends minutes on long chains of const
  // locals (measured on grid-reduce's arg-merge code: > 150 s as const,
  // 8 s without); SSA values are never reassigned either way.
  os << valueType(v) << " " << name(v) << " = " << init << ";\n";
}

std::string ProgramEmitter::valueType(const Value *v) const {
  return narrow.count(v) ? "int32_t" : emit::cxxType(v->type);
}

std::string ProgramEmitter::wide(const Value *v) const {
  return narrow.count(v) ? "static_cast<int64_t>(" + name(v) + ")" : name(v);
}

std::string ProgramEmitter::binaryExpr(const Op &op) {
  const Type &t = op.result()->type;
  std::string ty = emit::cxxType(t);
  if (narrow.count(op.result()) && (op.opcode == Opcode::Add ||
                                    op.opcode == Opcode::Sub ||
                                    op.opcode == Opcode::Mul))
    // The result fits int32_t: 32-bit wrapping arithmetic gives it exactly
    // (the low 32 bits of a sum or product depend only on the operands'
    // low 32 bits).
    return "static_cast<int32_t>(static_cast<uint32_t>(" + name(op.operands[0]) +
           ") " + binaryOperator(op.opcode) + " static_cast<uint32_t>(" +
           name(op.operands[1]) + "))";
  std::string a = wide(op.operands[0]), b = wide(op.operands[1]);
  if (op.opcode == Opcode::Div && t.elem == ScalarKind::F32 && opts.fastMath)
    return "::intent::rt::fast_div(" + a + ", " + b + ")";
  if (op.opcode == Opcode::Rem && isFloatKind(t.elem))
    return std::string(t.elem == ScalarKind::F32 ? "fmodf(" : "fmod(") + a +
           ", " + b + ")";
  bool wraps = op.opcode == Opcode::Add || op.opcode == Opcode::Sub ||
               op.opcode == Opcode::Mul;
  if (wraps && t.isInteger() && isSignedInt(t.elem)) {
    std::string u = "u" + scalarCxx(t.elem);
    return "static_cast<" + ty + ">(static_cast<" + u + ">(" + a + ") " +
           binaryOperator(op.opcode) + " static_cast<" + u + ">(" + b + "))";
  }
  return "static_cast<" + ty + ">(" + a + " " + binaryOperator(op.opcode) +
         " " + b + ")";
}

std::string ProgramEmitter::elementRef(const Op &op) {
  const Value *mem = op.memory();
  llvm::ArrayRef<Value *> coords = op.coords();
  if (mem->type.isBuffer()) // a local array or a workspace slice
    return name(mem) + "[" + name(coords[0]) + "]";
  std::string s = name(mem) + ".data()[";
  if (coords.empty())
    s += "0";
  // The dense variant: a view parameter's last stride is 1 and its
  // in-bounds offsets fit int32_t, so the offset is 32-bit arithmetic on
  // the truncated coordinates and strides (each partial sum is bounded by
  // the view's span, checked by the wrapper).
  const bool offsets32 =
      dense && mem->isBlockArg() && mem->owner == &p.body->block;
  auto i32 = [&](const std::string &x) {
    return offsets32 ? "(int32_t)" + x : x;
  };
  for (unsigned d = 0; d < coords.size(); ++d) {
    if (d)
      s += " + ";
    if (offsets32 && d + 1 == coords.size())
      s += i32(name(coords[d]));
    else
      s += i32(name(coords[d])) + " * " +
           i32(name(mem) + ".stride(" + std::to_string(d) + ")");
  }
  return s + "]";
}

std::string ProgramEmitter::vectorAddress(const Op &op) {
  const Value *mem = op.memory();
  llvm::ArrayRef<Value *> coords = op.coords();
  if (mem->type.isBuffer())
    return name(mem) + " + " + name(coords[0]);
  // The last dimension has stride 1 (the op's contract, established by an
  // `aligned` branch): no multiply by a stride the compiler cannot see.
  std::string s = name(mem) + ".data() + ";
  for (unsigned d = 0; d + 1 < coords.size(); ++d)
    s += name(coords[d]) + " * " + name(mem) + ".stride(" +
         std::to_string(d) + ") + ";
  return s + name(coords.back());
}

void ProgramEmitter::emitCoopOp(const Op &op) {
  const std::string rt = "::intent::rt::";
  switch (op.opcode) {
  case Opcode::ThreadId:
    declare(op.result(), rt + "cta_thread()");
    return;
  case Opcode::LaneId:
    declare(op.result(), rt + "lane()");
    return;
  case Opcode::WarpId:
    declare(op.result(), rt + "warp_in_cta()");
    return;
  case Opcode::CtaSize:
    declare(op.result(), rt + "cta_size()");
    return;
  case Opcode::GridCtas:
    declare(op.result(), rt + "grid_ctas()");
    return;
  case Opcode::Barrier:
    if (op.strAttr("scope") == "grid")
      line(rt + "grid_barrier(" + name(op.operands[0]) + ");");
    else if (op.strAttr("scope") == "group")
      line(rt + "group_barrier(" + name(op.operands[0]) + " + " +
           name(op.operands[1]) + ", " + name(op.operands[2]) + ", " +
           name(op.operands[3]) + ");");
    else
      line(rt + (op.strAttr("scope") == "warp" ? "warp_barrier();"
                                               : "cta_barrier();"));
    return;
  case Opcode::Shuffle: {
    const std::string mode = op.strAttr("mode");
    const std::string fn = mode == "xor"    ? "warp_shfl_xor"
                           : mode == "down" ? "warp_shfl_down"
                                            : "warp_shfl";
    declare(op.result(), rt + fn + "(" + name(op.operands[0]) + ", " +
                             name(op.operands[1]) + ")");
    return;
  }
  case Opcode::VectorLoad: {
    const std::string w = std::to_string(op.intAttr("width"));
    const std::string v = "vl" + std::to_string(op.id);
    line("const auto " + v + " = " + rt + "load_vec<" + w + ">(" +
         vectorAddress(op) + ");");
    for (unsigned i = 0; i < op.results.size(); ++i)
      declare(op.result(i), v + "[" + std::to_string(i) + "]");
    return;
  }
  case Opcode::VectorStore: {
    const int64_t w = op.intAttr("width");
    const std::string v = "vs" + std::to_string(op.id);
    std::string init;
    for (int64_t i = 0; i < w; ++i)
      init += (i ? ", " : "") + name(op.operands[1 + i]);
    line(rt + "vec<" + scalarCxx(op.memory()->type.elem) + ", " +
         std::to_string(w) + "> " + v + ";");
    for (int64_t i = 0; i < w; ++i)
      line(v + "[" + std::to_string(i) + "] = " + name(op.operands[1 + i]) +
           ";");
    line(rt + "store_vec<" + std::to_string(w) + ">(" + vectorAddress(op) +
         ", " + v + ");");
    return;
  }
  case Opcode::Aligned: {
    // The element at an offset from the base, or at coordinates.
    const Value *m = op.operands[0];
    const std::string last = std::to_string(std::max(m->type.rank, 1) - 1);
    const unsigned coords = op.operands.size() - 1;
    std::string at = name(m) + ".data()";
    for (unsigned d = 0; d + 1 < coords; ++d)
      at += " + " + name(op.operands[1 + d]) + " * " + name(m) + ".stride(" +
            std::to_string(d) + ")";
    at += " + " + name(op.operands[coords]);
    declare(op.result(), "(" + name(m) + ".stride(" + last + ") == 1 && " +
                             rt + "is_aligned(" + at + ", " +
                             std::to_string(op.intAttr("bytes")) + "))");
    return;
  }
  case Opcode::CheckedLaunch:
    declare(op.result(), "!" + uncheckedLaunch());
    return;
  case Opcode::Bitcast:
    declare(op.result(), rt + "bit_cast<" + emit::cxxType(op.result()->type) +
                             ">(" + name(op.operands[0]) + ")");
    return;
  default:
    llvm_unreachable("not a cooperative primitive");
  }
}

std::string ProgramEmitter::boundsCondition(const Op &op) {
  const Value *mem = op.memory();
  llvm::ArrayRef<Value *> coords = op.coords();
  // A proven access (Physical/InBounds.h) cannot leave its view: the
  // checked device variant skips it (the host forms keep every check).
  if (mem->type.isBuffer() || coords.empty() ||
      (op.access.bounds == Bounds::Proven && !hostSerial))
    return "";
  int param = -1;
  for (unsigned i = 0; i < p.params.size(); ++i)
    if (p.param(i) == mem)
      param = static_cast<int>(i);
  // The device kernel comes in two variants (emitGlobal): CK false, with no
  // check code at all, and CK true, launched when INTENT_CHECK=bounds. The
  // host forms test a.check at run time.
  std::string s = hostSerial ? "(a.check == nullptr || ("
                             : "(!CK || a.check == nullptr || (";
  for (unsigned d = 0; d < coords.size(); ++d)
    s += std::string(d ? " && " : "") + "::intent::rt::check_index(a.check, " +
         name(coords[d]) + ", " + name(mem) + ".extent(" + std::to_string(d) +
         "), " + std::to_string(param) + ", " + std::to_string(d) + ", " +
         std::to_string(op.loc.line) + ", " + std::to_string(op.loc.col) +
         ")";
  return s + "))";
}

/// A buffer allocation instance: a local array (program/iteration-private,
/// filled here when the record has an init value) or the buffer's slice of
/// the invocation workspace (zero-filled by the runtime when required).
void ProgramEmitter::emitAlloc(const Op &op) {
  const Buffer &b = p.buffers[op.intAttr("buffer")];
  std::string t = scalarCxx(b.elem);
  indent();
  if (b.scope == BufferScope::InvocationWorkspace) {
    os << t << " *const " << name(op.result()) << " = reinterpret_cast<" << t
       << " *>(static_cast<char *>(a.workspace) + " << b.workspaceOffset
       << "); // workspace slice of buffer " << b.id << " (" << b.name
       << ")\n";
    return;
  }
  if (b.scope == BufferScope::CTAShared) {
    // A buffer sized per launch sits at a launch expression's offset.
    if (b.sizeExpr >= 0) {
      os << t << " *const " << name(op.result())
         << " = ::intent::rt::cta_shared<" << t << ">(L.e" << b.sharedOffsetExpr
         << "); // shared buffer " << b.id << " (" << b.name << "), L.e"
         << b.sizeExpr << " elements\n";
      return;
    }
    os << t << " *const " << name(op.result()) << " = ::intent::rt::cta_shared<"
       << t << ">(" << b.sharedOffset << "); // shared buffer " << b.id << " ("
       << b.name << "), " << b.size << " elements\n";
    return;
  }
  os << t << " " << name(op.result()) << "[" << b.size << "]; // buffer "
     << b.id << " (" << b.name << "), " << bufferScopeName(b.scope) << "\n";
  if (b.init != InitMode::Value)
    return; // first write is the author's obligation
  AttrValue v = isFloatKind(b.elem)
                    ? AttrValue(b.initValue)
                    : AttrValue(static_cast<int64_t>(b.initValue));
  indent();
  os << "for (int64_t k = 0; k < " << b.size << "; ++k) "
     << name(op.result()) << "[k] = " << emit::detail::literal(v, b.elem)
     << ";\n";
}

void ProgramEmitter::bindArgs(const Block &b, llvm::ArrayRef<std::string> sources) {
  for (unsigned i = 0; i < b.args.size(); ++i)
    declare(b.args[i], sources[i]);
}

std::string ProgramEmitter::carried(const Op &loop, unsigned k) {
  return "c" + std::to_string(loop.id) + "_" + std::to_string(k);
}

void ProgramEmitter::assignCarried(const Op &loop, const Op &term) {
  for (unsigned k = 0; k < term.operands.size(); ++k) {
    indent();
    os << carried(loop, k) << " = " << name(term.operands[k]) << ";\n";
  }
}

void ProgramEmitter::emitRegion(const Region &r,
                                llvm::ArrayRef<std::string> argSources,
                                const std::string &pid) {
  indent();
  os << "{\n";
  ++depth;
  bindArgs(r.block, argSources);
  emitOps(r.block, pid);
  --depth;
  indent();
  os << "}\n";
}

void ProgramEmitter::emitTileDispatch(const Op &op, const std::string &local,
                                      unsigned a) {
  // A tile segment (Physical/Dispatch.h tileSegment): the tile's base
  // coordinates from `local` (row-major over the other extents, the tiles
  // along `a`, the tiles along the last dimension; 32-bit division when
  // the tile count fits), then the thread's K direct instances (a warp
  // along the last dimension) and K transposed ones (a warp along `a`).
  const unsigned r = op.operands.size() - 4;
  const unsigned last = r - 1;
  const std::string t = "tile" + std::to_string(op.id);
  // The dense variant's coordinates and extents are 32-bit: the wrapper
  // checked that every coordinate, partial tiles' included, fits (an empty
  // domain has no tiles).
  const std::string ix = dense ? "int32_t" : "int64_t";
  auto ext = [&](unsigned d) {
    return (dense ? "(int32_t)" : "") + name(op.operands[4 + d]);
  };
  // TX = 2^S: 32, or the smallest power of two >= a shorter last extent
  // (Physical/Dispatch.h tileWidthExpr); TY = T / TX; the tile has R = K TY
  // rows. Offsets by shifts and masks when T and K are powers of two (a
  // 32-bit division otherwise).
  const int64_t threads = std::max(p.ctaThreads, kTileWidth);
  const int64_t rows = std::max<int64_t>(1, op.intAttr("rows", 1));
  auto log2 = [](int64_t v) {
    int64_t l = 0;
    while ((int64_t(1) << (l + 1)) <= v)
      ++l;
    return l;
  };
  const bool pow2 = (threads & (threads - 1)) == 0 && (rows & (rows - 1)) == 0;
  const std::string log2R =
      "(" + std::to_string(log2(threads) + log2(rows)) + " - " + t + "_s)";
  indent();
  os << "const int " << t << "_s = ";
  for (int w = kTileWidth, k = 5; w > 1; w /= 2, --k)
    os << ext(last) << " > " << w / 2 << " ? " << k << " : ";
  os << "0;\n";
  indent();
  os << "const " << ix << " " << t << "_tx = (" << ix << ")1 << " << t
     << "_s;\n";
  indent();
  os << "const " << ix << " " << t << "_ty = (" << ix << ")" << threads
     << " >> " << t << "_s;\n";
  indent();
  os << "const " << ix << " " << t << "_R = " << rows << " * " << t
     << "_ty;\n";
  indent();
  os << "const uint32_t " << t << "_tt = (uint32_t)::intent::rt::cta_thread();\n";
  const std::string tx = t + "_tx", ty = t + "_ty", R = t + "_R", tt = t + "_tt";
  auto count = [&](unsigned d) {
    if (d == a)
      return pow2 ? "((" + ext(d) + " + " + R + " - 1) >> " + log2R + ")"
                  : "((" + ext(d) + " + " + R + " - 1) / " + R + ")";
    if (d == last)
      return "((" + ext(d) + " + " + tx + " - 1) >> " + t + "_s)";
    return ext(d);
  };
  auto scale = [&](unsigned d) -> std::string {
    return d == a ? " * " + R : d == last ? " * " + tx : "";
  };
  indent();
  os << ix;
  for (unsigned d = 0; d < r; ++d)
    os << (d ? ", " : " ") << t << "_b" << d;
  os << ";\n";
  // The tile count fits 32 bits in the dense variant (it is at most the
  // instance count), else when checked here.
  for (int wide = 0; wide < (dense ? 1 : 2); ++wide) {
    const char *ty32 = wide ? "int64_t" : "uint32_t";
    indent();
    if (dense)
      os << "{\n";
    else if (!wide)
      os << "if (" << name(op.operands[2]) << " <= 0x7fffffff) {\n";
    else
      os << "} else {\n";
    ++depth;
    indent();
    os << ty32 << " " << t << "_r = (" << ty32 << ")(" << local << ");\n";
    for (unsigned d = r; d-- > 0;) {
      indent();
      os << "{ const " << ty32 << " n = (" << ty32 << ")" << count(d) << "; "
         << t << "_b" << d << " = (" << ix << ")(" << t << "_r % n)"
         << scale(d) << "; " << t << "_r /= n; }\n";
    }
    --depth;
  }
  indent();
  os << "}\n";
  std::vector<std::string> args;
  for (int transposed = 0; transposed < 2; ++transposed)
    for (int64_t k = 0; k < rows; ++k) {
      const std::string w = t + (transposed ? "_t" : "_c") + std::to_string(k);
      std::string offA, offLast;
      if (!transposed) {
        offA = "(" + ix + ")(" + tt + " >> " + t + "_s) * " +
               std::to_string(rows) + " + " + std::to_string(k);
        offLast = "(" + ix + ")(" + tt + " & (uint32_t)(" + tx + " - 1))";
      } else {
        const std::string m =
            "(" + tt + " + " + std::to_string(k * threads) + "u)";
        offA = pow2 ? "(" + ix + ")(" + m + " & (uint32_t)(" + R + " - 1))"
                    : "(" + ix + ")(" + m + " % (uint32_t)" + R + ")";
        offLast = pow2 ? "(" + ix + ")(" + m + " >> " + log2R + ")"
                       : "(" + ix + ")(" + m + " / (uint32_t)" + R + ")";
      }
      for (unsigned d = 0; d < r; ++d) {
        indent();
        os << "const " << ix << " " << w << "_" << d << " = " << t << "_b"
           << d;
        if (d == a)
          os << " + " << offA;
        else if (d == last)
          os << " + " << offLast;
        os << ";\n";
      }
      indent();
      os << "const bool " << w << "active = " << w << "_" << a << " < "
         << ext(a) << " && " << w << "_" << last << " < " << ext(last) << ";\n";
      std::string flat = w + "_0";
      for (unsigned d = 1; d < r; ++d)
        flat = "(" + flat + ") * " + ext(d) + " + " + w + "_" + std::to_string(d);
      indent();
      os << "const " << ix << " " << w << "i = " << w << "active ? " << flat
         << " : (" << ix << ")0;\n";
      args.push_back(w + "i");
      args.push_back(w + "active");
    }
  bindArgs(op.region(0)->block, args);
}

void ProgramEmitter::emitOp(const Op &op, const std::string &pid) {
  lineDirective(op.loc);
  switch (op.opcode) {
  case Opcode::ProgramId:
    declare(op.result(), pid);
    return;
  case Opcode::LaunchValue:
    declare(op.result(), "L.e" + std::to_string(op.intAttr("expr")));
    return;
  case Opcode::Segment: {
    const Value *id = op.operands[0];
    const Value *off = op.operands[1];
    const Value *len = op.operands[2];
    indent();
    os << "if (" << name(id) << " >= " << name(off) << " && " << name(id)
       << " - " << name(off) << " < " << name(len) << ") {  // group "
       << op.intAttr("group") << "\n";
    ++depth;
    std::string local = name(id) + " - " + name(off);
    int64_t spread = op.intAttr("spread", 0);
    if (spread && op.boolAttr("team") && op.boolAttr("lanes")) {
      // A lane-team segment (Physical/Dispatch.h laneTeamSegment): teams of
      // 2^S consecutive threads, (instance, worker, active).
      const std::string v = std::to_string(op.id), s = name(op.operands[4]),
                        n = name(op.operands[3]);
      const std::string t = "(int64_t)::intent::rt::cta_thread()";
      indent();
      os << "const int64_t team_raw" << v << " = (" << local << ") * ("
         << spread << " >> " << s << ") + (" << t << " >> " << s << ");\n";
      indent();
      os << "const bool team_active" << v << " = team_raw" << v << " < " << n
         << ";\n";
      indent();
      os << "const int64_t team_inst" << v << " = team_active" << v
         << " ? team_raw" << v << " : " << n << " - 1;\n";
      indent();
      os << "const int64_t team_worker" << v << " = " << t << " & (((int64_t)1 << "
         << s << ") - 1);\n";
      bindArgs(op.region(0)->block, {"team_inst" + v, "team_worker" + v,
                                     "team_active" + v});
      emitOps(op.region(0)->block, pid);
      --depth;
      indent();
      os << "}\n";
      return;
    }
    if (spread && op.boolAttr("team")) {
      // A team segment (Physical/Dispatch.h teamSegment): every thread
      // enters with (instance, worker, active).
      const std::string v = std::to_string(op.id), parts = name(op.operands[4]),
                        n = name(op.operands[3]);
      const std::string t = "::intent::rt::cta_thread()",
                        size = "::intent::rt::cta_size()";
      indent();
      os << "const int64_t team_raw" << v << " = ((" << local << ") / " << parts
         << ") * " << spread << " + " << t << " % " << spread << ";\n";
      indent();
      os << "const bool team_active" << v << " = team_raw" << v << " < " << n
         << ";\n";
      indent();
      os << "const int64_t team_inst" << v << " = team_active" << v
         << " ? team_raw" << v << " : " << n << " - 1;\n";
      indent();
      os << "const int64_t team_worker" << v << " = ((" << local << ") % "
         << parts << ") * (" << size << " / " << spread << ") + " << t << " / "
         << spread << ";\n";
      bindArgs(op.region(0)->block, {"team_inst" + v, "team_worker" + v,
                                     "team_active" + v});
      emitOps(op.region(0)->block, pid);
      --depth;
      indent();
      os << "}\n";
      return;
    }
    if (int64_t a = op.intAttr("tile", -1); a >= 0) {
      emitTileDispatch(op, local, static_cast<unsigned>(a));
      emitOps(op.region(0)->block, pid);
      --depth;
      indent();
      os << "}\n";
      return;
    }
    if (spread) {
      // Spread over the CTA's threads (Physical/Dispatch.h): this thread's
      // instance, if any.
      std::string v = "local" + std::to_string(op.id);
      indent();
      os << "const int64_t " << v << " = (" << local << ") * " << spread
         << " + ::intent::rt::cta_thread();\n";
      indent();
      os << "if (" << v << " < " << name(op.operands[3]) << ") {\n";
      ++depth;
      local = v;
    }
    bindArgs(op.region(0)->block, {local});
    emitOps(op.region(0)->block, pid);
    if (spread) {
      --depth;
      indent();
      os << "}\n";
    }
    --depth;
    indent();
    os << "}\n";
    return;
  }
  case Opcode::Delinearize: {
    // A tile segment's instance: its coordinates are the dispatch's
    // (emitTileDispatch), no division.
    const Value *x = op.operands[0];
    const Op *owner = x->isBlockArg() && x->owner && x->owner->parent
                          ? x->owner->parent->parent
                          : nullptr;
    if (const int i = owner ? tileSlot(*owner, x) : -1; i >= 0) {
      // Slot i: direct instance i (i < K), else transposed instance i - K
      // (emitTileDispatch's names).
      const int rows = owner->regions[0]->block.args.size() / 4;
      const std::string w = "tile" + std::to_string(owner->id) +
                            (i < rows ? "_c" + std::to_string(i)
                                      : "_t" + std::to_string(i - rows));
      for (unsigned d = 0; d < op.results.size(); ++d)
        declare(op.result(d), w + "active ? " + w + "_" + std::to_string(d) +
                                  " : (int64_t)0");
      return;
    }
    // Row-major: the last coordinate varies fastest.
    unsigned r = op.results.size();
    indent();
    os << "int64_t rest" << op.id << " = " << name(op.operands[0]) << ";\n";
    for (unsigned d = r; d-- > 0;) {
      const Value *n = op.operands[1 + d];
      if (d == 0) {
        declare(op.result(d), "rest" + std::to_string(op.id));
        continue;
      }
      declare(op.result(d),
              "rest" + std::to_string(op.id) + " % " + name(n));
      indent();
      os << "rest" << op.id << " /= " << name(n) << ";\n";
    }
    // cta-rows' annotated form: the instance's row is decoded.
    const std::vector<const Value *> rows(op.results.begin(), op.results.end());
    const bool instance = op.parentOp() &&
                          op.parentOp()->opcode == Opcode::Segment &&
                          op.operands[0] == op.parent->args[0];
    if (!p.stagedParams.empty() && instance && !hostSerial)
      emitRowStaging(rows);
    if (p.regMaxK && instance && !hostSerial)
      emitRowRegisters(rows);
    return;
  }
  case Opcode::Constant:
    declare(op.result(), literal(*op.attr("value"), op.result()->type.elem));
    return;
  case Opcode::Add:
  case Opcode::Sub:
  case Opcode::Mul:
  case Opcode::Div:
  case Opcode::Rem:
  case Opcode::BitAnd:
  case Opcode::BitOr:
  case Opcode::BitXor:
  case Opcode::Shl:
  case Opcode::Shr:
    declare(op.result(), binaryExpr(op));
    return;
  case Opcode::Neg:
    declare(op.result(), "static_cast<" + emit::cxxType(op.result()->type) +
                             ">(-" + wide(op.operands[0]) + ")");
    return;
  case Opcode::BitNot:
    declare(op.result(), "static_cast<" + emit::cxxType(op.result()->type) +
                             ">(~" + wide(op.operands[0]) + ")");
    return;
  case Opcode::Not:
    declare(op.result(), "!" + name(op.operands[0]));
    return;
  case Opcode::Min:
  case Opcode::Max: {
    const std::string a = name(op.operands[0]), b = name(op.operands[1]);
    // std::min(a, b) = (b < a) ? b : a; std::max(a, b) = (a < b) ? b : a.
    if (op.opcode == Opcode::Min)
      declare(op.result(), "(" + b + " < " + a + ") ? " + b + " : " + a);
    else
      declare(op.result(), "(" + a + " < " + b + ") ? " + b + " : " + a);
    return;
  }
  case Opcode::Cmp:
    declare(op.result(), name(op.operands[0]) + " " +
                             cmpOperator(op.strAttr("pred")) + " " +
                             name(op.operands[1]));
    return;
  case Opcode::Select:
    declare(op.result(), name(op.operands[0]) + " ? " +
                             name(op.operands[1]) + " : " +
                             name(op.operands[2]));
    return;
  case Opcode::Cast:
    declare(op.result(), "static_cast<" + emit::cxxType(op.result()->type) +
                             ">(" + name(op.operands[0]) + ")");
    return;
  case Opcode::Math: {
    std::string call =
        mathFunction(op.strAttr("fn"),
                     op.operands.empty() ? op.result()->type.elem
                                         : op.operands[0]->type.elem,
                     opts.fastMath) +
        "(";
    for (unsigned i = 0; i < op.operands.size(); ++i)
      call += (i ? ", " : "") + wide(op.operands[i]);
    declare(op.result(), "static_cast<" + emit::cxxType(op.result()->type) +
                             ">(" + call + "))");
    return;
  }
  case Opcode::Rng:
    // The header's Philox (INTENT_HD): the same code runs on the host, in
    // CPU mode and on the device.
    declare(op.result(), "intent::philox(" + name(op.operands[0]) + ", " +
                             name(op.operands[1]) + ")." +
                             op.strAttr("fn") + "(" + name(op.operands[2]) +
                             ")");
    return;
  case Opcode::Extent:
  case Opcode::Stride:
    declare(op.result(), name(op.operands[0]) +
                             (op.opcode == Opcode::Extent ? ".extent("
                                                          : ".stride(") +
                             std::to_string(op.intAttr("dim")) + ")");
    return;
  case Opcode::Alloc:
    emitAlloc(op);
    return;
  case Opcode::Load: {
    auto over = loadOverride.find(&op);
    if (over != loadOverride.end()) {
      declare(op.result(), over->second);
      return;
    }
    std::string ref = elementRef(op);
    std::string inBounds = boundsCondition(op);
    if (!inBounds.empty())
      ref = inBounds + " ? " + ref + " : " + emit::cxxType(op.result()->type) +
            "{}";
    if (op.boolAttr("staged") && !hostSerial)
      ref = "gstage ? gs" + std::to_string(op.memory()->argNo) + "[" +
            name(op.coords()[1]) + "] : " + ref;
    if (const Value *g = op.guard())
      ref = name(g) + " ? " + ref + " : " +
            emit::cxxType(op.result()->type) + "{}";
    declare(op.result(), ref);
    return;
  }
  case Opcode::Store: {
    indent();
    auto over = storeOverride.find(&op);
    if (over != storeOverride.end()) {
      os << over->second << " = " << name(op.storedValue()) << ";\n";
      return;
    }
    if (op.access.active == ActiveSet::Leader && p.scope == ExecScope::CTA &&
        !hostSerial)
      os << "if (::intent::rt::cta_thread() == 0) ";
    if (const Value *g = op.guard())
      os << "if (" << name(g) << ") ";
    std::string inBounds = boundsCondition(op);
    if (!inBounds.empty())
      os << "if " << inBounds << " ";
    os << elementRef(op) << " = " << name(op.storedValue()) << ";\n";
    return;
  }
  case Opcode::Atomic:
  case Opcode::AtomicCas:
    emitAtomic(op);
    return;
  case Opcode::Print:
    emitPrint(op);
    return;
  case Opcode::If:
    emitIf(op, pid);
    return;
  case Opcode::Loop:
    emitLoop(op, pid);
    return;
  case Opcode::For: {
    const Block &body = op.region(0)->block;
    if (op.strAttr("dist") == "cta" && !hostSerial) {
      if (p.regMaxK) {
        indent();
        os << "if constexpr (RK > 0) {\n";
        ++depth;
        emitCtaForRegs(op, pid);
        --depth;
        indent();
        os << "} else\n";
      }
      indent();
      os << "for (int64_t " << name(body.args[0]) << " = "
         << name(op.operands[0]) << " + ::intent::rt::cta_thread(); "
         << name(body.args[0]) << " < " << name(op.operands[1]) << "; "
         << name(body.args[0]) << " += ::intent::rt::cta_size()) {\n";
      ++depth;
      emitOps(body, pid);
      --depth;
      indent();
      os << "}\n";
      return;
    }
    printUnroll(op);
    indent();
    os << "for (int64_t " << name(body.args[0]) << " = "
       << name(op.operands[0]) << "; " << name(body.args[0]) << " < "
       << name(op.operands[1]) << "; ++" << name(body.args[0]) << ") {\n";
    ++depth;
    emitOps(body, pid);
    --depth;
    indent();
    os << "}\n";
    return;
  }
  case Opcode::Reduce:
  case Opcode::ArgReduce:
    if (op.strAttr("dist") == "cta" && !hostSerial) {
      emitCtaReduce(op, pid);
      return;
    }
    if (op.opcode == Opcode::ArgReduce) {
      emitArgReduce(op, pid);
      return;
    }
    emitFold(op, pid);
    return;
  case Opcode::Scan:
  case Opcode::RegionFold:
  case Opcode::RegionScan:
    emitFold(op, pid);
    return;
  case Opcode::ThreadId:
  case Opcode::LaneId:
  case Opcode::WarpId:
  case Opcode::CtaSize:
  case Opcode::GridCtas:
  case Opcode::Barrier:
  case Opcode::Shuffle:
  case Opcode::VectorLoad:
  case Opcode::VectorStore:
  case Opcode::Aligned:
  case Opcode::CheckedLaunch:
  case Opcode::Bitcast:
    emitCoopOp(op);
    return;
  case Opcode::Yield:
    emitYield(op);
    return;
  case Opcode::Condition: {
    const Op *loop = op.parent->parent->parent;
    indent();
    os << "if (!" << name(op.operands[0]) << ") goto exit" << loopTag(*loop)
       << ";\n";
    return;
  }
  case Opcode::Break:
  case Opcode::Continue: {
    assert(!loops.empty() && "break outside a loop");
    const Op &loop = *loops.back();
    assignCarried(loop, op);
    indent();
    os << "goto " << (op.opcode == Opcode::Break ? "exit" : "step")
       << loopTag(loop) << ";\n";
    return;
  }
  case Opcode::Return:
    indent();
    os << "return;\n";
    return;
  }
}

void ProgramEmitter::emitYield(const Op &op) {
  const Op *parent = op.parent->parent->parent;
  if (!parent)
    return;
  if (parent->opcode == Opcode::If) {
    for (unsigned k = 0; k < op.operands.size(); ++k) {
      indent();
      os << "r" << parent->id << "_" << k << " = " << name(op.operands[k])
         << ";\n";
    }
    return;
  }
  if (parent->opcode == Opcode::Loop) {
    assignCarried(*parent, op);
    return;
  }
  if (isStructured(parent->opcode)) {
    unsigned region = 0;
    while (parent->region(region) != op.parent->parent)
      ++region;
    for (unsigned k = 0; k < op.operands.size(); ++k) {
      indent();
      os << callbackResult(*parent, region, k) << " = "
         << name(op.operands[k]) << ";\n";
    }
  }
}

void ProgramEmitter::emitIf(const Op &op, const std::string &pid) {
  for (unsigned k = 0; k < op.results.size(); ++k) {
    indent();
    os << valueType(op.result(k)) << " r" << op.id << "_" << k << "{};\n";
  }
  indent();
  os << "if (" << name(op.operands[0]) << ") {\n";
  ++depth;
  emitOps(op.region(0)->block, pid);
  --depth;
  indent();
  os << "} else {\n";
  ++depth;
  emitOps(op.region(1)->block, pid);
  --depth;
  indent();
  os << "}\n";
  for (unsigned k = 0; k < op.results.size(); ++k)
    declare(op.result(k), "r" + std::to_string(op.id) + "_" +
                              std::to_string(k));
}

const std::string &ProgramEmitter::loopTag(const Op &loop) const {
  auto it = loopTags.find(&loop);
  assert(it != loopTags.end() && "jump to a loop that is not being emitted");
  return it->second;
}

void ProgramEmitter::printUnroll(const Op &op) {
  // The pass's unroll request (for/loop `unroll`): 1 keeps the loop rolled.
  if (const AttrValue *u = op.attr("unroll")) {
    indent();
    os << "#pragma unroll " << std::get<int64_t>(*u) << "\n";
  }
}

void ProgramEmitter::emitLoop(const Op &op, const std::string &pid) {
  const unsigned emission = loopEmissions[&op]++;
  const std::string tag =
      std::to_string(op.id) +
      (emission ? "_" + std::to_string(emission) : std::string());
  loopTags[&op] = tag;
  std::vector<std::string> vars;
  for (unsigned k = 0; k < op.operands.size(); ++k) {
    vars.push_back(carried(op, k));
    indent();
    os << emit::cxxType(op.operands[k]->type) << " " << vars.back() << " = "
       << name(op.operands[k]) << ";\n";
  }
  bool testFirst = op.boolAttr("test_first", true);
  if (!testFirst) {
    indent();
    os << "bool first" << op.id << " = true;\n";
  }
  printUnroll(op);
  indent();
  os << "for (;;) {\n";
  ++depth;
  if (!testFirst) {
    indent();
    os << "if (!first" << op.id << ")\n";
  }
  emitRegion(*op.region(0), vars, pid);
  if (!testFirst) {
    indent();
    os << "first" << op.id << " = false;\n";
  }
  loops.push_back(&op);
  emitRegion(*op.region(1), vars, pid);
  loops.pop_back();
  os << "step" << tag << ":;\n";
  emitRegion(*op.region(2), vars, pid);
  --depth;
  indent();
  os << "}\n";
  os << "exit" << tag << ":;\n";
  for (unsigned k = 0; k < op.results.size(); ++k)
    declare(op.result(k), vars[k]);
}

void ProgramEmitter::emitGlobal() {
  // Every __global__ is a template on CK, whether its accesses check bounds
  // (INTENT_CHECK=bounds): the launcher passes both variants and the runtime
  // picks one, so the normal kernel carries no check code.
  if (p.scope == ExecScope::CTA) {
    // One program per CTA; the loop condition is uniform over the CTA, so
    // the program's barriers are legal (docs/runtime.md).
    const char *s = "::intent::rt::exec_scope::cta";
    // cta-rows register rows: one __global__ per variant RK, so each gets
    // its own register allocation.
    os << "template <" << (p.regMaxK ? "int RK, " : "") << "bool CK>\n";
    const char *unit = dense ? "_dense" : "";
    os << "__global__ void __launch_bounds__("
       << (p.regMaxK ? rowRegBound() : std::to_string(p.ctaThreads))
       << (p.minCtasPerSm > 0 && !p.regMaxK
               ? ", " + std::to_string(p.minCtasPerSm)
               : std::string())
       << ") "
       << m << unit << "_kernel(" << m << "_args a, int64_t total) {\n"
       << "  for (int64_t pid = ::intent::rt::program_begin<" << s
       << ">(); pid < total; pid += ::intent::rt::program_stride<" << s
       << ">())\n"
       << "    " << m << unit << "_program"
       << (p.regMaxK ? "<RK, CK>" : "<CK>") << "(pid, a);\n"
       << "}\n\n";
    return;
  }
  os << "template <bool CK>\n";
  os << "__global__ void " << m << "_kernel(" << m
     << "_args a, int64_t total) {\n"
     << "  const int64_t stride = static_cast<int64_t>(gridDim.x) * "
        "blockDim.x;\n"
     << "  for (int64_t pid = static_cast<int64_t>(blockIdx.x) * blockDim.x "
        "+ threadIdx.x; pid < total; pid += stride)\n"
     << "    " << m << "_program<CK>(pid, a);\n"
     << "}\n\n";
}

// Before the launch, the runtime checks that no view the kernel writes
// overlaps another view parameter (alias.hpp); the call also consumes the
// call site the rewritten TU recorded, so it is emitted for every kernel.
static void emitAliasCheck(llvm::raw_ostream &os, const Program &p) {
  std::vector<const Param *> views;
  for (const Param &par : p.params)
    if (par.type.isView())
      views.push_back(&par);
  if (views.size() < 2) {
    os << "  intent::rt::detail::check_aliasing(__intent_info, nullptr, 0);\n";
    return;
  }
  os << "  const intent::rt::detail::view_range __intent_views[] = {";
  for (unsigned i = 0; i < views.size(); ++i) {
    bool written = views[i]->access == kir::Access::Write ||
                   views[i]->access == kir::Access::ReadWrite;
    os << (i ? ", " : "") << "intent::rt::detail::range_of(\""
       << views[i]->name << "\", " << views[i]->name << ", "
       << (written ? "true" : "false") << ")";
  }
  os << "};\n";
  os << "  intent::rt::detail::check_aliasing(__intent_info, __intent_views, "
     << views.size() << ");\n";
}

void ProgramEmitter::emitWrapper() {
  os << "void " << emit::launchFunctionName(p, opts) << "("
     << emit::wrapperParams(p, opts) << ") {\n";
  os << "  static const intent::rt::kernel_info __intent_info{\""
     << p.name << "\", \"" << opts.sourceFile << "\", " << p.loc.line
     << ", \"";
  for (unsigned i = 0; i < p.params.size(); ++i)
    os << (i ? "," : "") << p.params[i].name;
  os << "\"};\n";
  os << "  " << m << "_args __intent_args{";
  for (unsigned i = 0; i < p.params.size(); ++i) {
    const Param &par = p.params[i];
    // A view of the user's element spelling (`long long`) is the same
    // memory seen with the standard type the program uses (`int64_t`).
    if (!emit::hostElem(p, i, opts).empty())
      os << "::intent::detail::view_as<" << (par.type.constElem ? "const " : "")
         << scalarCxx(par.type.elem) << ">(" << par.name << "), ";
    else
      os << par.name << ", ";
  }
  os << "nullptr, nullptr" << (usesSmCount(p) ? ", ::intent::rt::sm_count()" : "")
     << "};\n";
  emitAliasCheck(os, p);
  os << "  const " << m << "_launch __intent_L = " << m
     << "_eval(__intent_args);\n";
  if (p.alternative && p.alternativeWhen >= 0) {
    // Program::alternative: rows this long run as its passes mapped them.
    os << "  if (__intent_L.e" << p.alternativeWhen << ") {\n    "
       << emit::launchFunctionName(*p.alternative, alternativeOptions(p, opts))
       << "(";
    for (unsigned i = 0; i < p.params.size(); ++i)
      os << (i ? ", " : "") << p.params[i].name;
    os << ");\n    return;\n  }\n";
  }
  // Preconditions of the analysis (Program::launchChecks): an index of a
  // narrower integer type numbers every iteration.
  for (const phys::LaunchCheck &c : p.launchChecks)
    os << "  if (__intent_L.e" << c.extent << " > INT64_C("
       << phys::indexLimit(c.type) << "))\n"
       << "    ::intent::rt::detail::fail(std::string(\"kernel '" << p.name
       << "' (" << opts.sourceFile << ":" << p.loc.line
       << "): the parallel_for at " << c.loc.line << ":" << c.loc.col
       << " has \") + std::to_string(__intent_L.e" << c.extent
       << ") + \" iterations, more than its index type " << scalarCxx(c.type)
       << " can number (" << phys::indexLimit(c.type)
       << "): use intent::index (or a wider integer) for the index\");\n";
  os << "  intent::rt::launch_config __intent_config;\n";
  os << "  __intent_config.total = __intent_L.e" << p.total << ";\n";
  if (p.scope == ExecScope::CTA) {
    os << "  __intent_config.scope = ::intent::rt::exec_scope::cta;\n";
    if (p.regMaxK) {
      // Under INTENT_CHECK=bounds the rows stay in memory (RK = 0), where
      // every access is checked.
      os << "  const int __intent_rk = ::intent::rt::detail::bounds_checks() "
            "? 0 : "
         << m << "_row_k(__intent_args);\n";
      os << "  __intent_config.block = __intent_rk ? " << m
         << "_row_threads(__intent_args) : " << p.ctaThreads << ";\n";
    } else {
      os << "  __intent_config.block = " << p.ctaThreads << ";\n";
    }
    os << "  __intent_config.shared_bytes = ";
    if (p.sharedBytesExpr >= 0)
      os << "__intent_L.e" << p.sharedBytesExpr;
    else
      os << p.sharedBytes;
    if (!p.stagedParams.empty())
      os << " + " << (p.regMaxK ? "(__intent_rk ? 0 : " : "(")
         << stageBytesFunction() << "(__intent_args))";
    os << ";\n";
  } else {
    os << "  __intent_config.block = " << opts.blockSize << ";\n";
  }
  bool gridBarrier = false;
  phys::walk(*p.body, [&](const Op &o) {
    gridBarrier |= o.opcode == Opcode::Barrier &&
                   (o.strAttr("scope") == "grid" || o.strAttr("scope") == "group");
  });
  if (gridBarrier)
    // The CTAs wait for each other: all resident at once.
    os << "  __intent_config.cooperative = true;\n";
  const phys::Buffer *sized = phys::launchSizedWorkspace(p);
  if (int64_t ws = phys::workspaceBytes(p); ws || sized) {
    os << "  __intent_config.workspace_bytes = ";
    if (sized)
      // The last slice holds eK elements this launch.
      os << "static_cast<std::size_t>(" << sized->workspaceOffset
         << " + __intent_L.e" << sized->sizeExpr << " * "
         << phys::scalarBytes(sized->elem) << ")";
    else
      os << ws;
    os << ";\n";
    if (phys::workspaceKeptZero(p))
      // Kept zero: the kernel leaves it zero (docs/passes.md), so no memset.
      os << "  __intent_config.workspace_kept_zero = true;\n";
    else if (phys::workspaceZeroed(p))
      os << "  __intent_config.zero_workspace = true;\n";
  }
  // cpu mode runs the host serial form when there is one; the serial twin
  // has program ids of its own.
  std::string host = hasHostSerial() ? ", " + m + "_host_program" : "";
  if (hasSerialTwin()) {
    host = ", " + m + "_serial_program<true>";
    os << "  __intent_config.serial_total = " << m
       << "_serial_eval(__intent_args).e" << p.serialTwin->total << ";\n";
  }
  if (p.regMaxK) {
    os << "  switch (__intent_rk) {\n";
    for (int k = phys::rowRegChunk(p); k <= p.regMaxK; k *= 2)
      os << "  case " << k << ": intent::rt::launch<" << m << "_program<" << k
         << ", true>" << host << ">(__intent_info, __intent_config, "
         << "__intent_args, " << m << "_kernel<" << k << ", false>, " << m
         << "_kernel<" << k << ", true>); break;\n";
    os << "  default: intent::rt::launch<" << m << "_program<0, true>" << host
       << ">(__intent_info, __intent_config, __intent_args, " << m
       << "_kernel<0, false>, " << m << "_kernel<0, true>); break;\n  }\n}\n\n";
    return;
  }
  if (hasDenseVariant()) {
    // Every view dense (its last dimension contiguous or of one element,
    // its in-bounds offsets within int32_t, its extents at most
    // kDenseExtent) and every tile segment's instance count at most
    // kDenseExtent (so are its extents and coordinates, partial tiles'
    // included): the variant with 32-bit offsets, without the last stride's
    // multiplies, with index values that fit int32_t computed in 32 bits
    // (Physical/IndexRange.h).
    os << "  if (";
    bool first = true;
    for (const Param &par : p.params)
      if (par.type.isView() && par.type.rank >= 1) {
        const std::string last = std::to_string(par.type.rank - 1);
        os << (first ? "" : " && ") << "(" << par.name << ".stride(" << last
           << ") == 1 || " << par.name << ".extent(" << last
           << ") <= 1) && ::intent::rt::detail::offsets_fit_int32("
           << par.name << ") && ::intent::rt::detail::extents_at_most("
           << par.name << ", INT64_C(" << phys::kDenseExtent << "))";
        first = false;
      }
    for (const phys::Segment &s : p.segments)
      if (s.tile >= 0) {
        os << (first ? "" : " && ") << "__intent_L.e" << s.instances
           << " <= INT64_C(" << phys::kDenseExtent << ")";
        first = false;
      }
    if (first)
      os << "true";
    os << ") {\n    intent::rt::launch<" << m << "_dense_program<true>" << host
       << ">(__intent_info, __intent_config, __intent_args, " << m
       << "_dense_kernel<false>, " << m << "_dense_kernel<true>);\n"
       << "    return;\n  }\n";
  }
  // The host entries use the checked program (a.check tested at run time).
  os << "  intent::rt::launch<" << m << "_program<true>" << host
     << ">(__intent_info, __intent_config, __intent_args, " << m
     << "_kernel<false>, " << m << "_kernel<true>);\n";
  os << "}\n\n";
}


std::string intent::emit::cxxType(const phys::Type &t) {
  switch (t.kind) {
  case Type::Kind::Scalar:
    return scalarCxx(t.elem);
  case Type::Kind::View:
    return "intent::view<" + std::string(t.constElem ? "const " : "") +
           scalarCxx(t.elem) + ", " + std::to_string(t.rank) + ">";
  case Type::Kind::Buffer:
  case Type::Kind::None:
    break;
  }
  llvm::report_fatal_error(
      llvm::Twine("CUDA emitter: no C++ spelling for type ") +
      typeToString(t));
}

std::string intent::emit::hostElem(const phys::Program &p, unsigned i,
                                   const EmitOptions &opts) {
  auto it = opts.hostElems.find(p.mangledName);
  if (it == opts.hostElems.end() || i >= it->second.size() ||
      !p.params[i].type.isView())
    return "";
  return it->second[i];
}

std::string intent::emit::wrapperParams(const phys::Program &p,
                                        const EmitOptions &opts) {
  std::string s;
  for (unsigned i = 0; i < p.params.size(); ++i) {
    const Param &par = p.params[i];
    if (i)
      s += ", ";
    std::string elem = emit::hostElem(p, i, opts);
    if (elem.empty())
      s += cxxType(par.type);
    else
      s += "intent::view<" + std::string(par.type.constElem ? "const " : "") +
           elem + ", " + std::to_string(par.type.rank) + ">";
    s += " " + par.name;
  }
  return s;
}

std::string intent::emit::symbolName(const phys::Program &p,
                                    const EmitOptions &opts) {
  return opts.symbolPrefix + p.mangledName;
}

std::string intent::emit::launchFunctionName(const phys::Program &p,
                                            const EmitOptions &opts) {
  return "__intent_launch_" + symbolName(p, opts);
}

void intent::emit::emitProgram(llvm::raw_ostream &os, const phys::Program &p,
                               const EmitOptions &opts) {
  if (p.alternative) {
    // Its own functions, kernel and launch wrapper (and its own
    // alternative's); the program's wrapper calls that wrapper when the
    // alternative's condition holds.
    os << "// ---- kernel " << p.name << ", the launch-time alternative for "
       << (p.alternativeKind == phys::Program::AlternativeKind::SplitRows
               ? "few long rows"
               : "long rows")
       << " ----\n";
    emitProgram(os, *p.alternative, alternativeOptions(p, opts));
  }
  os << "// ---- kernel " << p.name << " ----\n";
  ProgramEmitter(os, p, opts).emit();
}

void intent::emit::emitAbiCheck(llvm::raw_ostream &os) {
  os << "#if !defined(INTENT_ABI_VERSION) || INTENT_ABI_VERSION != "
     << kAbiVersion << "\n"
     << "#error \"this file was generated for Intent's generated-code ABI "
        "version "
     << kAbiVersion
     << ", which the Intent runtime headers in use do not have: regenerate "
        "it with the plugin (intentc) of the same Intent as the runtime\"\n"
     << "#endif\n";
}

void intent::emit::emitKernelsFile(
    llvm::raw_ostream &os, llvm::ArrayRef<const phys::Program *> programs,
    const EmitOptions &opts) {
  std::string text;
  llvm::raw_string_ostream ts(text);
  ts << "// Generated by the Intent compiler from " << opts.sourceFile
     << ". Do not edit.\n";
  ts << "#include <intent/runtime/kernel.hpp>\n";
  emitAbiCheck(ts);
  // SSA form declares values that some paths never read.
  ts << "#if defined(__NVCC__)\n#pragma nv_diag_suppress 177\n#endif\n";
  ts << "#if defined(__GNUC__)\n"
        "#pragma GCC diagnostic ignored \"-Wunused-variable\"\n"
        "#pragma GCC diagnostic ignored \"-Wunused-label\"\n#endif\n";
  ts << "#include <cmath>\n#include <cstdint>\n";
  // printf: the device's on the GPU, the C library's in cpu mode.
  if (llvm::any_of(programs, [](const phys::Program *p) {
        return phys::containsPrint(*p->body);
      }))
    ts << "#include <cstdio>\n";
  ts << "\n";
  for (const phys::Program *p : programs)
    emitProgram(ts, *p, opts);
  // After user-attributed code, point the compiler back at this file.
  llvm::SmallVector<llvm::StringRef, 0> lines;
  llvm::StringRef(text).split(lines, '\n');
  for (unsigned i = 0; i < lines.size(); ++i) {
    if (lines[i] == kLineReset)
      os << "#line " << i + 2 << " \"" << opts.outputFile << "\"";
    else
      os << lines[i];
    if (i + 1 < lines.size())
      os << "\n";
  }
}
