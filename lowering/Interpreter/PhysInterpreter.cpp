//===- PhysInterpreter.cpp - Executes a physical program on the host -------===//

#include "Interpreter/PhysInterpreter.h"

#include "Interpreter/Fibers.h"

#include "Physical/Coop.h"
#include "Physical/Structured.h"

#include "llvm/ADT/DenseSet.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <random>
#include <unordered_map>

using namespace intent;
using namespace intent::interp;
using phys::Op;
using phys::Opcode;

std::optional<Scalar> interp::evalLaunchExpr(const phys::Program &p, unsigned idx,
                                             const std::vector<Arg> &args,
                                             std::string &error) {
  using K = phys::LaunchExpr::Kind;
  const phys::LaunchExpr &e = p.exprs[idx];
  std::vector<Scalar> ops;
  for (unsigned o : e.operands) {
    std::optional<Scalar> v = evalLaunchExpr(p, o, args, error);
    if (!v)
      return std::nullopt;
    ops.push_back(*v);
  }
  Scalar out;
  switch (e.kind) {
  case K::Const:
    return Scalar::ofInt(e.type, e.value);
  case K::Param:
    return evalCast(args[e.param].scalar, e.type);
  case K::Extent:
    return Scalar::ofInt(e.type, args[e.param].view.extents[e.dim]);
  case K::Stride:
    return Scalar::ofInt(e.type, args[e.param].view.strides[e.dim]);
  case K::Cast:
    return evalCast(ops[0], e.type);
  case K::Neg:
    if (!evalUnary("neg", ops[0], out, error))
      return std::nullopt;
    return out;
  case K::Cmp:
    return evalCmp(e.pred, ops[0], ops[1]);
  case K::Select:
    return ops[0].truthy() ? ops[1] : ops[2];
  case K::SmCount:
    // The interpreter is cpu mode's model: one multiprocessor.
    return Scalar::ofInt(e.type, 1);
  default:
    if (!evalBinary(phys::launchExprKindName(e.kind), ops[0], ops[1], out, error))
      return std::nullopt;
    return out;
  }
}

namespace {

/// How control leaves a block.
struct Flow {
  Opcode kind = Opcode::Yield;
  std::vector<Scalar> values;
};

class Machine {
public:
  Machine(const phys::Program &p, const std::vector<Arg> &args,
          const PhysRunOptions &opts, PhysRunResult &result)
      : p(p), args(args), opts(opts), result(result) {}

  /// Whether `p` runs in CTA mode: a cta program written with the
  /// cooperative primitives (or CTA-shared buffers). The annotated cta
  /// programs of cta-rows keep one thread per instance.
  static bool usesCtaThreads(const phys::Program &p) {
    return p.scope == phys::ExecScope::CTA && p.ctaThreads > 0 &&
           phys::spreadsOverThreads(p);
  }

  /// Once per launch: sizes every thread's values (dense by Value::id) and
  /// decides whether the instances run as CTAs of fibers.
  void setup() {
    unsigned values = p.body->block.args.size();
    auto note = [&](const phys::Value *v) { values = std::max(values, v->id + 1); };
    for (const phys::Value *v : p.body->block.args)
      note(v);
    phys::walk(*p.body, [&](const Op &o) {
      for (const phys::Value *v : o.results)
        note(v);
      for (const auto &r : o.regions)
        for (const phys::Value *v : r->block.args)
          note(v);
    });
    single.env.resize(values);
    launchValues.resize(p.exprs.size());
    ctaMode = usesCtaThreads(p);
    if (!ctaMode)
      return;
    ctaThreads = p.ctaThreads;
    phys::walk(*p.body, [&](const Op &o) {
      if (o.opcode == Opcode::For && o.strAttr("dist") == "cta")
        distFors.insert(&o);
    });
    threads.resize(ctaThreads);
    for (Thread &t : threads)
      t.env.resize(values);
    warpEpochs.assign((ctaThreads + 31) / 32, 0);
  }

  /// Launch expression `e`, fixed for the launch: evaluated once.
  std::optional<Scalar> launchValue(size_t e, std::string &err) {
    std::optional<Scalar> &v = launchValues[e];
    if (!v)
      v = evalLaunchExpr(p, e, args, err);
    return v;
  }

  bool runProgram(int64_t pid) {
    this->pid = pid;
    acquired.clear();
    shared.clear();
    unwritten.clear();
    if (ctaMode)
      return runCta();
    th = &single;
    th->buffers.clear();
    return runThread();
  }

private:
  /// The body as the running thread sees it.
  bool runThread() {
    for (unsigned i = 0; i < p.params.size(); ++i)
      if (!args[i].isView)
        slot(p.param(i)) = args[i].scalar;
    Flow f;
    return execBlock(p.body->block, f);
  }

  bool unwrittenRead(const Op &op, const std::string &buffer, int64_t i) {
    return fail(op, "reads element " + std::to_string(i) +
                        " of shared buffer " + buffer +
                        ", which this CTA never wrote");
  }

  /// Reports a deferred unwritten read (false) if there is one.
  bool noUnwrittenRead() {
    if (unwritten.empty())
      return true;
    const UnwrittenRead &u = unwritten.front();
    th = &threads[u.tid];
    return unwrittenRead(*u.op, u.buffer, u.element);
  }

  /// Suspends the running thread at barrier or shuffle `op` until the
  /// scheduler releases it; false when the CTA is abandoned instead.
  bool waitAt(const Op &op) {
    if (aborting)
      return false;
    th->waitOp = &op;
    fibers.suspend();
    th->waitOp = nullptr;
    return !aborting;
  }

  static bool warpLevel(const Op &op) {
    return op.opcode == Opcode::Shuffle || op.strAttr("scope") == "warp";
  }

  /// An atomic the aggregate-atomics pass combines over a warp's lanes: a
  /// warp op that tolerates divergence (the lanes that reach it together,
  /// whichever they are, form its group; on the GPU __activemask()).
  static bool aggregated(const Op &op) {
    return op.opcode == Opcode::Atomic && op.attr("aggregate");
  }

  /// Runs instance `pid` as ctaThreads fibers: every ready thread runs (in
  /// increasing thread order, decreasing in odd instances, like the cpu
  /// runtime) until it finishes or waits; then a warp whose 32 threads all
  /// wait at one warp barrier or shuffle is released, else the CTA when
  /// all its threads wait at one CTA barrier; when neither is possible and
  /// some thread waits, the barrier cannot complete: an error.
  bool runCta() {
    const int n = ctaThreads;
    ctaEpoch = 0;
    std::fill(warpEpochs.begin(), warpEpochs.end(), 0);
    for (int i = 0; i < n; ++i) {
      Thread &t = threads[i];
      t.tid = i;
      t.buffers.clear();
      t.waitOp = nullptr;
      t.done = false;
    }
    fibers.start(n, [this](unsigned i) {
      th = &threads[i];
      if (!aborting) // a thread that never ran has nothing to unwind
        runThread();
    });
    std::vector<char> ready(n, 1);
    const bool reverse = pid & 1;
    for (;;) {
      for (int k = 0; k < n; ++k) {
        int i = reverse ? n - 1 - k : k;
        if (!ready[i])
          continue;
        ready[i] = 0;
        th = &threads[i];
        if (fibers.resume(i))
          threads[i].done = true;
        if (!result.ok)
          return abandon();
      }
      bool released = false;
      // Every thread now waits or is done: the lanes of a warp waiting at
      // one aggregated atomic are its group (the others finished or wait
      // elsewhere, as diverged lanes would).
      for (int w = 0; w * 32 < n; ++w)
        for (int l = 0; l < 32 && w * 32 + l < n; ++l) {
          const Op *at = threads[w * 32 + l].waitOp;
          if (!at || !aggregated(*at))
            continue;
          if (!aggregate(*at, w))
            return abandon();
          for (int k = l; k < 32 && w * 32 + k < n; ++k)
            if (threads[w * 32 + k].waitOp == at)
              ready[w * 32 + k] = 1;
          released = true;
          break;
        }
      if (released)
        continue;
      for (int w = 0; w * 32 < n; ++w) {
        const Op *at = threads[w * 32].waitOp;
        if (!at || !warpLevel(*at))
          continue;
        bool all = true;
        for (int l = 1; l < 32 && all; ++l)
          all = threads[w * 32 + l].waitOp == at;
        if (!all)
          continue;
        if (at->opcode == Opcode::Shuffle)
          exchange(*at, w);
        ++warpEpochs[w];
        std::fill(ready.begin() + w * 32, ready.begin() + w * 32 + 32, 1);
        released = true;
      }
      if (released)
        continue;
      const Op *at = threads[0].waitOp;
      bool all = at && !warpLevel(*at);
      for (int i = 1; i < n && all; ++i)
        all = threads[i].waitOp == at;
      if (all) {
        if (!noUnwrittenRead())
          return abandon();
        ++ctaEpoch;
        for (uint32_t &e : warpEpochs)
          ++e;
        std::fill(ready.begin(), ready.end(), 1);
        continue;
      }
      for (int i = 0; i < n; ++i)
        if (threads[i].waitOp) {
          th = &threads[i];
          fail(*threads[i].waitOp, stuckMessage(i));
          return abandon();
        }
      break; // every thread finished
    }
    if (!noUnwrittenRead())
      return false;
    if (!fibers.stacksIntact(n)) {
      result.ok = false;
      result.error = "program " + std::to_string(pid) +
                     ": an interpreter fiber overflowed its stack";
      return false;
    }
    return true;
  }

  /// Runs aggregated atomic `op` for the lanes of warp w waiting at it:
  /// lanes on one element (memory and coordinates) combine their values in
  /// lane order, the lowest of them performs the atomic with the total
  /// (bounds and race checks included), and each lane's result is the old
  /// value (a ticket: plus its rank among them times the constant).
  bool aggregate(const Op &op, int w) {
    const int lo = w * 32, hi = std::min(lo + 32, ctaThreads);
    std::vector<char> doneLane(32, 0);
    for (int a = lo; a < hi; ++a) {
      if (threads[a].waitOp != &op || doneLane[a - lo])
        continue;
      std::vector<int> peers;
      for (int b = a; b < hi; ++b)
        if (threads[b].waitOp == &op && !doneLane[b - lo] &&
            threads[b].aggKey == threads[a].aggKey) {
          peers.push_back(b);
          doneLane[b - lo] = 1;
        }
      Scalar total = threads[a].aggValue;
      std::string err;
      for (size_t k = 1; k < peers.size(); ++k)
        if (!evalAtomic(op.strAttr("kind"), total, threads[peers[k]].aggValue,
                        total, err))
          return fail(op, err);
      if (peers.size() > 1)
        ++result.combinedAtomics;
      th = &threads[a];
      aggTotal = &total;
      const bool ok = access(op);
      aggTotal = nullptr;
      if (!ok)
        return false;
      const Scalar old = get(op.result(0));
      const bool ticket = op.strAttr("aggregate") == "ticket";
      for (size_t k = 0; k < peers.size(); ++k) {
        th = &threads[peers[k]];
        Scalar mine = old;
        if (ticket && k &&
            !evalAtomic("add", old,
                        Scalar::ofInt(old.kind, static_cast<int64_t>(k) *
                                                    get(op.operands[1]).i),
                        mine, err))
          return fail(op, err);
        slot(op.result(0)) = ticket ? mine : old;
      }
    }
    return true;
  }

  /// The shuffle of warp w: each lane's result is the value of its source
  /// lane (the lane argument's low 5 bits, as PTX's shfl reads it).
  void exchange(const Op &op, int w) {
    llvm::StringRef mode = op.strAttr("mode");
    Thread *lanes = &threads[w * 32];
    for (uint32_t l = 0; l < 32; ++l) {
      uint32_t k = lanes[l].shuffleLane & 31;
      uint32_t src = mode == "xor"    ? l ^ k
                     : mode == "down" ? (l + k < 32 ? l + k : l)
                                      : k;
      lanes[l].shuffleOut = lanes[src].shuffleIn;
    }
  }

  /// Why the barrier/shuffle thread `i` waits at cannot complete: where
  /// every thread of its scope is, as thread ranges.
  std::string stuckMessage(int i) {
    const Op &at = *threads[i].waitOp;
    int lo = warpLevel(at) ? i / 32 * 32 : 0;
    int hi = warpLevel(at) ? lo + 32 : ctaThreads;
    std::string out = std::string(warpLevel(at) ? "the warp" : "the CTA") +
                      " cannot complete it:";
    for (int a = lo; a < hi;) {
      const Op *w = threads[a].waitOp;
      int b = a;
      while (b + 1 < hi && threads[b + 1].waitOp == w)
        ++b;
      out += (a == lo ? " thread" : "; thread") + std::string(b > a ? "s " : " ") +
             std::to_string(a) + (b > a ? "-" + std::to_string(b) : "") +
             (w ? " wait at op " + std::to_string(w->id) + " (" +
                      phys::opcodeName(w->opcode).str() + ")"
                : std::string(" finished"));
      a = b + 1;
    }
    return out;
  }

  /// Unwinds every suspended thread of a failed CTA (its waits return
  /// false) so that no fiber keeps live objects.
  bool abandon() {
    aborting = true;
    for (int i = 0; i < ctaThreads; ++i)
      while (!threads[i].done) {
        th = &threads[i];
        threads[i].done = fibers.resume(i);
      }
    aborting = false;
    return false;
  }

public:

private:
  const phys::Program &p;
  const std::vector<Arg> &args;
  const PhysRunOptions &opts;
  PhysRunResult &result;
  int64_t pid = 0;
  int64_t opsExecuted = 0;
  /// One thread of the executing instance: its values, its private
  /// buffers and, while it waits at a barrier or shuffle, where and with
  /// what (CTA mode; a one-thread instance otherwise).
  struct Thread {
    int tid = 0;
    std::vector<Scalar> env; ///< by Value::id
    std::vector<std::vector<Scalar>> buffers;
    const Op *waitOp = nullptr;
    Scalar shuffleIn, shuffleOut;
    uint32_t shuffleLane = 0;
    /// At an aggregated atomic: its value and element (memory, coords).
    Scalar aggValue;
    std::vector<int64_t> aggKey;
    bool done = false;
  };
  Thread single;
  std::vector<Thread> threads;
  /// CTA mode: the `for {dist = "cta"}` ops (found once, not per run).
  llvm::DenseSet<const Op *> distFors;
  /// Launch expressions evaluated so far (they are fixed for the launch).
  std::vector<std::optional<Scalar>> launchValues;
  Thread *th = &single;
  /// Invocation workspace buffers by record id: one per launch, shared by
  /// every program (handles are -(id + 1)).
  std::map<int64_t, std::vector<Scalar>> workspace;
  /// Race detection (PhysRunOptions::detectRaces). The last accesses of
  /// one kind to an element: by which program (-2: several) and thread
  /// (-2: several of that program; warp -2: of several warps), at which CTA
  /// and warp epoch (barriers and shuffles completed before it), by which
  /// op. Two accesses of different programs are never ordered (the launch
  /// orders nothing between programs); two of one program's threads are
  /// when a CTA barrier, or (same warp) a warp barrier or shuffle,
  /// completed between them.
  struct Mark {
    int64_t pid = -1;
    int tid = -1, warp = -1;
    uint32_t epoch = 0, warpEpoch = 0;
    unsigned op = 0;
    uint64_t seq = 0; ///< the program's access count at the access
  };
  /// Programs synchronize through atomics (the last-arriving program of a
  /// grid reduction): an atomic with release semantics on an element
  /// publishes its program's earlier accesses; one with acquire semantics
  /// on the same element by a later program orders them before that
  /// program's later accesses (C++'s release sequence: every release on
  /// the element so far, as the atomics there are read-modify-writes). What
  /// a program acquired from each other program: accesses of that program
  /// with seq below `seq` are ordered before the acquiring thread's later
  /// accesses, and before every thread's after the next CTA barrier.
  struct Acquired {
    uint64_t seq = 0;
    int tid = 0;
    uint32_t epoch = 0;
  };
  llvm::DenseMap<int64_t, Acquired> acquired;
  /// Element address -> (program, seq) of each release atomic on it.
  std::unordered_map<uintptr_t, std::vector<std::pair<int64_t, uint64_t>>>
      releases;
  /// Accesses made by the running program so far (Mark::seq).
  uint64_t accessSeq = 0;
  struct Touch {
    Mark write, read, atomic;
  };
  enum class Use { Read, Write, Atomic };
  /// Global memory (views, workspace) by element address, per launch.
  std::unordered_map<uintptr_t, Touch> touched;
  /// A CTA-shared buffer of the running instance: its elements, which of
  /// them the CTA wrote (reading one it never wrote is an error: shared
  /// memory starts undefined) and the race records.
  struct Shared {
    std::vector<Scalar> data;
    std::vector<uint8_t> written;
    std::vector<Touch> touch;
  };
  std::map<int64_t, Shared> shared;
  /// Buffer handles: private buffers are >= 0 (per thread), workspaces
  /// -(id + 1), CTA-shared ones kSharedHandle + id.
  static constexpr int64_t kSharedHandle = int64_t(1) << 40;

  /// While the scheduler performs an aggregated atomic for its group's
  /// lowest lane: the group's combined value.
  const Scalar *aggTotal = nullptr;
  /// CTA mode (runCta): the program's threads as fibers.
  bool ctaMode = false;
  int ctaThreads = 1;
  Fibers fibers;
  /// The first read of a never-written shared element, in CTA mode with
  /// the race check: reported at the next CTA barrier or the CTA's end.
  struct UnwrittenRead {
    const Op *op;
    int tid;
    std::string buffer;
    int64_t element;
  };
  std::vector<UnwrittenRead> unwritten;
  /// Set while the threads of a failed CTA unwind (waits return false).
  bool aborting = false;
  /// Completed CTA barriers, and per warp completed warp barriers and
  /// shuffles (CTA barriers included), of the running instance.
  uint32_t ctaEpoch = 0;
  std::vector<uint32_t> warpEpochs{0};

  bool fail(const Op &op, const std::string &msg) {
    if (!result.ok)
      return false; // the first error stands (threads of a failed CTA)
    result.ok = false;
    result.error = "program " + std::to_string(pid) +
                   (ctaMode ? ", thread " + std::to_string(th->tid) : "") +
                   ", op " + std::to_string(op.id) + " (" +
                   phys::opcodeName(op.opcode).str() + "): " + msg;
    return false;
  }

  /// The running thread's value of `v` (values are dense by id, written
  /// before they are read: SSA).
  Scalar &slot(const phys::Value *v) { return th->env[v->id]; }
  const Scalar &get(const phys::Value *v) { return th->env[v->id]; }

  bool execBlock(const phys::Block &b, Flow &flow) {
    for (const auto &op : b.ops) {
      if (++opsExecuted > opts.maxOps)
        return fail(*op, "operation limit exceeded (non-terminating loop?)");
      // Only a block's last op is a terminator ([structure]); the pointer
      // test spares the op-table lookup on every other op.
      if (&op == &b.ops.back() && phys::isTerminator(op->opcode)) {
        flow.kind = op->opcode;
        flow.values.clear();
        for (const phys::Value *v : op->operands)
          flow.values.push_back(get(v));
        return true;
      }
      if (!execOp(*op, flow))
        return false;
      if (flow.kind == Opcode::Break || flow.kind == Opcode::Continue)
        return true; // propagating out of an if
    }
    return true;
  }

  bool execRegion(const phys::Region &r, const std::vector<Scalar> &argsIn,
                  Flow &flow) {
    for (unsigned i = 0; i < r.block.args.size(); ++i)
      slot(r.block.args[i]) = argsIn[i];
    flow = Flow();
    return execBlock(r.block, flow);
  }

  void bind(const Op &op, const std::vector<Scalar> &vals) {
    for (unsigned i = 0; i < op.results.size(); ++i)
      slot(op.results[i]) = vals[i];
  }

  /// The serial semantics of intent/atomic.hpp on the element `read`
  /// returns and `write` replaces.
  template <class Read, class Write>
  bool atomicUpdate(const Op &op, const void *addr, Read read, Write write) {
    synchronize(op, addr);
    Scalar old = read();
    slot(op.result(0)) = old;
    if (op.opcode == Opcode::AtomicCas) {
      bool hit = sameBits(old, get(op.operands[1]));
      if (hit)
        write(get(op.operands[2]));
      slot(op.result(1)) = Scalar::ofBool(hit);
      return true;
    }
    Scalar updated;
    std::string err;
    if (!evalAtomic(op.strAttr("kind"), old,
                    aggTotal ? *aggTotal : get(op.operands[1]), updated, err))
      return fail(op, err);
    write(updated);
    return true;
  }

  /// An atomic's release and acquire semantics (see Acquired).
  void synchronize(const Op &op, const void *addr) {
    const std::string order = op.strAttr("order");
    const bool rel = order == "release" || order == "acq_rel" ||
                     order == "seq_cst";
    const bool acq = order == "acquire" || order == "acq_rel" ||
                     order == "seq_cst";
    auto &list = releases[reinterpret_cast<uintptr_t>(addr)];
    if (acq)
      for (const auto &[from, seq] : list) {
        if (from == pid)
          continue;
        Acquired &a = acquired[from];
        if (seq >= a.seq) {
          a.seq = seq;
          a.tid = th->tid;
          a.epoch = ctaEpoch;
        }
      }
    if (rel)
      list.push_back({pid, ++accessSeq});
  }

  /// The mark of an access by the running thread now.
  Mark now(const Op &op) {
    Mark m;
    m.seq = ++accessSeq;
    m.pid = pid;
    m.tid = th->tid;
    m.warp = th->tid / 32;
    m.epoch = ctaEpoch;
    m.warpEpoch = warpEpochs[m.warp];
    m.op = op.id;
    return m;
  }

  /// Whether everything `m` records happened before the running thread's
  /// next access.
  bool before(const Mark &m) const {
    if (m.pid == -1 || (m.pid == pid && m.tid == th->tid))
      return true;
    if (m.pid != pid) {
      if (m.pid < 0)
        return false; // several programs
      // Another program: ordered only by an atomic release it made after
      // the access and this program acquired (see Acquired).
      auto it = acquired.find(m.pid);
      return it != acquired.end() && m.seq < it->second.seq &&
             (it->second.tid == th->tid || it->second.epoch < ctaEpoch);
    }
    int w = th->tid / 32;
    return m.epoch < ctaEpoch || (m.warp == w && m.warpEpoch < warpEpochs[w]);
  }

  /// The earlier access that `use` by the running thread races with, or
  /// null: plain accesses conflict with writes, writes and atomics with
  /// reads, plain accesses with atomics; atomics not with each other
  /// (closed by atomic semantics).
  const Mark *conflict(const Touch &t, Use use) const {
    if (!before(t.write))
      return &t.write;
    if (use != Use::Read && !before(t.read))
      return &t.read;
    if (use != Use::Atomic && !before(t.atomic))
      return &t.atomic;
    return nullptr;
  }

  void record(Touch &t, Use use, const Op &op) {
    Mark &m = use == Use::Read ? t.read : use == Use::Write ? t.write : t.atomic;
    Mark cur = now(op);
    if (use == Use::Write || before(m)) {
      m = cur; // every earlier access of the kind is ordered before it
      return;
    }
    if (m.pid != pid) {
      m.pid = -2;
      return;
    }
    if (m.tid != cur.tid)
      m.tid = -2;
    if (m.warp != cur.warp)
      m.warp = -2;
    m.epoch = cur.epoch;
    m.warpEpoch = cur.warpEpoch;
  }

  std::string thread(const Mark &m) const {
    return m.tid == -2 ? "several threads" : "thread " + std::to_string(m.tid);
  }

  /// "written by ..." for the race message of a global-memory element.
  std::string who(const Mark &m, const Touch &t) const {
    std::string verb = &m == &t.write  ? "written"
                       : &m == &t.read ? "read"
                                       : "updated atomically";
    if (m.pid == -2)
      return verb + " by several programs";
    if (m.pid != pid)
      return &m == &t.atomic ? verb + " by another program"
                             : verb + " by program " + std::to_string(m.pid);
    return verb + " by " + thread(m) + " (op " + std::to_string(m.op) +
           ") of this program with no barrier between";
  }

  static const char *useName(Use u) {
    return u == Use::Read ? "read" : u == Use::Write ? "write" : "atomic";
  }

  /// load, store, atomic, atomic_cas, vector_load, vector_store: `width`
  /// elements along the last dimension from the coordinates (1 for the
  /// scalar accesses), each bounds-checked, race-checked and performed in
  /// order.
  bool access(const Op &op) {
    const bool atomic = phys::isAtomic(op.opcode);
    const bool vector =
        op.opcode == Opcode::VectorLoad || op.opcode == Opcode::VectorStore;
    const bool isStore =
        op.opcode == Opcode::Store || op.opcode == Opcode::VectorStore;
    const Use use = atomic ? Use::Atomic : isStore ? Use::Write : Use::Read;
    const int64_t width = vector ? op.intAttr("width", 1) : 1;
    auto skip = [&] {
      for (unsigned i = 0; i < op.results.size(); ++i)
        slot(op.result(i)) = Scalar::ofInt(op.result(i)->type.elem, 0);
      return true;
    };
    if (const phys::Value *g = op.guard())
      if (!get(g).truthy())
        return skip();
    // `leader`: thread 0 of the CTA only (docs/physical-ir.md §8).
    if (ctaMode && op.access.active == phys::ActiveSet::Leader && th->tid != 0)
      return skip();
    llvm::ArrayRef<phys::Value *> cs = op.coords();
    // An aggregated atomic in a CTA: wait for the warp's group; the
    // scheduler performs it (aggregate) and sets this thread's result.
    if (ctaMode && !aggTotal && aggregated(op)) {
      th->aggValue = get(op.operands[1]);
      const phys::Value *m = op.memory();
      th->aggKey.assign(1, m->type.isBuffer()
                               ? get(m).i
                               : -1 - static_cast<int64_t>(m->argNo));
      for (const phys::Value *x : cs)
        th->aggKey.push_back(get(x).i);
      return waitAt(op);
    }
    int64_t c[8] = {};
    for (unsigned i = 0; i < cs.size() && i < 8; ++i)
      c[i] = get(cs[i]).i;
    const unsigned last = cs.empty() ? 0 : cs.size() - 1;
    auto stored = [&](int64_t j) {
      return get(op.operands[vector ? 1 + j : 1]);
    };
    const phys::Value *mem = op.memory();
    if (mem->type.isBuffer())
      return bufferAccess(op, use, width, c[0], stored);
    const View &v = args[mem->argNo].view;
    unsigned size = elemSize(v.elem);
    if (!size)
      return fail(op, "element type not supported by the interpreter");
    const std::string &name = p.params[mem->argNo].name;
    if (vector) {
      // What load_vec / store_vec require: the program checks them with
      // `aligned` (view bases count as 16-byte aligned).
      if (v.rank > 0 && v.strides[v.rank - 1] != 1)
        return fail(op, "vector access to " + name +
                            " whose last dimension is not unit-stride");
      int64_t o = v.offset(c);
      if (opts.misalignedViews || (o * size) % (width * size) != 0)
        return fail(op, "vector access to " + name + " at element offset " +
                            std::to_string(o) + " is not aligned to " +
                            std::to_string(width * size) + " bytes");
    }
    for (int64_t j = 0; j < width; ++j) {
      int64_t e[8];
      std::copy(c, c + 8, e);
      e[last] += j;
      if (opts.checkBounds && !v.inBounds(e)) {
        std::string s;
        for (unsigned i = 0; i < cs.size(); ++i)
          s += (i ? ", " : "") + std::to_string(e[i]);
        return fail(op, "access to " + name + "(" + s + ") out of bounds");
      }
      void *addr = static_cast<char *>(v.data) + v.offset(e) * size;
      if (opts.detectRaces) {
        Touch &t = touched[reinterpret_cast<uintptr_t>(addr)];
        if (const Mark *m = conflict(t, use))
          return fail(op, std::string(useName(use)) + " races on " + name +
                              ": the element was " + who(*m, t));
        record(t, use, op);
      }
      if (atomic)
        return atomicUpdate(op, addr, [&] { return loadElem(addr, v.elem); },
                            [&](Scalar x) { storeElem(addr, x); });
      if (isStore)
        storeElem(addr, stored(j));
      else
        slot(op.result(j)) = loadElem(addr, v.elem);
    }
    return true;
  }

  /// An access to a buffer (rank 1): a thread's private buffer, the
  /// launch's workspace or the CTA's shared one.
  template <class Stored>
  bool bufferAccess(const Op &op, Use use, int64_t width, int64_t first,
                    Stored stored) {
    int64_t h = get(op.memory()).i;
    const bool isShared = h >= kSharedHandle;
    const int64_t id = isShared ? h - kSharedHandle : h < 0 ? -h - 1 : -1;
    Shared *sh = isShared ? &shared[id] : nullptr;
    std::vector<Scalar> &buf = isShared ? sh->data
                               : h >= 0 ? th->buffers[h]
                                        : workspace[-h - 1];
    const std::string name =
        id >= 0 ? p.buffers[id].name : "%" + std::to_string(op.memory()->id);
    if (isShared && width > 1) {
      int64_t bytes = elemSize(p.buffers[id].elem);
      int64_t offset = p.buffers[id].sharedOffset;
      if (p.buffers[id].sharedOffsetExpr >= 0) {
        std::string err;
        std::optional<Scalar> o = launchValue(p.buffers[id].sharedOffsetExpr, err);
        if (!o)
          return fail(op, err);
        offset = o->i;
      }
      if ((offset + first * bytes) % (width * bytes))
        return fail(op, "vector access to shared buffer " + name +
                            " at element " + std::to_string(first) +
                            " is not aligned to " +
                            std::to_string(width * bytes) + " bytes");
    }
    for (int64_t j = 0; j < width; ++j) {
      int64_t i = first + j;
      if (i < 0 || i >= static_cast<int64_t>(buf.size()))
        return fail(op, "buffer index out of bounds (" + name + "[" +
                            std::to_string(i) + "], size " +
                            std::to_string(buf.size()) + ")");
      if (isShared && use != Use::Write && !sh->written[i]) {
        // With other threads and the race check, a write by another thread
        // later in this barrier interval is the race that explains the
        // read (a dropped barrier): report that first, the read itself at
        // the next CTA barrier.
        if (!ctaMode || !opts.detectRaces)
          return unwrittenRead(op, name, i);
        if (unwritten.empty())
          unwritten.push_back({&op, th->tid, name, i});
      }
      if (opts.detectRaces && (isShared || (h < 0 && use != Use::Atomic))) {
        Touch &t = isShared ? sh->touch[i]
                            : touched[reinterpret_cast<uintptr_t>(&buf[i])];
        if (const Mark *m = conflict(t, use)) {
          if (isShared)
            return fail(op, "shared-memory race on buffer " + name +
                                " element " + std::to_string(i) +
                                " between " + thread(*m) + " (op " +
                                std::to_string(m->op) + ") and thread " +
                                std::to_string(th->tid) + " (op " +
                                std::to_string(op.id) + ")");
          return fail(op, std::string(useName(use)) +
                              " races on workspace buffer " + name + "[" +
                              std::to_string(i) + "]: the element was " +
                              who(*m, t));
        }
        record(t, use, op);
      }
      if (isShared && use != Use::Read)
        sh->written[i] = 1;
      if (use == Use::Atomic)
        return atomicUpdate(op, &buf[i], [&] { return buf[i]; },
                            [&](Scalar v) { buf[i] = v; });
      if (use == Use::Write)
        buf[i] = stored(j);
      else
        slot(op.result(j)) = buf[i];
    }
    return true;
  }

  /// Runs a callback region; its yielded values land in `out`.
  bool call(const phys::Region &r, const std::vector<Scalar> &in,
            std::vector<Scalar> &out) {
    Flow f;
    if (!execRegion(r, in, f))
      return false;
    out = f.values;
    return true;
  }

  static std::vector<Scalar> concat(std::vector<Scalar> a,
                                    const std::vector<Scalar> &b) {
    a.insert(a.end(), b.begin(), b.end());
    return a;
  }

  /// reduce, scan, region_fold, region_scan (docs/physical-ir.md §5.5):
  /// acc = init; members k in order (reverse scans from end - 1 down);
  /// acc = combine(acc, value(k)); scans emit acc before (exclusive) or
  /// after (inclusive) the update; reduce yields acc, region_fold stores it.
  bool fold(const Op &op) {
    using phys::StructuredRegion;
    if (phys::chunkLength(op))
      return chunkedFold(op);
    bool region = phys::isRegionOp(op.opcode);
    bool isScan = op.opcode == Opcode::Scan || op.opcode == Opcode::RegionScan;
    Scalar r = region ? get(phys::regionIndex(op)) : Scalar();
    int64_t begin = get(phys::memberBegin(op)).i;
    int64_t end = get(phys::memberEnd(op)).i;
    std::vector<Scalar> acc;
    for (const phys::Value *v : phys::accInits(op))
      acc.push_back(get(v));
    bool reverse = isScan && op.strAttr("direction") == "reverse";
    bool exclusive = isScan && op.strAttr("kind") == "exclusive";
    auto idx = [](int64_t k) { return Scalar::ofInt(ScalarKind::I64, k); };
    std::vector<Scalar> x, emitted;
    for (int64_t step = 0, n = end > begin ? end - begin : 0; step < n;
         ++step) {
      int64_t k = reverse ? end - 1 - step : begin + step;
      std::vector<Scalar> at = region ? std::vector<Scalar>{r, idx(k)}
                                      : std::vector<Scalar>{idx(k)};
      if (isScan && exclusive &&
          !call(*op.regions[phys::OutRegion], concat(at, acc), emitted))
        return false;
      if (!call(*op.regions[phys::ValueRegion], at, x) ||
          !call(*op.regions[phys::CombineRegion], concat(acc, x), acc))
        return false;
      if (isScan && !exclusive &&
          !call(*op.regions[phys::OutRegion], concat(at, acc), emitted))
        return false;
    }
    if (op.opcode == Opcode::Reduce)
      bind(op, acc);
    if (op.opcode == Opcode::RegionFold)
      return call(*op.regions[phys::OutRegion], concat({r}, acc), emitted);
    if (op.opcode == Opcode::RegionScan)
      return call(*op.regions[phys::FinalRegion], concat({r}, acc), emitted);
    return true;
  }

  /// The identity of each accumulator component: the built-in combiner's,
  /// or (a user combine) the init operand.
  std::vector<Scalar> identities(const Op &op) {
    std::vector<Scalar> id;
    llvm::ArrayRef<phys::Value *> inits = phys::accInits(op);
    for (unsigned i = 0; i < op.acc.size(); ++i)
      id.push_back(op.acc[i].identity == phys::AccComponent::Identity::Value
                       ? constantOf(op.acc[i].value, op.acc[i].type.elem)
                       : get(inits[i]));
    return id;
  }

  /// A region_fold / region_scan with `chunk = C` (docs/physical-ir.md
  /// §5.5): the members, in scan order, split into chunks of C. Each chunk's
  /// summary folds its values from the identity; the incoming state of chunk
  /// c is init combined with the summaries of chunks 0..c-1 (the transition);
  /// a region_fold stores the state after the last chunk; a region_scan
  /// re-walks each chunk with a local prefix from the identity and emits
  /// apply(r, incoming, local), then runs final with the last state.
  bool chunkedFold(const Op &op) {
    bool isScan = op.opcode == Opcode::RegionScan;
    Scalar r = get(phys::regionIndex(op));
    int64_t begin = get(phys::memberBegin(op)).i;
    int64_t end = get(phys::memberEnd(op)).i;
    int64_t chunk = *phys::chunkLength(op);
    int64_t n = end > begin ? end - begin : 0;
    bool reverse = isScan && op.strAttr("direction") == "reverse";
    bool exclusive = isScan && op.strAttr("kind") == "exclusive";
    auto member = [&](int64_t step) {
      return Scalar::ofInt(ScalarKind::I64,
                           reverse ? end - 1 - step : begin + step);
    };
    std::vector<Scalar> state, id = identities(op), x, emitted;
    for (const phys::Value *v : phys::accInits(op))
      state.push_back(get(v));
    // Chunk summaries and the carried incoming state of every chunk.
    std::vector<std::vector<Scalar>> incoming;
    for (int64_t c0 = 0; c0 < n; c0 += chunk) {
      incoming.push_back(state);
      std::vector<Scalar> summary = id;
      for (int64_t s = c0; s < std::min(n, c0 + chunk); ++s)
        if (!call(*op.regions[phys::ValueRegion], {r, member(s)}, x) ||
            !call(*op.regions[phys::CombineRegion], concat(summary, x),
                  summary))
          return false;
      if (!call(*op.regions[phys::CombineRegion], concat(state, summary),
                state))
        return false;
    }
    if (!isScan)
      return call(*op.regions[phys::OutRegion], concat({r}, state), emitted);
    // Apply the incoming state to each chunk's local prefixes and emit.
    std::vector<Scalar> q;
    for (int64_t c0 = 0, c = 0; c0 < n; c0 += chunk, ++c) {
      std::vector<Scalar> local = id;
      for (int64_t s = c0; s < std::min(n, c0 + chunk); ++s) {
        Scalar k = member(s);
        if (!exclusive &&
            (!call(*op.regions[phys::ValueRegion], {r, k}, x) ||
             !call(*op.regions[phys::CombineRegion], concat(local, x), local)))
          return false;
        if (!call(*op.regions[phys::ApplyRegion],
                  concat(concat({r}, incoming[c]), local), q) ||
            !call(*op.regions[phys::OutRegion], concat({r, k}, q), emitted))
          return false;
        if (exclusive &&
            (!call(*op.regions[phys::ValueRegion], {r, k}, x) ||
             !call(*op.regions[phys::CombineRegion], concat(local, x), local)))
          return false;
      }
    }
    return call(*op.regions[phys::FinalRegion], concat({r}, state), emitted);
  }

  /// argmax / argmin exactly as include/intent/argreduce.hpp: NaN wins under
  /// propagate (first or last NaN per tie), is skipped under ignore; values
  /// compare with < and ==, so -0.0 and +0.0 tie.
  bool argReduce(const Op &op) {
    std::vector<Scalar> r;
    if (!argReduceMembers(op, [](int64_t) { return true; }, r))
      return false;
    bind(op, r);
    return true;
  }

  /// The arg-reduction over the members k in [begin, end) with take(k), in
  /// increasing order; `out` = (best, pos).
  template <class Take>
  bool argReduceMembers(const Op &op, Take take, std::vector<Scalar> &out) {
    bool isMax = op.strAttr("which") == "max";
    bool tieLast = op.strAttr("tie") == "last";
    bool ignoreNaN = op.strAttr("nan") == "ignore";
    ScalarKind t = op.result(0)->type.elem;
    Scalar best = constantOf(op.acc[0].value, t);
    int64_t pos = -1;
    bool bestIsNaN = false;
    int64_t begin = get(phys::memberBegin(op)).i;
    int64_t end = get(phys::memberEnd(op)).i;
    std::vector<Scalar> x;
    for (int64_t k = begin; k < end; ++k) {
      if (!take(k))
        continue;
      if (!call(*op.regions[phys::ValueRegion],
                {Scalar::ofInt(ScalarKind::I64, k)}, x))
        return false;
      const Scalar &v = x[0];
      if (v.isFloat() && std::isnan(v.f)) {
        if (ignoreNaN)
          continue;
        if (!bestIsNaN || tieLast) {
          best = v;
          pos = k;
        }
        bestIsNaN = true;
        continue;
      }
      if (bestIsNaN)
        continue;
      bool better = isMax ? evalCmp("lt", best, v).truthy()
                          : evalCmp("lt", v, best).truthy();
      bool equal = evalCmp("eq", v, best).truthy();
      if (pos < 0 || better || (equal && tieLast)) {
        best = v;
        pos = k;
      }
    }
    out = {best, Scalar::ofInt(ScalarKind::I64, pos)};
    return true;
  }

  /// Merges arg-reduce partial `b` into `a` by value, then position (exact
  /// in any order: the positions carry the tie and NaN rules).
  void argMerge(const Op &op, std::vector<Scalar> &a,
                const std::vector<Scalar> &b) {
    bool isMax = op.strAttr("which") == "max";
    bool tieLast = op.strAttr("tie") == "last";
    int64_t pa = a[1].i, pb = b[1].i;
    if (pb < 0)
      return;
    bool laterWins = tieLast ? pb > pa : pb < pa;
    bool take;
    if (pa < 0) {
      take = true;
    } else {
      bool na = a[0].isFloat() && std::isnan(a[0].f);
      bool nb = b[0].isFloat() && std::isnan(b[0].f);
      if (na || nb)
        take = nb && (!na || laterWins);
      else if (evalCmp("eq", a[0], b[0]).truthy())
        take = laterWins;
      else
        take = isMax ? evalCmp("lt", a[0], b[0]).truthy()
                     : evalCmp("lt", b[0], a[0]).truthy();
    }
    if (take)
      a = b;
  }

  static Scalar constantOf(const phys::AttrValue &a, ScalarKind k) {
    if (const auto *i = std::get_if<int64_t>(&a))
      return Scalar::ofInt(k, *i);
    if (const auto *d = std::get_if<double>(&a))
      return Scalar::ofFloat(k, *d);
    return Scalar::ofInt(k, 0);
  }

  bool execOp(const Op &op, Flow &flow) {
    std::string err;
    Scalar out;
    auto operand = [&](unsigned i) { return get(op.operands[i]); };
    switch (op.opcode) {
    case Opcode::ProgramId:
      slot(op.result()) = Scalar::ofInt(ScalarKind::I64, pid);
      return true;
    case Opcode::LaunchValue: {
      std::optional<Scalar> v = launchValue(op.intAttr("expr"), err);
      if (!v)
        return fail(op, err);
      slot(op.result()) = *v;
      return true;
    }
    case Opcode::Segment: {
      int64_t off = operand(1).i, len = operand(2).i;
      if (pid < off || pid - off >= len)
        return true;
      int64_t local = pid - off;
      if (int64_t t = op.intAttr("spread", 0);
          t && op.boolAttr("team") && op.boolAttr("lanes")) {
        // A lane-team segment (Physical/Dispatch.h laneTeamSegment): teams
        // of 2^S consecutive threads.
        int64_t s = operand(4).i, n = operand(3).i;
        if (s < 0 || (int64_t(1) << s) > ctaThreads)
          return fail(op, "a lane-team segment's team shift " +
                              std::to_string(s) + " is outside [0, log2 " +
                              std::to_string(ctaThreads) + "]");
        int64_t raw = local * (ctaThreads >> s) + (th->tid >> s);
        bool active = raw < n;
        Flow inner;
        return execRegion(
            *op.regions[0],
            {Scalar::ofInt(ScalarKind::I64, active ? raw : n - 1),
             Scalar::ofInt(ScalarKind::I64, th->tid & ((int64_t(1) << s) - 1)),
             Scalar::ofBool(active)},
            inner);
      }
      if (int64_t t = op.intAttr("spread", 0); t && op.boolAttr("team")) {
        // A team segment (Physical/Dispatch.h teamSegment): every thread
        // enters with (instance, worker, active).
        int64_t parts = operand(4).i, n = operand(3).i;
        if (parts <= 0)
          return fail(op, "a team segment with a non-positive part count");
        int64_t raw = (local / parts) * t + th->tid % t;
        bool active = raw < n;
        int64_t worker = (local % parts) * (ctaThreads / t) + th->tid / t;
        Flow inner;
        return execRegion(*op.regions[0],
                          {Scalar::ofInt(ScalarKind::I64, active ? raw : n - 1),
                           Scalar::ofInt(ScalarKind::I64, worker),
                           Scalar::ofBool(active)},
                          inner);
      }
      if (int64_t a = op.intAttr("tile", -1); a >= 0) {
        // A tile segment (Physical/Dispatch.h tileSegment): every thread
        // enters with its direct and transposed instances of tile `local`.
        const unsigned r = op.operands.size() - 4;
        std::vector<int64_t> ext(r);
        for (unsigned d = 0; d < r; ++d)
          ext[d] = operand(4 + d).i;
        // TX: 32, or the smallest power of two >= a shorter last extent.
        int64_t tx = 1;
        while (tx < 32 && ext[r - 1] > tx)
          tx *= 2;
        const int64_t threads = std::max<int64_t>(ctaThreads, 32);
        const int64_t ty = threads / tx, rows = std::max<int64_t>(
                                              1, op.intAttr("rows", 1));
        const int64_t R = rows * ty; // the tile's extent along `a`
        // The tile coordinates: row-major over (the other extents, tiles
        // along `a`, tiles along the last dimension).
        std::vector<int64_t> base(r);
        int64_t rest = local;
        for (unsigned d = r; d-- > 0;) {
          int64_t n = d == static_cast<unsigned>(a) ? (ext[d] + R - 1) / R
                      : d == r - 1               ? (ext[d] + tx - 1) / tx
                                                 : ext[d];
          if (n <= 0)
            return fail(op, "a tile segment with an empty extent");
          int64_t c = rest % n;
          rest /= n;
          base[d] = d == static_cast<unsigned>(a) ? c * R
                    : d == r - 1                 ? c * tx
                                                 : c;
        }
        auto instance = [&](int64_t offA, int64_t offLast, bool &active) {
          std::vector<int64_t> c = base;
          c[a] += offA;
          c[r - 1] += offLast;
          active = c[a] < ext[a] && c[r - 1] < ext[r - 1];
          int64_t flat = 0;
          for (unsigned d = 0; d < r; ++d)
            flat = flat * ext[d] + c[d];
          return active ? flat : 0;
        };
        // (instance_k, active_k) for the direct instances ((t / TX) K + k,
        // t % TX), then for the transposed ones (m % R, m / R), m = t + k T.
        std::vector<Scalar> args;
        for (int64_t k = 0; k < rows; ++k) {
          bool active;
          int64_t i = instance(th->tid / tx * rows + k, th->tid % tx, active);
          args.push_back(Scalar::ofInt(ScalarKind::I64, i));
          args.push_back(Scalar::ofBool(active));
        }
        for (int64_t k = 0; k < rows; ++k) {
          bool active;
          int64_t m = th->tid + k * threads;
          int64_t i = instance(m % R, m / R, active);
          args.push_back(Scalar::ofInt(ScalarKind::I64, i));
          args.push_back(Scalar::ofBool(active));
        }
        Flow inner;
        return execRegion(*op.regions[0], args, inner);
      }
      if (int64_t t = op.intAttr("spread", 0)) {
        // Spread (Physical/Dispatch.h): this thread's instance, if any.
        local = local * t + th->tid;
        if (local >= operand(3).i)
          return true;
      }
      Flow inner;
      return execRegion(*op.regions[0], {Scalar::ofInt(ScalarKind::I64, local)},
                        inner);
    }
    case Opcode::Delinearize: {
      int64_t rem = operand(0).i;
      for (unsigned d = op.results.size(); d > 0; --d) {
        int64_t n = operand(d).i;
        if (n <= 0)
          return fail(op, "delinearize by a non-positive extent");
        slot(op.results[d - 1]) = Scalar::ofInt(ScalarKind::I64, rem % n);
        rem /= n;
      }
      return true;
    }
    case Opcode::Constant: {
      ScalarKind k = op.result()->type.elem;
      const phys::AttrValue *a = op.attr("value");
      if (const auto *i = std::get_if<int64_t>(a))
        out = Scalar::ofInt(k, *i);
      else if (const auto *d = std::get_if<double>(a))
        out = Scalar::ofFloat(k, *d);
      else if (const auto *b = std::get_if<bool>(a))
        out = Scalar::ofInt(k, *b);
      slot(op.result()) = out;
      return true;
    }
    case Opcode::Neg:
    case Opcode::BitNot:
    case Opcode::Not:
      if (!evalUnary(phys::opcodeName(op.opcode), operand(0), out, err))
        return fail(op, err);
      slot(op.result()) = out;
      return true;
    case Opcode::Cmp:
      slot(op.result()) = evalCmp(op.strAttr("pred"), operand(0), operand(1));
      return true;
    case Opcode::Select:
      slot(op.result()) = operand(0).truthy() ? operand(1) : operand(2);
      return true;
    case Opcode::Cast:
      slot(op.result()) = evalCast(operand(0), op.result()->type.elem);
      return true;
    case Opcode::Math: {
      std::vector<Scalar> as;
      for (unsigned i = 0; i < op.operands.size(); ++i)
        as.push_back(operand(i));
      if (!evalMath(op.strAttr("fn"), as, op.result()->type.elem, out, err))
        return fail(op, err);
      slot(op.result()) = out;
      return true;
    }
    case Opcode::Rng:
      if (!evalRng(op.strAttr("fn"), operand(0), operand(1), operand(2), out))
        return fail(op, "unknown rng fn");
      slot(op.result()) = out;
      return true;
    case Opcode::Print: {
      std::vector<Scalar> as;
      for (unsigned i = 0; i < op.operands.size(); ++i)
        as.push_back(operand(i));
      emitPrint(op.strAttr("format"), as);
      return true;
    }
    case Opcode::Extent:
    case Opcode::Stride: {
      const View &v = args[op.operands[0]->argNo].view;
      int64_t d = op.intAttr("dim");
      slot(op.result()) = Scalar::ofInt(
          ScalarKind::I64, op.opcode == Opcode::Extent ? v.extents[d] : v.strides[d]);
      return true;
    }
    case Opcode::Alloc: {
      const phys::Buffer &b = p.buffers[op.intAttr("buffer")];
      Scalar init = Scalar::ofFloat(b.elem, b.init == phys::InitMode::Value
                                                ? b.initValue
                                                : 0);
      if (!kir::Type::scalar(b.elem).isFloat())
        init = Scalar::ofInt(b.elem, static_cast<int64_t>(
                                         b.init == phys::InitMode::Value ? b.initValue : 0));
      if (b.scope == phys::BufferScope::InvocationWorkspace) {
        // Allocated (and zero-filled if required) once per launch.
        int64_t id = op.intAttr("buffer");
        int64_t size = b.size;
        if (b.sizeExpr >= 0) {
          // Sized per launch (grid-scan's tile statuses).
          std::optional<Scalar> n = launchValue(b.sizeExpr, err);
          if (!n)
            return fail(op, err);
          size = std::max<int64_t>(n->i, 0);
        }
        workspace.try_emplace(id, std::vector<Scalar>(size, init));
        slot(op.result()) = Scalar::ofInt(ScalarKind::I64, -id - 1);
        return true;
      }
      if (b.scope == phys::BufferScope::CTAShared) {
        // One array per CTA, undefined until written: every thread's
        // alloc binds the same one.
        int64_t id = op.intAttr("buffer");
        int64_t size = b.size;
        if (b.sizeExpr >= 0) {
          // Sized per launch (a staged row, or 0 when it does not fit).
          std::optional<Scalar> n = launchValue(b.sizeExpr, err);
          if (!n)
            return fail(op, err);
          size = n->i;
        }
        Shared &sh = shared[id];
        if (sh.data.empty() && size > 0) {
          sh.data.assign(size, init);
          sh.written.assign(size, 0);
          sh.touch.assign(opts.detectRaces ? size : 0, Touch());
        }
        slot(op.result()) = Scalar::ofInt(ScalarKind::I64, kSharedHandle + id);
        return true;
      }
      th->buffers.push_back(std::vector<Scalar>(b.size, init));
      slot(op.result()) = Scalar::ofInt(ScalarKind::I64, th->buffers.size() - 1);
      return true;
    }
    case Opcode::Load:
    case Opcode::Store:
    case Opcode::Atomic:
    case Opcode::AtomicCas:
    case Opcode::VectorLoad:
    case Opcode::VectorStore:
      return access(op);
    case Opcode::ThreadId:
    case Opcode::LaneId:
    case Opcode::WarpId:
    case Opcode::CtaSize: {
      int64_t t = th->tid;
      int64_t v = op.opcode == Opcode::ThreadId ? t
                  : op.opcode == Opcode::LaneId ? t % 32
                  : op.opcode == Opcode::WarpId ? t / 32
                                                : ctaThreads;
      slot(op.result()) = Scalar::ofInt(ScalarKind::I32, v);
      return true;
    }
    case Opcode::GridCtas:
      // CTAs run one at a time here: the first one runs the split
      // instance alone.
      slot(op.result()) = Scalar::ofInt(ScalarKind::I32, 1);
      return true;
    case Opcode::Barrier:
      // A one-thread CTA has nothing to wait for; a grid barrier of the one
      // cooperating CTA is a CTA barrier.
      return !ctaMode || waitAt(op);
    case Opcode::Shuffle:
      if (!ctaMode) {
        slot(op.result()) = operand(0); // the only lane
        return true;
      }
      th->shuffleIn = operand(0);
      th->shuffleLane = static_cast<uint32_t>(operand(1).i);
      if (!waitAt(op))
        return false;
      slot(op.result()) = th->shuffleOut;
      return true;
    case Opcode::Aligned: {
      const View &v = args[op.operands[0]->argNo].view;
      int64_t bytes = op.intAttr("bytes", 1);
      // The element's offset from the view's base (bases count as
      // aligned): given, or from its coordinates.
      int64_t off = op.operands.size() == 2 ? operand(1).i : 0;
      if (op.operands.size() > 2)
        for (unsigned d = 1; d < op.operands.size(); ++d)
          off += operand(d).i * v.strides[d - 1];
      int64_t at = off * static_cast<int64_t>(elemSize(v.elem));
      bool unit = v.rank == 0 || v.strides[v.rank - 1] == 1;
      slot(op.result()) = Scalar::ofBool(
          unit && !opts.misalignedViews && bytes > 0 && at % bytes == 0);
      return true;
    }
    case Opcode::CheckedLaunch:
      slot(op.result()) = Scalar::ofBool(opts.checkedLaunch);
      return true;
    case Opcode::Bitcast: {
      // The same bytes read as the result type.
      uint64_t bits = 0;
      storeElem(&bits, operand(0));
      slot(op.result()) = loadElem(&bits, op.result()->type.elem);
      return true;
    }
    case Opcode::If: {
      Flow inner;
      if (!execRegion(*op.regions[operand(0).truthy() ? 0 : 1], {}, inner))
        return false;
      if (inner.kind == Opcode::Break || inner.kind == Opcode::Continue) {
        flow = inner;
        return true;
      }
      bind(op, inner.values);
      return true;
    }
    case Opcode::For: {
      int64_t lb = operand(0).i, ub = operand(1).i;
      // `dist = "cta"`: iterations strided over the CTA's threads.
      int64_t step = 1;
      if (ctaMode && distFors.count(&op)) {
        lb += th->tid;
        step = ctaThreads;
      }
      for (int64_t iv = lb; iv < ub; iv += step) {
        Flow inner;
        if (!execRegion(*op.regions[0], {Scalar::ofInt(ScalarKind::I64, iv)}, inner))
          return false;
      }
      return true;
    }
    case Opcode::Loop: {
      std::vector<Scalar> carried;
      for (unsigned i = 0; i < op.operands.size(); ++i)
        carried.push_back(operand(i));
      bool testFirst = op.boolAttr("test_first", true);
      for (bool first = true;; first = false) {
        Flow f;
        if (testFirst || !first) {
          if (!execRegion(*op.regions[0], carried, f))
            return false;
          if (!f.values[0].truthy())
            break;
        }
        if (!execRegion(*op.regions[1], carried, f))
          return false;
        if (f.kind == Opcode::Break) {
          carried = f.values;
          break;
        }
        if (!execRegion(*op.regions[2], f.values, f))
          return false;
        carried = f.values;
      }
      bind(op, carried);
      return true;
    }
    case Opcode::Reduce:
    case Opcode::Scan:
    case Opcode::RegionFold:
    case Opcode::RegionScan:
      return fold(op);
    case Opcode::ArgReduce:
      return argReduce(op);
    default: {
      if (!evalBinary(phys::opcodeName(op.opcode), operand(0), operand(1), out, err))
        return fail(op, err);
      slot(op.result()) = out;
      return true;
    }
    }
  }
};

} // namespace

PhysRunResult interp::runProgram(const phys::Program &p,
                                 const std::vector<Arg> &args,
                                 const PhysRunOptions &opts) {
  PhysRunResult result;
  if (args.size() != p.params.size()) {
    result.ok = false;
    result.error = "expected " + std::to_string(p.params.size()) + " arguments";
    return result;
  }
  std::string err;
  std::optional<Scalar> total = evalLaunchExpr(p, p.total, args, err);
  if (!total) {
    result.ok = false;
    result.error = "launch: " + err;
    return result;
  }
  for (const phys::Segment &s : p.segments) {
    std::optional<Scalar> l = evalLaunchExpr(p, s.length, args, err);
    result.segmentLengths.push_back(l ? l->i : -1);
  }
  result.total = total->i;
  int64_t bs = std::max<int64_t>(opts.blockSize, 1);
  result.programs = (result.total + bs - 1) / bs * bs;
  std::vector<int64_t> order(result.programs);
  for (int64_t i = 0; i < result.programs; ++i)
    order[i] = i;
  if (opts.order == PhysRunOptions::Order::Reverse)
    std::reverse(order.begin(), order.end());
  else if (opts.order == PhysRunOptions::Order::Shuffled)
    std::shuffle(order.begin(), order.end(), std::mt19937_64(opts.seed));
  Machine m(p, args, opts, result);
  m.setup();
  for (int64_t pid : order)
    if (!m.runProgram(pid))
      break;
  return result;
}
