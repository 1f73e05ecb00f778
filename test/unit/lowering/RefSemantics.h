//===- RefSemantics.h - The header's serial semantics, for unit tests -*- C++ -*-===//
//
// intent::reduce / scan / argmax / argmin / region_fold / region_scan from
// include/intent/reduce.hpp, argreduce.hpp and region.hpp, transcribed for the
// lowering unit tests (whose target does not have include/ on its include
// path). Keep in sync with the header: these are the C++ references the
// differential tests compare the KIR and physical interpreters against.
//
//===----------------------------------------------------------------------===//

#ifndef INTENT_TEST_REFSEMANTICS_H
#define INTENT_TEST_REFSEMANTICS_H

#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>

namespace intent::ref {

using index = std::int64_t;

/// Acc = Init; for k in [b, e): Acc = Combine(Acc, Value(k)).
template <class T, class Op, class F>
T reduce(index b, index e, T init, Op combine, F &&value) {
  T acc = init;
  for (index k = b; k < e; ++k)
    acc = combine(acc, static_cast<T>(value(k)));
  return acc;
}

/// The header's scan: forward or reverse, inclusive or exclusive; acc stays
/// the left operand of combine.
template <class T, class Op, class V, class E>
void scan(index b, index e, T init, Op combine, V &&value, E &&emit,
          bool exclusive = false, bool reverse = false) {
  T acc = init;
  for (index step = 0, n = e > b ? e - b : 0; step < n; ++step) {
    index k = reverse ? e - 1 - step : b + step;
    if (exclusive) {
      emit(k, static_cast<const T &>(acc));
      acc = combine(acc, static_cast<T>(value(k)));
      continue;
    }
    acc = combine(acc, static_cast<T>(value(k)));
    emit(k, static_cast<const T &>(acc));
  }
}

template <class T> struct ArgResult {
  T value;
  index pos;
};

/// argmax (isMax) / argmin with tie::last (tieLast) and nan_policy::ignore
/// (ignoreNaN) exactly as include/intent/argreduce.hpp.
template <class T, class F>
ArgResult<T> argReduce(bool isMax, index b, index e, F &&value, bool tieLast,
                       bool ignoreNaN) {
  T lowest, highest;
  if constexpr (std::is_floating_point<T>::value) {
    lowest = -std::numeric_limits<T>::infinity();
    highest = std::numeric_limits<T>::infinity();
  } else {
    lowest = std::numeric_limits<T>::lowest();
    highest = std::numeric_limits<T>::max();
  }
  ArgResult<T> best{isMax ? lowest : highest, -1};
  bool bestIsNaN = false;
  for (index k = b; k < e; ++k) {
    T v = value(k);
    if (v != v) {
      if (ignoreNaN)
        continue;
      if (!bestIsNaN || tieLast)
        best = {v, k};
      bestIsNaN = true;
      continue;
    }
    if (bestIsNaN)
      continue;
    bool better = isMax ? best.value < v : v < best.value;
    bool equal = v == best.value;
    if (best.pos < 0 || better || (equal && tieLast))
      best = {v, k};
  }
  return best;
}

/// For r in [0, n) with n = max(extent - 1, 0):
/// store(r, reduce(off[r], off[r+1], init, combine, value(r, .))).
template <class I, class T, class Op, class V, class S>
void regionFold(const I *off, index extent, T init, Op combine, V &&value,
                S &&store) {
  for (index r = 0; r + 1 < extent; ++r)
    store(r, reduce(static_cast<index>(off[r]), static_cast<index>(off[r + 1]),
                    init, combine, [&](index k) { return value(r, k); }));
}

/// A scan per region, restarting from init.
template <class I, class T, class Op, class V, class E>
void regionScan(const I *off, index extent, T init, Op combine, V &&value,
                E &&emit, bool exclusive = false, bool reverse = false) {
  for (index r = 0; r + 1 < extent; ++r)
    scan(static_cast<index>(off[r]), static_cast<index>(off[r + 1]), init,
         combine, [&](index k) { return value(r, k); },
         [&](index k, const T &p) { emit(r, k, p); }, exclusive, reverse);
}

/// ops::max / ops::min (NaN-propagating, left operand on ties).
template <class T> T opsMax(T a, T b) {
  if (a != a)
    return a;
  if (b != b)
    return b;
  return a < b ? b : a;
}

} // namespace intent::ref

#endif // INTENT_TEST_REFSEMANTICS_H
