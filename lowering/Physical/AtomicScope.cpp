//===- AtomicScope.cpp - Pass: atomic-scopes --------------------------------===//

#include "Physical/AtomicScope.h"

using namespace intent;
using namespace intent::phys;

const Buffer *intent::phys::bufferOf(const Program &p, const Value *mem) {
  if (mem->isBlockArg() && mem->owner == &p.body->block) {
    for (const Buffer &b : p.buffers)
      if (b.scope == BufferScope::ExternalView &&
          b.param == static_cast<int>(mem->argNo))
        return &b;
    return nullptr;
  }
  if (mem->def && mem->def->opcode == Opcode::Alloc) {
    int64_t id = mem->def->intAttr("buffer", -1);
    if (id >= 0 && id < static_cast<int64_t>(p.buffers.size()))
      return &p.buffers[id];
  }
  return nullptr;
}

llvm::StringRef intent::phys::scopeFor(Sharing s) {
  switch (s) {
  case Sharing::None:
    return "";
  case Sharing::Instance:
    return "thread";
  case Sharing::CTA:
    return "cta";
  case Sharing::Launch:
    return "gpu";
  case Sharing::System:
    return "sys";
  }
  return "";
}

bool intent::phys::scopeCovers(llvm::StringRef scope, Sharing s) {
  auto rank = [](llvm::StringRef sc) {
    return sc == "thread" ? 1
           : sc == "cta"  ? 2
           : sc == "gpu"  ? 3
           : sc == "sys"  ? 4
                          : 0;
  };
  llvm::StringRef need = scopeFor(s);
  if (s == Sharing::Instance || scope == "thread")
    return scope == need;
  return rank(scope) > 0 && !need.empty() && rank(scope) >= rank(need);
}

static std::string why(const Buffer &b, llvm::StringRef name) {
  switch (b.sharing) {
  case Sharing::Launch:
    return b.scope == BufferScope::ExternalView
               ? name.str() + " is an external view shared by all instances "
                              "of the launch"
               : name.str() + " is shared by all instances of the launch";
  case Sharing::CTA:
    return name.str() + " is shared only by the instances of one CTA";
  case Sharing::Instance:
    return name.str() + " is private to one instance, so the narrowest legal "
                        "scope is that instance: a plain read-modify-write";
  case Sharing::System:
    return name.str() + " is shared with the host or other devices";
  case Sharing::None:
    break;
  }
  return "";
}

void intent::phys::assignAtomicScopes(Program &p, RemarkSink &sink) {
  walkMutable(*p.body, [&](Op &op) {
    if (!isAtomic(op.opcode))
      return;
    const Buffer *b = bufferOf(p, op.memory());
    if (!b || b->sharing == Sharing::None)
      return;
    llvm::StringRef scope = scopeFor(b->sharing);
    op.setAttr("scope", scope.str());
    // A pass's own atomics on its own buffer (grid-reduce's arrival counter
    // and partials) are not the user's: they get their scope silently.
    if (!op.origin.synth.empty())
      return;
    std::string what = op.opcode == Opcode::AtomicCas
                           ? std::string("atomic_cas")
                           : "atomic_" + op.strAttr("kind");
    sink.remark(op.loc, what + " on " + b->name + ": scope " + scope.str() +
                            " (" + why(*b, b->name) + "; memory order " +
                            op.strAttr("order") + ")");
  });
}

std::string intent::phys::aggregateProblem(const Op &op,
                                           llvm::StringRef aggregate,
                                           unsigned uses) {
  const std::string kind = op.strAttr("kind");
  if (aggregate != "warp" && aggregate != "ticket")
    return "aggregate '" + aggregate.str() + "' is not warp or ticket";
  if (kind != "add" && (aggregate == "ticket" ||
                        (kind != "min" && kind != "max")))
    return "an aggregated atomic " + kind + " (" + aggregate.str() +
           " combines " + (aggregate == "ticket" ? "add" : "add, min, max") +
           ")";
  if (op.strAttr("order") != "relaxed")
    return "an aggregated atomic has memory order " + op.strAttr("order") +
           " (only relaxed)";
  const std::string scope = op.strAttr("scope");
  if (scope.empty() || scope == "thread")
    return "an aggregated atomic needs a scope wider than the thread";
  if (aggregate == "warp" && uses)
    return "the old value of an aggregate = warp atomic is used (it is "
           "not defined; a ticket is aggregate = ticket)";
  if (aggregate == "ticket") {
    const Op *c = op.operands[1]->def;
    if (!kir::Type::scalar(op.operands[1]->type.elem).isInteger() || !c ||
        c->opcode != Opcode::Constant)
      return "a ticket adds an integer constant";
  }
  return "";
}
