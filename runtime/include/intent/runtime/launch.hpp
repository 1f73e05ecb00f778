//===- intent/runtime/launch.hpp - The launch helper of host wrappers ----===//
//
// The one call a generated host wrapper (__intent_launch_<base>, see
// docs/runtime.md "Generated code ABI") makes to run a kernel:
//
//   intent::rt::launch<Program>(Info, Config, Args, Kernel);
//
// Program is the __host__ __device__ function running one program id, Kernel
// the __global__ program-id loop around it. In gpu mode the runtime launches
// Kernel on its stream with grid = min(ceil(total * threads per program /
// block), max grid, resident CTAs if persistent); in cpu mode it calls Program for every id in [0, total)
// on host threads (for a cooperative kernel, exec scope warp or cta, on the
// host fibers of coop.hpp). Needs no CUDA header: the runtime library does
// the CUDA calls.
//
//===----------------------------------------------------------------------===//

#ifndef INTENT_RUNTIME_LAUNCH_HPP
#define INTENT_RUNTIME_LAUNCH_HPP

#include "intent/core.hpp"
#include "intent/runtime/api.hpp"
#include "intent/runtime/bounds.hpp"
#include "intent/runtime/coop.hpp"

#include <cstddef>
#include <type_traits>
#include <utility>

namespace intent {
namespace rt {

/// Names a kernel in error messages: "kernel 'Name' (File:Line)".
struct kernel_info {
  /// The user's kernel name, with template arguments for a specialization
  /// (e.g. "saxpy", "scale<float>").
  const char *name;
  /// The user's source file, as the driver named it.
  const char *file;
  /// The line of the kernel's definition.
  int line;
  /// The kernel's parameter names, comma-separated ("y,x,a"), for bounds
  /// check messages; null when unknown.
  const char *params = nullptr;
};

/// The shape of one launch.
struct launch_config {
  /// The number of program ids (instances), sum of the segment lengths: one
  /// per thread for scope thread, per warp for scope warp, per CTA for scope
  /// cta. 0 (or less) launches nothing.
  index total = 0;
  /// CUDA threads per block (CTA), 1..1024; a multiple of 32 for scopes warp
  /// and cta. In cpu mode the number of fibers of a cooperative CTA.
  int block = 256;
  /// Bytes of invocation workspace the kernel needs; the runtime stores a
  /// pointer to at least that many bytes (256-byte aligned, from a pool
  /// reused across launches) into Args::workspace, or null for 0.
  std::size_t workspace_bytes = 0;
  /// Whether the workspace must read as zero when the kernel starts.
  bool zero_workspace = false;
  /// Dynamic shared memory per block (cta_shared()); in cpu mode the size
  /// of the host buffer of each cooperative CTA being run.
  std::size_t shared_bytes = 0;
  /// Who runs one program instance: a thread, a warp or a CTA.
  exec_scope scope = exec_scope::thread;
  /// The first workspace_bytes of the workspace are zero at kernel start
  /// without a memset per launch: they come from a separate pool zeroed
  /// once when (re)allocated, and the kernel promises to leave them zero
  /// when it ends (docs/runtime.md §4). zero_workspace is then redundant.
  bool workspace_kept_zero = false;
  /// Persistent grid: in gpu mode the grid is also capped at what can be
  /// resident at once (SM count x cudaOccupancyMaxActiveBlocksPerMultiprocessor
  /// for the kernel, block and shared_bytes), so every CTA stays resident and
  /// a CTA with several program ids knows the next one it will run (e.g. to
  /// prefetch for it; no generated kernel uses this now). No effect in cpu
  /// mode, whose cooperative grid is capped anyway (docs/runtime.md §5).
  bool persistent = false;
  /// Cooperative launch (cudaLaunchCooperativeKernel): the CTAs run a split
  /// instance together and wait for each other at grid barriers
  /// (grid_barrier), so all must be resident at once; implies persistent.
  /// cpu mode: no effect (grid_ctas() is 1 there).
  bool cooperative = false;
  /// The program ids of the host serial form when it is a program of its
  /// own (a serial twin: Program::serialTwin in the compiler); cpu mode runs
  /// the serial entry over [0, serial_total). Negative: the same as total.
  index serial_total = -1;
};

namespace detail {

/// Runs program ids [Begin, End) of one launch on the calling host thread.
using HostRangeFn = void (*)(const void *Args, index Begin, index End);

/// The body of one cpu-mode fiber (CUDA thread) of a cooperative launch:
/// the program-id loop of its scope over [0, Total).
using FiberBodyFn = void (*)(const void *Args, index Total);

/// A type-erased launch, what rt::launch hands to the runtime library.
struct LaunchRequest {
  const kernel_info *Info;
  launch_config Config;
  /// The Args object; in gpu mode its bytes are the __global__'s first
  /// parameter.
  void *Args;
  /// Where the runtime writes the workspace pointer (inside *Args).
  void **WorkspaceSlot;
  /// The __global__ function's host stub: void(Args, index).
  const void *DeviceEntry;
  /// The cpu-mode entry (scope thread).
  HostRangeFn HostEntry;
  /// The cpu-mode fiber body (scopes warp and cta).
  FiberBodyFn FiberEntry;
  /// Scope cta only, null when the kernel has none: the cpu-mode entry of
  /// the program's host serial form (one host thread runs a whole CTA
  /// instance, no fibers), which cpu mode runs unless INTENT_CPU_FIBERS=1.
  HostRangeFn SerialEntry = nullptr;
  /// Where the runtime writes the bounds record (inside *Args: member
  /// `check`), null when the Args struct has none.
  bounds_record **CheckSlot = nullptr;
  /// The __global__ variant whose view accesses check bounds, launched
  /// instead of DeviceEntry when INTENT_CHECK=bounds; null: DeviceEntry
  /// checks (or cannot) itself.
  const void *CheckedDeviceEntry = nullptr;
};

/// Whether Args has a member `bounds_record *check` (generated code does).
template <class Args, class = void> struct HasCheck : std::false_type {};
template <class Args>
struct HasCheck<Args, std::void_t<decltype(std::declval<Args &>().check)>>
    : std::is_same<decltype(std::declval<Args &>().check), bounds_record *> {};

/// Points Request.CheckSlot at A.check when Args has one.
template <class Args> void bindCheck(LaunchRequest &Request, Args &A) {
  if constexpr (HasCheck<Args>::value)
    Request.CheckSlot = &A.check;
}

/// Counts the launch, then runs it in the current mode. Defined in the
/// runtime library.
void launch(const LaunchRequest &Request);

/// The cpu-mode entry for Program: a plain loop over the ids, so the host
/// compiler inlines the program into it.
template <class Args, void (*Program)(index, const Args &)>
void runPrograms(const void *ArgsPtr, index Begin, index End) {
  const Args &A = *static_cast<const Args *>(ArgsPtr);
  for (index Id = Begin; Id < End; ++Id)
    Program(Id, A);
}

/// The cpu-mode fiber body of a cooperative Program: the same program-id
/// loop as the kernel's __global__, run by every fiber of every CTA.
template <class Args, void (*Program)(index, const Args &), exec_scope S>
void runFiber(const void *ArgsPtr, index Total) {
  const Args &A = *static_cast<const Args *>(ArgsPtr);
  for (index Id = program_begin<S>(); Id < Total; Id += program_stride<S>())
    Program(Id, A);
}

/// The request that both `launch` overloads issue for Program.
template <auto Program, class Args>
LaunchRequest programRequest(const kernel_info &Info,
                             const launch_config &Config, Args &A,
                             void (*Kernel)(Args, index)) {
  static_assert(std::is_trivially_copyable<Args>::value,
                "kernel arguments are copied to the device byte for byte");
  static_assert(std::is_same<decltype(A.workspace), void *>::value,
                "the Args struct needs a member `void *workspace`");
  LaunchRequest Request{
      &Info,
      Config,
      &A,
      &A.workspace,
      reinterpret_cast<const void *>(Kernel),
      &runPrograms<Args, Program>,
      Config.scope == exec_scope::warp
          ? &runFiber<Args, Program, exec_scope::warp>
          : &runFiber<Args, Program, exec_scope::cta>};
  bindCheck(Request, A);
  return Request;
}
} // namespace detail

/// Launches one kernel call: every program id in [0, Config.total) runs
/// Program(id, A) exactly once, on the GPU (through Kernel) or on the host;
/// with Config.scope warp (cta) "once" means by all threads of one warp
/// (CTA), which Kernel's program-id loop (program_begin / program_stride)
/// and, in cpu mode, the host fibers arrange.
/// A must have a member `void *workspace`, which the runtime fills. Counts
/// one launch (launch_count()) even when total is 0. Throws rt::error naming
/// Info when the launch fails.
template <auto Program, class Args>
void launch(const kernel_info &Info, const launch_config &Config, Args &A,
            void (*Kernel)(Args, index)) {
  detail::launch(detail::programRequest<Program>(Info, Config, A, Kernel));
}

/// As above, with CheckedKernel: the same kernel with bounds checks on its
/// view accesses, which gpu mode launches instead of Kernel when
/// INTENT_CHECK=bounds (docs/runtime.md §3). Program is the host entry and
/// checks when A.check is set.
template <auto Program, class Args>
void launch(const kernel_info &Info, const launch_config &Config, Args &A,
            void (*Kernel)(Args, index), void (*CheckedKernel)(Args, index)) {
  detail::LaunchRequest Request =
      detail::programRequest<Program>(Info, Config, A, Kernel);
  Request.CheckedDeviceEntry = reinterpret_cast<const void *>(CheckedKernel);
  detail::launch(Request);
}

/// As above, for a kernel of exec scope cta that also has a host serial
/// form HostProgram (the same program instance run by one host thread, with
/// its CTA-distributed loops and reductions ordered): cpu mode runs
/// HostProgram for every id like a thread-scope program, unless
/// INTENT_CPU_FIBERS=1 asks for the cooperative Program on fibers. gpu mode
/// is unchanged.
template <auto Program, auto HostProgram, class Args>
void launch(const kernel_info &Info, const launch_config &Config, Args &A,
            void (*Kernel)(Args, index),
            void (*CheckedKernel)(Args, index) = nullptr) {
  detail::LaunchRequest Request =
      detail::programRequest<Program>(Info, Config, A, Kernel);
  Request.SerialEntry = &detail::runPrograms<Args, HostProgram>;
  Request.CheckedDeviceEntry = reinterpret_cast<const void *>(CheckedKernel);
  detail::launch(Request);
}

} // namespace rt
} // namespace intent

#endif // INTENT_RUNTIME_LAUNCH_HPP
