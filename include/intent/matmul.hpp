//===- intent/matmul.hpp - Matrix multiplication (contraction) -----------===//
//
// matmul is the contract op: a kernel maps the batch and free axes (i, j) to
// program instances and keeps k inside. Any strided view works, so
// transposed or broadcast operands need no copies. The reference sums over k
// in increasing order into an accumulator of accumulator_t<T> starting at 0.
//
//===----------------------------------------------------------------------===//

#ifndef INTENT_MATMUL_HPP
#define INTENT_MATMUL_HPP

#include "intent/core.hpp"
#include "intent/half.hpp"
#include "intent/view.hpp"

#include <type_traits>

namespace intent {

/// The type matmul accumulates in for result type T: T itself for float,
/// double and integers; float for intent::half and intent::bfloat16.
template <class T> struct accumulator { using type = T; };
template <> struct accumulator<half> { using type = float; };
template <> struct accumulator<bfloat16> { using type = float; };
template <class T> using accumulator_t = typename accumulator<T>::type;

/// C(i, j) = sum_k A(i, k) * B(k, j), overwriting C. Requires
/// C: M x N, A: M x K, B: K x N. With K == 0, C becomes 0.
template <class T, class TA, class TB>
void matmul(view<T, 2> C, view<TA, 2> A, view<TB, 2> B) {
  static_assert(!std::is_const<T>::value, "matmul writes C");
  using Acc = accumulator_t<T>;
  INTENT_ASSERT(A.extent(0) == C.extent(0), "matmul: A rows != C rows");
  INTENT_ASSERT(B.extent(1) == C.extent(1), "matmul: B columns != C columns");
  INTENT_ASSERT(A.extent(1) == B.extent(0), "matmul: A columns != B rows");
  for (index I = 0; I < C.extent(0); ++I) {
    for (index J = 0; J < C.extent(1); ++J) {
      Acc Sum = Acc(0);
      for (index K = 0; K < A.extent(1); ++K)
        Sum += static_cast<Acc>(A(I, K)) * static_cast<Acc>(B(K, J));
      C(I, J) = static_cast<T>(Sum);
    }
  }
}

/// Batched: C(b, i, j) = sum_k A(b, i, k) * B(b, k, j) for every batch b.
/// All three batch extents must be equal; a shared operand is a broadcast
/// view (e.g. B2.broadcast(0, nbatch)).
template <class T, class TA, class TB>
void matmul(view<T, 3> C, view<TA, 3> A, view<TB, 3> B) {
  INTENT_ASSERT(A.extent(0) == C.extent(0) && B.extent(0) == C.extent(0),
                "matmul: batch extents differ");
  for (index Batch = 0; Batch < C.extent(0); ++Batch)
    intent::matmul(C.row(Batch), A.row(Batch), B.row(Batch));
}

} // namespace intent

#endif // INTENT_MATMUL_HPP
