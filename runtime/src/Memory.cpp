//===- Memory.cpp - Mode memory for arrays and the workspace pool --------===//
//
// intent::array's storage and the invocation workspace: device memory in
// gpu mode, 256-byte aligned host memory in cpu and reference modes.
//
//===----------------------------------------------------------------------===//

#include "Internal.h"

#include <cstring>
#include <new>

namespace intent {
namespace rt {

namespace {

constexpr std::size_t HostAlignment = 256;

void *hostAllocate(std::size_t Bytes) {
  void *Ptr = ::operator new(Bytes, std::align_val_t(HostAlignment),
                             std::nothrow);
  if (!Ptr)
    detail::fail("out of host memory allocating " + std::to_string(Bytes) +
                 " bytes");
  std::memset(Ptr, 0, Bytes);
  return Ptr;
}

void hostDeallocate(void *Ptr) noexcept {
  ::operator delete(Ptr, std::align_val_t(HostAlignment));
}

/// One buffer, replaced by a larger one when a launch needs more. Launches
/// are serialized and, in gpu mode, ordered on one stream, so every launch
/// may reuse the whole buffer; replacing it waits for the launches still
/// using the old one (cudaFree synchronizes).
struct WorkspacePool {
  void *Buffer = nullptr;
  std::size_t Capacity = 0;
};

} // namespace

void synchronize() {
  if (mode() == device_mode::gpu)
    detail::cudaSynchronize();
}

void *stream_handle() {
  return mode() == device_mode::gpu ? detail::cudaStream() : nullptr;
}

void set_stream(CUstream_st *Stream) {
  // The work issued so far runs before anything on the new stream.
  if (mode() == device_mode::gpu)
    detail::cudaSynchronize();
  detail::setUserStream(Stream);
}

CUstream_st *get_stream() {
  return static_cast<CUstream_st *>(detail::userStream());
}

namespace detail {

void *allocate(std::size_t Bytes) {
  if (Bytes == 0)
    return nullptr;
  if (mode() != device_mode::gpu)
    return hostAllocate(Bytes);
  void *Ptr = cudaAllocate(Bytes);
  cudaMemset(Ptr, Bytes);
  return Ptr;
}

void deallocate(void *Ptr) noexcept {
  if (!Ptr)
    return;
  // mode() cannot throw here: it succeeded when Ptr was allocated.
  if (mode() == device_mode::gpu)
    cudaDeallocate(Ptr);
  else
    hostDeallocate(Ptr);
}

void copy_to_mode(void *Dst, const void *Src, std::size_t Bytes) {
  if (Bytes == 0)
    return;
  if (mode() == device_mode::gpu)
    cudaCopyToDevice(Dst, Src, Bytes);
  else
    std::memcpy(Dst, Src, Bytes);
}

void copy_from_mode(void *Dst, const void *Src, std::size_t Bytes) {
  if (mode() == device_mode::gpu) {
    // Also reports a failure of an earlier asynchronous launch when empty.
    if (Bytes == 0)
      cudaSynchronize();
    else
      cudaCopyToHost(Dst, Src, Bytes);
    return;
  }
  if (Bytes != 0)
    std::memcpy(Dst, Src, Bytes);
}

namespace {

/// Makes Pool hold at least Bytes; a new buffer is zero-filled (both
/// allocators zero). Returns whether it allocated.
bool growPool(WorkspacePool &Pool, std::size_t Bytes, bool Gpu) {
  if (Bytes <= Pool.Capacity)
    return false;
  // Grow geometrically so that a slowly growing sequence of launches
  // reallocates O(log n) times.
  std::size_t Capacity = 4096;
  while (Capacity < Bytes)
    Capacity *= 2;
  if (Pool.Buffer)
    Gpu ? cudaDeallocate(Pool.Buffer) : hostDeallocate(Pool.Buffer);
  Pool.Buffer = nullptr;
  Pool.Capacity = 0;
  Pool.Buffer = Gpu ? cudaAllocate(Capacity) : hostAllocate(Capacity);
  if (Gpu)
    cudaMemset(Pool.Buffer, Capacity);
  Pool.Capacity = Capacity;
  return true;
}

WorkspacePool KeptZeroPool;
bool KeptZeroDirty = false;

} // namespace

void *workspace(std::size_t Bytes, bool Zero) {
  if (Bytes == 0)
    return nullptr;
  static WorkspacePool Pool;
  bool Gpu = mode() == device_mode::gpu;
  bool Fresh = growPool(Pool, Bytes, Gpu);
  if (Zero && !Fresh) {
    if (Gpu)
      cudaMemset(Pool.Buffer, Bytes);
    else
      std::memset(Pool.Buffer, 0, Bytes);
  }
  return Pool.Buffer;
}

void *keptZeroWorkspace(std::size_t Bytes) {
  if (Bytes == 0)
    return nullptr;
  bool Gpu = mode() == device_mode::gpu;
  // A new buffer is zero in full, so the bytes past an earlier, shorter
  // launch's are zero as well.
  bool Fresh = growPool(KeptZeroPool, Bytes, Gpu);
  if (KeptZeroDirty && !Fresh) {
    if (Gpu)
      cudaMemset(KeptZeroPool.Buffer, KeptZeroPool.Capacity);
    else
      std::memset(KeptZeroPool.Buffer, 0, KeptZeroPool.Capacity);
  }
  KeptZeroDirty = false;
  return KeptZeroPool.Buffer;
}

void markKeptZeroDirty() { KeptZeroDirty = true; }
void clearKeptZeroDirty() { KeptZeroDirty = false; }

bool keptZeroIsZero(std::size_t Bytes) {
  const auto *P = static_cast<const unsigned char *>(KeptZeroPool.Buffer);
  for (std::size_t I = 0; I < Bytes; ++I)
    if (P[I] != 0)
      return false;
  return true;
}

} // namespace detail
} // namespace rt
} // namespace intent
