// Execution test (issue 15 item 5): before each launch the runtime checks
// that no view the kernel writes overlaps another view parameter.
//  - a const input aliased with the output is an intent::rt::error naming
//    the kernel, both parameters and this file's line of the call;
//  - two outputs that overlap are an error too;
//  - the same view passed twice as read-only inputs is fine;
//  - views into the disjoint halves of one array are fine;
//  - empty views and a zero stride (a broadcast input) are handled.
// The check runs before launches (gpu and cpu mode); reference mode runs the
// serial body, which is well defined for aliased views, and does not check.
#if __has_include(<intent/runtime.hpp>)
#include <intent/runtime.hpp>
#define TEST_HAS_RUNTIME 1
#else
#define TEST_HAS_RUNTIME 0
#endif
#include <intent/intent.hpp>

#include <cstdio>
#include <string>
#include <vector>

using intent::index;
using intent::parallel_for;
using intent::view;

[[intent::kernel]] void shift(view<float, 1> out, view<const float, 1> in) {
  parallel_for(out.extent(0), [&](index i) { out[i] = in[i] + 1.0f; });
}

[[intent::kernel]] void two_outputs(view<float, 1> a, view<float, 1> b,
                                    view<const float, 1> x,
                                    view<const float, 1> y) {
  parallel_for(a.extent(0), [&](index i) {
    a[i] = x[i] + y[i];
    b[i] = x[i] - y[i];
  });
}

namespace {

int Failures = 0;

void expect(bool Ok, const std::string &What) {
  if (!Ok) {
    std::printf("FAIL: %s\n", What.c_str());
    ++Failures;
  }
}

bool contains(const std::string &S, const std::string &Part) {
  return S.find(Part) != std::string::npos;
}

/// Whether this build launches (Intent compiler, gpu or cpu mode): only then
/// is the check made.
bool launching() {
#if TEST_HAS_RUNTIME
  return intent::rt::program_count() > 0;
#else
  return false;
#endif
}

} // namespace

int main() {
#if TEST_HAS_RUNTIME
  using storage = intent::array<float>;
#else
  struct storage {
    explicit storage(const std::vector<float> &V) : Data(V) {}
    float *data() { return Data.data(); }
    std::vector<float> to_vector() const { return Data; }
    std::vector<float> Data;
  };
#endif
  const index N = 64;
  std::vector<float> Host(2 * N);
  for (index I = 0; I < 2 * N; ++I)
    Host[I] = static_cast<float>(I);
  storage A(Host);
  float *P = A.data();

  // Disjoint halves of one array: out = the upper half, in = the lower.
  shift(view<float, 1>(P + N, {N}), view<const float, 1>(P, {N}));
  bool Launching = launching();
  std::vector<float> Got = A.to_vector();
  for (index I = 0; I < N; ++I)
    expect(Got[N + I] == Host[I] + 1.0f, "disjoint halves: result");

  // The same read-only view twice, disjoint outputs; empty views anywhere.
  view<const float, 1> Low(P, {N});
  two_outputs(view<float, 1>(P + N, {N / 2}),
              view<float, 1>(P + N + N / 2, {N / 2}), Low, Low);
  two_outputs(view<float, 1>(P, {0}), view<float, 1>(P, {0}),
              view<const float, 1>(P, {0}), view<const float, 1>(P, {0}));
  // A broadcast input (stride 0) below the output.
  shift(view<float, 1>(P + 1, {N}), view<const float, 1>(P, {N}, {0}));

  // A const input aliased with the output.
  bool Threw = false;
  std::string Message;
  const int AliasLine = __LINE__ + 2;
  try {
    shift(view<float, 1>(P + 1, {N}), view<const float, 1>(P, {N}));
  } catch (const std::exception &E) {
    Threw = true;
    Message = E.what();
  }
  expect(Threw == Launching, "aliased input and output: error iff launching");
  if (Threw) {
    std::printf("expected error: %s\n", Message.c_str());
    expect(contains(Message, "kernel 'shift'"), "message names the kernel");
    expect(contains(Message, "'out'") && contains(Message, "'in'"),
           "message names both parameters");
    expect(contains(Message, "alias.cpp:" + std::to_string(AliasLine)),
           "message names the call site");
  }

  // Two written views that overlap (reversed, one element in common).
  Threw = false;
  try {
    two_outputs(view<float, 1>(P + N - 1, {N / 2}, {-1}),
                view<float, 1>(P + N - 1, {N / 2}), Low, Low);
  } catch (const std::exception &E) {
    Threw = true;
    Message = E.what();
  }
  expect(Threw == Launching, "overlapping outputs: error iff launching");
  if (Threw)
    expect(contains(Message, "'a'") && contains(Message, "'b'"),
           "overlapping outputs: both named");

  std::printf("alias: %s (%d failures%s)\n", Failures ? "FAIL" : "ok",
              Failures, Launching ? "" : "; not launching: no checks");
  return Failures ? 1 : 0;
}
