// bounds_check: INTENT_CHECK=bounds (issue 15 item 6). A kernel whose
// index runs one past its output view's end is called with checks on (the
// program sets INTENT_CHECK=bounds itself, before the runtime reads its
// settings): in cpu and gpu mode the call must throw intent::rt::error
// naming the kernel, the file:line of the access, the view, the index and
// the extent; so must an out-of-bounds atomic. Then in-bounds kernels run
// correctly with checks on. In reference mode the out-of-bounds call runs in
// a child process, which the header's index check must stop with a message
// naming the kernel, the file:line, the view, the index and the extent.
//
//   intentc test/exec/bounds_check.cpp -o bounds_check && INTENT_DEVICE=cpu ./bounds_check
#include "../../examples/support.hpp"

#include <functional>
#include <string>

#if EXAMPLE_HAS_RUNTIME
#include <sys/wait.h>
#include <unistd.h>
#endif

namespace kernels {
using intent::index;
using intent::view;

[[intent::kernel]] void shift(view<float, 1> out, view<const float, 1> in) {
  intent::parallel_for(in.extent(0), [&](index i) {
    out[i + 1] = in[i]; // line 28: i + 1 == out.extent(0) for the last i
  });
}

[[intent::kernel]] void histogram(view<int, 1> bins, view<const int, 1> keys) {
  intent::parallel_for(keys.extent(0), [&](index i) {
    intent::atomic_add(bins[keys[i]], 1); // line 34: keys[i] may be 16
  });
}

// The physical passes' fast paths (widen's vector chunks, cta-rows'
// register rows and staging, grid-reduce's vector loads) give way to
// checked scalar accesses under INTENT_CHECK=bounds.
[[intent::kernel]] void twice(view<float, 1> y, view<const float, 1> x) {
  intent::parallel_for(y.extent(0), [&](index i) {
    y[i] = 2.0f * x[i]; // line 43: x is shorter than y
  });
}

[[intent::kernel]] void center(view<float, 2> out, view<const float, 2> in) {
  intent::parallel_for(out.extent(0), [&](index r) {
    float m = intent::reduce(in.extent(1), 0.0f, intent::ops::plus{},
                             [&](index j) { return in(r, j); }); // line 50
    intent::parallel_for(in.extent(1),
                         [&](index j) { out(r, j) = in(r, j) - m; });
  });
}

[[intent::kernel]] void total(view<float, 1> out, view<const float, 1> x,
                              index n) {
  out[0] = intent::reduce(n, 0.0f, intent::ops::plus{},
                          [&](index i) { return x[i]; }); // line 59
}

[[intent::kernel]] void scale(view<float, 2> y, view<const float, 2> x,
                              float s) {
  intent::parallel_for(y.extent(0), y.extent(1),
                       [&](index i, index j) { y(i, j) = s * x(i, j); });
}

// The tile pass's shared rows: a(i + 1, j) of one instance is a(i, j) of
// the next, loaded once under a guard; the user's access is still checked.
[[intent::kernel]] void down(view<float, 2> out, view<const float, 2> a) {
  intent::parallel_for(a.extent(0), a.extent(1), [&](index i, index j) {
    out(i, j) = a(i, j) + a(i + 1, j); // line 72: i + 1 == a.extent(0)
  });
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
         contains(What, "bounds_check.cpp:28:") &&
         contains(What, "view 'out'") && contains(What, "index 1000") &&
         contains(What, "extent is 1000") && Ok;
  }
  if (!Serial) {
    // An atomic whose element lies outside its view.
    std::vector<int> HK(500);
    for (std::size_t I = 0; I < HK.size(); ++I)
      HK[I] = static_cast<int>(I % 17); // bins has 16: key 16 is outside
    mem::array<int> Keys(HK), Bins(16);
    std::string What;
    try {
      kernels::histogram(Bins.view(), Keys.view());
    } catch (const intent::rt::error &E) {
      What = E.what();
    }
    std::printf("atomic error: %s\n", What.empty() ? "(none)" : What.c_str());
    Ok = !What.empty() && contains(What, "kernel 'histogram'") &&
         contains(What, "bounds_check.cpp:34:") &&
         contains(What, "view 'bins'") && contains(What, "index 16") &&
         contains(What, "extent is 16") && Ok;
  }
  if (!Serial) {
    // Each fast path: the launch must fail at the access named.
    struct Case {
      const char *name, *where, *what;
      std::function<void()> run;
    };
    mem::array<float> Y(4096), X(support::randomFloats(4000, Rng, -1, 1));
    mem::array<float> Rows(support::randomFloats(63 * 512, Rng, -1, 1)),
        Centered(64 * 512), One(1), Down(63 * 512);
    const Case Cases[] = {
        {"twice", "bounds_check.cpp:43:", "view 'x'",
         [&] { kernels::twice(Y.view(), X.view()); }},
        {"center", "bounds_check.cpp:50:", "view 'in'",
         [&] { kernels::center(Centered.view(64, 512), Rows.view(63, 512)); }},
        {"total", "bounds_check.cpp:59:", "view 'x'",
         [&] { kernels::total(One.view(), X.view(), 4096); }},
        {"down", "bounds_check.cpp:72:", "view 'a'",
         [&] { kernels::down(Down.view(63, 512), Rows.view(63, 512)); }},
    };
    for (const Case &C : Cases) {
      std::string What;
      try {
        C.run();
      } catch (const intent::rt::error &E) {
        What = E.what();
      }
      std::printf("%s error: %s\n", C.name, What.empty() ? "(none)" : What.c_str());
      Ok = !What.empty() &&
           contains(What, std::string("kernel '") + C.name + "'") &&
           contains(What, C.where) && contains(What, C.what) && Ok;
    }
  }
#ifndef NDEBUG
  if (Serial) {
    // Reference mode: the serial body's index check aborts; run it in a
    // child and read what it printed.
    int Pipe[2];
    if (pipe(Pipe) != 0)
      return 1;
    std::fflush(stdout);
    pid_t Child = fork();
    if (Child == 0) {
      dup2(Pipe[1], 2);
      close(Pipe[0]);
      kernels::shift(Out.view(), In.view());
      _exit(0); // not reached when the check works
    }
    close(Pipe[1]);
    std::string What;
    char Buf[512];
    for (ssize_t K; (K = read(Pipe[0], Buf, sizeof Buf)) > 0;)
      What.append(Buf, static_cast<std::size_t>(K));
    close(Pipe[0]);
    int Status = 0;
    waitpid(Child, &Status, 0);
    std::printf("reference error: %s", What.empty() ? "(none)\n" : What.c_str());
    // Built with the plugin (its prologue counts reference calls): the
    // message names the kernel and the access; without it only the index.
    std::uint64_t Before = intent::rt::launch_count();
    kernels::scale(Out.view(1, N), In.view(1, N), 1.0f);
    const bool Plugin = intent::rt::launch_count() != Before;
    Ok = WIFSIGNALED(Status) && contains(What, "index 1000") &&
         contains(What, "extent is 1000") && Ok;
    if (Plugin)
      Ok = contains(What, "kernel 'shift'") &&
           contains(What, "bounds_check.cpp:28") &&
           contains(What, "view 'out'") && Ok;
  }
#endif
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
