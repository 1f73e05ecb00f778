//===- intent/runtime/atomics.hpp - Scoped atomics for generated code -----===//
//
// The atomic read-modify-writes generated kernels call. Every operation takes
// its hardware scope (the set of threads it synchronizes with: the CTA, the
// GPU or the whole system, chosen by the compiler from the physical mapping)
// and its memory order as template arguments, and returns the old value
// (atomic_cas also returns whether it stored), like the user API in
// intent/atomic.hpp whose serial semantics it implements concurrently.
//
// On the device the operations map to atomicAdd_block / atomicAdd /
// atomicAdd_system (and friends), with fences of the same scope for acquire
// and release; floating-point min and max, which have no instruction with
// the NaN semantics of intent::ops::min/max, are compare-and-swap loops. In
// cpu mode (the same source compiled for the host) they are GCC/Clang
// __atomic builtins on the object representation: the host is one coherent
// domain, so the scope only matters on the device.
//
// Supported element types: 4- and 8-byte integers, float and double.
//
//===----------------------------------------------------------------------===//

#ifndef INTENT_RUNTIME_ATOMICS_HPP
#define INTENT_RUNTIME_ATOMICS_HPP

#include "intent/atomic.hpp"
#include "intent/core.hpp"
#include "intent/ops.hpp"

#include <cstdint>
#include <type_traits>

namespace intent {
namespace rt {

/// The threads an atomic operation is atomic and ordered with respect to:
/// those of the same CTA, of the same GPU, or of the whole system (other
/// GPUs and the host). `thread`: the location is private to the calling
/// program instance (a private local buffer), so the operation is a plain
/// read-modify-write (hardware atomics are not defined on local memory).
enum class atomic_scope { cta, gpu, sys, thread };

namespace detail {

/// Reinterprets the object representation of From as To (same size).
template <class To, class From> INTENT_HD To bitCast(const From &Value) {
  static_assert(sizeof(To) == sizeof(From), "bitCast needs equal sizes");
  To Result;
  __builtin_memcpy(&Result, &Value, sizeof(To));
  return Result;
}

/// The unsigned integer type an atomic of T operates on: the hardware's
/// unsigned int for 4 bytes, unsigned long long for 8.
template <class T> struct AtomicBits {
  static_assert((std::is_integral<T>::value ||
                 std::is_floating_point<T>::value) &&
                    (sizeof(T) == 4 || sizeof(T) == 8),
                "intent::rt atomics support 4- and 8-byte integers, float "
                "and double");
  using type = std::conditional_t<sizeof(T) == 4, unsigned int,
                                  unsigned long long>;
};
template <class T> using AtomicBitsT = typename AtomicBits<T>::type;

#if defined(__CUDACC__)
/// The CUDA atomic intrinsics of one scope.
template <atomic_scope S> struct ScopedOps;

#define INTENT_RT_SCOPED_OPS(Scope, Suffix)                                    \
  template <> struct ScopedOps<atomic_scope::Scope> {                          \
    template <class U> __device__ static U add(U *P, U V) {                    \
      return atomicAdd##Suffix(P, V);                                          \
    }                                                                          \
    template <class U> __device__ static U exch(U *P, U V) {                   \
      return atomicExch##Suffix(P, V);                                         \
    }                                                                          \
    template <class U> __device__ static U cas(U *P, U Expected, U Desired) {  \
      return atomicCAS##Suffix(P, Expected, Desired);                          \
    }                                                                          \
    template <class U> __device__ static U min(U *P, U V) {                    \
      return atomicMin##Suffix(P, V);                                          \
    }                                                                          \
    template <class U> __device__ static U max(U *P, U V) {                    \
      return atomicMax##Suffix(P, V);                                          \
    }                                                                          \
  };

INTENT_RT_SCOPED_OPS(cta, _block)
INTENT_RT_SCOPED_OPS(gpu, )
INTENT_RT_SCOPED_OPS(sys, _system)
#undef INTENT_RT_SCOPED_OPS

/// A memory fence of scope S.
template <atomic_scope S> __device__ void scopeFence() {
  if constexpr (S == atomic_scope::cta)
    __threadfence_block();
  else if constexpr (S == atomic_scope::gpu)
    __threadfence();
  else
    __threadfence_system();
}

/// The fence a release (or stronger) operation needs before it.
template <atomic_scope S, memory_order O> __device__ void fenceBefore() {
  if (O == memory_order::release || O == memory_order::acq_rel ||
      O == memory_order::seq_cst)
    scopeFence<S>();
}

/// The fence an acquire (or stronger) operation needs after it.
template <atomic_scope S, memory_order O> __device__ void fenceAfter() {
  if (O == memory_order::acquire || O == memory_order::acq_rel ||
      O == memory_order::seq_cst)
    scopeFence<S>();
}
#endif // __CUDACC__

/// The __atomic builtin order for O.
constexpr int hostOrder(memory_order O) {
  return O == memory_order::relaxed   ? __ATOMIC_RELAXED
         : O == memory_order::acquire ? __ATOMIC_ACQUIRE
         : O == memory_order::release ? __ATOMIC_RELEASE
         : O == memory_order::acq_rel ? __ATOMIC_ACQ_REL
                                      : __ATOMIC_SEQ_CST;
}

/// The strongest order a failed compare-exchange may use for O.
constexpr int hostFailureOrder(memory_order O) {
  return O == memory_order::release   ? __ATOMIC_RELAXED
         : O == memory_order::acq_rel ? __ATOMIC_ACQUIRE
                                      : hostOrder(O);
}

/// Compare-and-swap on the representation of *P: stores Desired if *P holds
/// Expected (bitwise); returns the representation found.
template <atomic_scope S, memory_order O, class T>
INTENT_HD AtomicBitsT<T> casBits(T *P, AtomicBitsT<T> Expected,
                                 AtomicBitsT<T> Desired) {
  using U = AtomicBitsT<T>;
#if defined(__CUDA_ARCH__)
  fenceBefore<S, O>();
  U Old = ScopedOps<S>::cas(reinterpret_cast<U *>(P), Expected, Desired);
  fenceAfter<S, O>();
  return Old;
#else
  U Found = Expected;
  __atomic_compare_exchange_n(reinterpret_cast<U *>(P), &Found, Desired,
                              /*weak=*/false, hostOrder(O),
                              hostFailureOrder(O));
  return Found;
#endif
}

/// A relaxed read of the representation of *P.
template <class T> INTENT_HD AtomicBitsT<T> loadBits(const T *P) {
  using U = AtomicBitsT<T>;
#if defined(__CUDA_ARCH__)
  return *reinterpret_cast<const volatile U *>(P);
#else
  return __atomic_load_n(reinterpret_cast<const U *>(P), __ATOMIC_RELAXED);
#endif
}

/// *P = Combine(*P, V) by a compare-and-swap loop; returns the old value.
/// Stops without storing when the combined value has the old representation.
template <atomic_scope S, memory_order O, class T, class Op>
INTENT_HD T casLoop(T *P, T V, Op Combine) {
  using U = AtomicBitsT<T>;
  U Old = loadBits(P);
  while (true) {
    U New = bitCast<U>(Combine(bitCast<T>(Old), V));
    if (New == Old)
      return bitCast<T>(Old);
    U Found = casBits<S, O>(P, Old, New);
    if (Found == Old)
      return bitCast<T>(Old);
    Old = Found;
  }
}

} // namespace detail

/// *P += V atomically; returns the old value. Integers wrap.
namespace detail {
/// atomic_scope::thread: *P = Combine(*P, V) without atomicity.
template <class T, class Op> INTENT_HD T plainUpdate(T *P, T V, Op Combine) {
  T Old = *P;
  *P = Combine(Old, V);
  return Old;
}
struct KeepRight {
  template <class T> INTENT_HD T operator()(T, T V) const { return V; }
};
} // namespace detail

template <atomic_scope S, memory_order O = memory_order::relaxed, class T>
INTENT_HD T atomic_add(T *P, ::intent::detail::NonDeduced<T> V) {
  if constexpr (S == atomic_scope::thread)
    return detail::plainUpdate(P, static_cast<T>(V), ops::plus{});
  else {
#if defined(__CUDA_ARCH__)
  using U = detail::AtomicBitsT<T>;
  T Old;
  detail::fenceBefore<S, O>();
  if constexpr (std::is_floating_point<T>::value)
    Old = detail::ScopedOps<S>::add(P, V);
  else
    Old = static_cast<T>(detail::ScopedOps<S>::add(reinterpret_cast<U *>(P),
                                                   static_cast<U>(V)));
  detail::fenceAfter<S, O>();
  return Old;
#else
  if constexpr (std::is_floating_point<T>::value)
    return detail::casLoop<S, O>(P, V, ops::plus{});
  else
    return __atomic_fetch_add(P, V, detail::hostOrder(O));
#endif
  }
}

namespace detail {
/// The integer type CUDA's atomicMin/atomicMax take for T (4 or 8 bytes):
/// the same signedness; 8-byte signed is long long.
template <class T>
using HardwareIntT = std::conditional_t<
    sizeof(T) == 4, std::conditional_t<std::is_signed<T>::value, int, unsigned>,
    std::conditional_t<std::is_signed<T>::value, long long,
                       unsigned long long>>;
} // namespace detail

/// *P = ops::min{}(*P, V) atomically (NaN propagates, as in ops::min);
/// returns the old value.
template <atomic_scope S, memory_order O = memory_order::relaxed, class T>
INTENT_HD T atomic_min(T *P, ::intent::detail::NonDeduced<T> V) {
  if constexpr (S == atomic_scope::thread)
    return detail::plainUpdate(P, static_cast<T>(V), ops::min{});
  else {
#if defined(__CUDA_ARCH__)
  if constexpr (std::is_integral<T>::value) {
    using U = detail::HardwareIntT<T>;
    detail::fenceBefore<S, O>();
    T Old = static_cast<T>(
        detail::ScopedOps<S>::min(reinterpret_cast<U *>(P), static_cast<U>(V)));
    detail::fenceAfter<S, O>();
    return Old;
  } else {
    return detail::casLoop<S, O>(P, V, ops::min{});
  }
#else
  return detail::casLoop<S, O>(P, V, ops::min{});
#endif
  }
}

/// *P = ops::max{}(*P, V) atomically (NaN propagates, as in ops::max);
/// returns the old value.
template <atomic_scope S, memory_order O = memory_order::relaxed, class T>
INTENT_HD T atomic_max(T *P, ::intent::detail::NonDeduced<T> V) {
  if constexpr (S == atomic_scope::thread)
    return detail::plainUpdate(P, static_cast<T>(V), ops::max{});
  else {
#if defined(__CUDA_ARCH__)
  if constexpr (std::is_integral<T>::value) {
    using U = detail::HardwareIntT<T>;
    detail::fenceBefore<S, O>();
    T Old = static_cast<T>(
        detail::ScopedOps<S>::max(reinterpret_cast<U *>(P), static_cast<U>(V)));
    detail::fenceAfter<S, O>();
    return Old;
  } else {
    return detail::casLoop<S, O>(P, V, ops::max{});
  }
#else
  return detail::casLoop<S, O>(P, V, ops::max{});
#endif
  }
}

/// *P = V atomically; returns the old value.
template <atomic_scope S, memory_order O = memory_order::relaxed, class T>
INTENT_HD T atomic_exch(T *P, ::intent::detail::NonDeduced<T> V) {
  if constexpr (S == atomic_scope::thread)
    return detail::plainUpdate(P, static_cast<T>(V), detail::KeepRight{});
  else {
  using U = detail::AtomicBitsT<T>;
#if defined(__CUDA_ARCH__)
  detail::fenceBefore<S, O>();
  U Old = detail::ScopedOps<S>::exch(reinterpret_cast<U *>(P),
                                     detail::bitCast<U>(V));
  detail::fenceAfter<S, O>();
  return detail::bitCast<T>(Old);
#else
  return detail::bitCast<T>(__atomic_exchange_n(
      reinterpret_cast<U *>(P), detail::bitCast<U>(V), detail::hostOrder(O)));
#endif
  }
}

/// If *P holds Expected (compared bitwise, as the hardware does), stores
/// Desired. Returns {the value found, whether Desired was stored}.
template <atomic_scope S, memory_order O = memory_order::relaxed, class T>
INTENT_HD cas_result<T> atomic_cas(T *P, ::intent::detail::NonDeduced<T> Expected,
                                   ::intent::detail::NonDeduced<T> Desired) {
  if constexpr (S == atomic_scope::thread) {
    cas_result<T> R{*P, detail::bitCast<detail::AtomicBitsT<T>>(*P) ==
                            detail::bitCast<detail::AtomicBitsT<T>>(
                                static_cast<T>(Expected))};
    if (R.success)
      *P = Desired;
    return R;
  } else {
  using U = detail::AtomicBitsT<T>;
  U Want = detail::bitCast<U>(Expected);
  U Found = detail::casBits<S, O>(P, Want, detail::bitCast<U>(Desired));
  return {detail::bitCast<T>(Found), Found == Want};
  }
}

/// An atomic read of *P with order O (relaxed, acquire or seq_cst).
template <atomic_scope S, memory_order O = memory_order::relaxed, class T>
INTENT_HD T atomic_load(const T *P) {
  using U = detail::AtomicBitsT<T>;
#if defined(__CUDA_ARCH__)
  if (O == memory_order::seq_cst)
    detail::scopeFence<S>();
  U Bits = *reinterpret_cast<const volatile U *>(P);
  detail::fenceAfter<S, O>();
  return detail::bitCast<T>(Bits);
#else
  return detail::bitCast<T>(
      __atomic_load_n(reinterpret_cast<const U *>(P), detail::hostOrder(O)));
#endif
}

/// An atomic write of V to *P with order O (relaxed, release or seq_cst).
template <atomic_scope S, memory_order O = memory_order::relaxed, class T>
INTENT_HD void atomic_store(T *P, ::intent::detail::NonDeduced<T> V) {
  using U = detail::AtomicBitsT<T>;
#if defined(__CUDA_ARCH__)
  detail::fenceBefore<S, O>();
  *reinterpret_cast<volatile U *>(P) = detail::bitCast<U>(V);
  if (O == memory_order::seq_cst)
    detail::scopeFence<S>();
#else
  __atomic_store_n(reinterpret_cast<U *>(P), detail::bitCast<U>(V),
                   detail::hostOrder(O));
#endif
}

} // namespace rt
} // namespace intent

#endif // INTENT_RUNTIME_ATOMICS_HPP
