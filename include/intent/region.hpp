//===- intent/region.hpp - Folds and scans over data-dependent regions ---===//
//
// A region set partitions the source axis [offsets[0], offsets[n]) into n
// consecutive, possibly empty regions, region r holding the members
// k in [offsets[r], offsets[r+1]) -- the CSR row-pointer / ragged-batch
// layout. The offsets live in device memory, so the members of a region are
// data-dependent: a kernel maps regions (or balanced chunks of the flattened
// source axis, split across region boundaries) to program instances and
// combines the per-chunk summaries with Combine, which therefore must be
// associative. The reference semantics below visit regions in increasing r
// and members in order.
//
// Callbacks:
//  - Value(k) or Value(r, k): the summary of member k (the per-element
//    summarizer); the two-argument form also receives its region.
//  - Combine(acc, summary): merges summaries; acc is the left operand.
//  - Store(r, total): region_fold's per-region result.
//  - Emit(k, prefix) or Emit(r, k, prefix): region_scan's per-member result;
//    the three-argument form is where a per-region incoming state is applied
//    (e.g. h[k] = p.a * h0[r] + p.b for a linear recurrence).
// The region index r is relative to the offsets view: to process regions
// [r0, r1) pass offsets.slice(0, {r0, r1 + 1}), whose region 0 is r0.
//
//===----------------------------------------------------------------------===//

#ifndef INTENT_REGION_HPP
#define INTENT_REGION_HPP

#include "intent/core.hpp"
#include "intent/reduce.hpp"
#include "intent/view.hpp"

#include <type_traits>

namespace intent {
namespace detail {

/// The number of regions an offsets view describes: extent - 1 (0 for an
/// empty view).
template <class I> index regionCount(const view<I, 1> &Offsets) {
  static_assert(std::is_integral<std::remove_cv_t<I>>::value,
                "region offsets must be integers");
  return Offsets.extent(0) > 0 ? Offsets.extent(0) - 1 : 0;
}

/// The members of region Region.
template <class I>
range regionMembers(const view<I, 1> &Offsets, index Region) {
  range Members{static_cast<index>(Offsets[Region]),
                static_cast<index>(Offsets[Region + 1])};
  INTENT_ASSERT(Members.begin <= Members.end,
                "region offsets must be non-decreasing");
  return Members;
}

/// Calls Value(Region, K) when Value takes two indices, else Value(K).
template <class F>
decltype(auto) callRegionValue(F &Value, index Region, index K) {
  if constexpr (std::is_invocable<F &, index, index>::value)
    return Value(Region, K);
  else
    return Value(K);
}

/// Calls Emit(Region, K, Prefix) when Emit takes three arguments, else
/// Emit(K, Prefix).
template <class F, class T>
void callRegionEmit(F &Emit, index Region, index K, const T &Prefix) {
  if constexpr (std::is_invocable<F &, index, index, const T &>::value)
    Emit(Region, K, Prefix);
  else
    Emit(K, Prefix);
}

} // namespace detail

/// For every region r of Offsets (extent n + 1 describes n regions), folds
/// its members and stores the result:
///   Store(r, reduce(range{Offsets[r], Offsets[r+1]}, Init, Combine, Value))
/// An empty region stores Init (which should be Combine's identity). Offsets
/// must be non-decreasing. CSR SpMV y = A x reads
///   region_fold(rowptr, 0.0f, ops::plus{},
///               [&](index k) { return val[k] * x[col[k]]; },
///               [&](index r, float s) { y[r] = s; });
template <class I, class T, class Op, class V, class S>
void region_fold(view<I, 1> Offsets, T Init, Op Combine, V &&Value, S &&Store) {
  for (index Region = 0, N = detail::regionCount(Offsets); Region < N;
       ++Region) {
    auto Summary = [&](index K) {
      return detail::callRegionValue(Value, Region, K);
    };
    Store(Region, intent::reduce(detail::regionMembers(Offsets, Region), Init,
                                 Combine, Summary));
  }
}

/// A segmented scan: for every region r of Offsets, runs
///   scan(range{Offsets[r], Offsets[r+1]}, Init, Combine, Value, Emit,
///        Kind, Dir)
/// so the carried state restarts from Init at each region boundary, and Emit
/// is called once per member with its inclusive or exclusive prefix within
/// its region (forward or reverse). Empty regions emit nothing. Offsets must
/// be non-decreasing. A segmented inclusive prefix sum over ragged batches
/// reads
///   region_scan(offsets, 0.0f, ops::plus{},
///               [&](index k) { return x[k]; },
///               [&](index k, float p) { y[k] = p; });
/// Per-region totals are region_fold with the same Init, Combine and Value.
template <class I, class T, class Op, class V, class E>
void region_scan(view<I, 1> Offsets, T Init, Op Combine, V &&Value, E &&Emit,
                 scan_kind Kind = scan_kind::inclusive,
                 direction Dir = direction::forward) {
  for (index Region = 0, N = detail::regionCount(Offsets); Region < N;
       ++Region) {
    auto Summary = [&](index K) {
      return detail::callRegionValue(Value, Region, K);
    };
    auto Slice = [&](index K, const T &Prefix) {
      detail::callRegionEmit(Emit, Region, K, Prefix);
    };
    intent::scan(detail::regionMembers(Offsets, Region), Init, Combine, Summary,
                 Slice, Kind, Dir);
  }
}

} // namespace intent

#endif // INTENT_REGION_HPP
