//===- intent/argreduce.hpp - argmax/argmin with explicit tie/NaN rules -===//
//
// argmax/argmin return the best value and its position. Ties and NaN are
// decided by explicit arguments, never by the compiler or the hardware:
//  - values compare with < and ==, so -0.0 and +0.0 are equal (a tie);
//  - tie::first keeps the lowest position among equal best values,
//    tie::last the highest;
//  - nan_policy::propagate: a NaN beats every number; among NaN the tie rule
//    picks (the first NaN under tie::first, the last under tie::last);
//  - nan_policy::ignore: NaN are skipped;
//  - nothing considered (empty range, or all NaN under ignore) gives
//    pos == -1 and value == the op's identity (argmax: -inf for floating
//    point, the lowest value otherwise; argmin: +inf / the highest value).
// Positions are absolute: for a range, pos is the k passed to Value(k).
//
//===----------------------------------------------------------------------===//

#ifndef INTENT_ARGREDUCE_HPP
#define INTENT_ARGREDUCE_HPP

#include "intent/core.hpp"

#include <type_traits>

namespace intent {

/// Which of several equal best values argmax/argmin report.
enum class tie { first, last };

/// Whether NaN values win (propagate) or are skipped (ignore).
enum class nan_policy { propagate, ignore };

/// The result of argmax/argmin: the winning value and its position, or the
/// identity and -1 when nothing was considered.
template <class T> struct arg_result {
  T value;
  index pos;
};

namespace detail {

/// The value type of an argmax/argmin: what Value(k) returns, decayed.
template <class F>
using ArgValue = std::decay_t<std::invoke_result_t<F &, index>>;

/// The shared loop of argmax (IsMax) and argmin.
template <bool IsMax, class F>
arg_result<ArgValue<F>> argReduce(range R, F &Value, tie Ties, nan_policy Nan) {
  using T = ArgValue<F>;
  arg_result<T> Best{IsMax ? lowest<T>() : highest<T>(), -1};
  bool BestIsNaN = false;
  for (index K = R.begin; K < R.end; ++K) {
    T V = Value(K);
    if (isNaN(V)) {
      if (Nan == nan_policy::ignore)
        continue;
      if (!BestIsNaN || Ties == tie::last)
        Best = {V, K};
      BestIsNaN = true;
      continue;
    }
    if (BestIsNaN)
      continue;
    bool Better = IsMax ? Best.value < V : V < Best.value;
    bool Equal = V == Best.value;
    if (Best.pos < 0 || Better || (Equal && Ties == tie::last))
      Best = {V, K};
  }
  return Best;
}

} // namespace detail

/// The largest Value(k) over k in R and its position; see the file comment
/// for ties, NaN and empty input.
template <class F>
arg_result<detail::ArgValue<F>> argmax(range R, F &&Value,
                                       tie Ties = tie::first,
                                       nan_policy Nan = nan_policy::propagate) {
  return detail::argReduce<true>(R, Value, Ties, Nan);
}

/// argmax over [0, N).
template <class F>
arg_result<detail::ArgValue<F>> argmax(index N, F &&Value,
                                       tie Ties = tie::first,
                                       nan_policy Nan = nan_policy::propagate) {
  return detail::argReduce<true>(range{0, N}, Value, Ties, Nan);
}

/// The smallest Value(k) over k in R and its position; see the file comment
/// for ties, NaN and empty input.
template <class F>
arg_result<detail::ArgValue<F>> argmin(range R, F &&Value,
                                       tie Ties = tie::first,
                                       nan_policy Nan = nan_policy::propagate) {
  return detail::argReduce<false>(R, Value, Ties, Nan);
}

/// argmin over [0, N).
template <class F>
arg_result<detail::ArgValue<F>> argmin(index N, F &&Value,
                                       tie Ties = tie::first,
                                       nan_policy Nan = nan_policy::propagate) {
  return detail::argReduce<false>(range{0, N}, Value, Ties, Nan);
}

} // namespace intent

#endif // INTENT_ARGREDUCE_HPP
