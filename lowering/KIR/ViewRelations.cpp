//===- ViewRelations.cpp - Sub-views composed onto root views ---------------===//

#include "KIR/ViewRelations.h"

#include <cassert>

using namespace intent;
using namespace intent::kir;

CExprRef CExpr::of(const kir::Value *v) {
  auto e = std::make_shared<CExpr>();
  e->kind = Kind::Value;
  e->value = v;
  return e;
}

CExprRef CExpr::ofConst(int64_t c) {
  auto e = std::make_shared<CExpr>();
  e->kind = Kind::Const;
  e->constant = c;
  return e;
}

CExprRef CExpr::extent(unsigned param, unsigned dim) {
  auto e = std::make_shared<CExpr>();
  e->kind = Kind::Extent;
  e->param = param;
  e->dim = dim;
  return e;
}

CExprRef CExpr::stride(unsigned param, unsigned dim) {
  auto e = std::make_shared<CExpr>();
  e->kind = Kind::Stride;
  e->param = param;
  e->dim = dim;
  return e;
}

CExprRef CExpr::binary(Kind k, CExprRef a, CExprRef b) {
  auto e = std::make_shared<CExpr>();
  e->kind = k;
  e->lhs = std::move(a);
  e->rhs = std::move(b);
  return e;
}

std::vector<unsigned> ViewChain::opIds() const {
  std::vector<unsigned> ids;
  for (const Op *op : ops)
    ids.push_back(op->id);
  return ids;
}

bool kir::resolveView(const kir::Value *view, ViewChain &chain,
                            std::string &error) {
  std::vector<const Op *> rev;
  const kir::Value *v = view;
  while (true) {
    if (v->isBlockArg()) {
      const kir::Block *b = v->owner;
      if (!b || !b->parent || b->parent->parent) {
        error = "view %" + std::to_string(v->id) +
                " is a region argument (a view chosen at run time), which "
                "construction does not support yet";
        return false;
      }
      chain.rootParam = v->argNo;
      break;
    }
    if (v->def->opcode == Opcode::Alloc) {
      chain.rootAlloc = v->def; // a local buffer: rank 1, contiguous
      break;
    }
    if (v->def->opcode != Opcode::SubView) {
      error = "view %" + std::to_string(v->id) + " is produced by '" +
              kir::opcodeName(v->def->opcode).str() +
              "' (a view chosen at run time), which construction does not "
              "support yet";
      return false;
    }
    rev.push_back(v->def);
    v = v->def->operands[0];
  }
  chain.ops.assign(rev.rbegin(), rev.rend());
  return true;
}

namespace {

using K = CExpr::Kind;

CExprRef operand(const Op *op, unsigned i) { return CExpr::of(op->operands[i]); }

unsigned dimAttr(const Op *op, const char *name) {
  return static_cast<unsigned>(op->intAttr(name));
}

/// Product of a[from..] (1 when empty).
CExprRef productFrom(const std::vector<CExprRef> &a, unsigned from) {
  CExprRef p = CExpr::ofConst(1);
  for (unsigned i = from; i < a.size(); ++i)
    p = i == from ? a[i] : CExpr::binary(K::Mul, p, a[i]);
  return p;
}

} // namespace

CExprRef kir::viewExtent(const ViewChain &chain, unsigned depth,
                               unsigned dim) {
  if (depth == 0 && chain.rootAlloc)
    return CExpr::ofConst(chain.rootAlloc->intAttr("size"));
  if (depth == 0)
    return CExpr::extent(chain.rootParam, dim);
  const Op *op = chain.ops[depth - 1];
  std::string kind = op->strAttr("kind");
  if (kind == "row")
    return viewExtent(chain, depth - 1, dim + 1);
  if (kind == "slice") {
    if (dim != dimAttr(op, "dim"))
      return viewExtent(chain, depth - 1, dim);
    return CExpr::binary(K::Sub, operand(op, 2), operand(op, 1));
  }
  if (kind == "transpose") {
    unsigned d0 = dimAttr(op, "dim0"), d1 = dimAttr(op, "dim1");
    unsigned d = dim == d0 ? d1 : dim == d1 ? d0 : dim;
    return viewExtent(chain, depth - 1, d);
  }
  if (kind == "broadcast") {
    unsigned d = dimAttr(op, "dim");
    if (dim == d)
      return operand(op, 1);
    return viewExtent(chain, depth - 1, dim > d ? dim - 1 : dim);
  }
  if (kind == "expand") {
    if (dim == dimAttr(op, "dim"))
      return operand(op, 1);
    return viewExtent(chain, depth - 1, dim);
  }
  assert(kind == "reshape" && "unknown subview kind");
  return operand(op, 1 + dim);
}

CExprRef kir::viewStride(const ViewChain &chain, unsigned depth,
                               unsigned dim) {
  if (depth == 0 && chain.rootAlloc)
    return CExpr::ofConst(1);
  if (depth == 0)
    return CExpr::stride(chain.rootParam, dim);
  const Op *op = chain.ops[depth - 1];
  std::string kind = op->strAttr("kind");
  if (kind == "row")
    return viewStride(chain, depth - 1, dim + 1);
  if (kind == "slice")
    return viewStride(chain, depth - 1, dim);
  if (kind == "transpose") {
    unsigned d0 = dimAttr(op, "dim0"), d1 = dimAttr(op, "dim1");
    unsigned d = dim == d0 ? d1 : dim == d1 ? d0 : dim;
    return viewStride(chain, depth - 1, d);
  }
  if (kind == "broadcast") {
    unsigned d = dimAttr(op, "dim");
    if (dim == d)
      return CExpr::ofConst(0);
    return viewStride(chain, depth - 1, dim > d ? dim - 1 : dim);
  }
  if (kind == "expand") {
    if (dim == dimAttr(op, "dim"))
      return CExpr::ofConst(0);
    return viewStride(chain, depth - 1, dim);
  }
  assert(kind == "reshape" && "unknown subview kind");
  // Row-major contiguous over the base's elements, in base-element units:
  // the base is contiguous, so its innermost stride is the unit.
  std::vector<CExprRef> ext;
  for (unsigned i = 1; i < op->operands.size(); ++i)
    ext.push_back(operand(op, i));
  return productFrom(ext, dim + 1);
}

std::vector<CExprRef> kir::rootCoords(const ViewChain &chain,
                                            std::vector<CExprRef> c) {
  for (unsigned depth = chain.ops.size(); depth > 0; --depth) {
    const Op *op = chain.ops[depth - 1];
    std::string kind = op->strAttr("kind");
    if (kind == "row") {
      c.insert(c.begin(), operand(op, 1));
    } else if (kind == "slice") {
      unsigned d = dimAttr(op, "dim");
      c[d] = CExpr::binary(K::Add, c[d], operand(op, 1));
    } else if (kind == "transpose") {
      std::swap(c[dimAttr(op, "dim0")], c[dimAttr(op, "dim1")]);
    } else if (kind == "broadcast") {
      c.erase(c.begin() + dimAttr(op, "dim"));
    } else if (kind == "expand") {
      c[dimAttr(op, "dim")] = CExpr::ofConst(0);
    } else {
      assert(kind == "reshape" && "unknown subview kind");
      // Linearise over the new extents, delinearise over the base extents
      // (both row-major; the base is contiguous by the reshape contract).
      std::vector<CExprRef> ext;
      for (unsigned i = 1; i < op->operands.size(); ++i)
        ext.push_back(operand(op, i));
      CExprRef linear = CExpr::ofConst(0);
      for (unsigned i = 0; i < c.size(); ++i) {
        CExprRef term = i + 1 == c.size()
                            ? c[i]
                            : CExpr::binary(K::Mul, c[i], productFrom(ext, i + 1));
        linear = i == 0 ? term : CExpr::binary(K::Add, linear, term);
      }
      unsigned baseRank = op->operands[0]->type.rank;
      std::vector<CExprRef> baseExt;
      for (unsigned d = 0; d < baseRank; ++d)
        baseExt.push_back(viewExtent(chain, depth - 1, d));
      std::vector<CExprRef> base(baseRank);
      for (unsigned d = 0; d < baseRank; ++d) {
        CExprRef q = d + 1 == baseRank
                         ? linear
                         : CExpr::binary(K::Div, linear, productFrom(baseExt, d + 1));
        base[d] = d == 0 ? q : CExpr::binary(K::Rem, q, baseExt[d]);
      }
      c = std::move(base);
    }
  }
  return c;
}
