//===- Gate.cpp - Admission checks shared by the copy variants ------------===//

#include "Copy/Gate.h"

#include <sstream>

namespace intent::copy {

std::string checkCudaTarget(const Target &target) {
  return target.isCUDA() ? "" : "non-cuda target";
}

std::string checkScopeKind(const ExecScope &scope) {
  switch (scope.kind) {
  case ScopeKind::Thread:
  case ScopeKind::Warp:
  case ScopeKind::Warpgroup:
  case ScopeKind::CTA:
    return "";
  case ScopeKind::Cluster:
    break;
  }
  return std::string("unsupported exec_scope ") + scopeKindName(scope.kind);
}

/// Prints the active set compactly: "0-30" or "0, 2, 4-7".
static std::string activeSet(const ExecScope &scope) {
  std::ostringstream os;
  bool first = true;
  for (unsigned t = 0; t < scope.threads;) {
    if (!scope.active[t]) {
      ++t;
      continue;
    }
    unsigned end = t;
    while (end + 1 < scope.threads && scope.active[end + 1])
      ++end;
    os << (first ? "" : ", ") << t;
    if (end != t)
      os << "-" << end;
    first = false;
    t = end + 1;
  }
  return first ? "none" : os.str();
}

std::string checkAllThreadsActive(const ExecScope &scope) {
  if (scope.allActive())
    return "";
  std::ostringstream os;
  os << "not all threads active: " << scope.activeCount() << " of "
     << scope.threads << " threads of the " << scopeKindName(scope.kind)
     << " scope run the copy (active: " << activeSet(scope) << ")";
  return os.str();
}

/// The non-unit extents of a tile as printable strings.
static std::vector<std::string> nonUnitExtents(const Tile &t) {
  std::vector<std::string> out;
  for (const TileDim &d : t.dims) {
    if (!d.isConstant())
      out.push_back(d.dynExtent);
    else if (d.extent != 1)
      out.push_back(std::to_string(d.extent));
  }
  return out;
}

static std::string joined(const std::vector<std::string> &v) {
  std::string s = "[";
  for (size_t i = 0; i < v.size(); ++i)
    s += (i ? ", " : "") + v[i];
  return s + "]";
}

std::string checkValidCopy(const CopyOp &op) {
  std::ostringstream os;
  if (op.dst.elem != op.src.elem) {
    os << "dtype mismatch: dst " << elemTypeName(op.dst.elem) << " vs src "
       << elemTypeName(op.src.elem);
    return os.str();
  }
  std::vector<std::string> de = nonUnitExtents(op.dst),
                           se = nonUnitExtents(op.src);
  if (de != se) {
    os << "extent mismatch: dst non-unit extents " << joined(de) << " vs src "
       << joined(se);
    return os.str();
  }
  for (const Tile *t : {&op.dst, &op.src}) {
    const char *side = t == &op.dst ? "dst" : "src";
    for (size_t i = 0; i < t->dims.size(); ++i) {
      const TileDim &d = t->dims[i];
      if (d.isConstant() && d.extent < 0) {
        os << side << " extent " << d.extent << " of dim " << i
           << " is negative";
        return os.str();
      }
      if (d.stride < 0) {
        os << side << " stride " << d.stride << " of dim " << i
           << " is negative";
        return os.str();
      }
    }
    if (t->base.constant < 0 || t->base.exprAlign < 1) {
      os << side << " base offset " << t->base.str()
         << " is negative or has a non-positive expr alignment";
      return os.str();
    }
    if (t->swizzle) {
      std::string why = t->swizzle->invalidReason();
      if (!why.empty())
        return std::string(side) + " " + why;
    }
  }
  for (size_t i = 0; i < op.dst.dims.size(); ++i) {
    const TileDim &d = op.dst.dims[i];
    if (d.stride == 0 && (!d.isConstant() || d.extent > 1)) {
      os << "dst dim " << i << " has stride 0: its elements alias";
      return os.str();
    }
  }
  return "";
}

std::string checkGlobalSharedPair(const CopyOp &op) {
  MemSpace d = op.dst.space, s = op.src.space;
  if ((d == MemSpace::Global && s == MemSpace::Shared) ||
      (d == MemSpace::Shared && s == MemSpace::Global))
    return "";
  std::ostringstream os;
  os << "storage pair (dst " << memSpaceName(d) << ", src " << memSpaceName(s)
     << ") is not global<->shared";
  if (d == MemSpace::Local || s == MemSpace::Local)
    os << " (a local side is not allowed)";
  return os.str();
}

std::string checkDividesThreads(const CopyOp &op) {
  std::ostringstream os;
  if (op.scope.threads == 0)
    return "empty exec scope: 0 threads";
  for (const TileDim &d : op.src.dims) {
    if (d.isConstant())
      continue;
    os << "region extent '" << d.dynExtent << "' is not a constant";
    return os.str();
  }
  for (const TileDim &d : op.dst.dims) {
    if (d.isConstant())
      continue;
    os << "region extent '" << d.dynExtent << "' is not a constant";
    return os.str();
  }
  const Tile &g = op.src.space == MemSpace::Global ? op.src : op.dst;
  int64_t n = g.numElements();
  if (n % op.scope.threads == 0)
    return "";
  os << "region of " << n << " elements is not divisible by "
     << op.scope.threads << " threads";
  return os.str();
}

std::string directionName(const CopyOp &op) {
  return std::string(memSpaceName(op.src.space)) + "->" +
         memSpaceName(op.dst.space);
}

} // namespace intent::copy
