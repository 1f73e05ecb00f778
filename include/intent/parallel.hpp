//===- intent/parallel.hpp - Unordered parallel iteration ----------------===//
//
// parallel_for over 1-, 2- and 3-dimensional index domains. In a kernel the
// iterations are unordered and may run concurrently; the reference semantics
// here run them one after another in row-major order (the last coordinate
// fastest). A correct kernel must not depend on that order.
//
//===----------------------------------------------------------------------===//

#ifndef INTENT_PARALLEL_HPP
#define INTENT_PARALLEL_HPP

#include "intent/core.hpp"

namespace intent {

/// Calls Body(i) for every i in R.
template <class F> void parallel_for(range R, F &&Body) {
  for (index I = R.begin; I < R.end; ++I)
    Body(I);
}

/// Calls Body(i) for every i in [0, N).
template <class F> void parallel_for(index N, F &&Body) {
  intent::parallel_for(range{0, N}, Body);
}

/// Calls Body(i, j) for every (i, j) in R0 x R1.
template <class F> void parallel_for(range R0, range R1, F &&Body) {
  for (index I = R0.begin; I < R0.end; ++I)
    for (index J = R1.begin; J < R1.end; ++J)
      Body(I, J);
}

/// Calls Body(i, j) for every (i, j) in [0, N0) x [0, N1).
template <class F> void parallel_for(index N0, index N1, F &&Body) {
  intent::parallel_for(range{0, N0}, range{0, N1}, Body);
}

/// Calls Body(i, j, k) for every (i, j, k) in R0 x R1 x R2.
template <class F> void parallel_for(range R0, range R1, range R2, F &&Body) {
  for (index I = R0.begin; I < R0.end; ++I)
    for (index J = R1.begin; J < R1.end; ++J)
      for (index K = R2.begin; K < R2.end; ++K)
        Body(I, J, K);
}

/// Calls Body(i, j, k) for every (i, j, k) in [0, N0) x [0, N1) x [0, N2).
template <class F> void parallel_for(index N0, index N1, index N2, F &&Body) {
  intent::parallel_for(range{0, N0}, range{0, N1}, range{0, N2}, Body);
}

} // namespace intent

#endif // INTENT_PARALLEL_HPP
