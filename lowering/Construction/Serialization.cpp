//===- Serialization.cpp - Lost parallelism, for the user ------------------===//

#include "Construction/Serialization.h"

#include "Construction/Dependence.h"
#include "Physical/Coop.h"

#include <algorithm>
#include <cstdlib>

using namespace intent;
using namespace intent::construct;
using phys::AccessSummary;

namespace {

/// The C++ spelling of an element type in a suggested declaration.
const char *cxxElem(phys::ScalarKind k) {
  using K = phys::ScalarKind;
  switch (k) {
  case K::Bool: return "bool";
  case K::I8: return "std::int8_t";
  case K::I16: return "short";
  case K::I32: return "int";
  case K::I64: return "std::int64_t";
  case K::U8: return "std::uint8_t";
  case K::U16: return "unsigned short";
  case K::U32: return "unsigned";
  case K::U64: return "std::uint64_t";
  case K::F16: return "intent::half";
  case K::BF16: return "intent::bfloat16";
  case K::F32: return "float";
  case K::F64: return "double";
  }
  return "T";
}

/// A KIR value as C-like source text: its name, a constant, or a small
/// expression over those ("keys(i) & 3"); "..." past a few levels.
std::string valueText(const kir::Value *v, unsigned depth = 0) {
  if (!v->name.empty())
    return v->name;
  if (v->isBlockArg() || depth > 3)
    return "...";
  const kir::Op &op = *v->def;
  using O = kir::Opcode;
  auto arg = [&](unsigned i) { return valueText(op.operands[i], depth + 1); };
  const char *infix = nullptr;
  switch (op.opcode) {
  case O::Constant:
    if (const auto *i = std::get_if<int64_t>(op.attr("value")))
      return std::to_string(*i);
    return "...";
  case O::Cast:
    return arg(0);
  case O::Neg:
    return "-" + arg(0);
  case O::Min:
  case O::Max:
    return kir::opcodeName(op.opcode).str() + "(" + arg(0) + ", " + arg(1) +
           ")";
  case O::Load: {
    std::string t = arg(0) + "(";
    for (unsigned i = 1; i < op.operands.size(); ++i)
      t += (i > 1 ? ", " : "") + arg(i);
    return t + ")";
  }
  case O::Add: infix = " + "; break;
  case O::Sub: infix = " - "; break;
  case O::Mul: infix = " * "; break;
  case O::Div: infix = " / "; break;
  case O::Rem: infix = " % "; break;
  case O::BitAnd: infix = " & "; break;
  case O::BitOr: infix = " | "; break;
  case O::BitXor: infix = " ^ "; break;
  case O::Shl: infix = " << "; break;
  case O::Shr: infix = " >> "; break;
  default:
    return "...";
  }
  std::string t = arg(0) + infix + arg(1);
  return depth ? "(" + t + ")" : t;
}

/// The user's name of an affine atom of unit `u`, or the atom itself.
std::string atomName(const ConstructionState &s, const Unit &u,
                     const std::string &atom) {
  int dim = phys::InstanceSpace::instanceDim(atom);
  if (dim >= 0 && dim < static_cast<int>(u.indices.size()))
    return u.indices[dim]->name.empty() ? atom : u.indices[dim]->name;
  if (atom.size() > 1 && atom[0] == 'v' &&
      std::all_of(atom.begin() + 1, atom.end(), ::isdigit)) {
    unsigned id = std::atoi(atom.c_str() + 1);
    for (const auto &v : s.kernel.values)
      if (v->id == id)
        return valueText(v.get());
  }
  // ext(P,D) / str(P,D): a root extent or stride.
  for (const char *what : {"ext(", "str("}) {
    llvm::StringRef a(atom);
    unsigned p, d;
    if (a.consume_front(what) && !a.consumeInteger(10, p) &&
        a.consume_front(",") && !a.consumeInteger(10, d) && a == ")" &&
        p < s.kernel.params.size())
      return s.kernel.params[p].name +
             (what[0] == 'e' ? ".extent(" : ".stride(") + std::to_string(d) +
             ")";
  }
  return atom;
}

std::string coordText(const ConstructionState &s, const Unit &u,
                      const phys::Affine &c) {
  if (!c.valid)
    return "?";
  std::string t;
  for (const auto &[atom, k] : c.terms) {
    if (!t.empty())
      t += k < 0 ? " - " : " + ";
    else if (k < 0)
      t += "-";
    if (std::llabs(k) != 1)
      t += std::to_string(std::llabs(k)) + "*";
    t += atomName(s, u, atom);
  }
  if (t.empty())
    return std::to_string(c.constant);
  if (c.constant)
    t += (c.constant < 0 ? " - " : " + ") + std::to_string(std::llabs(c.constant));
  return t;
}

/// "the read of in(i - 1, j)" / "the write of out(i)" / "the atomic update
/// of hist(k)".
std::string what(const ConstructionState &s, const Unit &u,
                 const AccessSummary &a) {
  return std::string(a.atomic ? "the atomic update of "
                     : a.write ? "the write of "
                               : "the read of ") +
         userAccess(s, u, a);
}

/// A read of a mutable view that the kernel never writes conflicting with
/// a write of another view: the view only conflicts because it might be
/// the written one (docs/construction.md §2), so `const` fixes it.
bool nonConstRead(const AccessSummary &read, const AccessSummary &write) {
  return !read.write && read.root >= 0 && read.root != write.root &&
         !read.constView && !read.rootWritten;
}

Serialization constFinding(const ConstructionState &s, const Unit &ru,
                           const AccessSummary &read, const Unit &wu,
                           const AccessSummary &write,
                           const std::string &consequence) {
  Serialization f;
  f.loc = read.loc.valid() ? read.loc : ru.loc;
  f.cause = "`" + read.rootName + "` is not const, so " + what(s, ru, read) +
            " may conflict with " + what(s, wu, write) +
            " by another instance (the two views may be one) and " +
            consequence;
  f.fix = "declare it `view<const " + std::string(cxxElem(read.elem)) + ", " +
          std::to_string(read.rank) + ">`";
  return f;
}

} // namespace

std::string construct::unitName(const Unit &u) {
  std::string w = u.isParallelFor ? "parallel_for"
                                  : kir::opcodeName(u.op->opcode).str();
  return w + " at " + locString(u.loc);
}

std::string construct::userAccess(const ConstructionState &s, const Unit &u,
                                  const AccessSummary &a) {
  std::string t = a.rootName + "(";
  for (unsigned i = 0; i < a.coords.size(); ++i)
    t += (i ? ", " : "") + coordText(s, u, a.coords[i]);
  return t + ")";
}

Serialization construct::conflictFinding(const ConstructionState &s,
                                         const Unit &u,
                                         const AccessSummary &write,
                                         const AccessSummary &other) {
  std::string runs = "the " + unitName(u) + " runs in a single instance";
  if (nonConstRead(other, write))
    return constFinding(s, u, other, u, write, runs);
  Serialization f;
  if (&write == &other) {
    f.loc = write.loc.valid() ? write.loc : u.loc;
    f.cause = what(s, u, write) +
              " is not provably a different element in every instance, so " +
              runs;
    f.fix = "index the write by the parallel_for's index, update the element "
            "with an atomic (intent::atomic_add), or compute it with "
            "intent::reduce";
    return f;
  }
  f.loc = other.loc.valid() ? other.loc : u.loc;
  f.cause = what(s, u, other) + " may touch the element of " +
            what(s, u, write) + " of another instance, so " + runs;
  if (!other.write && other.coords == write.coords)
    f.fix = "update the element with an atomic (intent::atomic_add), or "
            "index it by the parallel_for's index";
  else if (write.atomic || other.atomic)
    f.fix = "access the element only through atomics in this parallel_for, "
            "or read it in a separate kernel";
  else if (!other.write)
    f.fix = "write the result to a separate view (double buffering), or make "
            "each instance read only the elements it writes";
  else
    f.fix = "make each instance write only its own elements (index the "
            "writes by the parallel_for's index)";
  return f;
}

Serialization construct::extentFinding(const Unit &u) {
  Serialization f;
  f.loc = u.loc;
  f.cause = "the extent of the " + unitName(u) + " is data-dependent (" +
            u.notVisible + "), so its iterations run in a single instance";
  f.fix = "compute the extent from scalar parameters and view extents only, "
          "or split the kernel where the extent is computed";
  return f;
}

Serialization construct::bufferFinding(const Unit &u,
                                       const std::string &reason) {
  Serialization f;
  f.loc = u.loc;
  f.cause = "the " + unitName(u) + " runs in a single instance: " + reason;
  f.fix = "fill the buffer with 0, or declare it inside the parallel_for";
  return f;
}

Serialization construct::outsideFinding(const ConstructionState &,
                                        const Unit &u, const Unit &par) {
  Serialization f;
  f.loc = u.loc;
  f.cause = "the " + unitName(u) + " (outside any parallel_for) and the " +
            unitName(par) +
            " depend on each other, so both run in a single instance";
  f.fix = "split the kernel there (one kernel per phase: a launch boundary "
          "orders them), or move the code into the parallel_for";
  return f;
}

Serialization construct::fusionFinding(const ConstructionState &s,
                                       const Unit &a, const Unit &b,
                                       const AccessSummary *x,
                                       const AccessSummary *y) {
  std::string both = "the " + unitName(a) + " and the " + unitName(b) +
                     " run in a single instance";
  if (x && y) {
    if (y->write && nonConstRead(*x, *y))
      return constFinding(s, a, *x, b, *y, both);
    if (x->write && nonConstRead(*y, *x))
      return constFinding(s, b, *y, a, *x, both);
  }
  Serialization f;
  f.loc = b.loc;
  f.fix = "split the kernel between them (one kernel per parallel_for: a "
          "launch boundary orders them)";
  if (!x || !y) {
    f.cause = "the " + unitName(b) + " uses a value computed by the " +
              unitName(a) + ", so both run in a single instance";
    return f;
  }
  if (y->loc.valid())
    f.loc = y->loc;
  if (a.domain != b.domain)
    f.cause = what(s, b, *y) + " depends on " + what(s, a, *x) +
              " over another domain, so " + both;
  else
    f.cause = what(s, b, *y) + " may touch the element of " +
              what(s, a, *x) + " of another instance, so " + both;
  return f;
}

std::vector<Serialization>
construct::lostParallelism(const ConstructionState &s) {
  std::vector<Serialization> out;
  for (const Serialization &f : s.serializations) {
    if (f.group >= 0 && s.program &&
        f.group < static_cast<int>(s.program->segments.size()) &&
        s.program->segments[f.group].ordered &&
        s.program->exprToString(s.program->segments[f.group].length) != "1")
      continue; // grid-reduce spread the single instance over many programs
    if (f.nested >= 0) {
      bool inOrdered = false;
      for (const Group &g : s.groups)
        for (unsigned u : g.units)
          inOrdered |= g.ordered && static_cast<int>(u) == f.unit;
      // cta-rows spread the nested parallel_for over a CTA's threads: an
      // annotated `for`, or the thread-strided loop cta-rows-ops wrote.
      bool distributed = false;
      if (s.program)
        phys::walk(*s.program->body, [&](const phys::Op &op) {
          distributed |= op.origin.op == f.nested &&
                         ((op.opcode == phys::Opcode::For &&
                           op.strAttr("dist") == "cta") ||
                          (op.opcode == phys::Opcode::Loop &&
                           s.program->scope == phys::ExecScope::CTA));
        });
      // A nested parallel_for of a tiny constant trip count (normalizing a
      // 3-vector) runs serially by choice (Physical/Coop.h kTinyTrip).
      bool tiny = false;
      if (s.program)
        phys::walk(*s.program->body, [&](const phys::Op &op) {
          if (op.origin.op == f.nested && op.opcode == phys::Opcode::For)
            if (std::optional<int64_t> n = phys::constantTrip(op))
              tiny |= *n < phys::kTinyTrip;
        });
      if (inOrdered || distributed || tiny)
        continue;
    }
    out.push_back(f);
  }
  std::stable_sort(out.begin(), out.end(),
                   [](const Serialization &a, const Serialization &b) {
                     return std::make_pair(a.loc.line, a.loc.col) <
                            std::make_pair(b.loc.line, b.loc.col);
                   });
  return out;
}
