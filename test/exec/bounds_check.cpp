// bounds_check: INTENT_CHECK=bounds (issue 15 item 6). A kernel whose
// index runs one past its output view's end is called with checks on (the
// program sets INTENT_CHECK=bounds itself, before the runtime reads its
// settings): in cpu and gpu mode the call must throw intent::rt::error
// naming the kernel, the file:line of the access, the view, the index and
// the extent; then an in-bounds kernel runs correctly with checks on. In
// reference mode the serial bodies run (the out-of-bounds one is skipped:
// there the header's assertion stops the program).
//
//   intentc test/exec/bounds_check.cpp -o bounds_check && INTENT_DEVICE=cpu ./bounds_check
#include "../../examples/support.hpp"

#include <string>

namespace kernels {
using intent::index;
using intent::view;

[[intent::kernel]] void shift(view<float, 1> out, view<const float, 1> in) {
  intent::parallel_for(in.extent(0), [&](index i) {
    out[i + 1] = in[i]; // line 21: i + 1 == out.extent(0) for the last i
  });
}

[[intent::kernel]] void scale(view<float, 2> y, view<const float, 2> x,
                              float s) {
  intent::parallel_for(y.extent(0), y.extent(1),
                       [&](index i, index j) { y(i, j) = s * x(i, j); });
}

} // namespace kernels

static bool contains(const std::string &S, const std::string &Part) {
  if (S.find(Part) != std::string::npos)
    return true;
  std::printf("bounds_check: the message lacks '%s'\n", Part.c_str());
  return false;
}

int main() {
#if EXAMPLE_HAS_RUNTIME
  setenv("INTENT_CHECK", "bounds", 1);
  const bool Serial =
      intent::rt::mode() == intent::rt::device_mode::reference;
#else
  const bool Serial = true;
#endif
  bool Ok = true;
  std::mt19937 Rng(6);
  const intent::index N = 1000;
  mem::array<float> In(support::randomFloats(N, Rng, -1, 1)), Out(N);
#if EXAMPLE_HAS_RUNTIME
  if (!Serial) {
    std::string What;
    try {
      kernels::shift(Out.view(), In.view());
    } catch (const intent::rt::error &E) {
      What = E.what();
    }
    std::printf("error: %s\n", What.empty() ? "(none)" : What.c_str());
    Ok = !What.empty() && contains(What, "kernel 'shift'") &&
         contains(What, "bounds_check.cpp:21:") &&
         contains(What, "view 'out'") && contains(What, "index 1000") &&
         contains(What, "extent is 1000") && Ok;
  }
#endif
  (void)Serial;
  const intent::index R = 37, C = 53;
  std::vector<float> HX = support::randomFloats(R * C, Rng, -1, 1);
  mem::array<float> X(HX), Y(R * C);
  kernels::scale(Y.view(R, C), X.view(R, C), 2.0f);
  std::vector<float> Want(HX.size());
  for (std::size_t I = 0; I < HX.size(); ++I)
    Want[I] = 2.0f * HX[I];
  long Bad = support::exactMismatches(Y.to_vector(), Want);
  std::printf("bounds_check: in-bounds kernel with checks on: %ld mismatches\n",
              Bad);
  Ok = Bad == 0 && Ok;
  std::printf("bounds_check: %s\n", Ok ? "ok" : "FAIL");
  return Ok ? 0 : 1;
}
