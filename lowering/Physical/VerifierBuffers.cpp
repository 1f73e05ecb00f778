//===- VerifierBuffers.cpp - Construction verifier: local buffers ----------===//
//
// The buffer half of design.md §4.9: "every buffer's allocation scope, instance
// identity, initialization mode/coverage, ownership and visibility are
// complete". Runs on a structurally valid program, after the per-record
// [buffers] checks of Verifier.cpp. Tags:
//
//   [buffer-scope]     where an alloc sits matches its record's scope
//   [buffer-instance]  one alloc op per record (its allocation instance;
//                      a workspace's alloc binds its slice, so one group
//                      owns it), disjoint aligned workspace slices
//   [buffer-init]      the init mode can be honoured exactly once per
//                      allocation instance; a first-write buffer that is
//                      read is written somewhere
//   [buffer-ownership] recorded readers/writers equal what the body does
//
// Cross-instance uniqueness of workspace slices is [conflicts]
// (VerifierEffects.cpp), which compares workspace accesses like view
// accesses.
//
//===----------------------------------------------------------------------===//

#include "Physical/Verifier.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

using namespace intent;
using namespace intent::phys;

namespace {

class BufferVerifier {
public:
  BufferVerifier(const Program &p, std::vector<std::string> &errors)
      : p(p), errors(errors) {}

  void run() {
    collect();
    for (unsigned i = 0; i < p.buffers.size(); ++i)
      if (p.buffers[i].scope != BufferScope::ExternalView)
        check(p.buffers[i]);
    checkSlices();
  }

private:
  const Program &p;
  std::vector<std::string> &errors;

  struct Use {
    std::vector<const Op *> allocs;
    std::set<unsigned> readers, writers;
    unsigned loads = 0, stores = 0;
    unsigned atomics = 0; ///< atomic / atomic_cas ops (also counted above)
  };
  std::map<unsigned, Use> uses; ///< by buffer record id

  void error(const char *tag, const Buffer &b, const std::string &msg) {
    errors.push_back(std::string("[") + tag + "] buffer " +
                     std::to_string(b.id) + " (" + b.name + "): " + msg);
  }

  /// The segment op enclosing `op`, or null.
  static const Op *segmentOf(const Op &op) {
    for (const Op *o = op.parentOp(); o; o = o->parentOp())
      if (o->opcode == Opcode::Segment)
        return o;
    return nullptr;
  }

  static int recordOf(const Value *mem) {
    if (!mem->def || mem->def->opcode != Opcode::Alloc)
      return -1;
    return static_cast<int>(mem->def->intAttr("buffer", -1));
  }

  void collect() {
    walk(*p.body, [&](const Op &op) {
      if (op.opcode == Opcode::Alloc) {
        uses[op.intAttr("buffer", -1)].allocs.push_back(&op);
        return;
      }
      bool atomic = isAtomic(op.opcode);
      if (op.opcode != Opcode::Load && op.opcode != Opcode::Store && !atomic)
        return;
      int id = recordOf(op.memory());
      if (id < 0)
        return;
      Use &u = uses[id];
      const Op *seg = segmentOf(op);
      // An atomic reads and writes its element; it is recorded as a write.
      bool store = op.opcode != Opcode::Load;
      ++(store ? u.stores : u.loads);
      if (atomic) {
        ++u.atomics;
        ++u.loads;
      }
      if (seg)
        (store ? u.writers : u.readers).insert(seg->intAttr("group"));
    });
  }

  void check(const Buffer &b) {
    const Use &u = uses[b.id];
    bool workspace = b.scope == BufferScope::InvocationWorkspace;

    // Scope: a program-private buffer (and a workspace slice binding) is
    // allocated once per program instance, directly in its segment; an
    // iteration-private one inside a region of the instance.
    for (const Op *a : u.allocs) {
      const Op *parent = a->parentOp();
      bool atInstance = parent && parent->opcode == Opcode::Segment;
      if (!segmentOf(*a))
        error("buffer-scope", b, "alloc op " + std::to_string(a->id) +
                                     " is outside every segment");
      else if (b.scope == BufferScope::IterationPrivate && atInstance)
        error("buffer-scope", b, "iteration-private, but op " +
                                     std::to_string(a->id) +
                                     " allocates it once per program instance "
                                     "(directly in the segment)");
      else if (b.scope != BufferScope::IterationPrivate && !atInstance)
        error("buffer-scope", b,
              bufferScopeName(b.scope).str() + ", but op " +
                  std::to_string(a->id) +
                  " allocates it inside a region of the instance (once per "
                  "iteration)");
    }

    // Instance identity: one alloc op stands for the record's allocation
    // instance; a workspace is shared by the instances of one group.
    if (u.allocs.size() > 1)
      error("buffer-instance", b,
            std::to_string(u.allocs.size()) +
                " alloc ops claim one logical allocation instance");
    if (workspace) {
      if (b.workspaceOffset < 0 || b.workspaceOffset % kWorkspaceAlign != 0)
        error("buffer-instance", b,
              "invocation workspace needs a slice offset aligned to " +
                  std::to_string(kWorkspaceAlign) + " bytes");
    } else if (b.workspaceOffset >= 0) {
      error("buffer-instance", b, "only an invocation workspace has a slice "
                                  "offset");
    }

    // Init coverage.
    if (workspace && b.init == InitMode::Value && b.initValue != 0)
      error("buffer-init", b,
            "an invocation workspace can only be zero-filled by the runtime; "
            "a fill value of " + std::to_string(b.initValue) +
                " cannot be stored once per launch without an extra launch");
    if (workspace && b.init == InitMode::Value && b.initValue == 0 &&
        std::signbit(b.initValue))
      error("buffer-init", b, "-0.0 is not the runtime's zero fill");
    if (b.init == InitMode::FirstWrite && u.loads > 0 && u.stores == 0)
      error("buffer-init", b,
            "first-write buffer is read but never written (no "
            "initialization covers the read)");

    // Atomic ownership: a workspace shared through atomics is accessed by
    // atomics only (no plain access may race with them inside its group) and
    // records the launch as its sharing domain; a private buffer's atomics
    // record the instance; a workspace updated by atomics must say so.
    unsigned plain = u.loads + u.stores - 2 * u.atomics;
    if (b.ownership == Ownership::Atomic) {
      if (!workspace)
        error("buffer-ownership", b,
              "atomic ownership is for an invocation workspace shared by "
              "the instances of its group");
      if (plain > 0)
        error("buffer-ownership", b,
              "atomic ownership, but " + std::to_string(plain) +
                  " plain load(s)/store(s) race with the atomics");
      if (b.sharing != Sharing::Launch)
        error("buffer-ownership", b,
              "a workspace shared through atomics has sharing domain launch, "
              "not " + sharingName(b.sharing).str());
    } else if (workspace && u.atomics > 0) {
      error("buffer-ownership", b,
            "updated by atomics, but its ownership is " +
                ownershipName(b.ownership).str() + " (expected atomic)");
    }
    const bool shared = b.scope == BufferScope::CTAShared;
    if (!workspace && u.atomics > 0 &&
        b.sharing != (shared ? Sharing::CTA : Sharing::Instance))
      error("buffer-ownership", b,
            shared ? "a cta_shared buffer updated by atomics must record "
                     "sharing cta, not " + sharingName(b.sharing).str()
                   : "private buffer updated by atomics must record sharing "
                     "instance, not " + sharingName(b.sharing).str());
    // A privatized copy (privatize-atomics) is CTA-shared memory holding
    // elements of one view parameter of its element type.
    if (b.privatizes >= 0) {
      if (!shared)
        error("buffer-privatize", b,
              "only a cta_shared buffer can be a privatized copy of a view");
      if (b.privatizes >= static_cast<int>(p.params.size()) ||
          !p.params[b.privatizes].type.isView() ||
          p.params[b.privatizes].type.elem != b.elem)
        error("buffer-privatize", b,
              "privatizes parameter " + std::to_string(b.privatizes) +
                  ", which is not a view of its element type");
    }

    // Ownership: recorded readers/writers equal the body.
    std::vector<unsigned> r(u.readers.begin(), u.readers.end());
    std::vector<unsigned> w(u.writers.begin(), u.writers.end());
    if (r != b.readerGroups || w != b.writerGroups)
      error("buffer-ownership", b,
            "recorded readers/writers differ from the groups that load/store "
            "it");
  }

  /// Workspace slices do not overlap.
  void checkSlices() {
    std::vector<std::pair<int64_t, const Buffer *>> slices;
    for (const Buffer &b : p.buffers) {
      if (b.scope == BufferScope::InvocationWorkspace && b.workspaceOffset >= 0)
        slices.push_back({b.workspaceOffset, &b});
      // Sized per launch: an i64 launch expression and no static size.
      if (b.scope == BufferScope::InvocationWorkspace && b.sizeExpr >= 0 &&
          (static_cast<size_t>(b.sizeExpr) >= p.exprs.size() ||
           p.exprs[b.sizeExpr].type != ScalarKind::I64 || b.size != 0))
        error("buffer-instance", b,
              "a workspace sized per launch needs an i64 launch expression "
              "for its size (and no static one)");
    }
    std::sort(slices.begin(), slices.end(),
              [](const auto &x, const auto &y) { return x.first < y.first; });
    for (unsigned i = 1; i < slices.size(); ++i) {
      const Buffer &prev = *slices[i - 1].second;
      if (prev.sizeExpr >= 0)
        error("buffer-instance", prev,
              "a workspace slice sized per launch must be the last one "
              "(buffer " + std::to_string(slices[i].second->id) +
                  " follows it)");
      if (prev.workspaceOffset + prev.size * scalarBytes(prev.elem) >
          slices[i].first)
        error("buffer-instance", *slices[i].second,
              "workspace slice overlaps buffer " + std::to_string(prev.id));
    }
  }
};

} // namespace

void intent::phys::verifyBuffers(const Program &p,
                                 std::vector<std::string> &errors) {
  BufferVerifier(p, errors).run();
}
