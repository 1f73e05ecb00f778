//===- Launch.cpp - Dispatching a kernel launch to the execution mode ----===//
//
// rt::launch's library half: counts the call, binds the invocation
// workspace, and runs the program space on the GPU or on host threads.
//
//===----------------------------------------------------------------------===//

#include "Internal.h"

#include <atomic>
#include <exception>

namespace intent {
namespace rt {
namespace detail {

namespace {
std::atomic<const kernel_info *> LastLaunch{nullptr};
} // namespace

std::mutex &launchMutex() {
  static std::mutex Mutex;
  return Mutex;
}

void setLastLaunch(const kernel_info *Info) { LastLaunch.store(Info); }
const kernel_info *lastLaunch() { return LastLaunch.load(); }

index gridSize(index Total, int Block, index MaxGrid) {
  if (Total <= 0)
    return 0;
  index Blocks = Total / Block + (Total % Block != 0 ? 1 : 0);
  return MaxGrid > 0 && Blocks > MaxGrid ? MaxGrid : Blocks;
}

void launch(const LaunchRequest &Request) {
  const launch_config &Config = Request.Config;
  device_mode Mode = mode();
  if (Mode == device_mode::reference)
    fail(describe(*Request.Info) +
         " reached the launch helper in reference mode; the rewritten call "
         "should have run the serial body");
  if (Config.block < 1 || Config.block > 1024)
    fail(describe(*Request.Info) + " has an invalid block size " +
         std::to_string(Config.block));
  const bool Cooperative = Config.scope != exec_scope::thread;
  if (Cooperative && Config.block % warp_size != 0)
    fail(describe(*Request.Info) + " has block size " +
         std::to_string(Config.block) + ", not a multiple of 32, for exec " +
         "scope " + (Config.scope == exec_scope::warp ? "warp" : "cta"));
  countLaunch(Config.total);
  if (Config.total <= 0)
    return;

  std::lock_guard<std::mutex> Lock(launchMutex());
  const bool KeptZero = Config.workspace_kept_zero;
  *Request.WorkspaceSlot =
      KeptZero ? keptZeroWorkspace(Config.workspace_bytes)
               : workspace(Config.workspace_bytes, Config.zero_workspace);
  if (Mode == device_mode::gpu) {
    // Dirty until the launch is known to have been issued; a fault during
    // the kernel ends the CUDA context anyway.
    if (KeptZero)
      markKeptZeroDirty();
    cudaLaunch(Request, Config.total);
    if (KeptZero)
      clearKeptZeroDirty();
    return;
  }
  try {
    if (KeptZero)
      markKeptZeroDirty();
    if (Cooperative && Request.SerialEntry && !cpuFibers())
      runOnHost(Request.SerialEntry, Request.Args, Config.total);
    else if (Cooperative)
      runCooperativeOnHost(Request);
    else
      runOnHost(Request.HostEntry, Request.Args, Config.total);
  } catch (const error &) {
    throw;
  } catch (const std::exception &E) {
    fail(describe(*Request.Info) + " failed on the host: " + E.what());
  }
  // The kernel promised to leave the kept-zero bytes zero: hold it to that
  // in cpu mode, where checking costs a scan of the host buffer.
  if (KeptZero) {
    if (!keptZeroIsZero(Config.workspace_bytes))
      fail(describe(*Request.Info) +
           " left its kept-zero workspace (workspace_kept_zero) non-zero");
    clearKeptZeroDirty();
  }
}

} // namespace detail
} // namespace rt
} // namespace intent
