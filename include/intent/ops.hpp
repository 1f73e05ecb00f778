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
} // namespace intent

#endif // INTENT_OPS_HPP
