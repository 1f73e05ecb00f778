//===- RefSemantics.h - The header's serial semantics, for unit tests -*- C++ -*-===//
//
// Adapters from the differential tests' call shapes to the header's own
// intent::reduce / scan / argmax / argmin / region_fold / region_scan
// (include/intent/reduce.hpp, argreduce.hpp, region.hpp): the C++ references
// the KIR and physical interpreters are compared against ARE the header.
//
//===----------------------------------------------------------------------===//

#ifndef INTENT_TEST_REFSEMANTICS_H
#define INTENT_TEST_REFSEMANTICS_H

#include <intent/intent.hpp>

namespace intent::ref {

using index = intent::index;

/// Acc = Init; for k in [b, e): Acc = Combine(Acc, Value(k)).
template <class T, class Op, class F>
T reduce(index b, index e, T init, Op combine, F &&value) {
  return intent::reduce(range{b, e}, init, combine, value);
}

/// The header's scan: forward or reverse, inclusive or exclusive.
template <class T, class Op, class V, class E>
void scan(index b, index e, T init, Op combine, V &&value, E &&emit,
          bool exclusive = false, bool reverse = false) {
  intent::scan(range{b, e}, init, combine, value, emit,
               exclusive ? scan_kind::exclusive : scan_kind::inclusive,
               reverse ? direction::reverse : direction::forward);
}

template <class T> struct ArgResult {
  T value;
  index pos;
};

/// argmax (isMax) / argmin with tie::last (tieLast) and nan_policy::ignore
/// (ignoreNaN).
template <class T, class F>
ArgResult<T> argReduce(bool isMax, index b, index e, F &&value, bool tieLast,
                       bool ignoreNaN) {
  auto v = [&](index k) -> T { return value(k); };
  tie t = tieLast ? tie::last : tie::first;
  nan_policy n = ignoreNaN ? nan_policy::ignore : nan_policy::propagate;
  arg_result<T> r = isMax ? intent::argmax(range{b, e}, v, t, n)
                          : intent::argmin(range{b, e}, v, t, n);
  return {r.value, r.pos};
}

/// For r in [0, extent - 1): store(r, fold of value(r, k) over region r).
template <class I, class T, class Op, class V, class S>
void regionFold(const I *off, index extent, T init, Op combine, V &&value,
                S &&store) {
  view<const I, 1> offsets(off, {extent});
  region_fold(offsets, init, combine,
              [&](index r, index k) -> T { return value(r, k); },
              [&](index r, T acc) { store(r, acc); });
}

/// A scan per region, restarting from init.
template <class I, class T, class Op, class V, class E>
void regionScan(const I *off, index extent, T init, Op combine, V &&value,
                E &&emit, bool exclusive = false, bool reverse = false) {
  view<const I, 1> offsets(off, {extent});
  region_scan(offsets, init, combine,
              [&](index r, index k) -> T { return value(r, k); },
              [&](index r, index k, const T &p) { emit(r, k, p); },
              exclusive ? scan_kind::exclusive : scan_kind::inclusive,
              reverse ? direction::reverse : direction::forward);
}

/// ops::max (NaN-propagating, left operand on ties).
template <class T> T opsMax(T a, T b) { return ops::max{}(a, b); }

} // namespace intent::ref

#endif // INTENT_TEST_REFSEMANTICS_H
