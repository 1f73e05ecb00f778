//===- Plan.cpp - A scheduled copy: printing and evaluation ---------------===//

#include "Copy/Plan.h"
#include "Copy/Gate.h"

#include <cassert>

namespace intent::copy {

unsigned CopyPlan::accessBytes() const {
  return isVector() ? vecBits / 8 : elemBits(op.src.elem) / 8;
}

CopyPlan makeVectorPlan(const CopyOp &op, std::string variant,
                        std::string path, int64_t vec) {
  CopyPlan plan;
  plan.variant = std::move(variant);
  plan.path = std::move(path);
  plan.op = op;
  plan.kind = CopyPlan::Kind::Vector;
  AlignedSpace space = alignLayouts(op);
  int64_t threads = op.scope.threads;
  if (vec == 0)
    vec = widestVec(op, space, threads, &plan.notes);
  assert(vecRejection(op, space, threads, vec).empty() && "vector fits");
  plan.part = synthesizePartition(space, threads, vec);
  plan.vecBits = static_cast<unsigned>(vec * elemBits(op.src.elem));
  if (!plan.part.factored)
    plan.notes.push_back("addressing: threads do not factor over the "
                         "extents; offsets decomposed per iteration");
  for (bool dst : {true, false}) {
    const Tile &t = dst ? op.dst : op.src;
    if (!t.swizzle)
      continue;
    plan.notes.push_back(std::string(dst ? "dst" : "src") + " swizzle: " +
                         (swizzleHoistable(plan, dst)
                              ? "applied once per thread (outer strides are "
                                "multiples of the atom)"
                              : "structured XOR per iteration"));
  }
  return plan;
}

bool swizzleHoistable(const CopyPlan &plan, bool dstSide) {
  const Tile &t = dstSide ? plan.op.dst : plan.op.src;
  assert(t.swizzle && plan.isVector());
  if (!plan.part.factored)
    return false;
  int64_t atom = t.swizzle->atomElems();
  for (const PDim &d : plan.part.outerDims)
    if ((dstSide ? d.dst : d.src) % atom != 0)
      return false;
  return true;
}

static void printDims(std::ostream &os, const char *what,
                      const std::vector<PDim> &dims) {
  os << "    " << what << ":";
  if (dims.empty())
    os << " (none)";
  for (const PDim &d : dims) {
    os << " " << (d.dynExtent.empty() ? std::to_string(d.extent) : d.dynExtent)
       << "x(dst " << d.dst << ", src " << d.src << ")";
  }
  os << "\n";
}

void printPlan(std::ostream &os, const CopyPlan &plan) {
  os << "  plan " << plan.variant << "/" << plan.path << ": "
     << directionName(plan.op) << " " << elemTypeName(plan.op.src.elem);
  if (plan.isVector()) {
    os << " " << partitionShape(plan.part) << " " << plan.vecBits << "-bit\n";
    if (plan.part.factored) {
      printDims(os, "threads", plan.part.threadDims);
      printDims(os, "outer", plan.part.outerDims);
    } else {
      printDims(os, "fused (decomposed per iteration)", plan.part.fused);
    }
  } else {
    os << " scalar, ";
    if (plan.distributed)
      os << "elements round-robin over " << plan.op.scope.threads
         << " threads\n";
    else
      os << "thread " << plan.runner << " moves every element\n";
    printDims(os, "dims", plan.scalarDims);
  }
  for (const std::string &n : plan.notes)
    os << "    " << n << "\n";
}

/// Physical offset of logical (pre-swizzle, base-relative) offset `rel`.
static int64_t physical(const Tile &t, int64_t rel) {
  int64_t off = t.base.constant + rel;
  return t.swizzle ? t.swizzle->apply(off) : off;
}

void forEachAccess(const CopyPlan &plan, int64_t tid,
                   const std::function<void(int64_t, int64_t, int64_t)> &fn) {
  const CopyOp &op = plan.op;
  if (plan.isVector()) {
    forEachVector(plan.part, tid, [&](int64_t dst, int64_t src) {
      fn(physical(op.dst, dst), physical(op.src, src), plan.part.vec);
    });
    return;
  }
  int64_t n = 1;
  for (const PDim &d : plan.scalarDims) {
    assert(d.dynExtent.empty() && "evaluating a runtime extent");
    n *= d.extent;
  }
  int64_t first = plan.distributed ? tid : 0;
  int64_t step = plan.distributed ? op.scope.threads : 1;
  if (!plan.distributed && tid != plan.runner)
    return;
  for (int64_t e = first; e < n; e += step) {
    int64_t linear = e, dst = 0, src = 0;
    for (size_t i = plan.scalarDims.size(); i-- > 0;) {
      int64_t digit = linear % plan.scalarDims[i].extent;
      linear /= plan.scalarDims[i].extent;
      dst += digit * plan.scalarDims[i].dst;
      src += digit * plan.scalarDims[i].src;
    }
    fn(physical(op.dst, dst), physical(op.src, src), 1);
  }
}

} // namespace intent::copy
