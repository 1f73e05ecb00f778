// rt::set_stream / rt::get_stream: a program launches on its own CUDA stream
// (PyTorch/CUDA interop). In gpu mode every launch and copy after
// set_stream(S) runs on S (stream_handle() returns S) and program order
// holds across the switch; set_stream(nullptr) goes back to the runtime's
// own stream. In cpu and reference modes the stream is recorded only.
#include <intent/runtime/kernel.hpp>

#include "check.hpp"

#include <cuda_runtime_api.h>

#include <cstdint>
#include <vector>

namespace {

using intent::index;
namespace rt = intent::rt;

struct AddArgs {
  intent::view<int, 1> out;
  void *workspace;
};

INTENT_PROGRAM void addProgram(index pid, const AddArgs &a) { a.out[pid] += 1; }

__global__ void addKernel(AddArgs a, index total) {
  for (index pid = rt::global_thread_id(); pid < total;
       pid += rt::global_thread_count())
    addProgram(pid, a);
}

const rt::kernel_info AddInfo{"add", "set_stream_tests.cu", 22};

/// Adds one to every element of Out (the serial body in reference mode).
void add(intent::array<int> &Out) {
  AddArgs A{Out.view(), nullptr};
  index N = static_cast<index>(Out.size());
  if (check::reference()) {
    rt::note_reference_call();
    std::vector<int> V = Out.to_vector();
    for (int &X : V)
      X += 1;
    Out.copy_from(V);
    return;
  }
  rt::launch<addProgram>(AddInfo, rt::launch_config{N}, A, addKernel);
}

} // namespace

int main() {
  check::suite S("set_stream_tests");
  const intent::index N = 1 << 20;
  intent::array<int> Out(N);
  S.expect(rt::get_stream() == nullptr, "no stream set at start");
  add(Out);

  bool Gpu = rt::mode() == rt::device_mode::gpu;
  cudaStream_t Mine = nullptr;
  if (Gpu) {
    S.expect(cudaStreamCreateWithFlags(&Mine, cudaStreamNonBlocking) ==
                 cudaSuccess,
             "cudaStreamCreateWithFlags");
  } else {
    // Never used for CUDA calls outside gpu mode: only recorded.
    Mine = reinterpret_cast<cudaStream_t>(std::uintptr_t(0x1000));
  }
  rt::set_stream(Mine);
  S.expect(rt::get_stream() == Mine, "get_stream returns the stream set");
  if (Gpu)
    S.expect(rt::stream_handle() == Mine, "stream_handle is the stream set");
  else
    S.expect(rt::stream_handle() == nullptr, "no stream outside gpu mode");
  // Launches on the user's (non-blocking) stream: only program order on it
  // makes the second add see the first, and the copy below see both.
  add(Out);
  add(Out);
  if (Gpu)
    S.expect(cudaStreamSynchronize(Mine) == cudaSuccess, "sync of my stream");
  S.expectNear(Out.to_vector(), std::vector<int>(N, 3), 0.0, "three adds");

  rt::set_stream(nullptr);
  S.expect(rt::get_stream() == nullptr, "set_stream(nullptr) resets");
  if (Gpu)
    S.expect(rt::stream_handle() != Mine, "back on the runtime's stream");
  add(Out);
  S.expectNear(Out.to_vector(), std::vector<int>(N, 4), 0.0, "fourth add");
  if (Gpu)
    cudaStreamDestroy(Mine);
  return S.finish();
}
