//===- intent/atomic.hpp - Atomic read-modify-write and histogram --------===//
//
// Atomic updates of a location shared between parallel iterations, and the
// histogram scatter-reduction built on the same idea. The memory order is
// recorded by the compiler; the hardware scope (CTA/GPU/system) is chosen
// from the physical mapping. The reference semantics are plain sequential
// read-modify-writes, each returning the old value.
//
//===----------------------------------------------------------------------===//

#ifndef INTENT_ATOMIC_HPP
#define INTENT_ATOMIC_HPP

#include "intent/core.hpp"
#include "intent/ops.hpp"
#include "intent/view.hpp"

#include <type_traits>

namespace intent {

/// The ordering an atomic operation guarantees (C++ memory_order).
enum class memory_order { relaxed, acquire, release, acq_rel, seq_cst };

/// The result of atomic_cas: the value found, and whether it was replaced.
template <class T> struct cas_result {
  T old;
  bool success;
};

namespace detail {
/// False for every T (a static_assert that fires only when instantiated).
template <class T> inline constexpr bool AtomicNeverValid = false;
} // namespace detail

/// An atomic on a const location (an element of a view<const T>) is an
/// error: these overloads are chosen for const lvalues and say what to do.
#define INTENT_ATOMIC_CONST_OVERLOAD(Name, Params)                             \
  template <class T> T Name(const T &, Params, memory_order = memory_order::relaxed) { \
    static_assert(detail::AtomicNeverValid<T>,                                 \
                  "intent::" #Name " needs a mutable location: an element "    \
                  "of an intent::view<T>, not of a view<const T>");            \
    return T();                                                                \
  }

/// Ref += V; returns the old value.
template <class T>
T atomic_add(T &Ref, detail::NonDeduced<T> V,
             memory_order = memory_order::relaxed) {
  T Old = Ref;
  Ref = static_cast<T>(Old + V);
  return Old;
}

/// Ref = ops::min{}(Ref, V) (NaN propagates, see ops::min); returns the old
/// value.
template <class T>
T atomic_min(T &Ref, detail::NonDeduced<T> V,
             memory_order = memory_order::relaxed) {
  T Old = Ref;
  Ref = ops::min{}(Old, V);
  return Old;
}

/// Ref = ops::max{}(Ref, V) (NaN propagates, see ops::max); returns the old
/// value.
template <class T>
T atomic_max(T &Ref, detail::NonDeduced<T> V,
             memory_order = memory_order::relaxed) {
  T Old = Ref;
  Ref = ops::max{}(Old, V);
  return Old;
}

/// Ref = V; returns the old value.
template <class T>
T atomic_exch(T &Ref, detail::NonDeduced<T> V,
              memory_order = memory_order::relaxed) {
  T Old = Ref;
  Ref = V;
  return Old;
}

namespace detail {

/// Compares object representations, as a hardware compare-and-swap does.
template <class T> bool sameBits(const T &A, const T &B) {
  static_assert(std::is_trivially_copyable<T>::value,
                "atomic_cas needs a trivially copyable type");
  const unsigned char *PA = reinterpret_cast<const unsigned char *>(&A);
  const unsigned char *PB = reinterpret_cast<const unsigned char *>(&B);
  for (std::size_t I = 0; I < sizeof(T); ++I)
    if (PA[I] != PB[I])
      return false;
  return true;
}

} // namespace detail

/// If Ref holds Expected, stores Desired. Returns {old value, whether it was
/// stored}. The comparison is bitwise, as on the hardware: for floating
/// point, -0.0 does not match +0.0 and a NaN matches the same NaN bits.
template <class T>
cas_result<T> atomic_cas(T &Ref, detail::NonDeduced<T> Expected,
                         detail::NonDeduced<T> Desired,
                         memory_order = memory_order::relaxed) {
  T Old = Ref;
  if (!detail::sameBits(Old, Expected))
    return {Old, false};
  Ref = Desired;
  return {Old, true};
}

INTENT_ATOMIC_CONST_OVERLOAD(atomic_add, detail::NonDeduced<T>)
INTENT_ATOMIC_CONST_OVERLOAD(atomic_min, detail::NonDeduced<T>)
INTENT_ATOMIC_CONST_OVERLOAD(atomic_max, detail::NonDeduced<T>)
INTENT_ATOMIC_CONST_OVERLOAD(atomic_exch, detail::NonDeduced<T>)
#undef INTENT_ATOMIC_CONST_OVERLOAD

template <class T>
cas_result<T> atomic_cas(const T &, detail::NonDeduced<T>,
                         detail::NonDeduced<T>,
                         memory_order = memory_order::relaxed) {
  static_assert(detail::AtomicNeverValid<T>,
                "intent::atomic_cas needs a mutable location: an element of an "
                "intent::view<T>, not of a view<const T>");
  return {};
}

/// Counts bin indices: for every i in R, with b = BinOf(i), Bins[b] += 1 when
/// 0 <= b < Bins.extent(0); out-of-range bins (negative or too large) are
/// dropped. Bins is not cleared first.
template <class C, class F>
void histogram(view<C, 1> Bins, range R, F &&BinOf) {
  static_assert(!std::is_const<C>::value,
                "intent::histogram needs mutable bins: an intent::view<C, 1>, "
                "not a view<const C, 1>");
  for (index I = R.begin; I < R.end; ++I) {
    index B = static_cast<index>(BinOf(I));
    if (B >= 0 && B < Bins.extent(0))
      Bins[B] += C(1);
  }
}

/// histogram over i in [0, N).
template <class C, class F>
void histogram(view<C, 1> Bins, index N, F &&BinOf) {
  intent::histogram(Bins, range{0, N}, BinOf);
}

} // namespace intent

#endif // INTENT_ATOMIC_HPP
