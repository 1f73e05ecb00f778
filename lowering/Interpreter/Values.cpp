//===- Values.cpp - Runtime scalars, views and scalar semantics ------------===//

#include "Interpreter/Values.h"

#include "KIR/Print.h"
#include "intent/half.hpp"

#include <cmath>
#include <cstdio>
#include <cstring>

using namespace intent;
using namespace intent::interp;

namespace {

// Direct switches: these run for every scalar the interpreters make.
bool isFloatKind(ScalarKind k) {
  return k == ScalarKind::F16 || k == ScalarKind::BF16 ||
         k == ScalarKind::F32 || k == ScalarKind::F64;
}
bool isSignedKind(ScalarKind k) {
  return k == ScalarKind::I8 || k == ScalarKind::I16 || k == ScalarKind::I32 ||
         k == ScalarKind::I64 || isFloatKind(k);
}
unsigned widthOf(ScalarKind k) {
  switch (k) {
  case ScalarKind::Bool:
    return 1;
  case ScalarKind::I8:
  case ScalarKind::U8:
    return 8;
  case ScalarKind::I16:
  case ScalarKind::U16:
  case ScalarKind::F16:
  case ScalarKind::BF16:
    return 16;
  case ScalarKind::I32:
  case ScalarKind::U32:
  case ScalarKind::F32:
    return 32;
  default:
    return 64;
  }
}

/// Wraps v to the width of k (sign- or zero-extending back to 64 bits).
int64_t wrap(ScalarKind k, int64_t v) {
  unsigned w = widthOf(k);
  if (k == ScalarKind::Bool)
    return v != 0;
  if (w == 64)
    return v;
  uint64_t mask = (uint64_t(1) << w) - 1;
  uint64_t u = static_cast<uint64_t>(v) & mask;
  if (isSignedKind(k) && (u >> (w - 1)))
    u |= ~mask;
  return static_cast<int64_t>(u);
}

/// f16/bf16 values round through float, as the generated code (and C++ with
/// intent::half) computes them: the header's own conversions.
double roundTo(ScalarKind k, double d) {
  switch (k) {
  case ScalarKind::F32:
    return static_cast<double>(static_cast<float>(d));
  case ScalarKind::F16:
    return static_cast<float>(intent::half(static_cast<float>(d)));
  case ScalarKind::BF16:
    return static_cast<float>(intent::bfloat16(static_cast<float>(d)));
  default:
    return d;
  }
}

bool isUnsigned(ScalarKind k) {
  return !isFloatKind(k) && !isSignedKind(k) && k != ScalarKind::Bool;
}

} // namespace

Scalar Scalar::ofInt(ScalarKind k, int64_t v) {
  Scalar s;
  s.kind = k;
  if (isFloatKind(k)) {
    s.f = roundTo(k, static_cast<double>(v));
    return s;
  }
  s.i = wrap(k, v);
  return s;
}

Scalar Scalar::ofFloat(ScalarKind k, double v) {
  Scalar s;
  s.kind = k;
  s.f = roundTo(k, v);
  return s;
}

bool Scalar::isFloat() const { return isFloatKind(kind); }

double Scalar::asDouble() const {
  if (isFloat())
    return f;
  if (isUnsigned(kind))
    return static_cast<double>(static_cast<uint64_t>(i));
  return static_cast<double>(i);
}

bool Scalar::operator==(const Scalar &o) const {
  if (kind != o.kind)
    return false;
  if (isFloat())
    return f == o.f || (std::isnan(f) && std::isnan(o.f));
  return i == o.i;
}

std::string Scalar::str() const {
  if (isFloat())
    return std::to_string(f);
  if (isUnsigned(kind))
    return std::to_string(static_cast<uint64_t>(i));
  return std::to_string(i);
}

View View::contiguous(void *data, ScalarKind elem,
                      std::vector<int64_t> extents) {
  View v;
  v.data = data;
  v.elem = elem;
  v.rank = extents.size();
  int64_t stride = 1;
  for (int d = v.rank - 1; d >= 0; --d) {
    v.extents[d] = extents[d];
    v.strides[d] = stride;
    stride *= extents[d];
  }
  return v;
}

int64_t View::offset(const int64_t *c) const {
  int64_t off = 0;
  for (int d = 0; d < rank; ++d)
    off += c[d] * strides[d];
  return off;
}

bool View::inBounds(const int64_t *c) const {
  for (int d = 0; d < rank; ++d)
    if (c[d] < 0 || c[d] >= extents[d])
      return false;
  return true;
}

unsigned interp::elemSize(ScalarKind k) {
  switch (k) {
  case ScalarKind::F16:
  case ScalarKind::BF16:
    return 2;
  case ScalarKind::Bool:
    return 1;
  default:
    return kir::Type::scalar(k).bitWidth() / 8;
  }
}

Scalar interp::loadElem(const void *addr, ScalarKind k) {
  switch (k) {
#define INT_CASE(K, T)                                                         \
  case ScalarKind::K: {                                                        \
    T v;                                                                       \
    std::memcpy(&v, addr, sizeof(T));                                          \
    return Scalar::ofInt(k, static_cast<int64_t>(v));                          \
  }
    INT_CASE(Bool, bool)
    INT_CASE(I8, int8_t)
    INT_CASE(I16, int16_t)
    INT_CASE(I32, int32_t)
    INT_CASE(I64, int64_t)
    INT_CASE(U8, uint8_t)
    INT_CASE(U16, uint16_t)
    INT_CASE(U32, uint32_t)
    INT_CASE(U64, uint64_t)
#undef INT_CASE
  case ScalarKind::F32: {
    float v;
    std::memcpy(&v, addr, 4);
    return Scalar::ofFloat(k, v);
  }
  case ScalarKind::F64: {
    double v;
    std::memcpy(&v, addr, 8);
    return Scalar::ofFloat(k, v);
  }
  case ScalarKind::F16: {
    intent::half v;
    std::memcpy(&v, addr, 2);
    return Scalar::ofFloat(k, static_cast<float>(v));
  }
  case ScalarKind::BF16: {
    intent::bfloat16 v;
    std::memcpy(&v, addr, 2);
    return Scalar::ofFloat(k, static_cast<float>(v));
  }
  default:
    return Scalar::ofFloat(k, 0);
  }
}

void interp::storeElem(void *addr, Scalar v) {
  switch (v.kind) {
#define INT_CASE(K, T)                                                         \
  case ScalarKind::K: {                                                        \
    T x = static_cast<T>(v.i);                                                 \
    std::memcpy(addr, &x, sizeof(T));                                          \
    return;                                                                    \
  }
    INT_CASE(Bool, bool)
    INT_CASE(I8, int8_t)
    INT_CASE(I16, int16_t)
    INT_CASE(I32, int32_t)
    INT_CASE(I64, int64_t)
    INT_CASE(U8, uint8_t)
    INT_CASE(U16, uint16_t)
    INT_CASE(U32, uint32_t)
    INT_CASE(U64, uint64_t)
#undef INT_CASE
  case ScalarKind::F32: {
    float x = static_cast<float>(v.f);
    std::memcpy(addr, &x, 4);
    return;
  }
  case ScalarKind::F64:
    std::memcpy(addr, &v.f, 8);
    return;
  case ScalarKind::F16: {
    intent::half x(static_cast<float>(v.f));
    std::memcpy(addr, &x, 2);
    return;
  }
  case ScalarKind::BF16: {
    intent::bfloat16 x(static_cast<float>(v.f));
    std::memcpy(addr, &x, 2);
    return;
  }
  default:
    return;
  }
}

bool interp::evalBinary(llvm::StringRef op, const Scalar &a, const Scalar &b,
                        Scalar &out, std::string &error) {
  ScalarKind k = a.kind;
  if (op == "min" || op == "max") {
    bool less = op == "min" ? evalCmp("lt", b, a).i : evalCmp("lt", a, b).i;
    out = less ? b : a; // std::min: b < a ? b : a; std::max: a < b ? b : a
    return true;
  }
  if (a.isFloat()) {
    double x = a.f, y = b.f, r;
    if (op == "add")
      r = x + y;
    else if (op == "sub")
      r = x - y;
    else if (op == "mul")
      r = x * y;
    else if (op == "div")
      r = x / y;
    else if (op == "rem")
      r = std::fmod(x, y);
    else {
      error = "'" + op.str() + "' on a float";
      return false;
    }
    if (k == ScalarKind::F32 || k == ScalarKind::F16 || k == ScalarKind::BF16) {
      // Compute in float, as C++ does for float operands (and the generated
      // code for intent::half / intent::bfloat16, which convert to float).
      float fx = x, fy = y, fr;
      if (op == "add")
        fr = fx + fy;
      else if (op == "sub")
        fr = fx - fy;
      else if (op == "mul")
        fr = fx * fy;
      else if (op == "div")
        fr = fx / fy;
      else
        fr = std::fmod(fx, fy);
      r = fr;
    }
    out = Scalar::ofFloat(k, r);
    return true;
  }
  uint64_t ux = a.i, uy = b.i;
  int64_t x = a.i, y = b.i;
  bool uns = isUnsigned(k);
  int64_t r;
  if (op == "add")
    r = static_cast<int64_t>(ux + uy);
  else if (op == "sub")
    r = static_cast<int64_t>(ux - uy);
  else if (op == "mul")
    r = static_cast<int64_t>(ux * uy);
  else if (op == "div" || op == "rem") {
    if (y == 0) {
      error = "integer division by zero";
      return false;
    }
    if (uns)
      r = op == "div" ? static_cast<int64_t>(ux / uy)
                      : static_cast<int64_t>(ux % uy);
    else if (x == INT64_MIN && y == -1)
      r = op == "div" ? x : 0;
    else
      r = op == "div" ? x / y : x % y;
  } else if (op == "bitand")
    r = x & y;
  else if (op == "bitor")
    r = x | y;
  else if (op == "bitxor")
    r = x ^ y;
  else if (op == "shl" || op == "shr") {
    unsigned w = widthOf(k);
    if (y < 0 || static_cast<uint64_t>(y) >= w) {
      error = "shift amount out of range";
      return false;
    }
    if (op == "shl")
      r = static_cast<int64_t>(ux << y);
    else if (uns) {
      uint64_t mask = w == 64 ? ~uint64_t(0) : (uint64_t(1) << w) - 1;
      r = static_cast<int64_t>((ux & mask) >> y);
    } else
      r = x >> y;
  } else {
    error = "unknown binary op '" + op.str() + "'";
    return false;
  }
  out = Scalar::ofInt(k, r);
  return true;
}

bool interp::evalUnary(llvm::StringRef op, const Scalar &a, Scalar &out,
                       std::string &error) {
  if (op == "neg") {
    out = a.isFloat() ? Scalar::ofFloat(a.kind, -a.f)
                      : Scalar::ofInt(a.kind, static_cast<int64_t>(0 - static_cast<uint64_t>(a.i)));
    return true;
  }
  if (op == "bitnot" && !a.isFloat()) {
    out = Scalar::ofInt(a.kind, ~a.i);
    return true;
  }
  if (op == "not") {
    out = Scalar::ofBool(!a.truthy());
    return true;
  }
  error = "unknown unary op '" + op.str() + "'";
  return false;
}

Scalar interp::evalCmp(llvm::StringRef pred, const Scalar &a, const Scalar &b) {
  int c;
  bool unordered = false;
  if (a.isFloat()) {
    unordered = std::isnan(a.f) || std::isnan(b.f);
    c = a.f < b.f ? -1 : a.f > b.f ? 1 : 0;
  } else if (isUnsigned(a.kind)) {
    uint64_t x = a.i, y = b.i;
    c = x < y ? -1 : x > y ? 1 : 0;
  } else {
    c = a.i < b.i ? -1 : a.i > b.i ? 1 : 0;
  }
  bool r;
  if (pred == "eq")
    r = !unordered && c == 0;
  else if (pred == "ne")
    r = unordered || c != 0;
  else if (pred == "lt")
    r = !unordered && c < 0;
  else if (pred == "le")
    r = !unordered && c <= 0;
  else if (pred == "gt")
    r = !unordered && c > 0;
  else
    r = !unordered && c >= 0;
  return Scalar::ofBool(r);
}

Scalar interp::evalCast(const Scalar &v, ScalarKind to) {
  if (to == ScalarKind::Bool)
    return Scalar::ofBool(v.truthy());
  if (isFloatKind(to))
    return Scalar::ofFloat(to, v.asDouble());
  if (v.isFloat()) {
    double d = std::trunc(v.f);
    if (std::isnan(d))
      d = 0;
    if (isUnsigned(to))
      return Scalar::ofInt(to, static_cast<int64_t>(static_cast<uint64_t>(d)));
    return Scalar::ofInt(to, static_cast<int64_t>(d));
  }
  return Scalar::ofInt(to, v.i);
}

bool interp::evalMath(llvm::StringRef fn, const std::vector<Scalar> &args,
                      ScalarKind result, Scalar &out, std::string &error) {
  if (args.empty()) {
    error = "math '" + fn.str() + "' without arguments";
    return false;
  }
  if (fn == "abs" && !args[0].isFloat()) {
    out = Scalar::ofInt(result, args[0].i < 0 ? -args[0].i : args[0].i);
    return true;
  }
  bool f32 = args[0].kind == ScalarKind::F32;
  double x = args[0].asDouble();
  double y = args.size() > 1 ? args[1].asDouble() : 0;
  if (fn == "isnan" || fn == "isinf" || fn == "isfinite" || fn == "signbit") {
    bool r = fn == "isnan"   ? std::isnan(x)
             : fn == "isinf" ? std::isinf(x)
             : fn == "isfinite" ? std::isfinite(x)
                                : std::signbit(x);
    out = Scalar::ofBool(r);
    return true;
  }
  double r;
  // Single-precision calls use the float overloads, as expf etc. do.
#define MATH1(NAME, F)                                                         \
  if (fn == NAME) {                                                            \
    r = f32 ? static_cast<double>(F(static_cast<float>(x))) : F(x);            \
    out = Scalar::ofFloat(result, r);                                          \
    return true;                                                               \
  }
#define MATH2(NAME, F)                                                         \
  if (fn == NAME) {                                                            \
    r = f32 ? static_cast<double>(F(static_cast<float>(x), static_cast<float>(y))) \
            : F(x, y);                                                         \
    out = Scalar::ofFloat(result, r);                                          \
    return true;                                                               \
  }
  MATH1("exp", std::exp)
  MATH1("exp2", std::exp2)
  MATH1("log", std::log)
  MATH1("log2", std::log2)
  MATH1("log10", std::log10)
  MATH1("sqrt", std::sqrt)
  MATH1("sin", std::sin)
  MATH1("cos", std::cos)
  MATH1("tan", std::tan)
  MATH1("tanh", std::tanh)
  MATH1("fabs", std::fabs)
  MATH1("abs", std::fabs)
  MATH1("floor", std::floor)
  MATH1("ceil", std::ceil)
  MATH1("round", std::round)
  MATH1("trunc", std::trunc)
  MATH2("pow", std::pow)
  MATH2("fmin", std::fmin)
  MATH2("fmax", std::fmax)
  MATH2("fmod", std::fmod)
  MATH2("atan2", std::atan2)
#undef MATH1
#undef MATH2
  error = "unknown math function '" + fn.str() + "'";
  return false;
}

bool intent::interp::evalAtomic(llvm::StringRef kind, const Scalar &old,
                                const Scalar &v, Scalar &out,
                                std::string &error) {
  if (kind == "exch") {
    out = v;
    return true;
  }
  if ((kind == "min" || kind == "max") && old.isFloat()) {
    if (std::isnan(old.f)) {
      out = old;
      return true;
    }
    if (std::isnan(v.f)) {
      out = v;
      return true;
    }
  }
  if (kind == "add" || kind == "min" || kind == "max")
    return evalBinary(kind, old, v, out, error);
  error = "unknown atomic kind '" + kind.str() + "'";
  return false;
}

bool intent::interp::sameBits(const Scalar &a, const Scalar &b) {
  if (a.kind != b.kind)
    return false;
  if (!a.isFloat())
    return a.i == b.i;
  if (a.kind == ScalarKind::F32) {
    float x = static_cast<float>(a.f), y = static_cast<float>(b.f);
    return std::memcmp(&x, &y, sizeof x) == 0;
  }
  return std::memcmp(&a.f, &b.f, sizeof a.f) == 0;
}

std::string intent::interp::formatPrint(llvm::StringRef format,
                                        const std::vector<Scalar> &args) {
  std::vector<kir::FormatPiece> pieces;
  std::string error, out;
  if (!kir::splitFormat(format, pieces, error))
    return "<bad print format: " + error + ">";
  unsigned next = 0;
  for (const kir::FormatPiece &p : pieces) {
    const Scalar *a = p.conv && next < args.size() ? &args[next++] : nullptr;
    kir::Type t = kir::formatArgType(p);
    // One conversion per piece, with the argument at its promoted C type.
    auto piece = [&](char *buf, size_t size) {
      const char *f = p.text.c_str();
      if (a && t.isFloat())
        return std::snprintf(buf, size, f, a->asDouble());
      if (a && t.bitWidth() == 64)
        return std::snprintf(buf, size, f, static_cast<long long>(a->i));
      return std::snprintf(buf, size, f, a ? static_cast<int>(a->i) : 0);
    };
    int n = piece(nullptr, 0);
    if (n <= 0)
      continue;
    std::string text(n + 1, '\0');
    piece(text.data(), text.size());
    out.append(text.data(), n);
  }
  return out;
}

void intent::interp::emitPrint(llvm::StringRef format,
                               const std::vector<Scalar> &args) {
  std::string s = formatPrint(format, args);
  std::fwrite(s.data(), 1, s.size(), stdout);
}
