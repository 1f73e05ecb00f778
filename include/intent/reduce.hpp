//===- intent/reduce.hpp - Reductions and prefix scans -------------------===//
//
// reduce and scan over a 1-D index domain with a user or standard combine.
// The reference semantics fold strictly left to right; a kernel may
// reassociate, so Op must be associative (it need not be commutative: the
// compiler keeps operand order). The accumulator type T is the type of Init:
// scalars, structs and tuples all work, and each Value(k) is converted to T.
//
//===----------------------------------------------------------------------===//

#ifndef INTENT_REDUCE_HPP
#define INTENT_REDUCE_HPP

#include "intent/core.hpp"

namespace intent {

/// Folds R left to right: Acc = Init; for k = R.begin .. R.end-1:
/// Acc = Combine(Acc, T(Value(k))); returns Acc (Init when R is empty).
/// Init enters the fold exactly once, as the leftmost operand; for the
/// standard ops pass their identity (or any start value, e.g. -INFINITY).
template <class T, class Op, class F>
T reduce(range R, T Init, Op Combine, F &&Value) {
  T Acc = Init;
  for (index K = R.begin; K < R.end; ++K)
    Acc = Combine(Acc, static_cast<T>(Value(K)));
  return Acc;
}

/// reduce over [0, N).
template <class T, class Op, class F>
T reduce(index N, T Init, Op Combine, F &&Value) {
  return intent::reduce(range{0, N}, Init, Combine, Value);
}

/// Whether a scan's emitted prefix includes the current element.
enum class scan_kind { inclusive, exclusive };

/// The order in which a scan accumulates: increasing or decreasing k.
enum class direction { forward, reverse };

/// Prefix scan over R. Visits k in increasing order (forward) or from
/// R.end-1 down to R.begin (reverse), carrying Acc = Init and updating
/// Acc = Combine(Acc, T(Value(k))); calls Emit(k, prefix) once per k, where
/// prefix is Acc after the update (inclusive) or before it (exclusive, so the
/// first emitted prefix is Init). Nothing is emitted for an empty range.
/// Acc stays the left operand in both directions: a reverse inclusive prefix
/// at k is Combine(...Combine(Combine(Init, v(end-1)), v(end-2))..., v(k)).
template <class T, class Op, class V, class E>
void scan(range R, T Init, Op Combine, V &&Value, E &&Emit,
          scan_kind Kind = scan_kind::inclusive,
          direction Dir = direction::forward) {
  T Acc = Init;
  for (index Step = 0, N = R.size(); Step < N; ++Step) {
    index K = Dir == direction::forward ? R.begin + Step : R.end - 1 - Step;
    if (Kind == scan_kind::exclusive) {
      Emit(K, static_cast<const T &>(Acc));
      Acc = Combine(Acc, static_cast<T>(Value(K)));
      continue;
    }
    Acc = Combine(Acc, static_cast<T>(Value(K)));
    Emit(K, static_cast<const T &>(Acc));
  }
}

/// scan over [0, N).
template <class T, class Op, class V, class E>
void scan(index N, T Init, Op Combine, V &&Value, E &&Emit,
          scan_kind Kind = scan_kind::inclusive,
          direction Dir = direction::forward) {
  intent::scan(range{0, N}, Init, Combine, Value, Emit, Kind, Dir);
}

} // namespace intent

#endif // INTENT_REDUCE_HPP
