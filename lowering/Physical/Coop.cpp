//===- Coop.cpp - Cooperative constructs: shared layout facts -------------===//

#include "Physical/Coop.h"

#include "Physical/Conflict.h"
#include "Physical/Structured.h"
#include "Physical/Verifier.h"

#include <algorithm>
#include <functional>
#include <set>

using namespace intent;
using namespace intent::phys;

std::vector<const Op *> intent::phys::streamedLoads(const Op &target) {
  std::vector<const Op *> loads;
  if (target.regions.empty())
    return loads;
  const Block &b = target.regions[0]->block;
  if (b.args.empty())
    return loads;
  for (const auto &op : b.ops)
    if (op->opcode == Opcode::Load && !op->guard() &&
        op->memory()->type.isView() && op->coords().size() == 1 &&
        op->coords()[0] == b.args[0])
      loads.push_back(op.get());
  return loads;
}

unsigned intent::phys::gridComponents(const Op &target) {
  return target.opcode == Opcode::ArgReduce ? 2 : target.acc.size();
}

bool intent::phys::isShuffleKind(ScalarKind k) {
  switch (k) {
  case ScalarKind::I32:
  case ScalarKind::U32:
  case ScalarKind::I64:
  case ScalarKind::U64:
  case ScalarKind::F32:
  case ScalarKind::F64:
    return true;
  default:
    return false;
  }
}

bool intent::phys::isCommutativeCombiner(llvm::StringRef c) {
  return c == "plus" || c == "mul" || c == "max" || c == "min" ||
         c == "bit_and" || c == "bit_or" || c == "bit_xor";
}

const Value *intent::phys::rowCoordinate(const Block &b) {
  const Op *dec = nullptr;
  for (const auto &op : b.ops)
    if (op->opcode == Opcode::Delinearize && !b.args.empty() &&
        op->operands[0] == b.args[0])
      dec = op.get();
  return dec && dec->results.size() == 1 ? dec->result(0) : nullptr;
}

std::vector<const Value *> intent::phys::rowCoordinates(const Block &b) {
  std::vector<const Value *> rows;
  for (const auto &op : b.ops)
    if (op->opcode == Opcode::Delinearize && !b.args.empty() &&
        op->operands[0] == b.args[0])
      rows.assign(op->results.begin(), op->results.end());
  return rows;
}

bool intent::phys::addressesRow(const Op &op,
                                const std::vector<const Value *> &rows) {
  llvm::ArrayRef<Value *> c = op.coords();
  const Value *m = op.memory();
  if (rows.empty() || !m->type.isView() ||
      m->type.rank != static_cast<int>(rows.size()) + 1 ||
      c.size() != rows.size() + 1)
    return false;
  for (unsigned d = 0; d < rows.size(); ++d)
    if (c[d] != rows[d])
      return false;
  return true;
}

bool intent::phys::walksOuterAxis(const Op &r,
                                  const std::vector<const Value *> &coords,
                                  bool scans) {
  if ((r.opcode != Opcode::Reduce && r.opcode != Opcode::ArgReduce &&
       !(scans && r.opcode == Opcode::Scan)) ||
      coords.empty() || r.regions.empty())
    return false;
  const Value *k = r.regions[0]->block.args[0];
  const Value *col = coords.back();
  bool outer = false, inner = false;
  walk(*r.regions[0], [&](const Op &o) {
    if (o.opcode != Opcode::Load)
      return;
    llvm::ArrayRef<Value *> c = o.coords();
    if (c.empty())
      return;
    // (A rank-1 read at the member, y[i] in A^T y, is the same for every
    // instance: neither.)
    if (c.back() == k && c.size() >= 2)
      inner = true;
    else if (c.back() == col &&
             std::find(c.begin(), c.end() - 1, k) != c.end() - 1)
      outer = true;
  });
  return outer && !inner;
}

namespace {

/// One memory access of a top-level op: its memory and whether only the
/// leader (thread 0) performs it (a top-level store).
struct Touch {
  const Value *memory;
  bool leader;
};

/// The memory a top-level op reads and writes (its regions' too).
struct Footprint {
  std::vector<Touch> reads, writes;
};

Footprint footprintOf(const Op &top) {
  Footprint f;
  const bool leader = top.opcode == Opcode::Store;
  auto add = [&](const Op &o) {
    if (o.opcode == Opcode::Load || o.opcode == Opcode::VectorLoad)
      f.reads.push_back({o.memory(), leader});
    else if (o.opcode == Opcode::Store || o.opcode == Opcode::VectorStore ||
             isAtomic(o.opcode))
      f.writes.push_back({o.memory(), leader});
  };
  add(top);
  for (const auto &r : top.regions)
    walk(*r, add);
  return f;
}

} // namespace

const Op *intent::phys::firstUnorderedPhase(const Program &p,
                                            const Block &body) {
  // One memory, or two the aliasing contract lets be one (Conflict.h:
  // two views the kernel writes never overlap; a written view and a
  // mutable one only read may be the same).
  const std::set<int> writtenRoots = writtenParams(p);
  auto summary = [&](const Value *m) {
    AccessSummary s;
    summarizeMemory(p, m, s);
    s.rootWritten = s.root >= 0 && writtenRoots.count(s.root);
    return s;
  };
  auto mayShare = [&](const Value *a, const Value *b) {
    return a == b || mayAlias(summary(a), summary(b));
  };
  std::vector<Touch> read, written;
  // Two accesses of the leader are one thread's, in program order.
  auto hits = [&](const std::vector<Touch> &xs, const std::vector<Touch> &ys) {
    for (const Touch &x : xs)
      for (const Touch &y : ys)
        if (!(x.leader && y.leader) && mayShare(x.memory, y.memory))
          return true;
    return false;
  };
  for (const auto &op : body.ops) {
    const Op &o = *op;
    if (o.opcode == Opcode::Barrier && o.strAttr("scope") == "cta") {
      read.clear();
      written.clear();
      continue;
    }
    Footprint f = footprintOf(o);
    if (hits(f.reads, written) || hits(f.writes, written) ||
        hits(f.writes, read))
      return &o;
    // A distributed reduction combines its threads' partials after a
    // barrier that every thread reaches once it has read its members.
    if (o.strAttr("dist") == "cta" &&
        (o.opcode == Opcode::Reduce || o.opcode == Opcode::ArgReduce)) {
      read.clear();
      written.clear();
      continue;
    }
    read.insert(read.end(), f.reads.begin(), f.reads.end());
    written.insert(written.end(), f.writes.begin(), f.writes.end());
  }
  return nullptr;
}

int64_t intent::phys::rowScratchBytes(unsigned components) {
  // Rounded to 16 bytes: staged rows follow it.
  return (256 * static_cast<int64_t>(components) + 8 * components + 15) / 16 *
         16;
}

int64_t intent::phys::rowRegScratchBytes(unsigned components) {
  return 2 * 256 * static_cast<int64_t>(components);
}

int intent::phys::rowRegMaxK(int64_t bytesPerMember, unsigned views) {
  int best = 0;
  for (int k = 4; k <= 32; k *= 2)
    if (bytesPerMember > 0 && views > 0 &&
        k * bytesPerMember * views <= 4 * kRowRegWords)
      best = k;
  return best;
}

int intent::phys::rowRegMaxThreads(int k, int maxK) {
  // Below maxK / 2 a variant is one warp (no barrier, the most rows in
  // flight per SM); maxK / 2 takes up to two warps, so rows of up to
  // 64 * maxK / 2 members keep half the registers of maxK (measured on the
  // H200, 2026-11-30: 1024-f32 rows at K = 16 x 64 threads against K = 32
  // x 32: layernorm 1.21x faster -- the K = 32 warp spilled -- softmax
  // 1.02x); longer rows take maxK per thread and as many threads as they
  // need. See docs/passes.md §3.
  if (k >= maxK)
    return 1024;
  return 2 * k >= maxK ? 64 : 32;
}

int intent::phys::rowRegChunk(const Program &p) {
  for (unsigned i : p.regParams)
    if (elemBytes(p.params[i].type.elem) > 2)
      return 4;
  return p.regParams.empty() || p.regMaxK < 8 ? 4 : 8;
}

intent::phys::RowRegChoice intent::phys::rowRegChoice(int64_t n, int maxK,
                                                      int chunk) {
  RowRegChoice c;
  for (int k = chunk; k <= maxK; k *= 2)
    if (n <= static_cast<int64_t>(k) * rowRegMaxThreads(k, maxK)) {
      c.k = k;
      // The warps that cover n (a multiple of 32, not a power of two:
      // 3000 bf16 at K = 32 takes 96 threads, not 128).
      const int64_t t = (n + k - 1) / k;
      c.threads = t <= 32 ? 32 : static_cast<int>((t + 31) / 32 * 32);
      return c;
    }
  return c;
}

int64_t intent::phys::elemBytes(ScalarKind k) {
  return kir::Type::scalar(k).bitWidth() / 8;
}

void intent::phys::layoutSharedBuffers(Program &p) {
  int64_t end = (p.sharedBytes + 15) / 16 * 16;
  for (const Buffer &b : p.buffers)
    if (b.scope == BufferScope::CTAShared && b.sharedOffset >= 0)
      end = std::max(end, b.sharedOffset + b.size * elemBytes(b.elem));
  bool placed = false;
  for (Buffer &b : p.buffers) {
    if (b.scope != BufferScope::CTAShared || b.sharedOffset >= 0 ||
        b.sizeExpr >= 0)
      continue;
    end = (end + 15) / 16 * 16;
    b.sharedOffset = end;
    end += b.size * elemBytes(b.elem);
    placed = true;
  }
  p.sharedBytes = std::max(p.sharedBytes, end);
  // New static buffers (a later pass, or another segment of a multi-group
  // program) move every buffer sized per launch behind them.
  if (placed) {
    for (Buffer &b : p.buffers)
      if (b.scope == BufferScope::CTAShared && b.sizeExpr >= 0)
        b.sharedOffsetExpr = -1;
    p.sharedBytesExpr = -1;
  }
  // Buffers sized per launch follow the static ones, each at the next
  // 16-byte boundary: offsets and the launch's total are launch
  // expressions over their sizes.
  using K = LaunchExpr::Kind;
  for (Buffer &b : p.buffers) {
    if (b.scope != BufferScope::CTAShared || b.sizeExpr < 0 ||
        b.sharedOffsetExpr >= 0)
      continue;
    unsigned at = p.sharedBytesExpr >= 0
                      ? static_cast<unsigned>(p.sharedBytesExpr)
                      : p.constExpr((p.sharedBytes + 15) / 16 * 16);
    b.sharedOffsetExpr = static_cast<int>(at);
    unsigned bytes = p.binaryExpr(K::Mul, static_cast<unsigned>(b.sizeExpr),
                                  p.constExpr(elemBytes(b.elem)));
    unsigned rounded = p.binaryExpr(
        K::Mul,
        p.binaryExpr(K::Div, p.binaryExpr(K::Add, bytes, p.constExpr(15)),
                     p.constExpr(16)),
        p.constExpr(16));
    p.sharedBytesExpr = static_cast<int>(p.binaryExpr(K::Add, at, rounded));
  }
}

bool intent::phys::spreadsOverThreads(const Program &p) {
  bool coop = false;
  walk(*p.body, [&](const Op &o) {
    if (isCooperative(o.opcode) ||
        (o.opcode == Opcode::Segment &&
         (o.intAttr("spread", 0) > 0 || o.intAttr("tile", -1) >= 0)) ||
        (o.opcode == Opcode::Alloc &&
         static_cast<size_t>(o.intAttr("buffer", -1)) < p.buffers.size() &&
         p.buffers[o.intAttr("buffer")].scope == BufferScope::CTAShared))
      coop = true;
  });
  return coop;
}

std::set<const Value *>
intent::phys::reductionDependents(const Block &body) {
  std::set<const Value *> out;
  for (const auto &op : body.ops) {
    bool dep = op->opcode == Opcode::Reduce || op->opcode == Opcode::ArgReduce;
    std::function<void(const Op &)> visit = [&](const Op &o) {
      for (const Value *v : o.operands)
        dep = dep || out.count(v);
      for (const auto &r : o.regions)
        for (const auto &inner : r->block.ops)
          visit(*inner);
    };
    if (!dep)
      visit(*op);
    if (dep)
      for (const Value *r : op->results)
        out.insert(r);
  }
  return out;
}

std::optional<int64_t> intent::phys::constantInt(const Value *v) {
  while (v->def && v->def->opcode == Opcode::Cast)
    v = v->def->operands[0];
  if (v->def && v->def->opcode == Opcode::Constant)
    if (const auto *i = std::get_if<int64_t>(v->def->attr("value")))
      return *i;
  return std::nullopt;
}

std::optional<int64_t> intent::phys::constantTrip(const Op &op) {
  const bool loop = op.opcode == Opcode::For;
  if (!loop && !isStructured(op.opcode))
    return std::nullopt;
  std::optional<int64_t> b = constantInt(loop ? op.operands[0] : memberBegin(op));
  std::optional<int64_t> e = constantInt(loop ? op.operands[1] : memberEnd(op));
  if (!b || !e)
    return std::nullopt;
  return std::max<int64_t>(*e - *b, 0);
}
