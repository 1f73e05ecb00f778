//===- intent/runtime/alias.hpp - The alias check before a launch --------===//
//
// Before a launch, a generated host wrapper (__intent_launch_<base>, see
// docs/runtime.md "Generated code ABI") describes each view parameter by the
// byte range it can touch and whether the kernel writes it, and asks the
// runtime whether a written view overlaps another view parameter:
//
//   const intent::rt::detail::view_range R[] = {
//       intent::rt::detail::range_of("y", y, true),
//       intent::rt::detail::range_of("x", x, false)};
//   intent::rt::detail::check_aliasing(Info, R, 2);
//
// An overlap is an rt::error naming the kernel, both parameters and the
// user's call site. The test is a cheap range test per pair (two views whose
// [lowest, highest] byte ranges intersect overlap), so interleaved views of
// one array (the even and the odd elements) count as overlapping too.
// INTENT_CHECK=none turns the check off (docs/runtime.md).
//
//===----------------------------------------------------------------------===//

#ifndef INTENT_RUNTIME_ALIAS_HPP
#define INTENT_RUNTIME_ALIAS_HPP

#include "intent/runtime/api.hpp"
#include "intent/runtime/launch.hpp"
#include "intent/view.hpp"

namespace intent {
namespace rt {
namespace detail {

/// The bytes a view parameter can touch: [Lo, Hi), empty when Lo == Hi.
struct view_range {
  /// The parameter's name in the user's kernel.
  const char *Name;
  const char *Lo;
  const char *Hi;
  /// The kernel stores to the view (or an atomic updates it).
  bool Written;
};

/// The byte range of V: from its lowest to one past its highest element,
/// for any strides (zero and negative ones included); empty when an extent
/// is 0 or V has no data.
template <class T, int R>
view_range range_of(const char *Name, const view<T, R> &V, bool Written) {
  const char *Base =
      reinterpret_cast<const char *>(static_cast<const void *>(V.data()));
  view_range Range{Name, Base, Base, Written};
  if (!Base)
    return Range;
  index Low = 0, High = 0;
  for (int D = 0; D < R; ++D) {
    if (V.extent(D) <= 0)
      return Range;
    index Span = (V.extent(D) - 1) * V.stride(D);
    (Span < 0 ? Low : High) += Span;
  }
  Range.Lo = Base + Low * static_cast<index>(sizeof(T));
  Range.Hi = Base + (High + 1) * static_cast<index>(sizeof(T));
  return Range;
}

/// True when every element offset of V (sum over d of i_d * stride(d), for
/// indices 0 <= i_d < extent(d)) and every partial sum of it fits int32_t:
/// sum over d of (extent(d) - 1) * |stride(d)| <= INT32_MAX. Then 32-bit
/// address arithmetic is exact for every in-bounds access (the dense
/// variant of a tiled program, docs/passes.md §9). A view with an empty
/// dimension has no elements and fits.
template <class T, int R> bool offsets_fit_int32(const view<T, R> &V) {
  constexpr index Max = 0x7fffffff;
  index Span = 0;
  for (int D = 0; D < R; ++D) {
    const index E = V.extent(D), S = V.stride(D);
    if (E <= 0)
      return true;
    if (E == 1)
      continue;
    if (E - 1 > Max || S > Max || S < -Max)
      return false;
    Span += (E - 1) * (S < 0 ? -S : S); // < 2^62: no overflow
    if (Span > Max)
      return false;
  }
  return true;
}

/// True when every extent of V is at most Limit (the dense variant's bound
/// on the extents its 32-bit index arithmetic sees, docs/passes.md §9).
template <class T, int R>
bool extents_at_most(const view<T, R> &V, index Limit) {
  for (int D = 0; D < R; ++D)
    if (V.extent(D) > Limit)
      return false;
  return true;
}

/// True when the ranges share a byte (an empty range overlaps nothing).
inline bool ranges_overlap(const view_range &A, const view_range &B) {
  return A.Lo < A.Hi && B.Lo < B.Hi && A.Lo < B.Hi && B.Lo < A.Hi;
}

/// The first pair (I < J) of Views where one is written and the ranges
/// overlap, as {I, J}; {-1, -1} when there is none.
struct alias_pair {
  int First = -1;
  int Second = -1;
};
alias_pair find_alias(const view_range *Views, int Count);

/// Throws rt::error when find_alias finds a pair: "intent: kernel 'K'
/// (k.cpp:3) called at main.cpp:12: view parameter 'out' is written and
/// overlaps view parameter 'in' ...". Does nothing when INTENT_CHECK=none.
/// Always consumes the call site recorded by set_call_site().
void check_aliasing(const kernel_info &Info, const view_range *Views,
                    int Count);

} // namespace detail
} // namespace rt
} // namespace intent

#endif // INTENT_RUNTIME_ALIAS_HPP
