//===- VerifierAtomic.cpp - Construction verifier: atomics -----------------===//
//
// [atomic]: every atomic / atomic_cas keeps what design.md §4.9 asks of an
// atomic op: its memory order, its result semantics (the old value, and the
// CAS success as a bool), the sharing domain of the memory it updates, and a
// hardware scope (once chosen) legal for that domain (Physical/AtomicScope.h),
// and an `aggregate` marking (the aggregate-atomics pass) only where the
// combined update means the same.
//
//===----------------------------------------------------------------------===//

#include "Physical/AtomicScope.h"
#include "Physical/PhysAffine.h"
#include "Physical/Verifier.h"

#include "KIR/Atomic.h"

#include <optional>

using namespace intent;
using namespace intent::phys;

void intent::phys::verifyAtomics(const Program &p,
                                 std::vector<std::string> &errors) {
  // Use counts, for the `aggregate` rule only (counted at the first one).
  std::optional<llvm::DenseMap<const Value *, unsigned>> uses;
  walk(*p.body, [&](const Op &op) {
    if (!isAtomic(op.opcode))
      return;
    auto error = [&](const std::string &msg) {
      errors.push_back("[atomic] op " + std::to_string(op.id) + " (" +
                       opcodeName(op.opcode).str() + "): " + msg);
    };
    const Type &mt = op.memory()->type;
    Type elem = Type::scalar(mt.elem);
    if (!kir::isMemoryOrder(op.strAttr("order")))
      error("memory order '" + op.strAttr("order") +
            "' is not one of relaxed, acquire, release, acq_rel, seq_cst");
    if (op.opcode == Opcode::Atomic && !kir::isAtomicKind(op.strAttr("kind")))
      error("kind '" + op.strAttr("kind") + "' is not add, min, max or exch");
    if (!kir::isAtomicElement(mt.elem))
      error("element type " + kir::scalarKindName(mt.elem).str() +
            " has no atomics (i32, u32, i64, u64, f32, f64)");
    if (mt.isView() && mt.constElem)
      error("updates a view of const elements");
    unsigned values = op.opcode == Opcode::AtomicCas ? 2 : 1;
    for (unsigned i = 1; i <= values && i < op.operands.size(); ++i)
      if (op.operands[i]->type != elem)
        error("value operand " + std::to_string(i) +
              " differs from the element type " + typeToString(elem));
    bool resultsOk = op.opcode == Opcode::Atomic
                         ? op.results.size() == 1 && op.result(0)->type == elem
                         : op.results.size() == 2 &&
                               op.result(0)->type == elem &&
                               op.result(1)->type.isBool();
    if (!resultsOk)
      error(op.opcode == Opcode::Atomic
                ? "must return the old value (one " + typeToString(elem) + ")"
                : "must return the old value and the success flag (" +
                      typeToString(elem) + ", bool)");
    if (const AttrValue *a = op.attr("aggregate")) {
      const std::string *name = std::get_if<std::string>(a);
      if (!uses)
        uses = countUses(p);
      auto u = uses->find(op.result(0));
      std::string why =
          op.opcode != Opcode::Atomic
              ? std::string("atomic_cas is never aggregated")
              : aggregateProblem(op, name ? *name : std::string("?"),
                                 u == uses->end() ? 0 : u->second);
      if (!why.empty())
        error(why);
    }
    const Buffer *b = bufferOf(p, op.memory());
    if (!b || b->sharing == Sharing::None) {
      error("the sharing domain of " + (b ? b->name : std::string("its memory")) +
            " is not recorded");
      return;
    }
    if (const AttrValue *s = op.attr("scope")) {
      const std::string *name = std::get_if<std::string>(s);
      if (!name || !scopeCovers(*name, b->sharing))
        error("scope '" + (name ? *name : std::string("?")) +
              "' does not cover the sharing domain " +
              sharingName(b->sharing).str() + " of " + b->name + " (needs " +
              scopeFor(b->sharing).str() + " or wider)");
    }
  });
}
