//===- State.cpp - Construction state: setup and printing -------------------===//

#include "Construction/State.h"

using namespace intent;
using namespace intent::construct;

ConstructionState::ConstructionState(const kir::Kernel &k)
    : kernel(k), program(std::make_unique<phys::Program>()) {
  phys::Program &p = *program;
  p.name = k.name;
  p.mangledName = k.mangledName;
  p.loc = k.loc;
  p.origin.kernel = k.id;
  p.origin.region = k.body->id;
  phys::Builder b(p);
  for (unsigned i = 0; i < k.params.size(); ++i) {
    const kir::Param &kp = k.params[i];
    phys::Param pp;
    pp.name = kp.name;
    pp.type = phys::Type::fromKIR(kp.type);
    pp.access = kp.access;
    pp.isConstexpr = kp.isConstexpr;
    pp.origin.kernel = k.id;
    pp.origin.value = k.param(i)->id;
    pp.origin.region = k.body->id;
    pp.origin.arg = i;
    p.params.push_back(pp);
    phys::Value *v = b.addBlockArg(&p.body->block, pp.type, kp.name);
    v->origin = pp.origin;
  }
}

bool ConstructionState::isReplicable(const kir::Value *v) const {
  if (v->isBlockArg())
    return v->owner == &kernel.body->block;
  return replicable.count(v->def->id) != 0;
}

std::string construct::locString(kir::Loc loc) {
  if (!loc.valid())
    return "?";
  return std::to_string(loc.line) + ":" + std::to_string(loc.col);
}

void construct::printWorksets(llvm::raw_ostream &os,
                              const ConstructionState &s) {
  os << "worksets @" << s.kernel.name << " {\n";
  os << "  replicated ops [";
  bool first = true;
  for (unsigned id : s.replicable) {
    os << (first ? "" : ", ") << id;
    first = false;
  }
  os << "]\n";
  for (const Unit &u : s.units) {
    os << "  unit " << u.id << ": " << kir::opcodeName(u.op->opcode) << " op "
       << u.op->id << " at " << locString(u.loc);
    if (u.isRegionOp)
      os << ", regions, domain ";
    if (u.isParallelFor) {
      os << ", nest [";
      for (unsigned i = 0; i < u.nest.size(); ++i)
        os << (i ? ", op " : "op ") << u.nest[i]->id;
      os << "], domain ";
    }
    if (u.parallelCapable()) {
      if (u.launchVisible) {
        os << "[";
        for (unsigned i = 0; i < u.domain.size(); ++i)
          os << (i ? ", " : "") << s.program->exprToString(u.domain[i]);
        os << "]";
      } else {
        os << "data-dependent (" << u.notVisible << ")";
      }
    }
    os << "\n";
  }
  os << "}\n";
}

void construct::printGroups(llvm::raw_ostream &os, const ConstructionState &s) {
  os << "groups @" << s.kernel.name << " {\n";
  for (const Group &g : s.groups) {
    os << "  group " << g.id << ": units [";
    for (unsigned i = 0; i < g.units.size(); ++i)
      os << (i ? ", " : "") << g.units[i];
    os << "] ";
    if (g.ordered) {
      os << "ordered (" << g.reason << ")";
    } else {
      os << "parallel [";
      for (unsigned i = 0; i < g.domain.size(); ++i)
        os << (i ? ", " : "") << s.program->exprToString(g.domain[i]);
      os << "]";
    }
    os << "\n";
  }
  for (const Unit &u : s.units)
    for (const phys::AccessSummary &a : u.accesses)
      os << "  unit " << u.id << " " << a.describe() << "\n";
  os << "}\n";
}
