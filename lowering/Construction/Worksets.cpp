//===- Worksets.cpp - Pass: logical worksets from the kernel body ----------===//

#include "Construction/Worksets.h"

#include "Construction/LaunchLowering.h"
#include "KIR/Atomic.h"

#include "llvm/ADT/DenseSet.h"

using namespace intent;
using namespace intent::construct;
using kir::Op;
using kir::Opcode;

namespace {

/// True when `view` resolves to a `view<const T>` parameter.
bool isConstViewAccess(const ConstructionState &s, const kir::Value *view) {
  ViewChain chain;
  std::string err;
  if (!resolveView(view, chain, err) || chain.rootAlloc)
    return false;
  return s.kernel.params[chain.rootParam].type.constElem;
}

/// Every value used in `op`'s tree but defined outside it.
void outerUses(const Op &op, llvm::SmallVectorImpl<const kir::Value *> &out) {
  llvm::DenseSet<const kir::Value *> inside;
  std::function<void(const Op &)> visit = [&](const Op &o) {
    for (const kir::Value *v : o.operands)
      if (!inside.count(v))
        out.push_back(v);
    for (const auto &r : o.regions) {
      for (const kir::Value *a : r->block.args)
        inside.insert(a);
      for (const auto &sub : r->block.ops)
        visit(*sub);
    }
    for (const kir::Value *res : o.results)
      inside.insert(res);
  };
  visit(op);
}

bool isReplicableOp(const ConstructionState &s, const Op &op) {
  llvm::SmallVector<const kir::Value *, 8> uses;
  outerUses(op, uses);
  for (const kir::Value *v : uses)
    if (!s.isReplicable(v))
      return false;
  if (kir::isPure(op.opcode))
    return true;
  if (op.opcode == Opcode::Load)
    return isConstViewAccess(s, op.operands[0]);
  if (op.opcode != Opcode::If && op.opcode != Opcode::Loop)
    return false;
  bool ok = true;
  for (const auto &r : op.regions)
    kir::walk(*r, [&](const Op &o) {
      if (o.opcode == Opcode::Store || o.opcode == Opcode::ParallelFor ||
          kir::isAtomic(o.opcode) || o.opcode == Opcode::Print)
        ok = false; // (a replicated print would print once per copy)
      else if (o.opcode == Opcode::Load && !isConstViewAccess(s, o.operands[0]))
        ok = false;
    });
  return ok;
}

/// The launch expressions of a parallel_for's extents, or nullopt.
std::optional<std::vector<unsigned>> domainOf(ConstructionState &s,
                                              const Op &pf, std::string &why) {
  std::vector<unsigned> dom;
  for (const kir::Value *e : pf.operands) {
    std::optional<unsigned> l = lowerToLaunch(e, s.kernel, *s.program, why);
    if (!l)
      return std::nullopt;
    dom.push_back(*l);
  }
  return dom;
}

/// The first reduce/scan/argreduce/region op in `op`'s tree, or null.
const Op *firstReduction(const Op &op) {
  const Op *found = kir::isReductionOp(op.opcode) ? &op : nullptr;
  for (const auto &r : op.regions)
    kir::walk(*r, [&](const Op &o) {
      if (!found && kir::isReductionOp(o.opcode))
        found = &o;
    });
  return found;
}

/// A top-level region_fold / region_scan: instance domain = its regions
/// [0, offsets.extent(0) - 1), launch-visible through the offsets view.
void initRegionOpUnit(ConstructionState &s, Unit &u) {
  const Op &op = *u.op;
  u.isRegionOp = true;
  const kir::Block &value = op.regions[0]->block;
  const kir::Block &out = op.regions[2]->block;
  u.indices.push_back(value.args[0]);
  u.coordAliases.push_back({out.args[0], 0});
  u.members.push_back({value.args[1], 0});
  if (op.opcode == Opcode::RegionScan)
    u.members.push_back({out.args[1], 0});
  ViewChain chain;
  std::string why;
  if (!resolveView(op.operands[0], chain, why)) {
    u.notVisible = why;
    return;
  }
  CExprRef n = CExpr::binary(CExpr::Kind::Sub,
                             viewExtent(chain, chain.ops.size(), 0),
                             CExpr::ofConst(1));
  std::optional<unsigned> e = lowerToLaunch(n, s.kernel, *s.program, why);
  u.launchVisible = e.has_value();
  if (e)
    u.domain = {*e};
  else
    u.notVisible = why;
}

/// Tries to flatten the single parallel_for at the top of `outer`'s body.
const Op *flattenable(ConstructionState &s, const Op &outer,
                      std::string &why, std::string &fix) {
  const kir::Block &b = outer.regions[0]->block;
  const Op *inner = nullptr;
  for (const auto &op : b.ops)
    if (op->opcode == Opcode::ParallelFor) {
      if (inner) {
        why = "the body has several parallel_fors";
        fix = "give each nested parallel_for its own top-level parallel_for "
              "(or its own kernel)";
        return nullptr;
      }
      inner = op.get();
    }
  if (!inner)
    return nullptr;
  bool after = false;
  for (const auto &op : b.ops) {
    if (op.get() == inner) {
      after = true;
      continue;
    }
    if (kir::isTerminator(op->opcode))
      continue;
    // A buffer allocated around the inner parallel_for is shared by its
    // iterations; flattening would give each iteration its own.
    if (op->opcode == Opcode::Alloc) {
      why = "the enclosing body allocates a buffer (op " +
            std::to_string(op->id) + " at " + locString(op->loc) +
            ") shared by its iterations";
      fix = "declare the buffer inside the nested parallel_for";
      return nullptr;
    }
    // A reduction computed around the inner parallel_for is a shared
    // producer (design.md §4.6): flattening would recompute it per inner
    // iteration instead of once per instance.
    if (const Op *red = firstReduction(*op)) {
      why = "the enclosing body computes " +
            kir::opcodeName(red->opcode).str() + " (op " +
            std::to_string(red->id) + " at " + locString(red->loc) +
            ") shared by its iterations";
      fix = "compute the " + kir::opcodeName(red->opcode).str() +
            " in a kernel of its own (writing a view) before this one";
      return nullptr;
    }
    if (hasEffectsOrParallel(*op)) {
      why = "the enclosing body has effects outside it (op " +
            std::to_string(op->id) + " at " + locString(op->loc) + ")";
      fix = "move the other stores into the nested parallel_for, or into a "
            "parallel_for or kernel of their own";
      return nullptr;
    }
    bool reads = op->opcode == Opcode::Load;
    for (const auto &r : op->regions)
      kir::walk(*r, [&](const Op &x) { reads |= x.opcode == Opcode::Load; });
    if (after && reads) {
      why = "the enclosing body reads memory after it";
      fix = "move the code after it into the nested parallel_for, or into a "
            "kernel of its own";
      return nullptr;
    }
  }
  if (!domainOf(s, *inner, why)) {
    why = "its extent is not launch-visible: " + why;
    fix = "compute its extent from scalar parameters and view extents only";
    return nullptr;
  }
  return inner;
}

} // namespace

bool construct::hasEffectsOrParallel(const Op &op) {
  auto effect = [](const Op &o) {
    return o.opcode == Opcode::Store || o.opcode == Opcode::ParallelFor ||
           kir::isAtomic(o.opcode) || o.opcode == Opcode::Print;
  };
  bool found = effect(op);
  for (const auto &r : op.regions)
    kir::walk(*r, [&](const Op &o) { found |= effect(o); });
  return found;
}

void construct::buildWorksets(ConstructionState &s) {
  for (const auto &opPtr : s.kernel.body->block.ops) {
    const Op &op = *opPtr;
    if (op.opcode == Opcode::Return)
      continue;
    if (op.opcode == Opcode::Alloc) {
      // A kernel-level buffer: no unit of its own; the units that use it
      // join one group (form-groups) and place-buffers picks its scope.
      KernelBuffer kb;
      kb.alloc = &op;
      s.kernelBuffers.push_back(kb);
      continue;
    }
    if (op.opcode != Opcode::ParallelFor && isReplicableOp(s, op)) {
      s.replicable.insert(op.id);
      continue;
    }
    Unit u;
    u.id = s.units.size();
    u.op = &op;
    u.loc = op.loc;
    if (op.opcode == Opcode::RegionFold || op.opcode == Opcode::RegionScan)
      initRegionOpUnit(s, u);
    if (op.opcode == Opcode::ParallelFor) {
      u.isParallelFor = true;
      u.nest.push_back(&op);
      std::string why;
      std::optional<std::vector<unsigned>> dom = domainOf(s, op, why);
      u.launchVisible = dom.has_value();
      if (dom)
        u.domain = *dom;
      else
        u.notVisible = why;
      while (u.launchVisible) {
        std::string whyNot, fix;
        const Op *inner = flattenable(s, *u.nest.back(), whyNot, fix);
        if (!inner) {
          if (!whyNot.empty()) {
            const Op *first = nullptr;
            for (const auto &o : u.nest.back()->regions[0]->block.ops)
              if (o->opcode == Opcode::ParallelFor && !first)
                first = o.get();
            s.remark(first ? first->loc : op.loc,
                     "nested parallel_for stays an ordered loop inside each "
                     "instance: " + whyNot);
            Serialization f;
            f.loc = first ? first->loc : op.loc;
            f.cause = "the nested parallel_for at " + locString(f.loc) +
                      " runs as an ordered loop inside each instance of the "
                      "parallel_for at " + locString(op.loc) + ": " + whyNot;
            f.fix = fix;
            f.nested = first ? static_cast<int>(first->id) : -1;
            f.unit = static_cast<int>(u.id);
            if (f.nested >= 0)
              s.serializations.push_back(f);
          }
          break;
        }
        std::vector<unsigned> innerDom = *domainOf(s, *inner, whyNot);
        u.domain.insert(u.domain.end(), innerDom.begin(), innerDom.end());
        u.nest.push_back(inner);
        s.remark(inner->loc, "nested parallel_for flattened into the instance "
                             "domain of the parallel_for at " +
                                 locString(op.loc));
      }
      for (const Op *pf : u.nest)
        for (const kir::Value *a : pf->regions[0]->block.args)
          u.indices.push_back(a);
    }
    s.units.push_back(std::move(u));
  }
}
