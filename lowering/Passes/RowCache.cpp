//===- RowCache.cpp - Keep a computed row value in the register row -------===//
//
// Before: a register-row program (cta-rows, docs/passes.md §3) whose
// distributed ops each recompute the same expression of a register view's
// element: softmax's sum reduce and its normalizing parallel_for both
// compute exp(in(r, c) - max).
//
// After: the first distributed op D whose member block computes a row
// expression e (Physical/RowCache.h) that covers every read of the view in
// the distributed ops after D gets `row_cache` = the view's parameter on
// e's op: it writes e's value into the element's register slot; the roots
// of the copies of e in the later ops get `row_cached`: they read the slot.
// Of several such expressions in D the largest is kept (exp(x - m) rather
// than x - m). At most one per view and instance.
//
// Only the register variants use the hints (EmitRowRegs.cpp); the semantics
// are unchanged (pure ops, recomputing gives the same value), so the
// interpreters ignore them.
//
//===----------------------------------------------------------------------===//

#include "Passes/Passes.h"

#include "Physical/Coop.h"
#include "Physical/RowCache.h"

#include <algorithm>

using namespace intent;
using namespace intent::phys;

std::string intent::passes::applyRowCache(Program &p, std::string &what) {
  if (!p.regMaxK)
    return "the program has no register rows";
  Op *segOp = nullptr;
  walkMutable(*p.body, [&](Op &op) {
    if (op.opcode == Opcode::Segment)
      segOp = &op;
  });
  if (!segOp)
    return "no segment op";
  std::vector<Op *> dist;
  for (auto &op : segOp->regions[0]->block.ops)
    if (op->strAttr("dist") == "cta")
      dist.push_back(op.get());
  std::string why = "no distributed op computes an expression of a register "
                    "row that the later ones repeat";
  for (unsigned param : p.regParams) {
    bool done = false;
    for (size_t i = 0; i < dist.size() && !done; ++i) {
      const Block &b = memberBlock(*dist[i]);
      // An expression's root follows its operands: scanning backwards tries
      // the larger expressions first.
      for (auto it = b.ops.rbegin(); it != b.ops.rend() && !done; ++it) {
        Op &cand = **it;
        // A conversion of the element alone is cheaper to redo than the
        // registers of a copy (bf16 softmax: float(x) in the max would
        // have taken the cache from exp(float(x) - m)).
        if (cand.opcode == Opcode::Cast && cand.operands[0]->def &&
            cand.operands[0]->def->opcode == Opcode::Load)
          continue;
        if (!rowCacheSite(p, cand, param))
          continue;
        std::vector<std::vector<const Op *>> roots;
        std::string narrowed;
        bool covered = true, used = false;
        for (size_t j = i + 1; j < dist.size() && covered; ++j) {
          roots.emplace_back();
          covered = rowReadsCovered(cand.result(), b, memberBlock(*dist[j]),
                                    param, &roots.back());
          used = used || !roots.back().empty();
        }
        if (!covered || !used)
          continue;
        // A value of another type than the element takes registers of its
        // own next to the row: the register budget (rowRegMaxK) then counts
        // its bytes too, so long rows take fewer elements per thread or the
        // memory form instead of spilling (bf16 softmax at K = 32 spilled
        // 252 bytes at 64 registers with an f32 cache).
        if (cand.result()->type.elem != p.params[param].type.elem) {
          int64_t bytes = elemBytes(cand.result()->type.elem);
          for (unsigned v : p.regParams)
            bytes += elemBytes(p.params[v].type.elem);
          int maxK = std::min(p.regMaxK,
                              rowRegMaxK(bytes, p.regParams.size()));
          if (maxK < rowRegChunk(p))
            continue;
          if (maxK < p.regMaxK)
            narrowed = " (in registers of their own, " +
                       kir::scalarKindName(cand.result()->type.elem).str() +
                       ": rows in registers up to n = " +
                       std::to_string(static_cast<int64_t>(maxK) * 1024) + ")";
          p.regMaxK = maxK;
        }
        cand.setAttr("row_cache", static_cast<int64_t>(param));
        unsigned n = 0;
        for (auto &rs : roots)
          for (const Op *r : rs) {
            const_cast<Op *>(r)->setAttr("row_cached",
                                         static_cast<int64_t>(param));
            ++n;
          }
        if (!what.empty())
          what += "; ";
        what += "row-cache: the " + opcodeName(dist[i]->opcode).str() +
                " over the row keeps op " + std::to_string(cand.id) + " (" +
                opcodeName(cand.opcode).str() + ") of " + p.params[param].name +
                "'s element in its register slot; " + std::to_string(n) +
                " later cop" + (n == 1 ? "y reads" : "ies read") +
                " it instead of recomputing" + narrowed;
        done = true;
      }
    }
  }
  return what.empty() ? why : "";
}

void intent::passes::rowCache(Program &p, phys::RemarkSink &sink) {
  if (!p.regMaxK || p.segments.empty())
    return;
  std::string what, why = applyRowCache(p, what);
  if (why.empty())
    sink.remark(p.segments[0].loc, what);
}
