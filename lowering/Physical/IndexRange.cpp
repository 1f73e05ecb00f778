//===- IndexRange.cpp - 64-bit index values that fit 32 bits -------------===//

#include "Physical/IndexRange.h"

#include "Physical/Dispatch.h"

#include <algorithm>
#include <map>

using namespace intent;
using namespace intent::phys;

namespace {

/// Intervals wider than this are unknown (no int64 overflow in the bounds'
/// arithmetic below: sums and products of two values of at most 2^62 are
/// computed in __int128).
constexpr __int128 kWide = __int128(1) << 62;

IndexRange make(__int128 lo, __int128 hi) {
  if (lo < -kWide || hi > kWide)
    return {};
  return {true, static_cast<int64_t>(lo), static_cast<int64_t>(hi)};
}

IndexRange unite(const IndexRange &a, const IndexRange &b) {
  if (!a.known || !b.known)
    return {};
  return {true, std::min(a.lo, b.lo), std::max(a.hi, b.hi)};
}

/// Every value of integer type `k` (unknown for 64-bit types).
IndexRange ofType(ScalarKind k) {
  switch (k) {
  case ScalarKind::Bool:
    return {true, 0, 1};
  case ScalarKind::I8:
    return {true, INT8_MIN, INT8_MAX};
  case ScalarKind::I16:
    return {true, INT16_MIN, INT16_MAX};
  case ScalarKind::I32:
    return {true, INT32_MIN, INT32_MAX};
  case ScalarKind::U8:
    return {true, 0, UINT8_MAX};
  case ScalarKind::U16:
    return {true, 0, UINT16_MAX};
  case ScalarKind::U32:
    return {true, 0, UINT32_MAX};
  default:
    return {};
  }
}

class Ranges {
public:
  explicit Ranges(const Program &p) : p(p) {}

  IndexRange of(const Value *v) {
    if (auto it = memo.find(v); it != memo.end())
      return it->second;
    memo[v] = {}; // a cycle (none in SSA, but be safe) is unknown
    IndexRange r = compute(v);
    // A value of a narrower type lies in its type whatever its operands.
    if (v->type.isScalar()) {
      IndexRange t = ofType(v->type.elem);
      if (t.known && (!r.known || r.lo < t.lo || r.hi > t.hi))
        r = t;
    }
    memo[v] = r;
    return r;
  }

private:
  const Program &p;
  std::map<const Value *, IndexRange> memo;

  IndexRange compute(const Value *v) {
    if (!v->type.isScalar() || !(v->type.isInteger() || v->type.isBool()))
      return {};
    const Op *o = v->def;
    if (!o)
      return {}; // parameters, loop variables, region arguments
    auto in = [&](unsigned k) { return of(o->operands[k]); };
    switch (o->opcode) {
    case Opcode::Constant: {
      const auto *a = o->attr("value");
      if (a && std::holds_alternative<int64_t>(*a))
        return {true, std::get<int64_t>(*a), std::get<int64_t>(*a)};
      if (a && std::holds_alternative<bool>(*a))
        return {true, std::get<bool>(*a), std::get<bool>(*a)};
      return {};
    }
    case Opcode::Extent: {
      // A view parameter's extent: checked by the dense variant's wrapper.
      const Value *m = o->operands[0];
      if (m->type.isView() && m->isBlockArg() && m->owner == &p.body->block)
        return {true, 0, kDenseExtent};
      return {};
    }
    case Opcode::Delinearize: {
      // A tile instance's coordinates: below the segment's extents (at most
      // kDenseExtent, checked), 0 when the instance is inactive.
      const Value *x = o->operands[0];
      const Op *seg = x->isBlockArg() && x->owner && x->owner->parent
                          ? x->owner->parent->parent
                          : nullptr;
      if (seg && tileSlot(*seg, x) >= 0)
        return {true, 0, kDenseExtent - 1};
      return {};
    }
    case Opcode::Add:
    case Opcode::Sub:
    case Opcode::Mul: {
      IndexRange a = in(0), b = in(1);
      if (!a.known || !b.known)
        return {};
      if (o->opcode == Opcode::Add)
        return make(__int128(a.lo) + b.lo, __int128(a.hi) + b.hi);
      if (o->opcode == Opcode::Sub)
        return make(__int128(a.lo) - b.hi, __int128(a.hi) - b.lo);
      if (std::max({-__int128(a.lo), __int128(a.hi), -__int128(b.lo),
                    __int128(b.hi)}) > kWide >> 31)
        return {}; // keep the products within __int128 comfortably
      __int128 c[] = {__int128(a.lo) * b.lo, __int128(a.lo) * b.hi,
                      __int128(a.hi) * b.lo, __int128(a.hi) * b.hi};
      return make(*std::min_element(c, c + 4), *std::max_element(c, c + 4));
    }
    case Opcode::Neg: {
      IndexRange a = in(0);
      return a.known ? make(-__int128(a.hi), -__int128(a.lo)) : IndexRange{};
    }
    case Opcode::Min:
    case Opcode::Max: {
      IndexRange a = in(0), b = in(1);
      if (!a.known || !b.known)
        return {};
      if (o->opcode == Opcode::Min)
        return {true, std::min(a.lo, b.lo), std::min(a.hi, b.hi)};
      return {true, std::max(a.lo, b.lo), std::max(a.hi, b.hi)};
    }
    case Opcode::Select:
      return unite(in(1), in(2));
    case Opcode::Cast: {
      const Value *x = o->operands[0];
      if (!x->type.isScalar() || !(x->type.isInteger() || x->type.isBool()))
        return {};
      IndexRange a = of(x);
      // An unsigned 64-bit source reinterpreted as signed is unknown.
      if (x->type.elem == ScalarKind::U64)
        return {};
      return a;
    }
    case Opcode::If: {
      // The value one of the two regions yields.
      IndexRange r;
      for (unsigned k = 0; k < o->regions.size(); ++k) {
        const Op *y = o->regions[k]->block.terminator();
        if (!y || y->opcode != Opcode::Yield ||
            v->resultNo >= y->operands.size())
          return {};
        IndexRange a = of(y->operands[v->resultNo]);
        r = k ? unite(r, a) : a;
      }
      return r;
    }
    default:
      return {};
    }
  }
};

} // namespace

IndexRange intent::phys::denseRange(const Program &p, const Value *v) {
  return Ranges(p).of(v);
}

std::set<const Value *> intent::phys::denseInt32Values(const Program &p) {
  std::set<const Value *> out;
  Ranges ranges(p);
  walk(*p.body, [&](const Op &seg) {
    if (seg.opcode != Opcode::Segment || seg.intAttr("tile", -1) < 0)
      return;
    for (const auto &r : seg.regions)
      walk(*r, [&](const Op &o) {
        for (const Value *v : o.results)
          if (v->type.isIndex() && ranges.of(v).fitsInt32())
            out.insert(v);
      });
  });
  return out;
}
