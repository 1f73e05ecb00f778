//===- Dispatch.cpp - Prioritized copy variants and their selection -------===//

#include "Copy/Dispatch.h"

#include <algorithm>
#include <cassert>
#include <sstream>

namespace intent::copy {

void Registry::add(Variant v) {
  assert(!find(v.name) && "variant names are unique");
  assert(v.when && v.schedule && "a variant needs when and schedule");
  variants.push_back(std::move(v));
}

std::vector<const Variant *> Registry::ordered() const {
  std::vector<const Variant *> out;
  for (const Variant &v : variants)
    out.push_back(&v);
  std::stable_sort(out.begin(), out.end(),
                   [](const Variant *a, const Variant *b) {
                     return a->priority > b->priority;
                   });
  return out;
}

const Variant *Registry::find(const std::string &name) const {
  for (const Variant &v : variants)
    if (v.name == name)
      return &v;
  return nullptr;
}

const Registry &Registry::cuda() {
  static const Registry registry = [] {
    Registry r;
    registerFixedWidthVariants(r);
    registerVecAuto(r);
    registerFallback(r);
    return r;
  }();
  return registry;
}

const Attempt *Selection::attempt(const std::string &name) const {
  for (const Attempt &a : attempts)
    if (a.variant == name)
      return &a;
  return nullptr;
}

static const char *outcomeName(Attempt::Outcome o) {
  switch (o) {
  case Attempt::Outcome::Chosen: return "chosen";
  case Attempt::Outcome::Rejected: return "rejected";
  case Attempt::Outcome::NotRequested: return "not requested";
  case Attempt::Outcome::NotTried: return "not tried";
  }
  return "?";
}

void Selection::print(std::ostream &os) const {
  os << "copy selection (target "
     << (target.isCUDA() ? "cuda sm_" + std::to_string(target.sm) : "host")
     << ")\n  ";
  printCopyOp(os, op);
  os << "\n";
  for (const Attempt &a : attempts) {
    os << "  " << a.variant << " (priority " << a.priority
       << "): " << outcomeName(a.outcome);
    if (!a.reason.empty())
      os << ": " << a.reason;
    os << "\n";
  }
  if (plan)
    printPlan(os, *plan);
  else
    os << "  error: " << error << "\n";
}

std::string Selection::str() const {
  std::ostringstream os;
  print(os);
  return os.str();
}

Selection selectCopy(const CopyOp &op, const Target &target,
                     const Registry &registry) {
  Selection sel;
  sel.op = op;
  sel.target = target;
  std::string failures;
  if (!op.dispatch.empty() && !registry.find(op.dispatch))
    failures = "unknown dispatch '" + op.dispatch + "'";
  for (const Variant *v : registry.ordered()) {
    Attempt a;
    a.variant = v->name;
    a.priority = v->priority;
    if (sel.plan) {
      a.outcome = Attempt::Outcome::NotTried;
    } else if (!op.dispatch.empty() && op.dispatch != v->name) {
      a.outcome = Attempt::Outcome::NotRequested;
      a.reason = "dispatch '" + op.dispatch + "' requested";
    } else if (op.dispatch.empty() && v->explicitOnly) {
      a.outcome = Attempt::Outcome::NotRequested;
      a.reason = "selected only by an explicit dispatch";
    } else if (std::string why = v->when(op, target); !why.empty()) {
      a.outcome = Attempt::Outcome::Rejected;
      a.reason = why;
      failures += (failures.empty() ? "" : "; ") + v->name + ": " + why;
    } else {
      a.outcome = Attempt::Outcome::Chosen;
      sel.plan = v->schedule(op, target);
      assert(sel.plan->variant == v->name && "the plan names its variant");
    }
    sel.attempts.push_back(std::move(a));
  }
  if (!sel.plan)
    sel.error = "no copy variant applies: " + failures;
  return sel;
}

} // namespace intent::copy
