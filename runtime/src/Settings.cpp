//===- Settings.cpp - Execution mode, environment settings, counters -----===//
//
// Everything the runtime reads from the environment, read once and cached,
// and the process-wide launch statistics.
//
//===----------------------------------------------------------------------===//

#include "Internal.h"

#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <thread>

namespace intent {
namespace rt {

namespace {

std::atomic<std::uint64_t> LaunchCount{0};
std::atomic<std::uint64_t> ProgramCount{0};

device_mode computeMode() {
  const char *Value = detail::envValue("INTENT_DEVICE");
  std::string Name = Value ? Value : "";
  if (Name == "cpu")
    return device_mode::cpu;
  if (Name == "reference")
    return device_mode::reference;
  std::string Why;
  if (Name == "gpu") {
    if (!detail::cudaDevicePresent(Why))
      detail::fail("INTENT_DEVICE=gpu but no CUDA device is usable: " + Why);
    return device_mode::gpu;
  }
  if (Name.empty() || Name == "auto")
    return detail::cudaDevicePresent(Why) ? device_mode::gpu
                                          : device_mode::cpu;
  detail::fail("INTENT_DEVICE='" + Name +
               "' is not one of gpu, cpu, reference, auto");
}

} // namespace

device_mode mode() {
  static const device_mode Mode = computeMode();
  return Mode;
}

const char *mode_name(device_mode Mode) {
  switch (Mode) {
  case device_mode::gpu:
    return "gpu";
  case device_mode::cpu:
    return "cpu";
  case device_mode::reference:
    return "reference";
  }
  return "unknown";
}

std::uint64_t launch_count() { return LaunchCount.load(); }

int sm_count() {
  return mode() == device_mode::gpu ? static_cast<int>(detail::smCount()) : 1;
}

std::uint64_t program_count() { return ProgramCount.load(); }
void note_reference_call() { ++LaunchCount; }

namespace detail {

void countLaunch(index Total) {
  ++LaunchCount;
  if (Total > 0)
    ProgramCount += static_cast<std::uint64_t>(Total);
}

void fail(const std::string &Message) { throw error("intent: " + Message); }

const char *envValue(const char *Name) { return std::getenv(Name); }

long long envInteger(const char *Name, long long Default, long long Min) {
  const char *Value = envValue(Name);
  if (!Value || !*Value)
    return Default;
  errno = 0;
  char *End = nullptr;
  long long Result = std::strtoll(Value, &End, 10);
  if (errno != 0 || *End != '\0' || Result < Min)
    fail(std::string(Name) + "='" + Value + "' is not an integer >= " +
         std::to_string(Min));
  return Result;
}

int cpuThreads() {
  static const int Threads = [] {
    long long Hardware = std::thread::hardware_concurrency();
    long long Value = envInteger("INTENT_CPU_THREADS",
                                 Hardware > 0 ? Hardware : 1, 1);
    return static_cast<int>(Value > 1024 ? 1024 : Value);
  }();
  return Threads;
}

index cpuGrain() {
  static const index Grain = envInteger("INTENT_CPU_GRAIN", 1024, 1);
  return Grain;
}

bool cpuFibers() {
  static const bool Fibers = envInteger("INTENT_CPU_FIBERS", 0, 0) != 0;
  return Fibers;
}

namespace {
/// INTENT_CHECK: a comma-separated list of "bounds" (check every view access
/// of generated programs) and "none" (no checks at all, not even the alias
/// check before each launch). Unset or empty: the alias check only.
struct CheckSettings {
  bool Bounds = false;
  bool Alias = true;
};

const CheckSettings &checkSettings() {
  static const CheckSettings Settings = [] {
    CheckSettings S;
    const char *Value = envValue("INTENT_CHECK");
    std::string List = Value ? Value : "";
    for (std::size_t Pos = 0; Pos <= List.size();) {
      std::size_t End = List.find(',', Pos);
      if (End == std::string::npos)
        End = List.size();
      std::string Word = List.substr(Pos, End - Pos);
      if (Word == "bounds")
        S.Bounds = true;
      else if (Word == "none")
        S.Alias = false;
      else if (!Word.empty())
        fail("INTENT_CHECK='" + List +
             "' is not a comma-separated list of bounds, none");
      Pos = End + 1;
    }
    if (!S.Alias)
      S.Bounds = false;
    return S;
  }();
  return Settings;
}
} // namespace

bool checkBounds() { return checkSettings().Bounds; }
bool bounds_checks() { return checkBounds(); }

bool checkAliasing() { return checkSettings().Alias; }

index maxGridOverride() {
  static const index Max = envInteger("INTENT_MAX_GRID", 0, 0);
  return Max;
}

bool launchBlocking() {
  static const bool Blocking = envInteger("INTENT_LAUNCH_BLOCKING", 0, 0) != 0;
  return Blocking;
}

std::string describe(const kernel_info &Info) {
  return std::string("kernel '") + Info.name + "' (" + Info.file + ":" +
         std::to_string(Info.line) + ")";
}

} // namespace detail
} // namespace rt
} // namespace intent
