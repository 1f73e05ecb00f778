//===- VerifierAccess.cpp - Construction verifier: access legality ---------===//
//
// The seed's §8-§9 checks on single accesses and origins, each re-derived
// from the physical program (and the KIR kernel where given):
//
// [bounds]     every `proven` access is re-proven by Physical/InBounds.h;
//              a claim the analysis cannot prove is false.
// [active]     the active member set fits the exec scope and the place of
//              the access: `self` exactly in thread-scope programs; in a cta
//              program `thread` exactly inside a distributed region (a
//              region of an op with `dist`, a spread segment, or anywhere in
//              a program written with cooperative primitives), `all` only
//              for loads (a store or atomic by every thread would repeat its
//              effect), so a store outside distributed regions is `leader`.
// [origin]     every op names its KIR op or the stage that synthesized it;
//              with the kernel, a named KIR op exists.
// [provenance] (with the kernel) a load/store/atomic's recorded KIR op is an
//              access of the same kind (a load may also be a region op's
//              read of its offsets), its recorded KIR coordinates are that
//              op's coordinate operands, its recorded view chain is the
//              chain of sub-views from the KIR view to its root, and that
//              root is the physical access's view parameter or alloc. Each
//              physical coordinate must equal the KIR coordinate composed
//              through the view chain onto the root (KIR/ViewRelations.h:
//              slices, broadcasts, reshapes, transposes), as affine forms
//              over the instance coordinates, KIR values, root extents and
//              strides, and structural atoms for products of non-constants,
//              quotients and remainders (Provenance below).
//
//===----------------------------------------------------------------------===//

#include "KIR/Atomic.h"
#include "KIR/Contract.h"
#include "KIR/ViewRelations.h"
#include "Physical/Coop.h"
#include "Physical/Dispatch.h"
#include "Physical/Conflict.h"
#include "Physical/InBounds.h"
#include "Physical/Structured.h"
#include "Physical/Verifier.h"

#include "llvm/ADT/DenseMap.h"

#include <map>

using namespace intent;
using namespace intent::phys;

namespace {

bool isAccess(const Op &op) {
  return op.opcode == Opcode::Load || op.opcode == Opcode::Store ||
         op.opcode == Opcode::VectorLoad || op.opcode == Opcode::VectorStore ||
         isAtomic(op.opcode);
}

/// Affine forms of coordinates over atoms shared by KIR and the physical
/// program: "c<id>" for a physical instance coordinate (the delinearize
/// result standing for the KIR iterations in its origin and alsoFrom),
/// "kv<id>" for any other KIR value (a physical value names it by its
/// origin). Both sides look through the same ops (integer constants, i64
/// add/sub/neg/mul by a constant, value-keeping integer casts), so equal
/// KIR and physical computations give equal forms. Invalid: a physical
/// value that names no KIR value and is none of these.
class Provenance {
public:
  explicit Provenance(const Program &p) : p(p) {
    walk(*p.body, [&](const Op &op) {
      if (op.opcode != Opcode::Delinearize)
        return;
      for (const Value *r : op.results) {
        // Two decodes of one iteration (a tile segment's direct and
        // transposed instances) name it by one atom: the first one's.
        std::string atom = "c" + std::to_string(r->id);
        auto known = iteration.find({r->origin.op, r->origin.arg});
        if (r->origin.op >= 0 && r->origin.arg >= 0 && known != iteration.end())
          atom = known->second;
        canonical[r] = atom;
        auto add = [&](const Origin &o) {
          if (o.op >= 0 && o.arg >= 0)
            iteration.try_emplace({o.op, o.arg}, atom);
        };
        add(r->origin);
        for (const Origin &o : r->alsoFrom)
          add(o);
      }
    });
    walk(*p.body, [&](const Op &op) {
      if (op.opcode == Opcode::Segment)
        bindLimits(p, op);
    });
  }

  /// A KIR coordinate expression composed onto the root view
  /// (KIR/ViewRelations.h), in the same atoms as ofKIR and ofPhys.
  Affine ofComposed(const kir::CExprRef &e) {
    using K = kir::CExpr::Kind;
    switch (e->kind) {
    case K::Value:
      return ofKIR(e->value);
    case K::Const:
      return Affine::ofConstant(e->constant);
    case K::Extent:
    case K::Stride:
      return rootAtom(e->kind == K::Extent, e->param, e->dim);
    default: {
      Opcode opc = e->kind == K::Add   ? Opcode::Add
                   : e->kind == K::Sub ? Opcode::Sub
                   : e->kind == K::Mul ? Opcode::Mul
                   : e->kind == K::Div ? Opcode::Div
                                       : Opcode::Rem;
      return combine(opc, ofComposed(e->lhs), ofComposed(e->rhs),
                     Affine::invalid());
    }
    }
  }

  Affine ofKIR(const kir::Value *v, unsigned depth = 0) {
    if (depth > 64)
      return Affine::invalid();
    if (v->isBlockArg()) {
      const kir::Block *b = v->owner;
      const kir::Op *parent = b && b->parent ? b->parent->parent : nullptr;
      // Every region of a region op but combine starts with the region
      // index r, the one the op's iteration (or ordered loop) binds.
      if (parent && v->argNo == 0 && isKIRRegionOp(parent->opcode) &&
          b->parent != parent->regions[1].get())
        v = parent->regions[0]->block.args[0];
      if (parent) {
        auto it = iteration.find({static_cast<int>(parent->id),
                                  static_cast<int>(v->argNo)});
        if (it != iteration.end())
          return Affine::ofAtom(it->second);
      }
      return kirAtom(v->id);
    }
    const kir::Op &op = *v->def;
    Affine a = Affine::invalid(), b = Affine::invalid();
    switch (op.opcode) {
    case kir::Opcode::Constant:
      if (const auto *i = std::get_if<int64_t>(op.attr("value")))
        if (v->type.isInteger())
          return Affine::ofConstant(*i);
      break;
    case kir::Opcode::Add:
    case kir::Opcode::Sub:
    case kir::Opcode::Mul:
    case kir::Opcode::Div:
    case kir::Opcode::Rem:
      if (!isIndex(v->type))
        break;
      a = ofKIR(op.operands[0], depth + 1);
      b = ofKIR(op.operands[1], depth + 1);
      return combine(op.opcode == kir::Opcode::Add   ? Opcode::Add
                     : op.opcode == kir::Opcode::Sub ? Opcode::Sub
                     : op.opcode == kir::Opcode::Mul ? Opcode::Mul
                     : op.opcode == kir::Opcode::Div ? Opcode::Div
                                                     : Opcode::Rem,
                     a, b, kirAtom(v->id));
    case kir::Opcode::Extent:
    case kir::Opcode::Stride: {
      // Of the root view, composed through the sub-views (as construction
      // lowers it).
      kir::ViewChain vc;
      std::string err;
      int64_t dim = op.intAttr("dim", -1);
      if (dim < 0 || !kir::resolveView(op.operands[0], vc, err))
        break;
      unsigned depthOfView = vc.ops.size();
      if (vc.rootAlloc)
        break;
      return ofComposed(op.opcode == kir::Opcode::Extent
                            ? kir::viewExtent(vc, depthOfView, dim)
                            : kir::viewStride(vc, depthOfView, dim));
    }
    case kir::Opcode::Neg:
      if (!isIndex(v->type))
        break;
      return ofKIR(op.operands[0], depth + 1).scaled(-1);
    case kir::Opcode::Cast: {
      const kir::Type &from = op.operands[0]->type;
      if (!from.isInteger() || !v->type.isInteger())
        break;
      Affine src = ofKIR(op.operands[0], depth + 1);
      if (keeps(from.elem, v->type.elem, true))
        return src;
      // An instance coordinate converted to a narrower index type whose
      // extent the launch checks (Program::launchChecks): construction maps
      // the conversion to the coordinate itself.
      if (src.valid && src.constant == 0 && src.terms.size() == 1 &&
          src.terms.begin()->second == 1) {
        auto lim = limit.find(src.terms.begin()->first);
        if (lim != limit.end() && lim->second <= indexLimit(v->type.elem))
          return src;
      }
      break;
    }
    default:
      break;
    }
    return kirAtom(v->id);
  }

  Affine ofPhys(const Value *v, unsigned depth = 0) {
    if (depth > 64)
      return Affine::invalid();
    if (v->def && v->def->opcode == Opcode::Delinearize) {
      auto it = canonical.find(v);
      return Affine::ofAtom(it != canonical.end() ? it->second
                                                  : "c" + std::to_string(v->id));
    }
    Affine named =
        v->origin.value >= 0 ? kirAtom(v->origin.value) : Affine::invalid();
    if (!v->def) {
      // A region op's r argument (every region but combine) is its r
      // operand.
      const Op *op = v->owner && v->owner->parent ? v->owner->parent->parent
                                                 : nullptr;
      if (op && isRegionOp(op->opcode) && v->argNo == 0 &&
          v->owner->parent != op->regions[CombineRegion].get())
        return ofPhys(regionIndex(*op), depth + 1);
      return named;
    }
    const Op &op = *v->def;
    switch (op.opcode) {
    case Opcode::Constant:
      if (const auto *i = std::get_if<int64_t>(op.attr("value")))
        if (v->type.isInteger())
          return Affine::ofConstant(*i);
      break;
    case Opcode::Add:
    case Opcode::Sub:
    case Opcode::Mul:
    case Opcode::Div:
    case Opcode::Rem:
      if (!v->type.isIndex())
        break;
      return combine(op.opcode, ofPhys(op.operands[0], depth + 1),
                     ofPhys(op.operands[1], depth + 1), named);
    case Opcode::Neg:
      if (!v->type.isIndex())
        break;
      return ofPhys(op.operands[0], depth + 1).scaled(-1);
    case Opcode::Extent:
    case Opcode::Stride: {
      const Value *view = op.operands[0];
      if (view->isBlockArg() && view->owner == &p.body->block)
        return rootAtom(op.opcode == Opcode::Extent, view->argNo,
                        op.intAttr("dim", -1));
      break;
    }
    case Opcode::Cast:
      if (keeps(op.operands[0]->type.elem, v->type.elem,
                op.operands[0]->type.isInteger() && v->type.isInteger()))
        return ofPhys(op.operands[0], depth + 1);
      break;
    default:
      break;
    }
    return named;
  }

private:
  const Program &p;
  std::map<std::pair<int, int>, std::string> iteration;
  /// A delinearize result -> the atom of its iteration.
  std::map<const Value *, std::string> canonical;
  /// Instance coordinate atom -> every value of it is below this (a launch
  /// check bounds its segment extent).
  std::map<std::string, int64_t> limit;

  /// The launch checks that bound the extents of segment op `seg`'s
  /// instance coordinates (as VerifierEffects.cpp binds them).
  void bindLimits(const Program &p, const Op &seg) {
    int64_t g = seg.intAttr("group", -1);
    if (g < 0 || g >= static_cast<int64_t>(p.segments.size()))
      return;
    const Segment &s = p.segments[g];
    const Block &b = seg.regions[0]->block;
    for (const auto &op : b.ops) {
      if (op->opcode != Opcode::Delinearize ||
          !isInstanceIndex(seg, op->operands[0]) ||
          op->results.size() != s.extents.size())
        continue;
      for (unsigned k = 0; k < s.extents.size(); ++k)
        for (const LaunchCheck &c : p.launchChecks)
          if (boundedBy(p, s.extents[k], c.extent)) {
            auto known = canonical.find(op->result(k));
            std::string atom = known != canonical.end()
                                   ? known->second
                                   : "c" + std::to_string(op->result(k)->id);
            auto [it, added] = limit.try_emplace(atom, indexLimit(c.type));
            if (!added)
              it->second = std::min(it->second, indexLimit(c.type));
          }
    }
  }

  /// Extent expression `e` is at most `checked` whenever it is positive:
  /// `checked` itself or max(checked, c) with a constant c <= 0.
  static bool boundedBy(const Program &p, unsigned e, unsigned checked) {
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

  static bool isKIRRegionOp(kir::Opcode opc) {
    return opc == kir::Opcode::RegionFold || opc == kir::Opcode::RegionScan;
  }
  static bool isIndex(const kir::Type &t) {
    return t.isScalar() && t.elem == kir::ScalarKind::I64;
  }
  static Affine kirAtom(unsigned id) {
    return Affine::ofAtom("kv" + std::to_string(id));
  }
  /// A conversion between integer types that keeps every value.
  static bool keeps(ScalarKind from, ScalarKind to, bool integers) {
    if (!integers)
      return false;
    kir::Type f = kir::Type::scalar(from), t = kir::Type::scalar(to);
    if (f.isSigned())
      return t.isSigned() && t.bitWidth() >= f.bitWidth();
    return t.bitWidth() > f.bitWidth() ||
           (t.bitWidth() == f.bitWidth() && !t.isSigned());
  }
  /// Extent or stride `dim` of root view parameter `param`.
  static Affine rootAtom(bool extent, unsigned param, int64_t dim) {
    return Affine::ofAtom((extent ? "ext" : "str") + std::to_string(param) +
                          "." + std::to_string(dim));
  }
  /// a op b. A product by a constant scales; any other product, quotient
  /// or remainder is the value's own atom `self` when it names a KIR value,
  /// else a structural atom of its operands' forms (equal trees, equal
  /// atoms; a product's operands in either order): the composed
  /// coordinates of sub-views, which name no KIR value.
  static Affine combine(Opcode opc, const Affine &a, const Affine &b,
                        const Affine &self) {
    switch (opc) {
    case Opcode::Add:
      return a.plus(b);
    case Opcode::Sub:
      return a.plus(b.scaled(-1));
    default:
      if (opc == Opcode::Mul)
        if (std::optional<Affine> product = a.times(b))
          return *product;
      // A value that names a KIR value is that value's atom on both sides
      // (a pass may recompute it from operands the forms do not reach).
      if (self.valid || !a.valid || !b.valid)
        return self;
      std::string x = a.str(), y = b.str();
      if (opc == Opcode::Mul && y < x)
        std::swap(x, y);
      const char *sym = opc == Opcode::Mul ? " * " : opc == Opcode::Div ? " / " : " % ";
      return Affine::ofAtom("(" + x + sym + y + ")");
    }
  }
};

class AccessVerifier {
public:
  AccessVerifier(const Program &p, const kir::Kernel *kernel,
                 std::vector<std::string> &errors)
      : p(p), errors(errors), prov(p) {
    // A kernel with contracts was built from its expansion (KIR/Contract.h,
    // new op ids); the pipeline verifies against that copy.
    if (kernel && !kir::hasContract(*kernel)) {
      this->kernel = kernel;
      kir::walk(*kernel->body, [&](const kir::Op &op) { kirOps[op.id] = &op; });
    }
  }

  void run() {
    walk(*p.body, [&](const Op &op) {
      verifyOrigin(op);
      if (!isAccess(op))
        return;
      if (op.access.bounds == Bounds::Proven) {
        std::string why = whyNotInBounds(p, op);
        if (!why.empty())
          opError("bounds", op, "claims to be proven in bounds, but " + why);
      }
      verifyActive(op);
      if (kernel)
        verifyProvenance(op);
    });
  }

private:
  const Program &p;
  std::vector<std::string> &errors;
  const kir::Kernel *kernel = nullptr;
  llvm::DenseMap<unsigned, const kir::Op *> kirOps;
  Provenance prov;

  void opError(const char *tag, const Op &op, const std::string &msg) {
    errors.push_back(std::string("[") + tag + "] op " + std::to_string(op.id) +
                     " (" + opcodeName(op.opcode).str() + "): " + msg);
  }

  void verifyOrigin(const Op &op) {
    if (op.origin.op < 0) {
      if (op.origin.synth.empty())
        opError("origin", op, "has no origin: neither a KIR op nor the stage "
                              "that synthesized it");
      return;
    }
    if (kernel && !kirOps.count(op.origin.op))
      opError("origin", op, "names KIR op " + std::to_string(op.origin.op) +
                                ", which the kernel does not have");
  }

  /// Inside a distributed region: some enclosing op is `dist`, or a
  /// segment spread over the threads.
  static bool distributed(const Op &op) {
    for (const Op *a = op.parentOp(); a; a = a->parentOp())
      if (a->attr("dist") || a->attr("spread"))
        return true;
    return false;
  }

  /// Whether the program uses a cooperative primitive (computed once).
  bool explicitCooperative() {
    if (coopKnown < 0)
      coopKnown = spreadsOverThreads(p) ? 1 : 0;
    return coopKnown == 1;
  }
  int coopKnown = -1;

  void verifyActive(const Op &op) {
    ActiveSet a = op.access.active;
    std::string is = " (active `" + activeSetName(a).str() + "`)";
    if (p.scope != ExecScope::CTA) {
      if (a != ActiveSet::Self)
        opError("active", op, "an access of a thread-scope program is done "
                              "by its one member (active `self`)" + is);
      return;
    }
    if (a == ActiveSet::Self) {
      opError("active", op, "`self` is the one member of a thread-scope "
                            "instance; a cta program's access is done by "
                            "`all`, `thread` or `leader`");
      return;
    }
    bool dist = distributed(op);
    if (dist && a != ActiveSet::Thread)
      opError("active", op, "an access in a distributed region is done by "
                            "each thread for its own members (active "
                            "`thread`)" + is);
    // A program written with the cooperative primitives (thread_id, ...)
    // spreads work itself: any access may be each thread's own (the
    // interpreter's shared-memory race check covers what this cannot).
    if (!dist && a == ActiveSet::Thread && !explicitCooperative())
      opError("active", op, "active `thread` (each thread its own members) "
                            "outside a distributed region");
    if (a == ActiveSet::All && op.opcode != Opcode::Load)
      opError("active", op, "only a load may be done by all threads; a store "
                            "or atomic would repeat its effect per thread "
                            "(`leader`)");
  }

  void verifyProvenance(const Op &op) {
    const AccessInfo &info = op.access;
    // A pass's access to a buffer of its own (shared memory, workspace)
    // implements no KIR access (docs/physical-ir.md §5.8).
    if (!op.origin.synth.empty() && op.memory()->type.isBuffer() &&
        info.kirOp < 0)
      return;
    // The merge of a privatized copy: the copy's updates stand for the KIR
    // atomics (IR.h isPrivatizedMerge).
    if (isPrivatizedMerge(p, op))
      return;
    auto it = info.kirOp < 0 ? kirOps.end() : kirOps.find(info.kirOp);
    if (info.kirOp < 0 || it == kirOps.end()) {
      opError("provenance", op, "names KIR op " + std::to_string(info.kirOp) +
                                    ", which the kernel does not have");
      return;
    }
    const kir::Op &k = *it->second;
    kir::Opcode want = op.opcode == Opcode::Load ||
                               op.opcode == Opcode::VectorLoad
                           ? kir::Opcode::Load
                       : op.opcode == Opcode::Store ||
                               op.opcode == Opcode::VectorStore
                           ? kir::Opcode::Store
                       : op.opcode == Opcode::Atomic    ? kir::Opcode::Atomic
                                                        : kir::Opcode::AtomicCas;
    bool offsets = op.opcode == Opcode::Load &&
                   (k.opcode == kir::Opcode::RegionFold ||
                    k.opcode == kir::Opcode::RegionScan);
    if (k.opcode != want && !offsets) {
      opError("provenance", op, "its KIR op " + std::to_string(k.id) + " is a " +
                                    kir::opcodeName(k.opcode).str() +
                                    ", not a " + kir::opcodeName(want).str());
      return;
    }
    // The KIR view and coordinates: a region op reads its offsets at its
    // region index r.
    const kir::Value *view = k.operands[0];
    std::vector<const kir::Value *> coords;
    if (offsets) {
      coords.push_back(k.regions[0]->block.args[0]);
    } else {
      unsigned values = kir::isAtomic(k.opcode)      ? kir::atomicValueCount(k.opcode)
                        : k.opcode == kir::Opcode::Store ? 1
                                                         : 0;
      for (unsigned i = 1 + values; i < k.operands.size(); ++i)
        coords.push_back(k.operands[i]);
    }
    bool sameCoords = coords.size() == info.kirCoords.size();
    for (unsigned i = 0; sameCoords && i < coords.size(); ++i)
      sameCoords = coords[i]->id == info.kirCoords[i];
    if (!sameCoords)
      opError("provenance", op, "its recorded KIR coordinates are not the "
                                "coordinates of KIR op " + std::to_string(k.id));
    // The sub-view chain from the root outwards, and the root.
    std::vector<unsigned> chain;
    const kir::Value *root = view;
    while (!root->isBlockArg() && root->def->opcode == kir::Opcode::SubView) {
      chain.insert(chain.begin(), root->def->id);
      root = root->def->operands[0];
    }
    const Value *mem = op.memory();
    bool buffer = !root->isBlockArg() && root->def->opcode == kir::Opcode::Alloc;
    if (!buffer && chain != info.kirViewChain)
      opError("provenance", op, "its recorded view chain is not the sub-views "
                                "of KIR op " + std::to_string(k.id) + "'s view");
    bool sameRoot =
        buffer ? mem->def && mem->def->opcode == Opcode::Alloc &&
                     mem->def->origin.op == static_cast<int>(root->def->id)
               : root->isBlockArg() && mem->isBlockArg() &&
                     mem->owner == &p.body->block && mem->argNo == root->argNo;
    if (!sameRoot) {
      opError("provenance", op, "addresses another root than KIR op " +
                                    std::to_string(k.id));
      return;
    }
    llvm::ArrayRef<Value *> cs = op.coords();
    if (!sameCoords)
      return;
    // The KIR coordinates on the root: composed through the sub-views.
    std::vector<Affine> wants;
    if (!buffer && !chain.empty()) {
      kir::ViewChain vc;
      std::string err;
      if (!kir::resolveView(view, vc, err))
        return; // construction reported it
      std::vector<kir::CExprRef> onView;
      for (const kir::Value *c : coords)
        onView.push_back(kir::CExpr::of(c));
      for (const kir::CExprRef &e : kir::rootCoords(vc, onView))
        wants.push_back(prov.ofComposed(e));
    } else {
      for (const kir::Value *c : coords)
        wants.push_back(prov.ofKIR(c));
    }
    if (cs.size() != wants.size()) {
      opError("provenance", op, "has " + std::to_string(cs.size()) +
                                    " coordinates, but KIR op " +
                                    std::to_string(k.id) + " addresses " +
                                    std::to_string(wants.size()) +
                                    " on its root");
      return;
    }
    for (unsigned d = 0; d < cs.size(); ++d) {
      Affine phys = prov.ofPhys(cs[d]);
      const Affine &want = wants[d];
      if (!phys.valid || !want.valid)
        continue; // not decidable by the affine forms
      // A region op reads its offsets at r and at r + 1.
      if (phys == want || (offsets && phys == want.plus(Affine::ofConstant(1))))
        continue;
      opError("provenance", op, "coordinate " + std::to_string(d) + " is " +
                                    phys.str() + ", but KIR op " +
                                    std::to_string(k.id) + " accesses " +
                                    want.str());
    }
  }
};

} // namespace

void intent::phys::verifyAccesses(const Program &p, const kir::Kernel *kernel,
                                  std::vector<std::string> &errors) {
  AccessVerifier(p, kernel, errors).run();
}
