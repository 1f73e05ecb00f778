//===- intent/runtime/coop.hpp - Cooperative programs: warps and CTAs ----===//
//
// What a generated program whose instance is a whole warp or a whole CTA
// (exec scope warp / cta) calls to cooperate: its thread's identity, CTA and
// warp barriers, warp shuffles and the CTA's dynamic shared memory, plus the
// program-id loop helpers program_begin<S>() / program_stride<S>() of the
// __global__ around it, and asynchronous global-to-shared copies
// (async_copy16, async_copy_commit, async_copy_wait_all). The names are
// pinned (COOP_API): the emitter writes cooperative code only through them,
// never through raw __syncthreads(), __shfl_sync, __shared__ or cp.async, so
// that the same source runs
//
//  * on the GPU, where each helper is the CUDA intrinsic, and
//  * in cpu mode (compiled for the host), where every CUDA thread of a CTA is
//    a host fiber with its own stack (runtime/src/HostFibers.cpp): a barrier
//    switches fibers until every thread of the CTA (warp) reached it, a
//    shuffle is a write to a per-warp exchange slot, a warp barrier, a read
//    and a second warp barrier, and the shared memory is one host buffer per
//    CTA being run. The host run has exactly the device's synchronization
//    points, so a missing barrier shows up as a wrong result in cpu mode.
//
// Every thread of the CTA (of the warp) must call a barrier or a shuffle
// uniformly, as on the device; in cpu mode a barrier that cannot complete
// (a thread finished, or waits at the other kind of barrier) is an error
// naming the kernel instead of a hang. See docs/runtime.md §5.
//
//===----------------------------------------------------------------------===//

#ifndef INTENT_RUNTIME_COOP_HPP
#define INTENT_RUNTIME_COOP_HPP

#include "intent/core.hpp"
#include "intent/runtime/device.hpp"

#include <cstring>
#include <type_traits>

namespace intent {
namespace rt {

/// Who executes one program instance: one CUDA thread, one warp (32
/// threads) or one CTA (launch_config::block threads).
enum class exec_scope { thread, warp, cta };

/// Threads per warp.
constexpr int warp_size = 32;

namespace detail {

/// The CTA a cpu-mode host thread is running and the fiber (CUDA thread) it
/// is running now. Outside a cooperative launch it describes a CTA of one
/// thread, so the identity helpers are harmless there.
struct HostCta {
  /// The running fiber's index in the CTA: threadIdx.x.
  int Thread = 0;
  /// Threads per CTA: blockDim.x.
  int Size = 1;
  /// The CTA's index: blockIdx.x.
  index Id = 0;
  /// CTAs of the cpu-mode grid: gridDim.x.
  index Count = 1;
  /// The CTA's shared memory (launch_config::shared_bytes, 64-byte
  /// aligned).
  unsigned char *Shared = nullptr;
  /// One 8-byte exchange slot per thread, for warp shuffles.
  unsigned long long *Exchange = nullptr;
};

#if !defined(__CUDA_ARCH__)
/// The host thread's current CTA (defined in the runtime library).
extern thread_local HostCta CurrentHostCta;

/// Suspends the running fiber until every fiber of its CTA (warp) called
/// hostCtaBarrier (hostWarpBarrier). Throws when called outside a
/// cooperative launch.
void hostCtaBarrier();
void hostWarpBarrier();
#endif

/// The unsigned integer a shuffled T travels as on the device.
template <class T> struct ShuffleBits {
  static_assert(std::is_trivially_copyable<T>::value &&
                    (sizeof(T) == 4 || sizeof(T) == 8 ||
                     std::is_same<T, bool>::value),
                "warp shuffles move trivially copyable 4- or 8-byte values "
                "and bool");
  using type = std::conditional_t<sizeof(T) == 8, unsigned long long,
                                  unsigned int>;
};

#if !defined(__CUDA_ARCH__)
/// cpu mode shuffle: every lane publishes V in its exchange slot, the warp
/// synchronizes, each lane reads lane Src's slot (its own V when Src is
/// outside 0..31: a shuffle down past lane 31, as the hardware does), and the
/// warp synchronizes again so the slots may be reused.
template <class T> T hostShuffle(T V, unsigned Src) {
  static_assert(sizeof(typename ShuffleBits<T>::type) > 0, "");
  HostCta &Cta = CurrentHostCta;
  if (!Cta.Exchange)
    hostWarpBarrier(); // outside a cooperative launch: throws
  unsigned long long *Slots = Cta.Exchange + (Cta.Thread & ~(warp_size - 1));
  const int Lane = Cta.Thread & (warp_size - 1);
  unsigned long long Bits = 0;
  std::memcpy(&Bits, &V, sizeof(T));
  Slots[Lane] = Bits;
  hostWarpBarrier();
  T Result = V;
  if (Src < static_cast<unsigned>(warp_size))
    std::memcpy(&Result, &Slots[Src], sizeof(T));
  hostWarpBarrier();
  return Result;
}
#endif

#if defined(__CUDA_ARCH__)
/// The base of the CTA's dynamic shared memory.
__device__ inline unsigned char *ctaSharedBase() {
  extern __shared__ __align__(16) unsigned char intent_rt_cta_shared[];
  return intent_rt_cta_shared;
}

/// __shfl_*_sync over the full warp for any shuffleable T: bool travels as
/// int, other types as their 4- or 8-byte representation.
enum class ShuffleKind { index, xor_mask, down };
template <ShuffleKind K, class T> __device__ T deviceShuffle(T V, int Arg) {
  using U = typename ShuffleBits<T>::type;
  constexpr unsigned Full = 0xffffffffu;
  if constexpr (std::is_same<T, bool>::value) {
    return deviceShuffle<K, int>(V ? 1 : 0, Arg) != 0;
  } else {
    U Bits;
    __builtin_memcpy(&Bits, &V, sizeof(T));
    if constexpr (K == ShuffleKind::index)
      Bits = __shfl_sync(Full, Bits, Arg);
    else if constexpr (K == ShuffleKind::xor_mask)
      Bits = __shfl_xor_sync(Full, Bits, Arg);
    else
      Bits = __shfl_down_sync(Full, Bits, static_cast<unsigned>(Arg));
    T Result;
    __builtin_memcpy(&Result, &Bits, sizeof(T));
    return Result;
  }
}
#endif

} // namespace detail

//===--- Identity ----------------------------------------------------------===//

/// This thread's index in its CTA: threadIdx.x.
INTENT_HD inline int cta_thread() {
#if defined(__CUDA_ARCH__)
  return static_cast<int>(threadIdx.x);
#else
  return detail::CurrentHostCta.Thread;
#endif
}

/// Threads per CTA: blockDim.x (launch_config::block).
INTENT_HD inline int cta_size() {
#if defined(__CUDA_ARCH__)
  return static_cast<int>(blockDim.x);
#else
  return detail::CurrentHostCta.Size;
#endif
}

/// This CTA's index in the grid: blockIdx.x, 64-bit.
INTENT_HD inline index cta_id() {
#if defined(__CUDA_ARCH__)
  return static_cast<index>(blockIdx.x);
#else
  return detail::CurrentHostCta.Id;
#endif
}

/// CTAs in the grid: gridDim.x, 64-bit (in cpu mode the capped cpu grid).
INTENT_HD inline index cta_count() {
#if defined(__CUDA_ARCH__)
  return static_cast<index>(gridDim.x);
#else
  return detail::CurrentHostCta.Count;
#endif
}

/// This thread's lane in its warp: cta_thread() % 32.
INTENT_HD inline int lane() { return cta_thread() & (warp_size - 1); }

/// This thread's warp in its CTA: cta_thread() / 32.
INTENT_HD inline int warp_in_cta() { return cta_thread() / warp_size; }

//===--- Synchronization and exchange -------------------------------------===//

/// Waits until every thread of the CTA reached it; orders their shared and
/// global memory accesses: __syncthreads().
INTENT_HD inline void cta_barrier() {
#if defined(__CUDA_ARCH__)
  __syncthreads();
#else
  detail::hostCtaBarrier();
#endif
}

/// The CTAs that run a split instance together: gridDim.x of a cooperative
/// launch (launch_config::cooperative: all resident at once); 1 in cpu
/// mode, whose CTAs run one at a time (the first runs the instance alone).
INTENT_HD inline int grid_ctas() {
#if defined(__CUDA_ARCH__)
  return static_cast<int>(gridDim.x);
#else
  return 1;
#endif
}

/// Waits until every thread of the `ctas` CTAs of one group reached it and
/// orders their global memory accesses (the CTA barrier's guarantee, over
/// the group): the CTAs that run one split instance together, all resident
/// at once (a cooperative launch; docs/passes.md §3). `counter` is the
/// group's word of kept-zero workspace: each CTA's thread 0 adds 1, the
/// group's `first` CTA 2^63 - (ctas - 1), so the word's top bit flips once
/// all arrived, and it is zero again after an even number of barriers (the
/// generated code places an even number). A group of one CTA is a CTA
/// barrier (the word is not touched). cpu mode: a CTA barrier (its groups
/// have one CTA).
INTENT_HD inline void group_barrier(std::uint64_t *counter, std::int64_t ctas,
                                    bool first) {
#if defined(__CUDA_ARCH__)
  __syncthreads();
  if (ctas > 1) {
    if (threadIdx.x == 0) {
      const unsigned long long top = 1ull << 63;
      const unsigned long long add =
          first ? top - static_cast<unsigned long long>(ctas - 1) : 1ull;
      volatile unsigned long long *word =
          reinterpret_cast<volatile unsigned long long *>(counter);
      __threadfence();
      const unsigned long long old =
          atomicAdd(reinterpret_cast<unsigned long long *>(counter), add);
      while (((old ^ *word) & top) == 0) {
      }
      __threadfence();
    }
    __syncthreads();
  }
#else
  (void)counter;
  (void)ctas;
  (void)first;
  detail::hostCtaBarrier();
#endif
}

/// Waits until every thread of every CTA of a cooperative launch reached
/// it: the group barrier of all of them, CTA 0 first. cpu mode: a CTA
/// barrier (one cooperating CTA).
INTENT_HD inline void grid_barrier(std::uint64_t *counter) {
#if defined(__CUDA_ARCH__)
  group_barrier(counter, gridDim.x, blockIdx.x == 0);
#else
  group_barrier(counter, 1, true);
#endif
}

/// Waits until every thread of the warp reached it: __syncwarp().
INTENT_HD inline void warp_barrier() {
#if defined(__CUDA_ARCH__)
  __syncwarp();
#else
  detail::hostWarpBarrier();
#endif
}

/// V of lane (lane() ^ (lane_mask % 32)): __shfl_xor_sync(full mask).
/// As shfl.sync.bfly, only the low 5 bits of lane_mask count (PTX ISA:
/// bval[4:0] = b[4:0]), so a mask of 33 is a mask of 1 and one of 32 returns
/// this lane's own V; with the full width every computed lane exists.
template <class T> INTENT_HD T warp_shfl_xor(T v, int lane_mask) {
#if defined(__CUDA_ARCH__)
  return detail::deviceShuffle<detail::ShuffleKind::xor_mask>(v, lane_mask);
#else
  return detail::hostShuffle(v, static_cast<unsigned>(lane()) ^
                                    (static_cast<unsigned>(lane_mask) &
                                     (warp_size - 1)));
#endif
}

/// V of lane src_lane % 32 (src_lane & 31, also for a negative src_lane):
/// __shfl_sync(full mask). As shfl.sync.idx, only the low 5 bits count.
template <class T> INTENT_HD T warp_shfl(T v, int src_lane) {
#if defined(__CUDA_ARCH__)
  return detail::deviceShuffle<detail::ShuffleKind::index>(v, src_lane);
#else
  return detail::hostShuffle(v, static_cast<unsigned>(src_lane) &
                                    (warp_size - 1));
#endif
}

/// V of lane (lane() + delta % 32); this lane's own V when that is past
/// lane 31: __shfl_down_sync(full mask). As shfl.sync.down, only the low 5
/// bits of delta count (PTX ISA: bval[4:0] = b[4:0]), so a delta of 32 returns
/// the own V, one of 33 is a delta of 1, and -1 is a delta of 31.
template <class T> INTENT_HD T warp_shfl_down(T v, int delta) {
#if defined(__CUDA_ARCH__)
  return detail::deviceShuffle<detail::ShuffleKind::down>(v, delta);
#else
  return detail::hostShuffle(v, static_cast<unsigned>(lane()) +
                                    (static_cast<unsigned>(delta) &
                                     (warp_size - 1)));
#endif
}

//===--- Shared memory ----------------------------------------------------===//

/// The CTA's dynamic shared memory (launch_config::shared_bytes bytes,
/// aligned to 16) plus byte_offset, as a T *.
template <class T> INTENT_HD T *cta_shared(index byte_offset = 0) {
#if defined(__CUDA_ARCH__)
  return reinterpret_cast<T *>(detail::ctaSharedBase() + byte_offset);
#else
  return reinterpret_cast<T *>(detail::CurrentHostCta.Shared + byte_offset);
#endif
}

//===--- Asynchronous copies into shared memory ---------------------------===//
//
// A thread starts copies of 16-byte chunks from global into shared memory,
// closes them into a group (async_copy_commit) and later waits for all its
// groups (async_copy_wait_all); after that wait in every thread and a
// cta_barrier(), any thread may read the copied bytes. Until then nobody may
// read the destination, and a thread must not start a copy into bytes that
// another thread may still be reading (a cta_barrier() between). In cpu mode
// (and below sm_80) each copy is done at once, synchronously; commit and
// wait are no-ops, so the barrier rules above are the device's.

/// Starts copying the 16 bytes at src (global memory, 16-byte aligned) to
/// dst (this CTA's shared memory, 16-byte aligned):
/// cp.async.cg.shared.global (sm_80+, bypassing L1).
INTENT_HD inline void async_copy16(void *dst, const void *src) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  const unsigned Dst = static_cast<unsigned>(__cvta_generic_to_shared(dst));
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(Dst),
               "l"(__cvta_generic_to_global(src))
               : "memory");
#elif defined(__CUDA_ARCH__)
  *static_cast<uint4 *>(dst) = *static_cast<const uint4 *>(src);
#else
  std::memcpy(dst, src, 16);
#endif
}

/// Closes this thread's copies started since the last commit into a group:
/// cp.async.commit_group.
INTENT_HD inline void async_copy_commit() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  asm volatile("cp.async.commit_group;\n" ::: "memory");
#endif
}

/// Waits until every copy group this thread committed is complete:
/// cp.async.wait_group 0. Other threads see the bytes only after a
/// cta_barrier() that follows this wait in every copying thread.
INTENT_HD inline void async_copy_wait_all() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  asm volatile("cp.async.wait_group 0;\n" ::: "memory");
#endif
}

//===--- The program-id loop ----------------------------------------------===//

/// The first program id of this thread's warp/CTA (its thread for scope
/// thread); the __global__ of a kernel of scope S is
///   for (index pid = program_begin<S>(); pid < total;
///        pid += program_stride<S>())
///     Program(pid, args);
/// The bound and the step are uniform over the warp/CTA, so every thread of
/// it runs the same iterations and barriers inside Program are legal.
template <exec_scope S> INTENT_HD index program_begin() {
  if constexpr (S == exec_scope::thread)
    return cta_id() * static_cast<index>(cta_size()) + cta_thread();
  else if constexpr (S == exec_scope::warp)
    return cta_id() * static_cast<index>(cta_size() / warp_size) +
           warp_in_cta();
  else
    return cta_id();
}

/// The step of the program-id loop: threads, warps or CTAs in the grid.
template <exec_scope S> INTENT_HD index program_stride() {
  if constexpr (S == exec_scope::thread)
    return cta_count() * static_cast<index>(cta_size());
  else if constexpr (S == exec_scope::warp)
    return cta_count() * static_cast<index>(cta_size() / warp_size);
  else
    return cta_count();
}

} // namespace rt
} // namespace intent

#endif // INTENT_RUNTIME_COOP_HPP
