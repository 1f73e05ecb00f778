// The launch helper (intent/runtime/launch.hpp) driven directly by
// hand-written programs, in every mode: each id runs exactly once, an empty
// launch counts but runs nothing, the workspace is aligned and zeroed per
// launch, and failures name the kernel. In reference mode the helper must
// refuse to run (the rewritten call runs the serial body instead).
#include <intent/runtime/kernel.hpp>

#include "check.hpp"

#include <cstdio>
#include <cstdlib>

namespace {

using intent::index;
namespace rt = intent::rt;

struct CoverArgs {
  intent::view<int, 1> hits;
  void *workspace;
};

/// Each id increments its own slot: a non-atomic +1 is safe only if every id
/// runs exactly once.
INTENT_PROGRAM void coverProgram(index pid, const CoverArgs &a) {
  a.hits[pid] += 1;
}

__global__ void coverKernel(CoverArgs a, index total) {
  for (index pid = rt::global_thread_id(); pid < total;
       pid += rt::global_thread_count())
    coverProgram(pid, a);
}

const rt::kernel_info CoverInfo{"cover", "launch_tests.cu", 25};

struct WorkspaceArgs {
  intent::view<int, 1> ok;
  void *workspace;
};

/// Records whether the workspace is 256-byte aligned and its own slot read
/// zero, then dirties the slot.
INTENT_PROGRAM void workspaceProgram(index pid, const WorkspaceArgs &a) {
  int *slots = static_cast<int *>(a.workspace);
  a.ok[pid] = (rt::is_aligned(a.workspace, 256) ? 1 : 0) + (slots[pid] == 0 ? 2 : 0);
  slots[pid] = 12345;
}

__global__ void workspaceKernel(WorkspaceArgs a, index total) {
  for (index pid = rt::global_thread_id(); pid < total;
       pid += rt::global_thread_count())
    workspaceProgram(pid, a);
}

const rt::kernel_info WorkspaceInfo{"ws", "launch_tests.cu", 44};

/// Throws on the host at id 5 (cpu mode only).
INTENT_PROGRAM void throwingProgram(index pid, const CoverArgs &a) {
#if !defined(__CUDA_ARCH__)
  if (pid == 5)
    throw std::runtime_error("boom");
#endif
  a.hits[pid] = 1;
}

__global__ void throwingKernel(CoverArgs a, index total) {
  for (index pid = rt::global_thread_id(); pid < total;
       pid += rt::global_thread_count())
    throwingProgram(pid, a);
}

const rt::kernel_info ThrowingInfo{"thrower", "launch_tests.cu", 59};

/// Writes through a wild pointer: an illegal address on the GPU.
INTENT_PROGRAM void faultyProgram(index pid, const CoverArgs &a) {
  a.hits.data()[pid * (index(1) << 40)] = 1;
}

__global__ void faultyKernel(CoverArgs a, index total) {
  for (index pid = rt::global_thread_id(); pid < total;
       pid += rt::global_thread_count())
    faultyProgram(pid, a);
}

const rt::kernel_info FaultyInfo{"faulty", "launch_tests.cu", 76};

/// Runs Statement and expects an rt::error whose message contains Text.
template <class F>
void expectError(check::suite &S, F Statement, const std::string &Text) {
  try {
    Statement();
    S.expect(false, "no rt::error; expected '" + Text + "'");
  } catch (const rt::error &E) {
    S.expect(std::string(E.what()).find(Text) != std::string::npos,
             std::string("error '") + E.what() + "' lacks '" + Text + "'");
  }
}

void testCoverage(check::suite &S) {
  for (index Total : {index(0), index(1), index(255), index(256), index(257),
                      index(1000001)}) {
    std::string What = "cover total=" + std::to_string(Total);
    intent::array<int> Hits(Total + 1);
    CoverArgs A{intent::view<int, 1>(Hits.data(), {Total}), nullptr};
    check::counters Before = check::now();
    rt::launch_config Config;
    Config.total = Total;
    Config.block = Total % 2 ? 128 : 256;
    rt::launch<coverProgram>(CoverInfo, Config, A, coverKernel);
    S.expectOneLaunch(Before, Total, What);
    std::vector<int> Want(Total + 1, 1);
    Want[Total] = 0; // past the launch: untouched
    S.expectNear(Hits.to_vector(), Want, 0.0, What);
  }
  // A negative total (a length expression below zero) launches nothing.
  check::counters Before = check::now();
  CoverArgs A{intent::view<int, 1>(), nullptr};
  rt::launch<coverProgram>(CoverInfo, rt::launch_config{-3}, A, coverKernel);
  S.expectOneLaunch(Before, 0, "negative total");
}

void testWorkspace(check::suite &S) {
  for (index Total : {index(10), index(3000), index(100), index(70000)}) {
    intent::array<int> Ok(Total);
    WorkspaceArgs A{Ok.view(), nullptr};
    rt::launch_config Config;
    Config.total = Total;
    Config.workspace_bytes = sizeof(int) * static_cast<std::size_t>(Total);
    Config.zero_workspace = true;
    rt::launch<workspaceProgram>(WorkspaceInfo, Config, A, workspaceKernel);
    S.expect(A.workspace != nullptr, "workspace pointer written into Args");
    S.expectNear(Ok.to_vector(), std::vector<int>(Total, 3), 0.0,
                 "workspace aligned and zeroed, total=" + std::to_string(Total));
  }
}

void testErrors(check::suite &S) {
  CoverArgs A{intent::view<int, 1>(), nullptr};
  rt::launch_config Bad;
  Bad.total = 1;
  Bad.block = 0;
  expectError(S, [&] { rt::launch<coverProgram>(CoverInfo, Bad, A, coverKernel); },
              "intent: kernel 'cover' (launch_tests.cu:25) has an invalid "
              "block size 0");
  if (rt::mode() == rt::device_mode::cpu) {
    intent::array<int> Hits(4000);
    CoverArgs T{Hits.view(), nullptr};
    rt::launch_config Config;
    Config.total = 4000;
    expectError(S,
                [&] {
                  rt::launch<throwingProgram>(ThrowingInfo, Config, T,
                                              throwingKernel);
                },
                "intent: kernel 'thrower' (launch_tests.cu:59) failed on the "
                "host: boom");
  }
}

/// INTENT_TEST_FAULT=1 (gpu mode): a kernel faults; prints the runtime's
/// error, which CTest matches, and exits 0 if there was one.
int testFault() {
  if (rt::mode() != rt::device_mode::gpu) {
    std::printf("SKIP: the fault test needs gpu mode\n");
    return 77;
  }
  intent::array<int> Hits(1 << 20);
  CoverArgs A{Hits.view(), nullptr};
  try {
    rt::launch<faultyProgram>(FaultyInfo, rt::launch_config{1 << 20}, A,
                              faultyKernel);
    rt::synchronize();
  } catch (const rt::error &E) {
    std::printf("%s\n", E.what());
    return 0;
  }
  std::printf("no error from a faulting kernel\n");
  return 1;
}

} // namespace

int main() {
  if (std::getenv("INTENT_TEST_FAULT"))
    return testFault();
  check::suite S("launch_tests");
  if (check::reference()) {
    CoverArgs A{intent::view<int, 1>(), nullptr};
    check::counters Before = check::now();
    expectError(S,
                [&] {
                  rt::launch<coverProgram>(CoverInfo, rt::launch_config{1}, A,
                                           coverKernel);
                },
                "kernel 'cover' (launch_tests.cu:25) reached the launch "
                "helper in reference mode");
    S.expect(check::now().Launches == Before.Launches,
             "a refused launch does not count");
    return S.finish();
  }
  testCoverage(S);
  testWorkspace(S);
  testErrors(S);
  return S.finish();
}
