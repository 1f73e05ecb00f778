//===- Partition.cpp - [outer, threads, vec] partitions of a copy ---------===//

#include "Copy/Partition.h"

#include <algorithm>
#include <cassert>
#include <sstream>

namespace intent::copy {

int64_t AlignedSpace::contiguousTail() const {
  if (dims.empty())
    return 1;
  const PDim &inner = dims.back();
  return inner.dst == 1 && inner.src == 1 ? inner.extent : 1;
}

/// The non-unit dimensions of a tile, in order.
static std::vector<TileDim> nonUnitDims(const Tile &t) {
  std::vector<TileDim> out;
  for (const TileDim &d : t.dims)
    if (d.extent != 1)
      out.push_back(d);
  return out;
}

AlignedSpace alignLayouts(const CopyOp &op) {
  std::vector<TileDim> dd = nonUnitDims(op.dst), sd = nonUnitDims(op.src);
  assert(dd.size() == sd.size() && "gate: equal non-unit extents");
  AlignedSpace space;
  space.dstDrives = op.dst.space == MemSpace::Global ||
                    (op.src.space != MemSpace::Global &&
                     op.dst.space == MemSpace::Shared &&
                     op.src.space != MemSpace::Shared);
  for (size_t i = 0; i < dd.size(); ++i) {
    assert(dd[i].extent == sd[i].extent && "gate: equal non-unit extents");
    space.dims.push_back({dd[i].extent, dd[i].stride, sd[i].stride, ""});
    space.elements *= dd[i].extent;
  }
  if (space.elements == 0) {
    space.dims.clear();
    return space;
  }
  // Canonical order: the driving side's strides, descending. Stable, so
  // equal strides keep source order and the result is deterministic.
  bool byDst = space.dstDrives;
  std::stable_sort(space.dims.begin(), space.dims.end(),
                   [byDst](const PDim &a, const PDim &b) {
                     return byDst ? a.dst > b.dst : a.src > b.src;
                   });
  // Coalesce an outer dimension into its inner neighbour when both sides
  // step over the inner one contiguously.
  std::vector<PDim> merged;
  for (const PDim &d : space.dims) {
    if (!merged.empty()) {
      PDim &o = merged.back();
      if (o.dst == d.dst * d.extent && o.src == d.src * d.extent) {
        o = {o.extent * d.extent, d.dst, d.src, ""};
        continue;
      }
    }
    merged.push_back(d);
  }
  space.dims = std::move(merged);
  return space;
}

/// "dst (shared)" / "src (global)".
static std::string sideName(const CopyOp &op, bool dst) {
  return std::string(dst ? "dst (" : "src (") +
         memSpaceName(dst ? op.dst.space : op.src.space) + ")";
}

std::string vecRejection(const CopyOp &op, const AlignedSpace &space,
                         int64_t threads, int64_t vec) {
  assert(vec >= 1 && (vec & (vec - 1)) == 0 && "power-of-two vectors");
  assert(threads >= 1 && space.elements % threads == 0 && "gate: divisible");
  std::ostringstream os;
  int64_t share = space.elements / threads;
  if (share % vec != 0) {
    os << "per-thread share of " << share << " elements is not a multiple of "
       << vec;
    return os.str();
  }
  if (vec == 1 || space.elements == 0)
    return "";
  int64_t tail = space.contiguousTail();
  if (tail % vec != 0) {
    if (tail == 1) {
      const PDim &in = space.dims.back();
      os << "no contiguous tail: the innermost dimension (extent "
         << in.extent << ") has dst stride " << in.dst << " and src stride "
         << in.src;
    } else {
      os << "contiguous tail of " << tail << " elements is not a multiple of "
         << vec;
    }
    return os.str();
  }
  for (size_t i = 0; i + 1 < space.dims.size(); ++i) {
    const PDim &d = space.dims[i];
    for (bool dst : {true, false}) {
      int64_t stride = dst ? d.dst : d.src;
      if (stride % vec == 0)
        continue;
      os << sideName(op, dst) << " stride " << stride << " (of a dimension of "
         << "extent " << d.extent << ") is not a multiple of " << vec
         << " elements";
      return os.str();
    }
  }
  for (bool dst : {true, false}) {
    const Offset &base = dst ? op.dst.base : op.src.base;
    if (base.isMultipleOf(vec))
      continue;
    os << sideName(op, dst) << " base offset " << base.str();
    if (!base.isConstant())
      os << " (expr align " << base.exprAlign << ")";
    os << " is not a multiple of " << vec << " elements";
    return os.str();
  }
  for (bool dst : {true, false}) {
    const Tile &t = dst ? op.dst : op.src;
    if (!t.swizzle || vec <= t.swizzle->chunkElems())
      continue;
    os << vec << " elements cross the " << t.swizzle->chunkElems()
       << "-element swizzle chunk of " << sideName(op, dst);
    return os.str();
  }
  return "";
}

const std::vector<unsigned> &autoVectorBits() {
  static const std::vector<unsigned> bits = {128, 64, 32, 16, 8};
  return bits;
}

int64_t widestVec(const CopyOp &op, const AlignedSpace &space, int64_t threads,
                  std::vector<std::string> *notes) {
  unsigned eb = elemBits(op.src.elem);
  if (space.elements == 0) {
    if (notes)
      notes->push_back("empty region: scalar");
    return 1;
  }
  for (unsigned bits : autoVectorBits()) {
    if (bits < eb || bits % eb != 0)
      continue;
    int64_t vec = bits / eb;
    std::string why = vecRejection(op, space, threads, vec);
    if (notes)
      notes->push_back(std::to_string(bits) + "-bit (" + std::to_string(vec) +
                       " x " + elemTypeName(op.src.elem) + "): " +
                       (why.empty() ? "chosen" : why));
    if (why.empty())
      return vec;
  }
  // 64-bit elements: 64 bits (vec 1) was tried above and always fits.
  assert(false && "vec 1 always qualifies after the gate");
  return 1;
}

Partition synthesizePartition(const AlignedSpace &space, int64_t threads,
                              int64_t vec) {
  Partition p;
  p.elements = space.elements;
  p.threads = threads;
  p.vec = vec;
  if (space.elements == 0)
    return p;
  std::vector<PDim> dims = space.dims;
  if (vec > 1) {
    PDim &in = dims.back();
    assert(in.dst == 1 && in.src == 1 && in.extent % vec == 0 &&
           "vecRejection: contiguous tail");
    if (in.extent == vec)
      dims.pop_back();
    else
      in = {in.extent / vec, vec, vec, ""};
  }
  // Take the threads axis from the innermost remaining dimensions: whole
  // dimensions while they divide it, then the inner piece of one dimension.
  std::vector<PDim> rest = dims, thr;
  int64_t t = threads;
  while (t > 1) {
    assert(!rest.empty() && "threads divide the vector count");
    PDim d = rest.back();
    if (t % d.extent == 0) {
      thr.insert(thr.begin(), d);
      t /= d.extent;
      rest.pop_back();
      continue;
    }
    if (d.extent % t == 0) {
      thr.insert(thr.begin(), PDim{t, d.dst, d.src, ""});
      rest.back() = {d.extent / t, d.dst * t, d.src * t, ""};
      t = 1;
      continue;
    }
    p.factored = false;
    break;
  }
  p.outer = space.elements / (threads * vec);
  if (!p.factored) {
    p.fused = dims;
    return p;
  }
  p.threadDims = std::move(thr);
  p.outerDims = std::move(rest);
  return p;
}

std::string partitionShape(const Partition &p) {
  std::ostringstream os;
  os << "[outer=" << p.outer << ", threads=" << p.threads << ", vec=" << p.vec
     << "]";
  return os.str();
}

/// Adds the offsets of digit decomposition of `linear` (row-major over
/// `dims`) to dst/src.
static void addDigits(const std::vector<PDim> &dims, int64_t linear,
                      int64_t &dst, int64_t &src) {
  for (size_t i = dims.size(); i-- > 0;) {
    int64_t digit = linear % dims[i].extent;
    linear /= dims[i].extent;
    dst += digit * dims[i].dst;
    src += digit * dims[i].src;
  }
}

void forEachVector(const Partition &p, int64_t tid,
                   const std::function<void(int64_t, int64_t)> &fn) {
  assert(tid >= 0 && tid < p.threads);
  if (!p.factored) {
    for (int64_t f = 0; f < p.outer; ++f) {
      int64_t dst = 0, src = 0;
      addDigits(p.fused, f * p.threads + tid, dst, src);
      fn(dst, src);
    }
    return;
  }
  int64_t tdst = 0, tsrc = 0;
  addDigits(p.threadDims, tid, tdst, tsrc);
  for (int64_t f = 0; f < p.outer; ++f) {
    int64_t dst = tdst, src = tsrc;
    addDigits(p.outerDims, f, dst, src);
    fn(dst, src);
  }
}

} // namespace intent::copy
