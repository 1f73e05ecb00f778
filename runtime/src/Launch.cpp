//===- Launch.cpp - Dispatching a kernel launch to the execution mode ----===//
//
// rt::launch's library half: counts the call, binds the invocation
// workspace, and runs the program space on the GPU or on host threads.
//
//===----------------------------------------------------------------------===//

#include "Internal.h"

#include <atomic>
#include <exception>
#include <string>

namespace intent {
namespace rt {
namespace detail {

namespace {
std::atomic<const kernel_info *> LastLaunch{nullptr};

/// The bounds record of INTENT_CHECK=bounds in mode memory, zero between
/// launches; created on first use. The caller holds launchMutex().
bounds_record *boundsRecord(device_mode Mode) {
  static bounds_record Host{};
  if (Mode != device_mode::gpu)
    return &Host;
  static bounds_record *Device = nullptr;
  if (!Device) {
    Device = static_cast<bounds_record *>(cudaAllocate(sizeof(bounds_record)));
    cudaMemset(Device, sizeof(bounds_record));
  }
  return Device;
}

/// Name number Param of the comma-separated list Params, or "".
std::string paramName(const char *Params, int Param) {
  if (!Params || Param < 0)
    return "";
  std::string All(Params);
  std::size_t Begin = 0;
  for (int I = 0; I < Param; ++I) {
    Begin = All.find(',', Begin);
    if (Begin == std::string::npos)
      return "";
    ++Begin;
  }
  return All.substr(Begin, All.find(',', Begin) - Begin);
}

[[noreturn]] void failBounds(const kernel_info &Info, const bounds_record &R) {
  std::string View = paramName(Info.params, R.param);
  fail(describe(Info) + ": out-of-bounds view access at " + Info.file + ":" +
       std::to_string(R.line) + ":" + std::to_string(R.col) + ": index " +
       std::to_string(R.index) + " in dimension " + std::to_string(R.dim) +
       " of " + (View.empty() ? std::string("a view") : "view '" + View + "'") +
       ", whose extent is " + std::to_string(R.extent) +
       " (INTENT_CHECK=bounds)");
}
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
  bounds_record *Bounds = nullptr;
  if (Request.CheckSlot)
    *Request.CheckSlot = Bounds =
        checkBounds() ? boundsRecord(Mode) : nullptr;
  if (Mode == device_mode::gpu) {
    // Dirty until the launch is known to have been issued; a fault during
    // the kernel ends the CUDA context anyway.
    if (KeptZero)
      markKeptZeroDirty();
    if (Bounds && Request.CheckedDeviceEntry) {
      LaunchRequest Checked = Request;
      Checked.DeviceEntry = Request.CheckedDeviceEntry;
      cudaLaunch(Checked, Config.total);
    } else {
      cudaLaunch(Request, Config.total);
    }
    if (KeptZero)
      clearKeptZeroDirty();
    if (Bounds) {
      // Checking is on: wait for the kernel and report its first failure.
      bounds_record R{};
      cudaCopyToHost(&R, Bounds, sizeof(R));
      if (R.hit) {
        cudaMemset(Bounds, sizeof(R));
        failBounds(*Request.Info, R);
      }
    }
    return;
  }
  try {
    if (KeptZero)
      markKeptZeroDirty();
    if (Cooperative && Request.SerialEntry && !cpuFibers())
      runOnHost(Request.SerialEntry, Request.Args,
                Config.serial_total >= 0 ? Config.serial_total : Config.total);
    else if (Cooperative)
      runCooperativeOnHost(Request);
    else
      runOnHost(Request.HostEntry, Request.Args, Config.total);
  } catch (const error &) {
    throw;
  } catch (const bounds_error &E) {
    failBounds(*Request.Info, E.Record);
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
