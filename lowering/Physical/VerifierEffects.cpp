//===- VerifierEffects.cpp - Construction verifier: effects ----------------===//
//
// [ownership] [conflicts] [dependences] [coverage]: the effect half of the
// construction verifier. Accesses are re-derived from the physical program
// alone (coordinate SSA -> affine forms over the segment's delinearized
// instance coordinates) and checked with the same rules construction used
// (Conflict.h), so a pass that breaks a proof is caught here.
//
//===----------------------------------------------------------------------===//

#include "Physical/Verifier.h"

#include "Physical/Dispatch.h"
#include "Physical/PhysAffine.h"
#include "Physical/Structured.h"
#include "Physical/Widen.h"

#include "KIR/Atomic.h"

#include "llvm/ADT/DenseMap.h"

#include <algorithm>
#include <set>

using namespace intent;
using namespace intent::phys;

namespace {

class SegmentSummarizer {
public:
  SegmentSummarizer(const Program &p, const Op &seg, InstanceSpace &space,
                    const llvm::DenseMap<const Value *, unsigned> &uses)
      : p(p), seg(seg), aff(p, space), space(space), uses(uses) {}

  std::vector<AccessSummary> run() {
    const Block &b = seg.regions[0]->block;
    // A tile segment decodes two instances per thread (the direct and the
    // transposed one): both are instance coordinates.
    for (const auto &op : b.ops)
      if (op->opcode == Opcode::Delinearize &&
          isInstanceIndex(seg, op->operands[0])) {
        for (unsigned k = 0; k < op->results.size(); ++k)
          aff.setCoord(op->result(k), k);
        space.rank = op->results.size();
        bindCoordLimits(op->results.size());
      }
    bindStridedInstances();
    walk(*seg.regions[0], [&](const Op &op) { bindRegionOp(op); });
    bindChunkElements();
    std::vector<AccessSummary> out;
    walk(*seg.regions[0], [&](const Op &op) {
      if (op.opcode == Opcode::Load || op.opcode == Opcode::Store ||
          isAtomic(op.opcode))
        out.push_back(summarize(op));
    });
    return out;
  }

  /// The accesses inside `loop` (a `for`), its iterations taken as the
  /// instances: its induction variable is coordinate 0, what is defined
  /// before it is the same in every iteration.
  std::vector<AccessSummary> runIterations(const Op &loop) {
    // A `for`'s body is its region; a counted `loop`'s (CountedLoops.cpp)
    // is its second, the counter its argument.
    const Region &body =
        *loop.regions[loop.opcode == Opcode::Loop && loop.regions.size() == 3];
    llvm::DenseSet<const Value *> inside;
    for (const auto &region : loop.regions) {
      walk(*region, [&](const Op &op) {
        for (const Value *r : op.results)
          inside.insert(r);
        for (const auto &reg : op.regions)
          for (const Value *a : reg->block.args)
            inside.insert(a);
      });
      for (const Value *a : region->block.args)
        inside.insert(a);
    }
    aff.setIterationScope(&inside);
    aff.setCoord(body.block.args[0], 0);
    space.rank = 1;
    std::vector<AccessSummary> out;
    walk(body, [&](const Op &op) {
      if (op.opcode == Opcode::Load || op.opcode == Opcode::Store ||
          isAtomic(op.opcode))
        out.push_back(summarize(op));
    });
    aff.setIterationScope(nullptr);
    return out;
  }

private:
  const Program &p;
  const Op &seg;
  PhysAffine aff;
  InstanceSpace &space;
  const llvm::DenseMap<const Value *, unsigned> &uses;

  /// The launch checks bound the coordinates of this segment's extents.
  void bindCoordLimits(unsigned rank) {
    int64_t g = seg.intAttr("group", -1);
    if (g < 0 || g >= static_cast<int64_t>(p.segments.size()))
      return;
    const Segment &s = p.segments[g];
    if (s.extents.size() != rank)
      return;
    for (unsigned k = 0; k < rank; ++k)
      for (const LaunchCheck &c : p.launchChecks)
        if (boundedBy(s.extents[k], c.extent))
          aff.setCoordLimit(k, indexLimit(c.type));
  }

  /// A program that strides over its segment's instances itself
  /// (privatize-atomics): a `loop` with `dims = N` whose origin is the
  /// segment's own parallel_for iterates that parallel_for's instances as
  /// one flat index (the [coverage] check counts them so), each once; the
  /// `delinearize` of its counter at the top of its body gives the
  /// instance coordinates.
  void bindStridedInstances() {
    walk(*seg.regions[0], [&](const Op &op) {
      if (op.opcode != Opcode::Loop || op.intAttr("dims", 0) <= 0 ||
          op.origin.op < 0 || op.origin.op != seg.origin.op ||
          op.regions.size() != 3)
        return;
      const Block &body = op.regions[1]->block;
      for (const auto &o : body.ops)
        if (o->opcode == Opcode::Delinearize && !body.args.empty() &&
            o->operands[0] == body.args[0] &&
            static_cast<int64_t>(o->results.size()) == op.intAttr("dims")) {
          for (unsigned k = 0; k < o->results.size(); ++k)
            aff.setCoord(o->result(k), k);
          space.rank = o->results.size();
        }
    });
  }

  /// A widened segment (Physical/Widen.h): the scalar path's element
  /// indices lie in chunks only this instance owns.
  void bindChunkElements() {
    int64_t g = seg.intAttr("group", -1);
    if (space.rank != 1 || g < 0 ||
        g >= static_cast<int64_t>(p.segments.size()) ||
        p.segments[g].extents.size() != 1)
      return;
    for (const Value *k : ownedChunkElements(seg, p.segments[g].extents[0]))
      aff.setMember(k, 0);
  }

  /// True when extent expression `e` is at most `checked` whenever that is
  /// positive: `checked` itself or max(checked, c) with a constant c <= 0
  /// (program-space clamps an extent at 0).
  bool boundedBy(unsigned e, unsigned checked) const {
    if (e == checked)
      return true;
    const LaunchExpr &x = p.exprs[e];
    if (x.kind != LaunchExpr::Kind::Max || x.operands.size() != 2)
      return false;
    for (unsigned i = 0; i < 2; ++i) {
      const LaunchExpr &o = p.exprs[x.operands[1 - i]];
      if (x.operands[i] == checked && o.kind == LaunchExpr::Kind::Const &&
          o.value <= 0)
        return true;
    }
    return false;
  }

  /// A region op whose region index is instance coordinate P (with a valid
  /// slicing relation): its regions' `r` arguments are coordinate P and
  /// their member index `k` a member atom of P's region.
  void bindRegionOp(const Op &op) {
    unsigned dim;
    if (!isRegionOp(op.opcode) || !aff.isCoord(regionIndex(op), dim) ||
        !checkRegionSlicing(p, op, uses).empty())
      return;
    const Block &value = op.regions[ValueRegion]->block;
    const Block &out = op.regions[OutRegion]->block;
    aff.setCoord(value.args[0], dim);
    aff.setCoord(out.args[0], dim);
    aff.setMember(value.args[1], dim);
    if (op.opcode == Opcode::RegionScan)
      aff.setMember(out.args[1], dim);
  }

  AccessSummary summarize(const Op &op) {
    AccessSummary a;
    const Value *mem = op.memory();
    a.write = op.opcode != Opcode::Load; // an atomic writes too
    a.atomic = isAtomic(op.opcode);
    a.loc = op.loc;
    a.kirOp = op.access.kirOp;
    a.merge = isPrivatizedMerge(p, op);
    summarizeMemory(p, mem, a);
    for (const Value *c : op.coords())
      a.coords.push_back(aff.of(c));
    return a;
  }
};

std::string groupList(const std::vector<unsigned> &v) {
  std::string s = "[";
  for (unsigned i = 0; i < v.size(); ++i)
    s += (i ? ", " : "") + std::to_string(v[i]);
  return s + "]";
}

/// (KIR parallel_for op id, dim) pairs.
using IterSet = std::set<std::pair<int, int>>;

std::string iterString(const IterSet &s) {
  std::string r = "{";
  bool first = true;
  for (const auto &[op, d] : s) {
    r += (first ? "" : ", ") + std::string("op ") + std::to_string(op) + "." +
         std::to_string(d);
    first = false;
  }
  return r + "}";
}

/// Whether `o` iterates a KIR loop: a `for` with a KIR origin, or a `loop`
/// whose origin is a KIR parallel_for (cta-rows strides a parallel_for's
/// iterations over the threads with one).
bool iteratesKIR(const Op &o, const std::set<int> &parallelFors,
                 const std::set<int> &kirLoops) {
  // (A `for` from a counted KIR loop, CountedLoops.cpp, iterates no
  // parallel iterations: its stores' KIR loop is not parallel either.)
  return (o.opcode == Opcode::For && o.origin.op >= 0 &&
          !kirLoops.count(o.origin.op)) ||
         (o.opcode == Opcode::Loop && parallelFors.count(o.origin.op));
}

/// The (op, dim) origins of the loops enclosing `op` that iterate KIR ones.
IterSet forIters(const Op &op, const std::set<int> &parallelFors,
                 const std::set<int> &kirLoops) {
  IterSet s;
  for (const Op *o = op.parentOp(); o; o = o->parentOp())
    if (iteratesKIR(*o, parallelFors, kirLoops))
      s.insert({o->origin.op, o->origin.arg});
  return s;
}

void verifyCoverage(const Program &p, const kir::Kernel &k,
                    std::vector<std::string> &errors) {
  std::map<int, const kir::Op *> kirStores;
  std::set<int> parallelFors, kirLoops;
  kir::walk(*k.body, [&](const kir::Op &op) {
    if (op.opcode == kir::Opcode::Store || kir::isAtomic(op.opcode))
      kirStores[op.id] = &op; // atomics write too
    if (op.opcode == kir::Opcode::ParallelFor)
      parallelFors.insert(op.id);
    if (op.opcode == kir::Opcode::Loop)
      kirLoops.insert(op.id);
  });
  std::map<int, unsigned> covered;
  // A tile segment of K rows implements a KIR store once per instance slot
  // of one family (the K direct or the K transposed instances): such a
  // family counts as one store. KIR store -> segment op -> slots.
  std::map<int, std::map<const Op *, std::vector<int>>> tileSlots;
  const Op *segment = nullptr; // the enclosing segment op
  std::function<void(const Region &, IterSet)> visit = [&](const Region &r,
                                                           IterSet iters) {
    for (const auto &op : r.block.ops) {
      // A pass's store to a buffer of its own (shared memory, workspace)
      // implements no KIR store (docs/physical-ir.md §5.8).
      // So is the merge of a privatized copy into its view (the copy's
      // updates stand for the KIR atomics, which the original atomics that
      // remain for the elements outside the copy implement).
      const bool own = ((op->opcode == Opcode::Store || isAtomic(op->opcode)) &&
                        !op->origin.synth.empty() &&
                        op->memory()->type.isBuffer() && op->access.kirOp < 0) ||
                       isPrivatizedMerge(p, *op);
      if (!own && (op->opcode == Opcode::Store || isAtomic(op->opcode))) {
        int id = op->access.kirOp;
        int slot = segment ? tileSlot(*segment, decodedIndex(*segment, *op)) : -1;
        if (slot >= 0)
          tileSlots[id][segment].push_back(slot);
        else
          ++covered[id];
        auto it = kirStores.find(id);
        if (it == kirStores.end()) {
          errors.push_back("[coverage] physical store op " +
                           std::to_string(op->id) + " has no KIR store (op " +
                           std::to_string(id) + ") as its origin");
          continue;
        }
        IterSet expected;
        for (const kir::Op *o = it->second; o;) {
          const kir::Region *reg = o->parent ? o->parent->parent : nullptr;
          o = reg ? reg->parent : nullptr;
          if (o && o->opcode == kir::Opcode::ParallelFor)
            for (unsigned d = 0; d < o->operands.size(); ++d)
              expected.insert({static_cast<int>(o->id), static_cast<int>(d)});
          // The regions of a region_fold / region_scan iterate its regions
          // r (dimension 0), unordered like a parallel_for.
          if (o && (o->opcode == kir::Opcode::RegionFold ||
                    o->opcode == kir::Opcode::RegionScan))
            expected.insert({static_cast<int>(o->id), 0});
        }
        // Coordinates shared by fused parallel_fors stand for several KIR
        // iterations; the store's own ones must all be there, and every
        // ordered `for` around it must be one of them.
        bool ok = std::includes(iters.begin(), iters.end(), expected.begin(),
                                expected.end());
        for (const auto &it : forIters(*op, parallelFors, kirLoops))
          ok &= expected.count(it) != 0;
        if (!ok)
          errors.push_back("[coverage] store of KIR op " + std::to_string(id) +
                           " runs under parallel iterations " +
                           iterString(iters) + ", KIR has " +
                           iterString(expected));
      }
      for (const auto &sub : op->regions) {
        IterSet inner = iters;
        // A `loop` with `dims = N` iterates dimensions arg .. arg + N - 1
        // of its parallel_for, flattened (cta-rows-ops' collapsed nest).
        if (iteratesKIR(*op, parallelFors, kirLoops))
          for (int64_t d = 0; d < std::max<int64_t>(1, op->intAttr("dims", 1)); ++d)
            inner.insert({op->origin.op, op->origin.arg + static_cast<int>(d)});
        if (op->opcode == Opcode::Segment)
          for (const auto &o : sub->block.ops)
            if (o->opcode == Opcode::Delinearize &&
                isInstanceIndex(*op, o->operands[0]))
              for (const Value *c : o->results) {
                inner.insert({c->origin.op, c->origin.arg});
                for (const Origin &also : c->alsoFrom)
                  inner.insert({also.op, also.arg});
              }
        const Op *outer = segment;
        if (op->opcode == Opcode::Segment)
          segment = op.get();
        visit(*sub, inner);
        segment = outer;
      }
    }
  };
  visit(*p.body, {});
  for (const auto &[id, bySegment] : tileSlots)
    for (const auto &[seg, slots] : bySegment) {
      // Exactly the slots 0..K-1 or K..2K-1, once each.
      const int rows = static_cast<int>(std::max<int64_t>(1, seg->intAttr("rows", 1)));
      std::vector<int> sorted = slots;
      std::sort(sorted.begin(), sorted.end());
      bool family = static_cast<int>(sorted.size()) == rows;
      for (int k = 0; family && k < rows; ++k)
        family = sorted[k] == sorted[0] + k && (sorted[0] == 0 || sorted[0] == rows);
      if (family)
        ++covered[id];
      else
        errors.push_back("[coverage] KIR store op " + std::to_string(id) +
                         " is covered in tile segment op " +
                         std::to_string(seg->id) + " by " +
                         std::to_string(slots.size()) +
                         " stores that are not one per instance of its " +
                         std::to_string(rows) + " direct or transposed ones");
    }
  for (const auto &[id, op] : kirStores) {
    unsigned n = covered.count(id) ? covered[id] : 0;
    if (n != 1)
      errors.push_back("[coverage] KIR store op " + std::to_string(id) +
                       " is covered by " + std::to_string(n) +
                       " physical stores, expected exactly 1");
  }
}

} // namespace

std::vector<AccessSummary> intent::phys::summarizeSegment(const Program &p,
                                                          const Op &seg,
                                                          InstanceSpace &space) {
  llvm::DenseMap<const Value *, unsigned> uses = countUses(p);
  return SegmentSummarizer(p, seg, space, uses).run();
}

void intent::phys::summarizeMemory(const Program &p, const Value *mem,
                                   AccessSummary &a) {
  a.elem = mem->type.elem;
  a.rank = mem->type.rank;
  if (mem->isBlockArg() && mem->owner == &p.body->block) {
    a.root = mem->argNo;
    a.rootName = p.params[mem->argNo].name;
    a.constView = mem->type.constElem;
    return;
  }
  a.rootName = "buffer%" + std::to_string(mem->id);
  // A workspace is shared by the instances: compared like a view.
  if (mem->def && mem->def->opcode == Opcode::Alloc) {
    int64_t id = mem->def->intAttr("buffer", -1);
    if (id >= 0 && id < static_cast<int64_t>(p.buffers.size()) &&
        p.buffers[id].scope == BufferScope::InvocationWorkspace) {
      a.buffer = static_cast<int>(id);
      a.rootName = p.buffers[id].name;
    }
  }
}

std::vector<AccessSummary>
intent::phys::summarizeIterations(const Program &p, const Op &loop,
                                  InstanceSpace &space) {
  llvm::DenseMap<const Value *, unsigned> uses;
  return SegmentSummarizer(p, loop, space, uses).runIterations(loop);
}

std::string intent::phys::iterationConflict(const Program &p,
                                            const Op &loop) {
  InstanceSpace space;
  std::vector<AccessSummary> acc = summarizeIterations(p, loop, space);
  // Atomics of one loop commute (one parallel_for's instances are
  // unordered by contract).
  for (AccessSummary &a : acc)
    if (a.atomic)
      a.atomicUnit = 0;
  // Which views the kernel writes anywhere (the aliasing contract: two
  // written views never overlap).
  const std::set<int> written = writtenParams(p);
  for (AccessSummary &a : acc)
    a.rootWritten = a.root >= 0 && written.count(a.root);
  return findCrossInstanceConflict(acc, space);
}

void intent::phys::verifyEffects(const Program &p, const kir::Kernel *kernel,
                                 std::vector<std::string> &errors) {
  std::vector<const Op *> segOps;
  unsigned storesTotal = 0, storesInSegments = 0;
  walk(*p.body, [&](const Op &op) {
    if (op.opcode == Opcode::Segment)
      segOps.push_back(&op);
    if (op.opcode == Opcode::Store || isAtomic(op.opcode))
      ++storesTotal;
  });
  // Atomics of one top-level KIR op (one parallel_for) commute by contract;
  // without the kernel every atomic counts as one unit.
  std::map<int, int> topLevelOf;
  if (kernel)
    for (const auto &top : kernel->body->block.ops) {
      auto mark = [&](const kir::Op &o) { topLevelOf[o.id] = top->id; };
      mark(*top);
      for (const auto &r : top->regions)
        kir::walk(*r, mark);
    }
  std::vector<std::vector<AccessSummary>> acc(segOps.size());
  std::vector<InstanceSpace> spaces(segOps.size());
  for (unsigned g = 0; g < segOps.size(); ++g) {
    acc[g] = summarizeSegment(p, *segOps[g], spaces[g]);
    for (AccessSummary &a : acc[g]) {
      storesInSegments += a.write;
      if (a.atomic && kernel) {
        auto it = topLevelOf.find(a.kirOp);
        a.atomicUnit = it == topLevelOf.end() ? -2 - a.kirOp : it->second;
      }
    }
    // The merge of a privatized copy stands for the segment's atomics on
    // its view: it commutes with them when they are all of one unit.
    for (AccessSummary &m : acc[g]) {
      if (!m.merge)
        continue;
      std::set<int> units;
      for (const AccessSummary &a : acc[g])
        if (a.atomic && !a.merge && a.root == m.root)
          units.insert(a.atomicUnit);
      if (units.size() == 1)
        m.atomicUnit = *units.begin();
    }
  }
  std::vector<std::vector<AccessSummary> *> all;
  for (auto &a : acc)
    all.push_back(&a);
  markWrittenRoots(all);
  if (storesInSegments != storesTotal)
    errors.push_back("[ownership] " +
                     std::to_string(storesTotal - storesInSegments) +
                     " store(s) outside every segment have no owning group");

  // Ownership of external views.
  for (const Buffer &b : p.buffers) {
    if (b.scope != BufferScope::ExternalView)
      continue;
    std::set<unsigned> readers, writers;
    bool orderedWriter = false, atomicWriter = false;
    for (unsigned g = 0; g < segOps.size(); ++g)
      for (const AccessSummary &a : acc[g]) {
        if (a.root != b.param)
          continue;
        unsigned group = segOps[g]->intAttr("group");
        (a.write ? writers : readers).insert(group);
        orderedWriter |= a.write && spaces[g].rank == 0;
        atomicWriter |= a.atomic;
      }
    std::vector<unsigned> r(readers.begin(), readers.end());
    std::vector<unsigned> w(writers.begin(), writers.end());
    std::string at = "[ownership] buffer " + b.name + ": ";
    if (r != b.readerGroups || w != b.writerGroups)
      errors.push_back(at + "records readers " + groupList(b.readerGroups) +
                       " writers " + groupList(b.writerGroups) +
                       ", the program has readers " + groupList(r) +
                       " writers " + groupList(w));
    if (w.size() > 1)
      errors.push_back(at + "written by several groups " + groupList(w) +
                       "; ownership must be unique");
    Ownership expected = w.empty()        ? Ownership::None
                         : orderedWriter ? Ownership::SingleInstance
                         : atomicWriter  ? Ownership::Atomic
                                         : Ownership::InstanceUnique;
    if (b.ownership != expected)
      errors.push_back(at + "ownership is " + ownershipName(b.ownership).str() +
                       ", expected " + ownershipName(expected).str());
  }

  // Unordered conflicts inside each parallel segment.
  for (unsigned g = 0; g < segOps.size(); ++g) {
    std::string c = findCrossInstanceConflict(acc[g], spaces[g]);
    if (!c.empty())
      errors.push_back("[conflicts] segment of group " +
                       std::to_string(segOps[g]->intAttr("group")) +
                       ": unordered conflict not closed: " + c);
  }
  // Dependences between groups (which run unordered with respect to each
  // other) would split an ordered dependence across instances.
  for (unsigned g = 0; g < segOps.size(); ++g)
    for (unsigned h = g + 1; h < segOps.size(); ++h) {
      std::string c = findAnyConflict(acc[g], acc[h]);
      if (!c.empty())
        errors.push_back("[dependences] groups " +
                         std::to_string(segOps[g]->intAttr("group")) + " and " +
                         std::to_string(segOps[h]->intAttr("group")) +
                         " depend on each other (" + c +
                         "); the dependence is split across instances");
    }
  if (kernel)
    verifyCoverage(p, *kernel, errors);
}
