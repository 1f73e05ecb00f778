//===- intent/runtime/launch.hpp - The launch helper of host wrappers ----===//
//
// The one call a generated host wrapper (__intent_launch_<base>, see
// docs/runtime.md "Generated code ABI") makes to run a kernel:
//
//   intent::rt::launch<Program>(Info, Config, Args, Kernel);
//
// Program is the __host__ __device__ function running one program id, Kernel
// the __global__ grid-stride loop around it. In gpu mode the runtime launches
// Kernel on its stream with grid = min(ceil(total / block), max grid); in cpu
// mode it calls Program for every id in [0, total) on host threads. Needs no
// CUDA header: the runtime library does the CUDA calls.
//
//===----------------------------------------------------------------------===//

#ifndef INTENT_RUNTIME_LAUNCH_HPP
#define INTENT_RUNTIME_LAUNCH_HPP

#include "intent/core.hpp"
#include "intent/runtime/api.hpp"

#include <cstddef>
#include <type_traits>

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
};

/// The shape of one launch.
struct launch_config {
  /// The number of program ids, sum of the segment lengths. 0 (or less)
  /// launches nothing.
  index total = 0;
  /// CUDA threads per block in gpu mode (1..1024).
  int block = 256;
  /// Bytes of invocation workspace the kernel needs; the runtime stores a
  /// pointer to at least that many bytes (256-byte aligned, from a pool
  /// reused across launches) into Args::workspace, or null for 0.
  std::size_t workspace_bytes = 0;
  /// Whether the workspace must read as zero when the kernel starts.
  bool zero_workspace = false;
  /// Dynamic shared memory per block in gpu mode.
  std::size_t shared_bytes = 0;
};

namespace detail {

/// Runs program ids [Begin, End) of one launch on the calling host thread.
using HostRangeFn = void (*)(const void *Args, index Begin, index End);

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
  /// The cpu-mode entry.
  HostRangeFn HostEntry;
};

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

} // namespace detail

/// Launches one kernel call: every program id in [0, Config.total) runs
/// Program(id, A) exactly once, on the GPU (through Kernel) or on the host.
/// A must have a member `void *workspace`, which the runtime fills. Counts
/// one launch (launch_count()) even when total is 0. Throws rt::error naming
/// Info when the launch fails.
template <auto Program, class Args>
void launch(const kernel_info &Info, const launch_config &Config, Args &A,
            void (*Kernel)(Args, index)) {
  static_assert(std::is_trivially_copyable<Args>::value,
                "kernel arguments are copied to the device byte for byte");
  static_assert(std::is_same<decltype(A.workspace), void *>::value,
                "the Args struct needs a member `void *workspace`");
  detail::LaunchRequest Request{
      &Info,
      Config,
      &A,
      &A.workspace,
      reinterpret_cast<const void *>(Kernel),
      &detail::runPrograms<Args, Program>};
  detail::launch(Request);
}

} // namespace rt
} // namespace intent

#endif // INTENT_RUNTIME_LAUNCH_HPP
