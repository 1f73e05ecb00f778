//===- Copy.cpp - The copy(dst, src) tile primitive: operands, scope ------===//

#include "Copy/Copy.h"

#include <cassert>
#include <sstream>

namespace intent::copy {

unsigned elemBits(ElemType t) {
  switch (t) {
  case ElemType::I8:
  case ElemType::U8:
  case ElemType::FP8E4M3:
  case ElemType::FP8E5M2:
    return 8;
  case ElemType::I16:
  case ElemType::U16:
  case ElemType::F16:
  case ElemType::BF16:
    return 16;
  case ElemType::I32:
  case ElemType::U32:
  case ElemType::F32:
    return 32;
  case ElemType::I64:
  case ElemType::U64:
  case ElemType::F64:
    return 64;
  }
  assert(false && "unknown element type");
  return 8;
}

const char *elemTypeName(ElemType t) {
  switch (t) {
  case ElemType::I8: return "i8";
  case ElemType::U8: return "u8";
  case ElemType::I16: return "i16";
  case ElemType::U16: return "u16";
  case ElemType::I32: return "i32";
  case ElemType::U32: return "u32";
  case ElemType::I64: return "i64";
  case ElemType::U64: return "u64";
  case ElemType::F16: return "f16";
  case ElemType::BF16: return "bf16";
  case ElemType::F32: return "f32";
  case ElemType::F64: return "f64";
  case ElemType::FP8E4M3: return "fp8e4m3";
  case ElemType::FP8E5M2: return "fp8e5m2";
  }
  return "?";
}

const char *memSpaceName(MemSpace s) {
  switch (s) {
  case MemSpace::Global: return "global";
  case MemSpace::Shared: return "shared";
  case MemSpace::Local: return "local";
  }
  return "?";
}

const char *scopeKindName(ScopeKind k) {
  switch (k) {
  case ScopeKind::Thread: return "thread";
  case ScopeKind::Warp: return "warp";
  case ScopeKind::Warpgroup: return "warpgroup";
  case ScopeKind::CTA: return "cta";
  case ScopeKind::Cluster: return "cluster";
  }
  return "?";
}

const char *cacheHintSuffix(CacheHint h) {
  switch (h) {
  case CacheHint::None: return "";
  case CacheHint::CA: return ".ca";
  case CacheHint::CG: return ".cg";
  case CacheHint::CS: return ".cs";
  case CacheHint::LU: return ".lu";
  case CacheHint::CV: return ".cv";
  }
  return "";
}

//===----------------------------------------------------------------------===//
// Swizzle, Offset
//===----------------------------------------------------------------------===//

int64_t Swizzle::apply(int64_t x) const {
  assert(x >= 0 && "swizzled offsets are non-negative");
  int64_t atom = atomElems();
  int64_t lo = x & (atom - 1);
  return (x - lo) + (lo ^ ((lo >> shift) & yMask()));
}

std::string Swizzle::invalidReason() const {
  std::ostringstream os;
  if (bits < 1 || base < 0 || shift < 0)
    os << "swizzle<" << bits << "," << base << "," << shift
       << "> needs bits >= 1 and non-negative base and shift";
  else if (shift < bits)
    os << "swizzle<" << bits << "," << base << "," << shift
       << "> has shift < bits: XOR sources overlap their destinations";
  else if (base + shift + bits > 30)
    os << "swizzle<" << bits << "," << base << "," << shift
       << "> has an atom above 2^30 elements";
  return os.str();
}

bool Offset::isMultipleOf(int64_t v) const {
  assert(v > 0);
  if (constant % v != 0)
    return false;
  return expr.empty() || exprAlign % v == 0;
}

std::string Offset::str() const {
  if (expr.empty())
    return std::to_string(constant);
  std::string s = "(" + expr + ")";
  if (constant != 0)
    s += " + " + std::to_string(constant);
  return s;
}

//===----------------------------------------------------------------------===//
// Tile
//===----------------------------------------------------------------------===//

Tile Tile::rowMajor(std::string name, MemSpace space, ElemType elem,
                    const std::vector<int64_t> &shape) {
  std::vector<int64_t> strides(shape.size());
  int64_t s = 1;
  for (size_t i = shape.size(); i-- > 0;) {
    strides[i] = s;
    s *= shape[i];
  }
  return strided(std::move(name), space, elem, shape, strides);
}

Tile Tile::strided(std::string name, MemSpace space, ElemType elem,
                   const std::vector<int64_t> &shape,
                   const std::vector<int64_t> &strides) {
  assert(shape.size() == strides.size() && "one stride per dimension");
  Tile t;
  t.name = std::move(name);
  t.space = space;
  t.elem = elem;
  for (size_t i = 0; i < shape.size(); ++i)
    t.dims.push_back({shape[i], strides[i], ""});
  return t;
}

bool Tile::hasConstantExtents() const {
  for (const TileDim &d : dims)
    if (!d.isConstant())
      return false;
  return true;
}

int64_t Tile::numElements() const {
  assert(hasConstantExtents() && "element count of a dynamic tile");
  int64_t n = 1;
  for (const TileDim &d : dims)
    n *= d.extent;
  return n;
}

int64_t Tile::offsetOf(const std::vector<int64_t> &idx) const {
  assert(idx.size() == dims.size() && "one coordinate per dimension");
  int64_t off = base.constant;
  for (size_t i = 0; i < dims.size(); ++i)
    off += idx[i] * dims[i].stride;
  return swizzle ? swizzle->apply(off) : off;
}

//===----------------------------------------------------------------------===//
// ExecScope
//===----------------------------------------------------------------------===//

static ExecScope makeScope(ScopeKind kind, unsigned threads) {
  ExecScope s;
  s.kind = kind;
  s.threads = threads;
  s.active.assign(threads, true);
  return s;
}

ExecScope ExecScope::thread() { return makeScope(ScopeKind::Thread, 1); }
ExecScope ExecScope::warp() { return makeScope(ScopeKind::Warp, 32); }
ExecScope ExecScope::warpgroup() {
  return makeScope(ScopeKind::Warpgroup, 128);
}
ExecScope ExecScope::cta(unsigned threads) {
  return makeScope(ScopeKind::CTA, threads);
}
ExecScope ExecScope::cluster(unsigned threads) {
  return makeScope(ScopeKind::Cluster, threads);
}

unsigned ExecScope::activeCount() const {
  assert(active.size() == threads && "one active bit per thread");
  unsigned n = 0;
  for (bool a : active)
    n += a;
  return n;
}

unsigned ExecScope::lowestActive() const {
  for (unsigned t = 0; t < active.size(); ++t)
    if (active[t])
      return t;
  return threads;
}

void ExecScope::activateFirst(unsigned n) {
  active.assign(threads, false);
  for (unsigned t = 0; t < n && t < threads; ++t)
    active[t] = true;
}

//===----------------------------------------------------------------------===//
// Printing
//===----------------------------------------------------------------------===//

template <class F>
static void printList(std::ostream &os, const std::vector<TileDim> &dims,
                      F field) {
  os << "[";
  for (size_t i = 0; i < dims.size(); ++i)
    os << (i ? ", " : "") << field(dims[i]);
  os << "]";
}

void printTile(std::ostream &os, const Tile &t) {
  os << t.name << " " << memSpaceName(t.space) << " " << elemTypeName(t.elem)
     << " ";
  printList(os, t.dims, [](const TileDim &d) {
    return d.isConstant() ? std::to_string(d.extent) : d.dynExtent;
  });
  os << " strides ";
  printList(os, t.dims,
            [](const TileDim &d) { return std::to_string(d.stride); });
  os << " base " << t.base.str();
  if (!t.base.isConstant() && t.base.exprAlign != 1)
    os << " (expr align " << t.base.exprAlign << ")";
  if (t.swizzle)
    os << " swizzle<" << t.swizzle->bits << "," << t.swizzle->base << ","
       << t.swizzle->shift << ">";
}

void printCopyOp(std::ostream &os, const CopyOp &op) {
  os << "copy ";
  printTile(os, op.dst);
  os << " <- ";
  printTile(os, op.src);
  os << ", scope " << scopeKindName(op.scope.kind) << " (" << op.scope.threads
     << " threads, ";
  if (op.scope.allActive())
    os << "all active)";
  else
    os << op.scope.activeCount() << " active)";
  if (!op.dispatch.empty())
    os << ", dispatch " << op.dispatch;
  if (op.cache != CacheHint::None)
    os << ", cache " << (cacheHintSuffix(op.cache) + 1);
}

} // namespace intent::copy
