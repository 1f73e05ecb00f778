//===- Structured.cpp - Structured physical ops: layout and identities ------===//

#include "Physical/Structured.h"

#include <cmath>
#include <cstring>
#include <limits>

using namespace intent;
using namespace intent::phys;

bool intent::phys::isStructured(Opcode op) {
  switch (op) {
  case Opcode::Reduce:
  case Opcode::Scan:
  case Opcode::ArgReduce:
  case Opcode::RegionFold:
  case Opcode::RegionScan:
    return true;
  default:
    return false;
  }
}

bool intent::phys::isRegionOp(Opcode op) {
  return op == Opcode::RegionFold || op == Opcode::RegionScan;
}

unsigned intent::phys::structuredRegionCount(Opcode op) {
  switch (op) {
  case Opcode::ArgReduce:
    return 1;
  case Opcode::Reduce:
    return 2;
  case Opcode::Scan:
  case Opcode::RegionFold:
    return 3;
  case Opcode::RegionScan:
    return 5;
  default:
    return 0;
  }
}

std::optional<int64_t> intent::phys::chunkLength(const Op &op) {
  const AttrValue *a = op.attr("chunk");
  if (!a || !std::holds_alternative<int64_t>(*a))
    return std::nullopt;
  return std::get<int64_t>(*a);
}

llvm::ArrayRef<Value *> intent::phys::accInits(const Op &op) {
  if (op.opcode == Opcode::ArgReduce)
    return {};
  unsigned first = isRegionOp(op.opcode) ? 3 : 2;
  if (op.operands.size() < first)
    return {};
  return llvm::ArrayRef<Value *>(op.operands).drop_front(first);
}

bool intent::phys::isKnownCombiner(llvm::StringRef c) {
  return c == "plus" || c == "mul" || c == "max" || c == "min" ||
         c == "bit_and" || c == "bit_or" || c == "bit_xor" || c == "user";
}

namespace {

bool isFloat(ScalarKind k) { return kir::Type::scalar(k).isFloat(); }
bool isSigned(ScalarKind k) {
  return kir::Type::scalar(k).isSigned() && !isFloat(k);
}
unsigned width(ScalarKind k) { return kir::Type::scalar(k).bitWidth(); }

/// All bits set in the width of `k`, as the int64 bit pattern a constant of
/// that type holds (sign-extended for signed types, zero-extended otherwise).
int64_t allOnes(ScalarKind k) {
  if (k == ScalarKind::Bool)
    return 1;
  if (isSigned(k) || width(k) == 64)
    return -1;
  return static_cast<int64_t>((uint64_t(1) << width(k)) - 1);
}

} // namespace

AttrValue intent::phys::highestValue(ScalarKind k) {
  if (isFloat(k))
    return std::numeric_limits<double>::infinity();
  if (k == ScalarKind::Bool)
    return int64_t(1);
  if (isSigned(k))
    return static_cast<int64_t>((uint64_t(1) << (width(k) - 1)) - 1);
  return allOnes(k);
}

AttrValue intent::phys::lowestValue(ScalarKind k) {
  if (isFloat(k))
    return -std::numeric_limits<double>::infinity();
  if (isSigned(k))
    return static_cast<int64_t>(~((uint64_t(1) << (width(k) - 1)) - 1));
  return int64_t(0);
}

std::optional<AttrValue> intent::phys::combinerIdentity(llvm::StringRef c,
                                                        ScalarKind k) {
  bool fp = isFloat(k);
  auto zero = [&]() -> AttrValue {
    return fp ? AttrValue(0.0) : AttrValue(int64_t(0));
  };
  // -0.0, not +0.0: -0.0 + x == x bit for bit for every x (+0.0 + -0.0 is
  // +0.0), so partial sums started from it keep the serial sign of zero.
  if (c == "plus")
    return fp ? AttrValue(-0.0) : AttrValue(int64_t(0));
  if (c == "mul")
    return fp ? AttrValue(1.0) : AttrValue(int64_t(1));
  if (c == "max")
    return lowestValue(k);
  if (c == "min")
    return highestValue(k);
  if (fp)
    return std::nullopt;
  if (c == "bit_and")
    return AttrValue(allOnes(k));
  if (c == "bit_or" || c == "bit_xor")
    return zero();
  return std::nullopt;
}

std::vector<AccComponent> intent::phys::argReduceSchema(bool isMax,
                                                        const Type &t) {
  AccComponent v, pos;
  v.type = t;
  v.identity = AccComponent::Identity::Value;
  v.value = isMax ? lowestValue(t.elem) : highestValue(t.elem);
  pos.type = Type::index();
  pos.identity = AccComponent::Identity::Value;
  pos.value = int64_t(-1);
  return {v, pos};
}

bool intent::phys::sameIdentity(const AttrValue &a, const AttrValue &b,
                                ScalarKind k) {
  auto asDouble = [](const AttrValue &v, double &out) {
    if (const auto *d = std::get_if<double>(&v))
      out = *d;
    else if (const auto *i = std::get_if<int64_t>(&v))
      out = static_cast<double>(*i);
    else
      return false;
    return true;
  };
  if (isFloat(k)) {
    double x, y;
    if (!asDouble(a, x) || !asDouble(b, y))
      return false;
    if (std::isnan(x) || std::isnan(y))
      return std::isnan(x) && std::isnan(y);
    return std::memcmp(&x, &y, sizeof x) == 0;
  }
  const auto *x = std::get_if<int64_t>(&a);
  const auto *y = std::get_if<int64_t>(&b);
  return x && y && *x == *y;
}
