//===- Internal.h - Declarations shared by the runtime's sources ---------===//
//
// Not installed. Cuda.cpp is the only source that includes a CUDA header;
// the others reach the device through the functions declared here.
//
//===----------------------------------------------------------------------===//

#ifndef INTENT_RUNTIME_INTERNAL_H
#define INTENT_RUNTIME_INTERNAL_H

#include "intent/runtime/api.hpp"
#include "intent/runtime/launch.hpp"

#include <cstddef>
#include <mutex>
#include <string>

namespace intent {
namespace rt {
namespace detail {

//===--- Settings (Settings.cpp) -----------------------------------------===//

/// The value of environment variable Name, or null when unset.
const char *envValue(const char *Name);

/// Environment variable Name as an integer >= Min, or Default when unset or
/// empty. Throws rt::error naming the variable for anything else.
long long envInteger(const char *Name, long long Default, long long Min);

/// Host worker threads in cpu mode: INTENT_CPU_THREADS, default the
/// hardware concurrency.
int cpuThreads();

/// The fewest program ids one cpu-mode worker takes at a time:
/// INTENT_CPU_GRAIN, default 1024.
index cpuGrain();

/// INTENT_CPU_FIBERS=1: cpu mode runs every cooperative program on fibers,
/// one per CUDA thread, even when it has a host serial form (the generated
/// cooperative code, barriers and shuffles included, is then what runs).
bool cpuFibers();

/// INTENT_CHECK contains "bounds" (and not "none"): generated programs check
/// their view accesses.
bool checkBounds();

/// INTENT_CHECK does not contain "none": each launch first checks that no
/// view the kernel writes overlaps another view parameter.
bool checkAliasing();

/// An upper bound on the grid size in blocks, INTENT_MAX_GRID (0: none). Lets
/// tests force the grid-stride loop with small launches.
index maxGridOverride();

/// INTENT_LAUNCH_BLOCKING=1: synchronize after every gpu launch, so that an
/// asynchronous fault is reported against the kernel that caused it.
bool launchBlocking();

/// Adds one launch of Total program ids to the statistics.
void countLaunch(index Total);

/// "kernel 'name' (file:line)".
std::string describe(const kernel_info &Info);

//===--- Launching (Launch.cpp) ------------------------------------------===//

/// Serializes launches and workspace use between host threads.
std::mutex &launchMutex();

/// The number of blocks for Total program ids at Block threads per block,
/// capped at MaxGrid; the kernel's grid-stride loop covers the rest.
index gridSize(index Total, int Block, index MaxGrid);

/// The site of the latest gpu launch, for asynchronous error reports.
void setLastLaunch(const kernel_info *Info);
const kernel_info *lastLaunch();

//===--- Host execution (HostPool.cpp) -----------------------------------===//

/// Runs Entry over program ids [0, Total) on the cpu-mode worker threads and
/// the calling thread, in chunks of at least Grain ids (0: INTENT_CPU_GRAIN);
/// returns when all ids ran. Rethrows the first exception a program threw.
void runOnHost(HostRangeFn Entry, const void *Args, index Total,
               index Grain = 0);

//===--- Cooperative kernels in cpu mode (HostFibers.cpp) ----------------===//

/// Program instances per CTA: block threads, block / 32 warps, or 1 CTA.
index programsPerCta(exec_scope Scope, int Block);

/// The cpu-mode grid of a cooperative launch: enough CTAs for Total
/// programs, at most 4 per host thread (and INTENT_MAX_GRID); the program-id
/// loop covers the rest.
index cpuCooperativeGrid(index Total, exec_scope Scope, int Block);

/// Runs a launch of scope warp or cta on host fibers: the CTAs of the cpu
/// grid on the pool, one at a time per host thread, each CUDA thread a fiber
/// running Request.FiberEntry.
void runCooperativeOnHost(const LaunchRequest &Request);

//===--- Memory (Memory.cpp) ---------------------------------------------===//

/// The invocation workspace: at least Bytes (256-byte aligned) of mode
/// memory, zero-filled on request, valid until the next call. Grows the pool
/// on demand; the caller holds launchMutex().
void *workspace(std::size_t Bytes, bool Zero);

/// The kept-zero workspace (launch_config::workspace_kept_zero): at least
/// Bytes (256-byte aligned) of mode memory from a separate pool, zero-filled
/// only when the pool (re)allocates it or after markKeptZeroDirty(); the
/// kernel leaves it zero. The caller holds launchMutex().
void *keptZeroWorkspace(std::size_t Bytes);

/// A kept-zero launch failed before it could restore the zeros: the next
/// keptZeroWorkspace() zero-fills again.
void markKeptZeroDirty();
/// The kept-zero launch ended as promised.
void clearKeptZeroDirty();

/// cpu mode: whether the first Bytes of the kept-zero workspace are zero.
bool keptZeroIsZero(std::size_t Bytes);

//===--- CUDA (Cuda.cpp) -------------------------------------------------===//

/// Whether a CUDA device can be used; otherwise Why says why.
bool cudaDevicePresent(std::string &Why);

/// The stream launches and copies use: the one set by rt::set_stream, else
/// the runtime's own, created on first use (gpu mode only).
void *cudaStream();

/// rt::set_stream's stream (null: none); no CUDA call.
/// The device's multiprocessors (gpu mode only; cached).
index smCount();
void setUserStream(void *Stream);
void *userStream();

void *cudaAllocate(std::size_t Bytes);
void cudaDeallocate(void *Ptr) noexcept;
void cudaMemset(void *Ptr, std::size_t Bytes);
void cudaCopyToDevice(void *Dst, const void *Src, std::size_t Bytes);
void cudaCopyToHost(void *Dst, const void *Src, std::size_t Bytes);
void cudaSynchronize();

/// Launches Request's __global__ on the runtime's stream, with
/// grid = min(ceil(Total / programs per CTA), max grid).
void cudaLaunch(const LaunchRequest &Request, index Total);

} // namespace detail
} // namespace rt
} // namespace intent

#endif // INTENT_RUNTIME_INTERNAL_H
