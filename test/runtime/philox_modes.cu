// intent::philox drawn inside launched programs, in every execution mode:
// u32, uniform and normal must equal, bit for bit, what the host computes
// with the same header. The GPU computes normal() with its own float
// operations; the header pins every one of them (philox.hpp, namespace
// detail), so this holds with nvcc's default -fmad=true and, in the target
// philox_modes_fastmath, under --use_fast_math as well.
#include <intent/runtime/kernel.hpp>

#include <intent/philox.hpp>

#include "check.hpp"

#include <cstring>

namespace {

using intent::index;
namespace rt = intent::rt;

struct DrawArgs {
  intent::view<float, 1> normal;
  intent::view<float, 1> uniform;
  intent::view<std::uint32_t, 1> bits;
  std::uint64_t seed;
  void *workspace;
};

/// Program pid draws from stream pid % 5 at counter pid * 3 + 1: streams and
/// counters both vary.
INTENT_PROGRAM void drawProgram(index pid, const DrawArgs &a) {
  const intent::philox G(a.seed, static_cast<std::uint64_t>(pid % 5));
  const std::uint64_t C = static_cast<std::uint64_t>(pid) * 3 + 1;
  a.normal[pid] = G.normal(C);
  a.uniform[pid] = G.uniform(C);
  a.bits[pid] = G.u32(C);
}

__global__ void drawKernel(DrawArgs a, index total) {
  for (index pid = rt::global_thread_id(); pid < total;
       pid += rt::global_thread_count())
    drawProgram(pid, a);
}

const rt::kernel_info DrawInfo{"draw", "philox_modes.cu", 29};

template <class T> std::uint32_t bitsOf(T V) {
  std::uint32_t B;
  std::memcpy(&B, &V, sizeof B);
  return B;
}

} // namespace

int main() {
  check::suite S("philox_modes");
  for (intent::index N : {intent::index(0), intent::index(1), intent::index(7), intent::index(4099), intent::index(1 << 20)}) {
    for (std::uint64_t Seed : {std::uint64_t(0), std::uint64_t(0x243F6A8885A308D3ull)}) {
      intent::array<float> Normal(N), Uniform(N);
      intent::array<std::uint32_t> Bits(N);
      DrawArgs A{Normal.view(), Uniform.view(), Bits.view(), Seed, nullptr};
      rt::launch_config Config;
      Config.total = N;
      Config.block = 256;
      if (check::reference()) // no launch in reference mode: the serial loop
        for (intent::index I = 0; I < N; ++I)
          drawProgram(I, A);
      else
        rt::launch<drawProgram>(DrawInfo, Config, A, drawKernel);
      std::vector<float> GotN = Normal.to_vector(), GotU = Uniform.to_vector();
      std::vector<std::uint32_t> GotB = Bits.to_vector();
      long Bad = 0;
      intent::index First = -1;
      for (intent::index I = 0; I < N; ++I) {
        const intent::philox G(Seed, static_cast<std::uint64_t>(I % 5));
        const std::uint64_t C = static_cast<std::uint64_t>(I) * 3 + 1;
        bool Same = bitsOf(GotN[I]) == bitsOf(G.normal(C)) &&
                    bitsOf(GotU[I]) == bitsOf(G.uniform(C)) &&
                    GotB[I] == G.u32(C);
        if (!Same && First < 0)
          First = I;
        Bad += !Same;
      }
      S.expect(Bad == 0, "n=" + std::to_string(N) + " seed=" +
                             std::to_string(Seed) + ": " + std::to_string(Bad) +
                             " draws differ from the host's bits (first at " +
                             std::to_string(First) + ")");
    }
  }
  return S.finish();
}
