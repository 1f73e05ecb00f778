//===- Cuda.cpp - Every CUDA runtime call of the Intent runtime ----------===//
//
// The device, the runtime's stream, device memory, launches and error
// reports. Only gpu mode reaches here, except cudaDevicePresent, which the
// mode selection calls and which must tolerate a machine without a GPU or
// driver.
//
//===----------------------------------------------------------------------===//

#include "Internal.h"

#include <cuda_runtime_api.h>

#include <algorithm>
#include <atomic>
#include <map>
#include <mutex>
#include <set>
#include <tuple>

namespace intent {
namespace rt {
namespace detail {

namespace {

std::string cudaMessage(cudaError_t Err) {
  return std::string(cudaGetErrorName(Err)) + ": " + cudaGetErrorString(Err);
}

/// Throws "intent: <What>: <CUDA error>" when Err is not cudaSuccess.
void check(cudaError_t Err, const std::string &What) {
  if (Err != cudaSuccess)
    fail(What + ": " + cudaMessage(Err));
}

/// An error surfaced by a synchronizing call: it may come from any earlier
/// asynchronous launch, so name the latest one.
void checkAsync(cudaError_t Err, const char *Call) {
  if (Err == cudaSuccess)
    return;
  const kernel_info *Last = lastLaunch();
  if (!Last)
    fail(std::string(Call) + " failed: " + cudaMessage(Err));
  fail(describe(*Last) + " failed: " + cudaMessage(Err) +
       " (reported by " + Call +
       "; an earlier launch may be at fault unless INTENT_LAUNCH_BLOCKING=1)");
}

index deviceMaxGrid() {
  static const index Max = [] {
    int Device = 0, Value = 0;
    check(cudaGetDevice(&Device), "cudaGetDevice");
    check(cudaDeviceGetAttribute(&Value, cudaDevAttrMaxGridDimX, Device),
          "cudaDeviceGetAttribute(MaxGridDimX)");
    return static_cast<index>(Value);
  }();
  return Max;
}

index deviceSmCount() {
  static const index Count = [] {
    int Device = 0, Value = 0;
    check(cudaGetDevice(&Device), "cudaGetDevice");
    check(cudaDeviceGetAttribute(&Value, cudaDevAttrMultiProcessorCount,
                                 Device),
          "cudaDeviceGetAttribute(MultiProcessorCount)");
    return static_cast<index>(Value);
  }();
  return Count;
}

/// The CTAs of Entry that are resident at once on the device with Block
/// threads and Shared bytes of dynamic shared memory (at least one SM's
/// worth: 0 from the occupancy query would not launch at all).
index residentCtas(const void *Entry, int Block, std::size_t Shared,
                   const std::string &Where) {
  static std::map<std::tuple<const void *, int, std::size_t>, index> Known;
  auto Key = std::make_tuple(Entry, Block, Shared);
  auto It = Known.find(Key);
  if (It != Known.end())
    return It->second;
  int PerSm = 0;
  check(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&PerSm, Entry, Block,
                                                      Shared),
        Where + ": cudaOccupancyMaxActiveBlocksPerMultiprocessor");
  index Ctas = deviceSmCount() * static_cast<index>(PerSm > 0 ? PerSm : 1);
  Known.emplace(Key, Ctas);
  return Ctas;
}

} // namespace

bool cudaDevicePresent(std::string &Why) {
  int Count = 0;
  cudaError_t Err = cudaGetDeviceCount(&Count);
  if (Err != cudaSuccess) {
    Why = cudaMessage(Err);
    (void)cudaGetLastError();
    return false;
  }
  if (Count == 0) {
    Why = "cudaGetDeviceCount found no device";
    return false;
  }
  return true;
}

namespace {
/// The stream set by rt::set_stream, or null.
std::atomic<cudaStream_t> UserStream{nullptr};
} // namespace

index smCount() { return deviceSmCount(); }

void setUserStream(void *Stream) {
  UserStream.store(static_cast<cudaStream_t>(Stream));
}

void *userStream() { return UserStream.load(); }

void *cudaStream() {
  if (cudaStream_t User = UserStream.load())
    return User;
  static cudaStream_t Stream = [] {
    cudaStream_t S = nullptr;
    // A blocking stream: it also orders with the legacy default stream, so
    // user CUDA code on stream 0 interoperates without extra syncs.
    check(cudaStreamCreateWithFlags(&S, cudaStreamDefault),
          "cannot create the runtime's CUDA stream");
    return S;
  }();
  return Stream;
}

static cudaStream_t stream() { return static_cast<cudaStream_t>(cudaStream()); }

void *cudaAllocate(std::size_t Bytes) {
  void *Ptr = nullptr;
  cudaError_t Err = cudaMalloc(&Ptr, Bytes);
  if (Err != cudaSuccess) {
    (void)cudaGetLastError();
    fail("cannot allocate " + std::to_string(Bytes) +
         " bytes of device memory: " + cudaMessage(Err));
  }
  return Ptr;
}

void cudaDeallocate(void *Ptr) noexcept {
  // Errors here (e.g. at process exit, after the CUDA runtime shut down)
  // cannot be acted upon; cudaFree waits for work still using Ptr.
  (void)cudaFree(Ptr);
}

void cudaMemset(void *Ptr, std::size_t Bytes) {
  check(cudaMemsetAsync(Ptr, 0, Bytes, stream()), "cudaMemsetAsync");
}

void cudaCopyToDevice(void *Dst, const void *Src, std::size_t Bytes) {
  // From pageable memory the copy is staged before the call returns, so Src
  // may be reused at once; it still runs after every earlier launch.
  checkAsync(cudaMemcpyAsync(Dst, Src, Bytes, cudaMemcpyHostToDevice, stream()),
             "cudaMemcpyAsync");
}

void cudaCopyToHost(void *Dst, const void *Src, std::size_t Bytes) {
  checkAsync(cudaMemcpyAsync(Dst, Src, Bytes, cudaMemcpyDeviceToHost, stream()),
             "cudaMemcpyAsync");
  checkAsync(cudaStreamSynchronize(stream()), "cudaStreamSynchronize");
}

void cudaSynchronize() {
  checkAsync(cudaStreamSynchronize(stream()), "cudaStreamSynchronize");
}

void cudaLaunch(const LaunchRequest &Request, index Total) {
  const launch_config &Config = Request.Config;
  const std::string Where = describe(*Request.Info);
  index MaxGrid = deviceMaxGrid();
  if (maxGridOverride() > 0 && maxGridOverride() < MaxGrid)
    MaxGrid = maxGridOverride();
  // One program per thread, per warp or per CTA.
  index Grid = gridSize(
      Total, static_cast<int>(programsPerCta(Config.scope, Config.block)),
      MaxGrid);

  // Above 48 KiB, dynamic shared memory must be opted into per function.
  // The attribute is the function's maximum: raise it only (setting it for
  // a smaller launch would make a later, larger one fail with "invalid
  // argument"). Launches are serialized (launchMutex), so the map is safe.
  if (Config.shared_bytes > 48 * 1024) {
    static std::map<const void *, std::size_t> OptedIn;
    std::size_t &Max = OptedIn[Request.DeviceEntry];
    if (Config.shared_bytes > Max) {
      check(cudaFuncSetAttribute(Request.DeviceEntry,
                                 cudaFuncAttributeMaxDynamicSharedMemorySize,
                                 static_cast<int>(Config.shared_bytes)),
            Where + " failed to reserve shared memory");
      Max = Config.shared_bytes;
    }
  }

  // A persistent grid: no more CTAs than are resident at once (after the
  // shared-memory opt-in above, which the occupancy query depends on).
  if (Config.persistent || Config.cooperative)
    Grid = std::min(Grid, residentCtas(Request.DeviceEntry, Config.block,
                                       Config.shared_bytes, Where));

  void *Params[] = {Request.Args, &Total};
  setLastLaunch(Request.Info);
  cudaError_t Err =
      Config.cooperative
          ? cudaLaunchCooperativeKernel(
                Request.DeviceEntry, dim3(static_cast<unsigned>(Grid)),
                dim3(static_cast<unsigned>(Config.block)), Params,
                Config.shared_bytes, stream())
          : cudaLaunchKernel(Request.DeviceEntry,
                             dim3(static_cast<unsigned>(Grid)),
                             dim3(static_cast<unsigned>(Config.block)), Params,
                             Config.shared_bytes, stream());
  if (Err == cudaSuccess)
    Err = cudaGetLastError();
  check(Err, Where + " failed");
  if (launchBlocking())
    check(cudaStreamSynchronize(stream()), Where + " failed");
}

} // namespace detail
} // namespace rt
} // namespace intent
