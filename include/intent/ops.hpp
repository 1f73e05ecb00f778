//===- intent/ops.hpp - Standard associative combine operations ----------===//
//
// Function objects for reduce, scan and region fold/scan. Each is
// associative and commutative, and has a static identity<T>() such that
// op(identity, x) == x for every non-NaN x. Callable in CUDA device code.
//
//===----------------------------------------------------------------------===//

#ifndef INTENT_OPS_HPP
#define INTENT_OPS_HPP

#include "intent/core.hpp"

#include <type_traits>

namespace intent {
namespace ops {

/// Addition; identity 0.
struct plus {
  template <class T> INTENT_HD T operator()(T A, T B) const {
    return static_cast<T>(A + B);
  }
  template <class T> INTENT_HD static constexpr T identity() { return T(0); }
};

/// Multiplication; identity 1.
struct mul {
  template <class T> INTENT_HD T operator()(T A, T B) const {
    return static_cast<T>(A * B);
  }
  template <class T> INTENT_HD static constexpr T identity() { return T(1); }
};

/// Maximum; identity -inf for floating point, the lowest value otherwise.
/// NaN propagates: if either operand is NaN the result is NaN (A if both
/// are). Equal operands, including -0.0 and +0.0, give A (the left operand).
struct max {
  template <class T> INTENT_HD T operator()(T A, T B) const {
    if (detail::isNaN(A))
      return A;
    if (detail::isNaN(B))
      return B;
    return A < B ? B : A;
  }
  template <class T> INTENT_HD static constexpr T identity() {
    return detail::lowest<T>();
  }
};

/// Minimum; identity +inf for floating point, the highest value otherwise.
/// NaN propagates: if either operand is NaN the result is NaN (A if both
/// are). Equal operands, including -0.0 and +0.0, give A (the left operand).
struct min {
  template <class T> INTENT_HD T operator()(T A, T B) const {
    if (detail::isNaN(A))
      return A;
    if (detail::isNaN(B))
      return B;
    return B < A ? B : A;
  }
  template <class T> INTENT_HD static constexpr T identity() {
    return detail::highest<T>();
  }
};

/// Bitwise and of integers; identity ~0 (all bits set).
struct bit_and {
  template <class T> INTENT_HD T operator()(T A, T B) const {
    static_assert(std::is_integral<T>::value, "ops::bit_and needs integers");
    return static_cast<T>(A & B);
  }
  template <class T> INTENT_HD static constexpr T identity() {
    static_assert(std::is_integral<T>::value, "ops::bit_and needs integers");
    return static_cast<T>(~T(0));
  }
};

/// Bitwise or of integers; identity 0.
struct bit_or {
  template <class T> INTENT_HD T operator()(T A, T B) const {
    static_assert(std::is_integral<T>::value, "ops::bit_or needs integers");
    return static_cast<T>(A | B);
  }
  template <class T> INTENT_HD static constexpr T identity() {
    static_assert(std::is_integral<T>::value, "ops::bit_or needs integers");
    return T(0);
  }
};

/// Bitwise exclusive or of integers; identity 0.
struct bit_xor {
  template <class T> INTENT_HD T operator()(T A, T B) const {
    static_assert(std::is_integral<T>::value, "ops::bit_xor needs integers");
    return static_cast<T>(A ^ B);
  }
  template <class T> INTENT_HD static constexpr T identity() {
    static_assert(std::is_integral<T>::value, "ops::bit_xor needs integers");
    return T(0);
  }
};

} // namespace ops

/// A combine wrapped by intent::ordered: calls the wrapped combine.
template <class Op> struct ordered_op {
  Op combine;
  template <class T> INTENT_HD T operator()(const T &A, const T &B) const {
    return combine(A, B);
  }
};

/// Marks a combine (a standard op or a user lambda/functor) as "fold
/// strictly left to right, never reassociate": the compiler keeps the serial
/// order of the reduction, scan or region fold/scan it is passed to, e.g. a
/// float sum that must round exactly like the loop:
///   reduce(n, 0.0f, intent::ordered(ops::plus{}), [&](index i) { ... })
/// The serial semantics are the same as with the bare combine (the header
/// always folds left to right); without ordered a kernel may regroup the
/// fold because the combine is required to be associative. Pass the call
/// directly as the combine argument.
template <class Op> INTENT_HD ordered_op<Op> ordered(Op Combine) {
  return ordered_op<Op>{Combine};
}

} // namespace intent

#endif // INTENT_OPS_HPP
