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

//===----------------------------------------------------------------------===//
// Warp-aggregated atomics (the aggregate-atomics pass, docs/passes.md §14).
// The lanes of a warp that execute one of these calls together (those
// __activemask() names) and update the same element combine their values
// first, in lane order; the lowest of them applies one atomic for the group.
// Where no lane shares the first lane's element, each lane applies its own
// (warpPeers: the test is cheap, the match that finds the groups is not).
// The memory sees the same final value as one atomic per lane (add, min and
// max are commutative and associative; float sums are unordered either
// way), with up to 32 times fewer updates of a hot element. On the host (cpu
// mode) every call is its own group: the plain atomic.
//===----------------------------------------------------------------------===//

namespace detail {
#if defined(__CUDA_ARCH__)
__device__ inline unsigned laneIndex() {
  unsigned L;
  asm volatile("mov.u32 %0, %%laneid;" : "=r"(L));
  return L;
}

/// The lanes of `Active` whose P is this lane's (this lane included), or
/// 0 (the same in every lane) when no other lane shares the element of the
/// first active lane: then collisions look rare and each lane is left to
/// its own atomic. match.any is a slow instruction (measured: a 65536-bin
/// histogram of uniform samples 2.2x slower with it on every update), so
/// it runs only where a cheap test (a shuffle and a ballot) saw a
/// collision, and not at all when every lane shares one element.
template <class T> __device__ unsigned warpPeers(unsigned Active, T *P) {
  const unsigned long long A = reinterpret_cast<unsigned long long>(P);
  const unsigned long long A0 = __shfl_sync(Active, A, __ffs(Active) - 1);
  const unsigned Same = __ballot_sync(Active, A == A0);
  if (Same == Active)
    return Active;
  if (__popc(Same) < 2)
    return 0;
  return __match_any_sync(Active, A);
}

/// V combined (Combine, in lane order) with the values of the peers above
/// this lane: the lowest peer ends with the whole group's value. Pointer
/// jumping over the list "next peer above": every active lane shuffles in
/// each round (the mask is Active), rounds stop when no list is left.
template <class T, class Combine>
__device__ T warpPeersFold(unsigned Active, unsigned Peers, T V, Combine C) {
  const unsigned Lane = laneIndex();
  const unsigned Above = Peers & ~((2u << Lane) - 1u); // 0 for lane 31
  int Next = Above ? __ffs(Above) - 1 : -1;
  while (__any_sync(Active, Next >= 0)) {
    const int Src = Next >= 0 ? Next : static_cast<int>(Lane);
    const T Other = __shfl_sync(Active, V, Src);
    const int NextNext = __shfl_sync(Active, Next, Src);
    if (Next >= 0) {
      V = C(V, Other);
      Next = NextNext;
    }
  }
  return V;
}

/// The group's combined value (valid in its lowest lane): one redux.sync
/// for 4-byte integers (sm_80+), else warpPeersFold.
template <int Kind, class T, class Combine>
__device__ T warpPeersTotal(unsigned Active, unsigned Peers, T V, Combine C) {
#if __CUDA_ARCH__ >= 800
  if constexpr (std::is_integral<T>::value && sizeof(T) == 4) {
    using R = std::conditional_t<std::is_signed<T>::value, int, unsigned>;
    if constexpr (Kind == 0)
      return static_cast<T>(__reduce_add_sync(Peers, static_cast<R>(V)));
    else if constexpr (Kind == 1)
      return static_cast<T>(__reduce_min_sync(Peers, static_cast<R>(V)));
    else
      return static_cast<T>(__reduce_max_sync(Peers, static_cast<R>(V)));
  }
#endif
  return warpPeersFold(Active, Peers, V, C);
}

/// The aggregated update: Apply(P, V) by each lane when warpPeers finds
/// no group, else Apply(P, the group's Combine of V) by its lowest lane.
template <int Kind, class T, class Combine, class Apply>
__device__ void warpAtomic(T *P, T V, Combine C, Apply A) {
  const unsigned Active = __activemask();
  const unsigned Peers = warpPeers(Active, P);
  if (!Peers) {
    A(P, V);
    return;
  }
  const T Total = warpPeersTotal<Kind>(Active, Peers, V, C);
  if (laneIndex() == static_cast<unsigned>(__ffs(Peers) - 1))
    A(P, Total);
}
#endif
} // namespace detail

/// atomic_add / atomic_min / atomic_max aggregated over the warp's lanes
/// that update the same element (see above). The old value is not
/// returned (the verifier allows these only where nothing reads it): T{}.
template <atomic_scope S, memory_order O = memory_order::relaxed, class T>
INTENT_HD T warp_atomic_add(T *P, ::intent::detail::NonDeduced<T> V) {
#if defined(__CUDA_ARCH__)
  detail::warpAtomic<0>(P, static_cast<T>(V), ops::plus{},
                        [](T *Q, T X) { atomic_add<S, O>(Q, X); });
#else
  atomic_add<S, O>(P, V);
#endif
  return T{};
}

template <atomic_scope S, memory_order O = memory_order::relaxed, class T>
INTENT_HD T warp_atomic_min(T *P, ::intent::detail::NonDeduced<T> V) {
#if defined(__CUDA_ARCH__)
  detail::warpAtomic<1>(P, static_cast<T>(V), ops::min{},
                        [](T *Q, T X) { atomic_min<S, O>(Q, X); });
#else
  atomic_min<S, O>(P, V);
#endif
  return T{};
}

template <atomic_scope S, memory_order O = memory_order::relaxed, class T>
INTENT_HD T warp_atomic_max(T *P, ::intent::detail::NonDeduced<T> V) {
#if defined(__CUDA_ARCH__)
  detail::warpAtomic<2>(P, static_cast<T>(V), ops::max{},
                        [](T *Q, T X) { atomic_max<S, O>(Q, X); });
#else
  atomic_max<S, O>(P, V);
#endif
  return T{};
}

/// A ticket: atomic_add of an integer V that every lane of the group adds
/// (the verifier allows only a constant). The lowest lane adds V times the
/// group's size; lane k of the group (in lane order) gets old + k V, the
/// value it would have read had the group's lanes added one after another.
template <atomic_scope S, memory_order O = memory_order::relaxed, class T>
INTENT_HD T warp_atomic_ticket(T *P, ::intent::detail::NonDeduced<T> V) {
  static_assert(std::is_integral<T>::value, "tickets are integers");
#if defined(__CUDA_ARCH__)
  const unsigned Active = __activemask();
  const unsigned Peers = detail::warpPeers(Active, P);
  if (!Peers)
    return atomic_add<S, O>(P, V);
  const unsigned Lane = detail::laneIndex();
  const int Leader = __ffs(Peers) - 1;
  T Old{};
  if (Lane == static_cast<unsigned>(Leader))
    Old = atomic_add<S, O>(P, static_cast<T>(V) * static_cast<T>(__popc(Peers)));
  Old = __shfl_sync(Active, Old, Leader);
  const unsigned Below = Peers & ((1u << Lane) - 1u);
  return Old + static_cast<T>(V) * static_cast<T>(__popc(Below));
#else
  return atomic_add<S, O>(P, V);
#endif
}

} // namespace rt
} // namespace intent

#endif // INTENT_RUNTIME_ATOMICS_HPP
