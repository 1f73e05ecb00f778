// Execution test: dependent parallel_for phases over one domain whose
// extents are spelled differently (x.extent(0) and out.extent(0), or two
// views' 2-D extents). Construction fuses them into one parallel group over
// the elementwise maximum of the domains, each phase guarded by its own
// extents, instead of serializing the kernel. The phases' extents are chosen
// equal, smaller and larger than each other: where a later phase reads an
// element the earlier one did not write (its index is beyond the earlier
// extent), it must see the value from before the launch, as the serial
// semantics say. Checked exactly (integers) against a serial computation.
#if __has_include(<intent/runtime.hpp>)
#include <intent/runtime.hpp>
#define TEST_HAS_RUNTIME 1
#else
#include <intent/intent.hpp>
#define TEST_HAS_RUNTIME 0
#endif

#include <cstdint>
#include <cstdio>
#include <random>
#include <vector>

namespace kernels {
using intent::index;
using intent::parallel_for;
using intent::view;

/// tmp[i] = 2 x[i] + 1 for i < |x|, then out[j] = tmp[j] * 3 - j for
/// j < |out| (tmp holds max(|x|, |out|) elements).
[[intent::kernel]] void phases(view<std::int64_t, 1> tmp,
                               view<std::int64_t, 1> out,
                               view<const std::int32_t, 1> x) {
  parallel_for(x.extent(0), [&](index i) { tmp[i] = 2 * x[i] + 1; });
  parallel_for(out.extent(0), [&](index j) { out[j] = tmp[j] * 3 - j; });
}

/// The same over 2-D domains: a(i, j) = x(i, j) * 5 over x's extents, then
/// b(i, j) = a(i, j) + i - j over b's.
[[intent::kernel]] void phases2d(view<std::int32_t, 2> a,
                                 view<std::int32_t, 2> b,
                                 view<const std::int32_t, 2> x) {
  parallel_for(x.extent(0), x.extent(1),
               [&](index i, index j) { a(i, j) = x(i, j) * 5; });
  parallel_for(b.extent(0), b.extent(1), [&](index i, index j) {
    b(i, j) = a(i, j) + static_cast<std::int32_t>(i - j);
  });
}

} // namespace kernels

namespace mem {
#if TEST_HAS_RUNTIME
template <class T> using array = intent::array<T>;
#else
/// Host memory standing in for intent::array without the runtime.
template <class T> class array {
public:
  explicit array(const std::vector<T> &V) : Data(V) {}
  T *data() const { return Data.data(); }
  std::vector<T> to_vector() const { return Data; }

private:
  mutable std::vector<T> Data;
};
#endif
} // namespace mem

static long compare(const std::vector<std::int64_t> &Got,
                    const std::vector<std::int64_t> &Want) {
  long Bad = 0;
  for (std::size_t I = 0; I < Want.size(); ++I)
    Bad += Got[I] != Want[I];
  return Bad;
}

static bool run1D(intent::index NX, intent::index NOut, std::mt19937 &Rng) {
  std::uniform_int_distribution<std::int32_t> Dist(-1000, 1000);
  intent::index NT = NX > NOut ? NX : NOut;
  std::vector<std::int32_t> HX(NX);
  std::vector<std::int64_t> HTmp(NT + 1), HOut(NOut + 1);
  for (std::int32_t &V : HX)
    V = Dist(Rng);
  for (std::int64_t &V : HTmp)
    V = Dist(Rng);
  for (std::int64_t &V : HOut)
    V = Dist(Rng);
  std::vector<std::int64_t> WantTmp = HTmp, WantOut = HOut;
  for (intent::index I = 0; I < NX; ++I)
    WantTmp[I] = 2 * static_cast<std::int64_t>(HX[I]) + 1;
  for (intent::index J = 0; J < NOut; ++J)
    WantOut[J] = WantTmp[J] * 3 - J;
  mem::array<std::int32_t> DX(HX.empty() ? std::vector<std::int32_t>(1) : HX);
  mem::array<std::int64_t> DTmp(HTmp), DOut(HOut);
  kernels::phases(intent::view<std::int64_t, 1>(DTmp.data(), {NT}),
                  intent::view<std::int64_t, 1>(DOut.data(), {NOut}),
                  intent::view<const std::int32_t, 1>(DX.data(), {NX}));
  long Bad = compare(DTmp.to_vector(), WantTmp) +
             compare(DOut.to_vector(), WantOut);
  std::printf("phases x=%lld out=%lld: %s (%ld mismatches)\n",
              static_cast<long long>(NX), static_cast<long long>(NOut),
              Bad ? "FAIL" : "ok", Bad);
  return Bad == 0;
}

static bool run2D(intent::index R, intent::index C, intent::index BR,
                  intent::index BC, std::mt19937 &Rng) {
  std::uniform_int_distribution<std::int32_t> Dist(-1000, 1000);
  // a is big enough for both domains; row pitch AC.
  intent::index AR = R > BR ? R : BR, AC = C > BC ? C : BC;
  std::vector<std::int32_t> HX(R * C + 1), HA(AR * AC + 1), HB(BR * BC + 1);
  for (auto *V : {&HX, &HA, &HB})
    for (std::int32_t &E : *V)
      E = Dist(Rng);
  std::vector<std::int32_t> WantA = HA, WantB = HB;
  for (intent::index I = 0; I < R; ++I)
    for (intent::index J = 0; J < C; ++J)
      WantA[I * AC + J] = HX[I * C + J] * 5;
  for (intent::index I = 0; I < BR; ++I)
    for (intent::index J = 0; J < BC; ++J)
      WantB[I * BC + J] = WantA[I * AC + J] + static_cast<std::int32_t>(I - J);
  mem::array<std::int32_t> DX(HX), DA(HA), DB(HB);
  // a is viewed with b's or x's extents, whichever is larger per dimension:
  // every phase's element exists.
  kernels::phases2d(
      intent::view<std::int32_t, 2>(DA.data(), {AR, AC}, {AC, 1}),
      intent::view<std::int32_t, 2>(DB.data(), {BR, BC}, {BC, 1}),
      intent::view<const std::int32_t, 2>(DX.data(), {R, C}, {C, 1}));
  std::vector<std::int32_t> GotA = DA.to_vector(), GotB = DB.to_vector();
  long Bad = 0;
  for (std::size_t I = 0; I < WantA.size(); ++I)
    Bad += GotA[I] != WantA[I];
  for (std::size_t I = 0; I < WantB.size(); ++I)
    Bad += GotB[I] != WantB[I];
  std::printf("phases2d x=%lldx%lld b=%lldx%lld: %s (%ld mismatches)\n",
              static_cast<long long>(R), static_cast<long long>(C),
              static_cast<long long>(BR), static_cast<long long>(BC),
              Bad ? "FAIL" : "ok", Bad);
  return Bad == 0;
}

int main() {
  std::mt19937 Rng(5);
  bool Ok = true;
  const intent::index Sizes[][2] = {{0, 0},     {0, 5},   {5, 0},    {1, 1},
                                    {7, 7},     {7, 3},   {3, 7},    {1000, 999},
                                    {4097, 4097}, {300000, 300001}};
  for (const auto &S : Sizes)
    Ok = run1D(S[0], S[1], Rng) && Ok;
  const intent::index Shapes[][4] = {{0, 3, 2, 2}, {1, 1, 1, 1}, {5, 7, 5, 7},
                                     {5, 7, 3, 9}, {9, 2, 4, 6}, {64, 65, 65, 64}};
  for (const auto &S : Shapes)
    Ok = run2D(S[0], S[1], S[2], S[3], Rng) && Ok;
  return Ok ? 0 : 1;
}
