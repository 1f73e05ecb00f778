//===- Values.h - Runtime scalars, views and scalar semantics ---*- C++ -*-===//
//
// Shared by the physical interpreter and the KIR reference interpreter: a
// tagged runtime scalar, a strided view over real host memory (pointer +
// extents + strides in elements, as intent::view), and C++ semantics of the
// scalar ops (integer wrap-around at the type's width, f32 arithmetic
// rounded to float, std::min/std::max, static_cast). f16/bf16 values are
// rounded through float with the header's intent::half / intent::bfloat16
// conversions (what the generated code computes).
//
//===----------------------------------------------------------------------===//

#ifndef INTENT_INTERPRETER_VALUES_H
#define INTENT_INTERPRETER_VALUES_H

#include "KIR/KIR.h"

#include <cstdint>
#include <string>
#include <vector>

namespace intent::interp {

using kir::ScalarKind;

/// A runtime scalar. Integers and bool live in `i` (sign- or zero-extended
/// from their width); floats in `f` (already rounded to their precision).
struct Scalar {
  ScalarKind kind = ScalarKind::I64;
  int64_t i = 0;
  double f = 0;

  static Scalar ofInt(ScalarKind k, int64_t v);
  static Scalar ofFloat(ScalarKind k, double v);
  static Scalar ofBool(bool b) { return ofInt(ScalarKind::Bool, b); }
  bool isFloat() const;
  bool truthy() const { return isFloat() ? f != 0 : i != 0; }
  double asDouble() const;
  bool operator==(const Scalar &o) const;
  std::string str() const;
};

/// A strided view over host memory (what the test or host passes).
struct View {
  void *data = nullptr;
  ScalarKind elem = ScalarKind::F32;
  int rank = 0;
  int64_t extents[8] = {};
  int64_t strides[8] = {};

  /// A row-major contiguous view.
  static View contiguous(void *data, ScalarKind elem,
                         std::vector<int64_t> extents);
  /// The element offset (in elements) of coordinates `c`.
  int64_t offset(const int64_t *c) const;
  bool inBounds(const int64_t *c) const;
};

/// A kernel argument: a view or a scalar.
struct Arg {
  bool isView = false;
  View view;
  Scalar scalar;
  static Arg ofView(View v) {
    Arg a;
    a.isView = true;
    a.view = v;
    return a;
  }
  static Arg ofScalar(Scalar s) {
    Arg a;
    a.scalar = s;
    return a;
  }
};

/// Size in bytes of an element.
unsigned elemSize(ScalarKind k);
Scalar loadElem(const void *addr, ScalarKind k);
void storeElem(void *addr, Scalar v);

/// Scalar ops by name (the KIR and physical op names agree): add sub mul div
/// rem bitand bitor bitxor shl shr min max; neg bitnot not; cmp (pred);
/// cast; math (fn). Return false with `error` set on UB (division by zero)
/// or an unknown function.
bool evalBinary(llvm::StringRef op, const Scalar &a, const Scalar &b,
                Scalar &out, std::string &error);
bool evalUnary(llvm::StringRef op, const Scalar &a, Scalar &out,
               std::string &error);
Scalar evalCmp(llvm::StringRef pred, const Scalar &a, const Scalar &b);
Scalar evalCast(const Scalar &v, ScalarKind to);
/// `rng {fn}` (u32, uniform, normal): intent::philox(seed, stream).fn(counter),
/// computed by the header itself (Rng.cpp). False for an unknown fn.
bool evalRng(llvm::StringRef fn, const Scalar &seed, const Scalar &stream,
             const Scalar &counter, Scalar &out);
bool evalMath(llvm::StringRef fn, const std::vector<Scalar> &args,
              ScalarKind result, Scalar &out, std::string &error);

/// The element an atomic of `kind` ("add", "min", "max", "exch") leaves
/// when it finds `old` and is given `v` (intent/atomic.hpp: min/max
/// propagate NaN as ops::min/max do, integers wrap).
bool evalAtomic(llvm::StringRef kind, const Scalar &old, const Scalar &v,
                Scalar &out, std::string &error);
/// Bitwise equality of two scalars of one kind at their width (what a
/// compare-and-swap compares: -0.0 differs from +0.0, equal NaN bits match).
bool sameBits(const Scalar &a, const Scalar &b);

/// The text printf(format, args...) prints for a `print` op whose operands
/// have the values `args` (the format was checked by the verifier).
std::string formatPrint(llvm::StringRef format, const std::vector<Scalar> &args);
/// Writes formatPrint's text to stdout (what a kernel's printf does).
void emitPrint(llvm::StringRef format, const std::vector<Scalar> &args);

} // namespace intent::interp

#endif // INTENT_INTERPRETER_VALUES_H
