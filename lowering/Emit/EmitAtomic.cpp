//===- EmitAtomic.cpp - CUDA emission of atomics ---------------------------===//
//
// `%old = atomic %y[%i], %v {kind = "add", order = "relaxed", scope = "gpu"}`
// becomes
//
//   const float v7 = ::intent::rt::atomic_add<::intent::rt::atomic_scope::gpu,
//                        ::intent::memory_order::relaxed>(&y.data()[...], v5);
//
// and atomic_cas binds the cas_result's two fields to the two SSA results;
// an integer add of 0 is printed as atomic_load; an atomic the
// aggregate-atomics pass marked `aggregate = "warp"` calls warp_atomic_add
// (min, max), one marked `aggregate = "ticket"` warp_atomic_ticket.
// In cpu mode the same calls are host __atomic builtins (atomics.hpp), so
// program instances on several host threads stay atomic.
//
//===----------------------------------------------------------------------===//

#include "Emit/ProgramEmitter.h"

#include "llvm/ADT/Twine.h"
#include "llvm/Support/ErrorHandling.h"

using namespace intent;
using namespace intent::phys;
using namespace intent::emit::detail;

void ProgramEmitter::emitAtomic(const Op &op) {
  std::string scope = op.strAttr("scope");
  if (scope.empty())
    llvm::report_fatal_error("CUDA emitter: atomic op " +
                             llvm::Twine(op.id) +
                             " has no scope (the atomic-scopes pass did not "
                             "run)");
  bool cas = op.opcode == Opcode::AtomicCas;
  // An integer add of constant 0 changes nothing: it is a load (a plain
  // load instruction, not a read-modify-write: grid-scan's look-back reads
  // tile statuses that thousands of warps poll at once).
  const Op *v = op.operands[1]->def;
  const bool load = !cas && op.strAttr("kind") == "add" && v &&
                    v->opcode == Opcode::Constant &&
                    kir::Type::scalar(v->result()->type.elem).isInteger() &&
                    v->attr("value") &&
                    std::holds_alternative<int64_t>(*v->attr("value")) &&
                    std::get<int64_t>(*v->attr("value")) == 0;
  // aggregate-atomics: combined over the warp's lanes on one element first
  // (atomics.hpp warp_atomic_*, warp_atomic_ticket).
  const std::string aggregate = cas || load ? "" : op.strAttr("aggregate");
  std::string fn = cas                    ? "atomic_cas"
                   : load                 ? "atomic_load"
                   : aggregate == "ticket" ? "warp_atomic_ticket"
                   : aggregate == "warp"   ? "warp_atomic_" + op.strAttr("kind")
                                          : "atomic_" + op.strAttr("kind");
  std::string call = "::intent::rt::" + fn + "<::intent::rt::atomic_scope::" +
                     scope + ", ::intent::memory_order::" +
                     op.strAttr("order") + ">(&" + elementRef(op);
  if (!load)
    call += ", " + name(op.operands[1]);
  if (cas)
    call += ", " + name(op.operands[2]);
  call += ")";
  std::string elem = emit::cxxType(op.result(0)->type);
  // Skipped when its guard is false or (INTENT_CHECK=bounds) its element
  // lies outside the view.
  std::string cond;
  if (const Value *g = op.guard())
    cond = name(g);
  std::string inBounds = boundsCondition(op);
  if (!inBounds.empty())
    cond = cond.empty() ? inBounds : "(" + cond + " && " + inBounds + ")";
  if (!cas) {
    declare(op.result(),
            cond.empty() ? call : cond + " ? " + call + " : " + elem + "{}");
    return;
  }
  std::string tmp = "c" + std::to_string(op.id);
  indent();
  os << "const ::intent::cas_result<" << elem << "> " << tmp << " = ";
  if (!cond.empty())
    os << cond << " ? " << call << " : ::intent::cas_result<" << elem
       << ">{" << elem << "{}, false}";
  else
    os << call;
  os << ";\n";
  declare(op.result(0), tmp + ".old");
  declare(op.result(1), tmp + ".success");
}
