//===- EmitPhysical.cpp - Pass: the physical program body ------------------===//

#include "Construction/EmitPhysical.h"

#include "Construction/Buffers.h"
#include "Construction/LaunchLowering.h"
#include "Construction/ViewRelations.h"
#include "KIR/Atomic.h"
#include "Physical/InBounds.h"
#include "Physical/Structured.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"

#include <set>

using namespace intent;
using namespace intent::construct;
using phys::Opcode;

namespace {

/// KIR opcodes that map to the physical opcode of the same name.
std::optional<Opcode> sameNameOpcode(kir::Opcode k) {
  switch (k) {
  case kir::Opcode::Constant: return Opcode::Constant;
  case kir::Opcode::Add: return Opcode::Add;
  case kir::Opcode::Sub: return Opcode::Sub;
  case kir::Opcode::Mul: return Opcode::Mul;
  case kir::Opcode::Div: return Opcode::Div;
  case kir::Opcode::Rem: return Opcode::Rem;
  case kir::Opcode::Neg: return Opcode::Neg;
  case kir::Opcode::BitAnd: return Opcode::BitAnd;
  case kir::Opcode::BitOr: return Opcode::BitOr;
  case kir::Opcode::BitXor: return Opcode::BitXor;
  case kir::Opcode::BitNot: return Opcode::BitNot;
  case kir::Opcode::Shl: return Opcode::Shl;
  case kir::Opcode::Shr: return Opcode::Shr;
  case kir::Opcode::Not: return Opcode::Not;
  case kir::Opcode::Min: return Opcode::Min;
  case kir::Opcode::Max: return Opcode::Max;
  case kir::Opcode::Cmp: return Opcode::Cmp;
  case kir::Opcode::Select: return Opcode::Select;
  case kir::Opcode::Cast: return Opcode::Cast;
  case kir::Opcode::Math: return Opcode::Math;
  case kir::Opcode::Rng: return Opcode::Rng;
  case kir::Opcode::Yield: return Opcode::Yield;
  case kir::Opcode::Condition: return Opcode::Condition;
  case kir::Opcode::Break: return Opcode::Break;
  case kir::Opcode::Continue: return Opcode::Continue;
  case kir::Opcode::Print: return Opcode::Print;
  default: return std::nullopt;
  }
}

phys::AttrValue convertAttr(const kir::AttrValue &v) {
  return std::visit([](const auto &x) -> phys::AttrValue { return x; }, v);
}

class Emitter {
public:
  explicit Emitter(ConstructionState &s) : s(s), p(*s.program), b(p) {}

  void run() {
    phys::Block &entry = p.body->block;
    b.setInsertionBlock(&entry);
    // The dispatch skeleton (program_id, the round-up guard, return) stands
    // for no KIR op.
    b.origin = phys::Origin();
    b.origin.kernel = s.kernel.id;
    b.origin.synth = "construction";
    b.loc = s.kernel.loc;
    pid = b.create(Opcode::ProgramId, {}, {phys::Type::index()})->result();
    phys::Value *total = b.launchValue(p.total);
    phys::Value *ok = b.cmp("lt", pid, total);
    phys::Op *guard = b.create(Opcode::If, {ok}, {});
    phys::Region *then = b.addRegion(guard);
    phys::Region *els = b.addRegion(guard);
    b.setInsertionBlock(&then->block);
    addExternalBuffers();
    for (const Group &g : s.groups)
      emitGroup(g);
    b.loc = s.kernel.loc;
    b.origin = guard->origin;
    b.yield();
    b.setInsertionBlock(&els->block);
    b.yield();
    b.setInsertionBlock(&entry);
    b.create(Opcode::Return, {}, {});
    addBuffers();
    compactLaunchExprs(p);
    markProvenAccesses();
  }

private:
  ConstructionState &s;
  phys::Program &p;
  phys::Builder b;
  phys::Value *pid = nullptr;
  llvm::DenseMap<const kir::Value *, phys::Value *> map;
  /// Instance coordinates of the current parallel group whose conversion
  /// to a narrower integer the launch checks (Unit::narrowed): KIR index ->
  /// the decoded coordinate.
  llvm::DenseMap<const kir::Value *, phys::Value *> checkedCoords;
  /// The instance coordinates of the group being emitted (parallel groups).
  std::vector<phys::Value *> coords;

  /// Accesses whose coordinates provably stay inside the view or buffer
  /// (Physical/InBounds.h) are `proven` instead of `assumed`: the checked
  /// kernel variant then skips their run-time bounds check.
  void markProvenAccesses() {
    phys::walkMutable(*p.body, [&](phys::Op &op) {
      bool access = op.opcode == Opcode::Load || op.opcode == Opcode::Store ||
                    phys::isAtomic(op.opcode);
      if (access && op.access.bounds == phys::Bounds::Assumed &&
          phys::whyNotInBounds(p, op).empty())
        op.access.bounds = phys::Bounds::Proven;
    });
  }

  void setOrigin(const kir::Op &op) {
    b.loc = op.loc;
    b.origin = phys::Origin();
    b.origin.kernel = s.kernel.id;
    b.origin.op = op.id;
  }

  void emitGroup(const Group &g) {
    const phys::Segment &seg = p.segments[g.id];
    b.loc = g.loc;
    b.origin = seg.covers.front();
    phys::Value *off = b.launchValue(seg.offset);
    phys::Value *len = b.launchValue(seg.length);
    phys::Op *segOp = b.create(Opcode::Segment, {pid, off, len}, {});
    segOp->setAttr("group", static_cast<int64_t>(g.id));
    phys::Region *r = b.addRegion(segOp);
    phys::Value *local = b.addBlockArg(&r->block, phys::Type::index(), "local");
    phys::Block *saved = b.block;
    b.setInsertionBlock(&r->block);
    map.clear();
    checkedCoords.clear();
    coords.clear();
    for (unsigned i = 0; i < p.params.size(); ++i)
      map[s.kernel.param(i)] = p.param(i);
    if (!g.ordered) {
      llvm::SmallVector<phys::Value *, 4> ops{local};
      for (unsigned e : seg.extents)
        ops.push_back(b.launchValue(e));
      llvm::SmallVector<phys::Type, 4> types(seg.extents.size(),
                                             phys::Type::index());
      phys::Op *dec = b.create(Opcode::Delinearize, ops, types);
      coords.assign(dec->results.begin(), dec->results.end());
      for (unsigned u : g.units) {
        const Unit &unit = s.units[u];
        for (unsigned i = 0; i < unit.indices.size(); ++i)
          map[unit.indices[i]] = dec->result(i);
        for (const auto &[k, type] : unit.narrowed)
          checkedCoords[unit.indices[k]] = dec->result(k);
        // The first unit names the coordinates; a fused unit's iterations
        // are decoded by the same coordinates.
        std::vector<phys::Origin> its = iterations(unit);
        for (unsigned j = 0; j < its.size(); ++j) {
          if (u == g.units.front())
            dec->result(j)->origin = its[j];
          else
            dec->result(j)->alsoFrom.push_back(its[j]);
        }
      }
    }
    // Kernel-level buffers of this group: allocated (or, for a workspace,
    // bound to its slice) once at the start of each instance.
    for (const KernelBuffer &kb : s.kernelBuffers)
      if (kb.group == static_cast<int>(g.id))
        emitAlloc(*kb.alloc, kb.scope);
    emitReplicated(g);
    for (unsigned u : g.units) {
      if (g.ordered) {
        emitOp(*s.units[u].op);
        continue;
      }
      // A unit fused over a larger domain (Groups.cpp) runs where the
      // coordinates are inside its own extents: one `if` per such dimension.
      phys::Block *unitSaved = b.block;
      std::vector<phys::Op *> guards;
      const Unit &unit = s.units[u];
      for (unsigned d = 0; d < unit.domain.size(); ++d) {
        if (unit.domain[d] == g.domain[d])
          continue;
        setOrigin(*unit.op);
        phys::Value *inside =
            b.cmp("lt", coords[d], b.launchValue(unit.domain[d]));
        phys::Op *guard = b.create(Opcode::If, {inside}, {});
        guards.push_back(guard);
        b.setInsertionBlock(&b.addRegion(guard)->block);
      }
      emitParallelUnit(unit);
      for (auto it = guards.rbegin(); it != guards.rend(); ++it) {
        setOrigin(*unit.op);
        b.yield();
        b.setInsertionBlock(&b.addRegion(*it)->block);
        b.yield();
        b.setInsertionBlock((*it)->parent);
      }
      b.setInsertionBlock(unitSaved);
    }
    b.yield();
    b.setInsertionBlock(saved);
  }

  /// Emits, in KIR order, the replicable top-level ops the group uses.
  void emitReplicated(const Group &g) {
    std::set<unsigned> needed;
    std::vector<const kir::Op *> work;
    auto need = [&](const kir::Op &op) {
      auto visit = [&](const kir::Op &o) {
        for (const kir::Value *v : o.operands)
          if (!v->isBlockArg() && s.replicable.count(v->def->id) &&
              needed.insert(v->def->id).second)
            work.push_back(v->def);
      };
      visit(op);
      for (const auto &r : op.regions)
        kir::walk(*r, visit);
    };
    for (unsigned u : g.units) {
      if (g.ordered) {
        need(*s.units[u].op);
        continue;
      }
      for (const kir::Op *op : parallelUnitOps(s.units[u]))
        need(*op);
    }
    while (!work.empty()) {
      const kir::Op *op = work.back();
      work.pop_back();
      need(*op);
    }
    for (const auto &op : s.kernel.body->block.ops)
      if (needed.count(op->id))
        emitOp(*op);
  }

  /// The KIR iterations the instance coordinates of a parallel unit stand
  /// for: (parallel_for, dim) per nest dimension, or (region op, 0).
  std::vector<phys::Origin> iterations(const Unit &u) const {
    std::vector<phys::Origin> its;
    auto add = [&](const kir::Op &op, unsigned d) {
      phys::Origin o;
      o.kernel = s.kernel.id;
      o.op = op.id;
      o.arg = d;
      its.push_back(o);
    };
    if (u.isRegionOp)
      add(*u.op, 0);
    for (const kir::Op *pf : u.nest)
      for (unsigned d = 0; d < pf->operands.size(); ++d)
        add(*pf, d);
    return its;
  }

  /// The ops a parallel unit runs per instance: the bodies of the flattened
  /// nest, outermost first (a region op: the op itself).
  static std::vector<const kir::Op *> parallelUnitOps(const Unit &u) {
    if (u.isRegionOp)
      return {u.op};
    std::vector<const kir::Op *> ops;
    for (unsigned l = 0; l < u.nest.size(); ++l) {
      const kir::Op *inner = l + 1 < u.nest.size() ? u.nest[l + 1] : nullptr;
      for (const auto &op : u.nest[l]->regions[0]->block.ops) {
        if (op.get() == inner)
          break; // pure code after the inner parallel_for is dead
        if (!kir::isTerminator(op->opcode))
          ops.push_back(op.get());
      }
    }
    return ops;
  }

  void emitParallelUnit(const Unit &u) {
    if (u.isRegionOp) {
      setOrigin(*u.op);
      emitRegionOpAt(*u.op, map.lookup(u.indices[0]));
      return;
    }
    for (const kir::Op *op : parallelUnitOps(u))
      emitOp(*op);
  }

  phys::Value *lookup(const kir::Value *v, kir::Loc loc) {
    auto it = map.find(v);
    if (it != map.end())
      return it->second;
    s.error(loc, "internal: value %" + std::to_string(v->id) +
                     " is not available in its execution group");
    phys::Value *zero = b.constInt(0, phys::Type::fromKIR(v->type));
    map[v] = zero;
    return zero;
  }

  phys::Value *toIndex(phys::Value *v) {
    if (v->type.isIndex())
      return v;
    return b.create(Opcode::Cast, {v}, {phys::Type::index()})->result();
  }

  phys::Value *emitCExpr(const CExprRef &e, kir::Loc loc) {
    switch (e->kind) {
    case CExpr::Kind::Value:
      return toIndex(lookup(e->value, loc));
    case CExpr::Kind::Const:
      return b.constInt(e->constant);
    case CExpr::Kind::Extent:
    case CExpr::Kind::Stride: {
      phys::Op *op = b.create(e->kind == CExpr::Kind::Extent ? Opcode::Extent
                                                             : Opcode::Stride,
                              {p.param(e->param)}, {phys::Type::index()});
      op->setAttr("dim", static_cast<int64_t>(e->dim));
      return op->result();
    }
    default: {
      phys::Value *l = emitCExpr(e->lhs, loc);
      phys::Value *r = emitCExpr(e->rhs, loc);
      Opcode opc = e->kind == CExpr::Kind::Add   ? Opcode::Add
                   : e->kind == CExpr::Kind::Sub ? Opcode::Sub
                   : e->kind == CExpr::Kind::Mul ? Opcode::Mul
                   : e->kind == CExpr::Kind::Div ? Opcode::Div
                                                 : Opcode::Rem;
      return b.binary(opc, l, r);
    }
    }
  }

  void bindResults(const kir::Op &k, phys::Op *op) {
    for (unsigned i = 0; i < k.results.size(); ++i) {
      map[k.results[i]] = op->result(i);
      op->result(i)->origin.kernel = s.kernel.id;
      op->result(i)->origin.value = k.results[i]->id;
    }
  }

  llvm::SmallVector<phys::Value *, 4> mapped(llvm::ArrayRef<kir::Value *> vs,
                                             kir::Loc loc) {
    llvm::SmallVector<phys::Value *, 4> out;
    for (const kir::Value *v : vs)
      out.push_back(lookup(v, loc));
    return out;
  }

  llvm::SmallVector<phys::Type, 2> resultTypes(const kir::Op &k) {
    llvm::SmallVector<phys::Type, 2> ts;
    for (const kir::Value *r : k.results)
      ts.push_back(phys::Type::fromKIR(r->type));
    return ts;
  }

  /// Emits a region's block into `r` (args mapped to new block args).
  /// Lowers KIR region `kr` into `r`; `prefix` block arguments (e.g. the
  /// region index of a region_scan's apply) come before the KIR ones.
  void emitRegion(const kir::Region &kr, phys::Region *r,
                  llvm::ArrayRef<phys::Type> prefix = {}) {
    phys::Block *saved = b.block;
    b.setInsertionBlock(&r->block);
    for (const phys::Type &t : prefix)
      b.addBlockArg(&r->block, t);
    for (const kir::Value *a : kr.block.args) {
      phys::Value *v = b.addBlockArg(&r->block, phys::Type::fromKIR(a->type));
      v->origin.kernel = s.kernel.id;
      v->origin.value = a->id;
      v->origin.region = kr.id;
      v->origin.arg = a->argNo;
      map[a] = v;
    }
    for (const auto &op : kr.block.ops)
      emitOp(*op);
    b.setInsertionBlock(saved);
  }

  /// `alloc {buffer = K}` and buffer record K for a KIR alloc.
  void emitAlloc(const kir::Op &k, phys::BufferScope scope) {
    phys::Buffer buf;
    buf.id = p.buffers.size();
    buf.name = bufferName(k);
    buf.scope = scope;
    buf.elem = k.result()->type.elem;
    buf.rank = 1;
    buf.size = k.intAttr("size");
    if (k.strAttr("init") == "value") {
      buf.init = phys::InitMode::Value;
      buf.initValue = k.floatAttr("value");
    } else {
      buf.init = phys::InitMode::FirstWrite;
    }
    buf.ownership = scope == phys::BufferScope::InvocationWorkspace
                        ? phys::Ownership::InstanceUnique
                        : phys::Ownership::Private;
    if (scope == phys::BufferScope::InvocationWorkspace) {
      int64_t end = phys::workspaceBytes(p);
      buf.workspaceOffset = (end + phys::kWorkspaceAlign - 1) /
                            phys::kWorkspaceAlign * phys::kWorkspaceAlign;
    }
    buf.origin.kernel = s.kernel.id;
    buf.origin.op = k.id;
    buf.origin.value = k.result()->id;
    p.buffers.push_back(buf);
    setOrigin(k);
    phys::Op *op =
        b.create(Opcode::Alloc, {}, {phys::Type::buffer(buf.elem, buf.size)});
    op->setAttr("buffer", static_cast<int64_t>(buf.id));
    op->result()->name = buf.name;
    bindResults(k, op);
  }

  /// A nested alloc: private to the program instance when it runs once
  /// per instance (directly in the segment), else to each execution of
  /// the region it is in.
  void emitNestedAlloc(const kir::Op &k) {
    const phys::Op *parent = b.block->parent ? b.block->parent->parent : nullptr;
    bool perInstance = parent && parent->opcode == Opcode::Segment;
    emitAlloc(k, perInstance ? phys::BufferScope::ProgramPrivate
                             : phys::BufferScope::IterationPrivate);
  }

  void emitAccess(const kir::Op &k) {
    ViewChain chain;
    std::string err;
    if (!resolveView(k.operands[0], chain, err)) {
      s.error(k.loc, err);
      return;
    }
    if (chain.rootAlloc) {
      emitBufferAccess(k, *chain.rootAlloc);
      return;
    }
    bool isStore = k.opcode == kir::Opcode::Store;
    bool atomic = kir::isAtomic(k.opcode);
    unsigned values = atomic ? kir::atomicValueCount(k.opcode) : isStore ? 1 : 0;
    unsigned first = 1 + values;
    std::vector<CExprRef> coords;
    phys::AccessInfo info;
    info.bounds = phys::Bounds::Assumed;
    info.kirOp = k.id;
    info.kirViewChain = chain.opIds();
    for (unsigned i = first; i < k.operands.size(); ++i) {
      coords.push_back(CExpr::of(k.operands[i]));
      info.kirCoords.push_back(k.operands[i]->id);
    }
    llvm::SmallVector<phys::Value *, 4> ops{p.param(chain.rootParam)};
    for (unsigned i = 1; i <= values; ++i)
      ops.push_back(lookup(k.operands[i], k.loc));
    for (const CExprRef &c : rootCoords(chain, coords))
      ops.push_back(emitCExpr(c, k.loc));
    setOrigin(k);
    Opcode opc = k.opcode == kir::Opcode::Atomic      ? Opcode::Atomic
                 : k.opcode == kir::Opcode::AtomicCas ? Opcode::AtomicCas
                 : isStore                            ? Opcode::Store
                                                      : Opcode::Load;
    phys::Op *op = b.create(opc, ops, resultTypes(k));
    op->access = info;
    // kind and order; the scope is the atomic-scopes pass's choice.
    if (atomic)
      for (const kir::NamedAttr &a : k.attrs)
        op->setAttr(a.name, convertAttr(a.value));
    bindResults(k, op);
  }

  /// A load/store/atomic of a local buffer: its alloc handle, the value
  /// operand(s) and the index.
  void emitBufferAccess(const kir::Op &k, const kir::Op &alloc) {
    bool isStore = k.opcode == kir::Opcode::Store;
    bool atomic = kir::isAtomic(k.opcode);
    unsigned values = atomic ? kir::atomicValueCount(k.opcode) : isStore ? 1 : 0;
    phys::AccessInfo info;
    info.bounds = phys::Bounds::Assumed;
    info.kirOp = k.id;
    llvm::SmallVector<phys::Value *, 4> ops{lookup(alloc.result(), k.loc)};
    for (unsigned i = 1; i <= values; ++i)
      ops.push_back(lookup(k.operands[i], k.loc));
    const kir::Value *idx = k.operands[1 + values];
    info.kirCoords.push_back(idx->id);
    ops.push_back(toIndex(lookup(idx, k.loc)));
    setOrigin(k);
    Opcode opc = k.opcode == kir::Opcode::Atomic      ? Opcode::Atomic
                 : k.opcode == kir::Opcode::AtomicCas ? Opcode::AtomicCas
                 : isStore                            ? Opcode::Store
                                                      : Opcode::Load;
    phys::Op *op = b.create(opc, ops, resultTypes(k));
    op->access = info;
    // kind and order; the scope is the atomic-scopes pass's choice.
    if (atomic)
      for (const kir::NamedAttr &a : k.attrs)
        op->setAttr(a.name, convertAttr(a.value));
    bindResults(k, op);
  }

  void emitOrderedParallelFor(const kir::Op &k) {
    llvm::SmallVector<phys::Value *, 3> ubs;
    for (const kir::Value *e : k.operands)
      ubs.push_back(toIndex(lookup(e, k.loc)));
    phys::Block *saved = b.block;
    const kir::Block &body = k.regions[0]->block;
    for (unsigned d = 0; d < ubs.size(); ++d) {
      setOrigin(k);
      b.origin.arg = d;
      b.origin.region = k.regions[0]->id;
      phys::Value *zero = b.constInt(0);
      phys::Op *f = b.create(Opcode::For, {zero, ubs[d]}, {});
      phys::Region *r = b.addRegion(f);
      phys::Value *iv = b.addBlockArg(&r->block, phys::Type::index());
      iv->origin = b.origin;
      iv->origin.value = body.args[d]->id;
      map[body.args[d]] = iv;
      b.setInsertionBlock(&r->block);
    }
    for (const auto &op : body.ops)
      if (!kir::isTerminator(op->opcode))
        emitOp(*op);
    // Close the nest: each level's block ends in a yield.
    for (unsigned d = ubs.size(); d > 0; --d) {
      b.yield();
      phys::Op *f = b.block->parent->parent;
      b.setInsertionBlock(f->parent);
    }
    assert(b.block == saved);
    (void)saved;
  }

  /// The accumulator schema of a KIR reduction: one component per init
  /// (argreduce: value and position), identities from the combiner.
  static std::vector<phys::AccComponent> accSchema(const kir::Op &k) {
    if (k.opcode == kir::Opcode::ArgReduce)
      return phys::argReduceSchema(k.strAttr("which") == "max",
                                   phys::Type::fromKIR(k.result(0)->type));
    std::string combiner = k.strAttr("combiner");
    std::vector<phys::AccComponent> acc;
    for (const kir::Value *init : kir::accumulatorInits(k)) {
      phys::AccComponent c;
      c.type = phys::Type::fromKIR(init->type);
      if (combiner == "user") {
        c.identity = phys::AccComponent::Identity::Init;
      } else if (auto id = phys::combinerIdentity(combiner, c.type.elem)) {
        c.identity = phys::AccComponent::Identity::Value;
        c.value = *id;
      }
      acc.push_back(c);
    }
    return acc;
  }

  /// Creates the physical structured op for `k` with `operands`, its
  /// attributes, schema and the callback regions.
  phys::Op *createStructured(const kir::Op &k, Opcode opc,
                             llvm::ArrayRef<phys::Value *> operands) {
    setOrigin(k);
    phys::Op *op = b.create(opc, operands, resultTypes(k));
    for (const kir::NamedAttr &a : k.attrs)
      op->setAttr(a.name, convertAttr(a.value));
    op->acc = accSchema(k);
    op->origin.region = k.regions[0]->id;
    for (const auto &r : k.regions)
      emitRegion(*r, b.addRegion(op));
    if (opc == Opcode::RegionScan)
      addScanFlowRegions(k, op);
    bindResults(k, op);
    return op;
  }

  /// A region_scan's chunk flow (design.md §4.7): apply(r, in..., p...)
  /// is the combine applied to the incoming state and a chunk-local prefix
  /// (a second lowering of the KIR combine, r unused); final(r, s...)
  /// receives the final state, which the API does not observe (empty).
  void addScanFlowRegions(const kir::Op &k, phys::Op *op) {
    const kir::Region &combine = *k.regions[phys::CombineRegion];
    emitRegion(combine, b.addRegion(op), {phys::Type::index()});
    phys::Region *final = b.addRegion(op);
    phys::Block *saved = b.block;
    b.setInsertionBlock(&final->block);
    b.addBlockArg(&final->block, phys::Type::index());
    for (const phys::AccComponent &c : op->acc)
      b.addBlockArg(&final->block, c.type);
    setOrigin(k);
    b.yield();
    b.setInsertionBlock(saved);
  }

  /// reduce, scan, argreduce: the same operands, regions and attributes.
  void emitStructured(const kir::Op &k) {
    Opcode opc = k.opcode == kir::Opcode::Reduce ? Opcode::Reduce
                 : k.opcode == kir::Opcode::Scan ? Opcode::Scan
                                                 : Opcode::ArgReduce;
    createStructured(k, opc, mapped(k.operands, k.loc));
  }

  /// One region `r` of a region_fold / region_scan: its member bounds are
  /// loaded from the offsets at r and r + 1 (the source slicing relation,
  /// runtime SSA with assumed validity), then the physical op folds or
  /// scans those members.
  void emitRegionOpAt(const kir::Op &k, phys::Value *r) {
    ViewChain chain;
    std::string err;
    if (!resolveView(k.operands[0], chain, err)) {
      s.error(k.loc, err);
      return;
    }
    const kir::Value *kr = k.regions[0]->block.args[0];
    map[kr] = r;
    CExprRef rc = CExpr::of(kr);
    auto bound = [&](CExprRef c) {
      llvm::SmallVector<phys::Value *, 2> ops{p.param(chain.rootParam)};
      for (const CExprRef &rootC : rootCoords(chain, {c}))
        ops.push_back(emitCExpr(rootC, k.loc));
      setOrigin(k);
      phys::Type elem = phys::Type::scalar(p.params[chain.rootParam].type.elem);
      phys::Op *load = b.create(Opcode::Load, ops, {elem});
      load->access.bounds = phys::Bounds::Assumed;
      load->access.kirOp = k.id;
      load->access.kirCoords = {kr->id};
      load->access.kirViewChain = chain.opIds();
      phys::Value *v = load->result();
      return toIndex(v);
    };
    phys::Value *begin = bound(rc);
    phys::Value *end =
        bound(CExpr::binary(CExpr::Kind::Add, rc, CExpr::ofConst(1)));
    llvm::SmallVector<phys::Value *, 6> ops{r, begin, end};
    for (const kir::Value *init : kir::accumulatorInits(k))
      ops.push_back(lookup(init, k.loc));
    createStructured(k, k.opcode == kir::Opcode::RegionFold
                            ? Opcode::RegionFold
                            : Opcode::RegionScan,
                     ops);
  }

  /// A region op traversed inside one instance: an ordered `for` over its
  /// regions r in [0, max(offsets.extent(0) - 1, 0)).
  void emitOrderedRegionOp(const kir::Op &k) {
    ViewChain chain;
    std::string err;
    if (!resolveView(k.operands[0], chain, err)) {
      s.error(k.loc, err);
      return;
    }
    phys::Value *n = emitCExpr(
        CExpr::binary(CExpr::Kind::Sub, viewExtent(chain, chain.ops.size(), 0),
                      CExpr::ofConst(1)),
        k.loc);
    setOrigin(k);
    b.origin.arg = 0;
    b.origin.region = k.regions[0]->id;
    phys::Value *zero = b.constInt(0);
    phys::Value *count = b.binary(Opcode::Max, n, zero);
    phys::Op *f = b.create(Opcode::For, {zero, count}, {});
    phys::Region *body = b.addRegion(f);
    phys::Value *iv = b.addBlockArg(&body->block, phys::Type::index(), "r");
    iv->origin = b.origin;
    iv->origin.value = k.regions[0]->block.args[0]->id;
    phys::Block *saved = b.block;
    b.setInsertionBlock(&body->block);
    emitRegionOpAt(k, iv);
    b.yield();
    b.setInsertionBlock(saved);
  }

  void emitOp(const kir::Op &k) {
    setOrigin(k);
    switch (k.opcode) {
    case kir::Opcode::SubView:
    case kir::Opcode::Return:
      return; // views are composed into accesses
    case kir::Opcode::Extent:
    case kir::Opcode::Stride: {
      ViewChain chain;
      std::string err;
      if (!resolveView(k.operands[0], chain, err)) {
        s.error(k.loc, err);
        return;
      }
      unsigned dim = k.intAttr("dim");
      CExprRef e = k.opcode == kir::Opcode::Extent
                       ? viewExtent(chain, chain.ops.size(), dim)
                       : viewStride(chain, chain.ops.size(), dim);
      phys::Value *v = emitCExpr(e, k.loc);
      phys::Type t = phys::Type::fromKIR(k.result()->type);
      if (v->type != t)
        v = b.create(Opcode::Cast, {v}, {t})->result();
      map[k.result()] = v;
      return;
    }
    case kir::Opcode::Load:
    case kir::Opcode::Store:
    case kir::Opcode::Atomic:
    case kir::Opcode::AtomicCas:
      emitAccess(k);
      return;
    case kir::Opcode::Alloc:
      emitNestedAlloc(k);
      return;
    case kir::Opcode::ParallelFor:
      emitOrderedParallelFor(k);
      return;
    case kir::Opcode::Reduce:
    case kir::Opcode::Scan:
    case kir::Opcode::ArgReduce:
      emitStructured(k);
      return;
    case kir::Opcode::RegionFold:
    case kir::Opcode::RegionScan:
      emitOrderedRegionOp(k);
      return;
    case kir::Opcode::If:
    case kir::Opcode::Loop: {
      bool isIf = k.opcode == kir::Opcode::If;
      phys::Op *op = b.create(isIf ? Opcode::If : Opcode::Loop,
                              mapped(k.operands, k.loc), resultTypes(k));
      if (!isIf)
        op->setAttr("test_first", k.boolAttr("test_first", true));
      op->origin.region = k.regions[0]->id;
      for (const auto &r : k.regions)
        emitRegion(*r, b.addRegion(op));
      bindResults(k, op);
      return;
    }
    case kir::Opcode::Cast:
      // (index)(int)i of a checked coordinate i is i (the launch checks that
      // every coordinate fits the int): the accesses address the coordinate
      // itself, as with an intent::index, for the passes and the emitter.
      if (phys::Value *c = widenedCheckedCoordinate(k)) {
        map[k.result()] = c;
        return;
      }
      break;
    default:
      break;
    }
    std::optional<Opcode> opc = sameNameOpcode(k.opcode);
    if (!opc) {
      s.error(k.loc, "construction does not support KIR op '" +
                         kir::opcodeName(k.opcode).str() + "' yet");
      return;
    }
    phys::Op *op = b.create(*opc, mapped(k.operands, k.loc), resultTypes(k));
    for (const kir::NamedAttr &a : k.attrs)
      op->setAttr(a.name, convertAttr(a.value));
    bindResults(k, op);
  }

  /// The coordinate when cast `k` converts a checked coordinate converted
  /// to an integer type back to the index type, else null.
  phys::Value *widenedCheckedCoordinate(const kir::Op &k) {
    const kir::Value *src = k.operands[0];
    if (k.result()->type != kir::Type::scalar(kir::ScalarKind::I64) ||
        !src->type.isInteger() || src->isBlockArg() ||
        src->def->opcode != kir::Opcode::Cast)
      return nullptr;
    auto it = checkedCoords.find(src->def->operands[0]);
    return it == checkedCoords.end() ? nullptr : it->second;
  }

  /// One external_view record per view parameter (readers and writers are
  /// filled in by addBuffers once the body exists).
  void addExternalBuffers() {
    for (unsigned i = 0; i < p.params.size(); ++i) {
      const phys::Param &par = p.params[i];
      if (!par.type.isView())
        continue;
      phys::Buffer buf;
      buf.id = p.buffers.size();
      buf.name = par.name;
      buf.scope = phys::BufferScope::ExternalView;
      buf.elem = par.type.elem;
      buf.rank = par.type.rank;
      buf.param = i;
      buf.init = phys::InitMode::Host;
      buf.origin = par.origin;
      p.buffers.push_back(buf);
    }
  }

  /// The reader and writer groups of every buffer, read back from the
  /// emitted segments; ownership of external views.
  void addBuffers() {
    for (phys::Buffer &buf : p.buffers) {
      const phys::Value *mem = nullptr;
      if (buf.scope == phys::BufferScope::ExternalView)
        mem = p.param(buf.param);
      std::set<unsigned> readers, writers;
      bool orderedWriter = false, atomicWriter = false;
      // Read the accesses back from the emitted segments (replicated loads
      // of const views included), not from the KIR summaries.
      for (const auto &op : p.body->block.ops)
        for (const auto &r : op->regions)
          for (const auto &seg : r->block.ops) {
            if (seg->opcode != Opcode::Segment)
              continue;
            unsigned g = seg->intAttr("group");
            phys::walk(*seg->regions[0], [&](const phys::Op &a) {
              if (a.opcode != Opcode::Load && a.opcode != Opcode::Store &&
                  !phys::isAtomic(a.opcode))
                return;
              const phys::Value *m = a.memory();
              bool match = mem ? m == mem
                               : m->def && m->def->opcode == Opcode::Alloc &&
                                     m->def->intAttr("buffer") ==
                                         static_cast<int64_t>(buf.id);
              if (!match)
                return;
              // An atomic counts as a write (it also reads the element).
              bool w = a.opcode != Opcode::Load;
              (w ? writers : readers).insert(g);
              orderedWriter |= w && s.groups[g].ordered;
              atomicWriter |= phys::isAtomic(a.opcode);
            });
          }
      buf.readerGroups.assign(readers.begin(), readers.end());
      buf.writerGroups.assign(writers.begin(), writers.end());
      if (mem && !writers.empty())
        buf.ownership = orderedWriter  ? phys::Ownership::SingleInstance
                        : atomicWriter ? phys::Ownership::Atomic
                                       : phys::Ownership::InstanceUnique;
      // An external view is shared by every instance of the launch.
      if (mem && atomicWriter)
        buf.sharing = phys::Sharing::Launch;
      // A local buffer updated by atomics: a workspace is shared by the
      // instances of its parallel group through atomics only (design.md §4.5),
      // anything else is private to one instance (a merged kernel-level
      // buffer lives in the single instance of its ordered group).
      if (!mem && atomicWriter) {
        bool workspace = buf.scope == phys::BufferScope::InvocationWorkspace;
        buf.sharing = workspace ? phys::Sharing::Launch
                                : phys::Sharing::Instance;
        if (workspace)
          buf.ownership = phys::Ownership::Atomic;
      }
    }
  }
};

} // namespace

void construct::emitPhysical(ConstructionState &s) { Emitter(s).run(); }
