// Execution test: printf in kernels (device printf on the GPU, the C
// library's in cpu mode, the serial body in reference mode). Each kernel's
// output is captured (stdout redirected into a temporary file around the
// call, flushed after intent::rt::synchronize(), which flushes the GPU's
// printf buffer) and compared, as a sorted set of lines since instances
// print in no particular order, with the lines the kernel must print:
//   - one line per instance of a parallel_for, with int, 64-bit, unsigned,
//     hex, char, bool, float and double arguments, %%, and %s of a literal;
//   - the result of a reduction printed once by a one-instance kernel;
//   - one line per row of a row-reduction kernel (the shape cta-rows takes:
//     the print must not run once per thread of the row's CTA);
//   - prints inside a nested parallel_for and an ordered loop, and under a
//     condition (only the instances that take the branch print).
#include "../../examples/support.hpp"

#include <algorithm>
#include <cstdarg>
#include <string>
#include <unistd.h>

namespace kernels {
using intent::index;
using intent::parallel_for;
using intent::reduce;
using intent::view;
namespace ops = intent::ops;

[[intent::kernel]] void each(view<const int, 1> x, view<const float, 1> f,
                             unsigned char tag) {
  parallel_for(x.extent(0), [&](index i) {
    unsigned u = static_cast<unsigned>(x[i]) * 3u;
    std::printf("each i=%lld x=%d u=%u hex=%#x c=%c b=%d f=%.2f d=%g %s 100%%\n",
                static_cast<long long>(i), x[i], u, u, tag, x[i] > 2, f[i],
                static_cast<double>(f[i]) * 2, "ok");
  });
}

[[intent::kernel]] void total(view<const float, 1> x) {
  float s = reduce(x.extent(0), 0.0f, ops::plus{},
                   [&](index i) { return x[i]; });
  printf("total %.1f of %ld\n", s, x.extent(0));
}

[[intent::kernel]] void rows(view<float, 1> y, view<const float, 2> x) {
  parallel_for(x.extent(0), [&](index r) {
    float s = reduce(x.extent(1), 0.0f, ops::plus{},
                     [&](index c) { return x(r, c); });
    y[r] = s;
    printf("row %ld sum %.1f\n", r, s);
  });
}

[[intent::kernel]] void nested(view<const int, 2> x) {
  parallel_for(x.extent(0), [&](index r) {
    for (index c = 0; c < x.extent(1); ++c)
      if (x(r, c) % 2 == 0)
        printf("even (%ld, %ld) = %d\n", r, c, x(r, c));
    parallel_for(x.extent(1), [&](index c) {
      if (c == 0)
        printf("first of row %ld is %5d|\n", r, x(r, c));
    });
  });
}

} // namespace kernels

/// The lines `Call` prints to stdout, sorted.
template <class F> static std::vector<std::string> captured(F &&Call) {
  std::fflush(stdout);
  char Path[] = "/tmp/intent_print_XXXXXX";
  int Fd = mkstemp(Path);
  int Saved = dup(1);
  dup2(Fd, 1);
  Call();
#if EXAMPLE_HAS_RUNTIME
  intent::rt::synchronize(); // flushes device printf
#endif
  std::fflush(stdout);
  dup2(Saved, 1);
  close(Saved);
  std::vector<std::string> Lines;
  if (FILE *In = std::fopen(Path, "r")) {
    char Buf[512];
    while (std::fgets(Buf, sizeof(Buf), In)) {
      std::string L = Buf;
      if (!L.empty() && L.back() == '\n')
        L.pop_back();
      Lines.push_back(L);
    }
    std::fclose(In);
  }
  close(Fd);
  unlink(Path);
  std::sort(Lines.begin(), Lines.end());
  return Lines;
}

static bool check(const char *Name, std::vector<std::string> Got,
                  std::vector<std::string> Want) {
  std::sort(Want.begin(), Want.end());
  bool Ok = Got == Want;
  std::printf("print %s: %s (%zu lines, want %zu)\n", Name, Ok ? "ok" : "FAIL",
              Got.size(), Want.size());
  if (!Ok) {
    for (const std::string &L : Got)
      std::printf("  got:  %s\n", L.c_str());
    for (const std::string &L : Want)
      std::printf("  want: %s\n", L.c_str());
  }
  return Ok;
}

static std::string fmt(const char *F, ...) __attribute__((format(printf, 1, 2)));
static std::string fmt(const char *F, ...) {
  char Buf[512];
  va_list Args;
  va_start(Args, F);
  std::vsnprintf(Buf, sizeof(Buf), F, Args);
  va_end(Args);
  return Buf;
}

int main() {
  bool Ok = true;
  {
    const int N = 5;
    std::vector<int> HX = {0, 1, 2, 3, 4};
    std::vector<float> HF = {0.5f, 1.25f, -2.0f, 3.75f, 10.0f};
    mem::array<int> X(HX);
    mem::array<float> F(HF);
    std::vector<std::string> Want;
    for (int I = 0; I < N; ++I) {
      unsigned U = static_cast<unsigned>(HX[I]) * 3u;
      Want.push_back(fmt("each i=%lld x=%d u=%u hex=%#x c=%c b=%d f=%.2f d=%g "
                         "ok 100%%",
                         static_cast<long long>(I), HX[I], U, U, 'Q',
                         HX[I] > 2, HF[I], static_cast<double>(HF[I]) * 2));
    }
    Ok &= check("each", captured([&] {
                  kernels::each(X.view(), F.view(), 'Q');
                }), Want);
  }
  {
    const intent::index N = 1000;
    std::vector<float> HX(N);
    for (intent::index I = 0; I < N; ++I)
      HX[I] = static_cast<float>(I % 7);
    double Sum = 0;
    for (float V : HX)
      Sum += V;
    mem::array<float> X(HX);
    Ok &= check("total", captured([&] { kernels::total(X.view()); }),
                {fmt("total %.1f of %ld", Sum, static_cast<long>(N))});
  }
  {
    const intent::index R = 6, C = 300;
    std::vector<float> HX(R * C);
    for (intent::index I = 0; I < R * C; ++I)
      HX[I] = static_cast<float>(I % 5);
    std::vector<std::string> Want;
    for (intent::index Row = 0; Row < R; ++Row) {
      double S = 0;
      for (intent::index Col = 0; Col < C; ++Col)
        S += HX[Row * C + Col];
      Want.push_back(fmt("row %ld sum %.1f", static_cast<long>(Row), S));
    }
    mem::array<float> X(HX), Y(R);
    Ok &= check("rows", captured([&] {
                  kernels::rows(Y.view(), X.view(R, C));
                }), Want);
  }
  {
    const intent::index R = 3, C = 4;
    std::vector<int> HX(R * C);
    for (intent::index I = 0; I < R * C; ++I)
      HX[I] = static_cast<int>(I * 7 % 11);
    std::vector<std::string> Want;
    for (intent::index Row = 0; Row < R; ++Row) {
      for (intent::index Col = 0; Col < C; ++Col)
        if (HX[Row * C + Col] % 2 == 0)
          Want.push_back(fmt("even (%ld, %ld) = %d", static_cast<long>(Row),
                             static_cast<long>(Col), HX[Row * C + Col]));
      Want.push_back(fmt("first of row %ld is %5d|", static_cast<long>(Row),
                         HX[Row * C]));
    }
    mem::array<int> X(HX);
    Ok &= check("nested", captured([&] { kernels::nested(X.view(R, C)); }),
                Want);
  }
  return Ok ? 0 : 1;
}
