//===- intent/core.hpp - Index type, ranges and portability macros -------===//
//
// The pieces every other part of the Intent user API builds on: the index
// type, half-open ranges, the host/device marker and numeric limits that work
// in CUDA device code without --expt-relaxed-constexpr.
//
//===----------------------------------------------------------------------===//

#ifndef INTENT_CORE_HPP
#define INTENT_CORE_HPP

#include <cassert>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <type_traits>

/// Marks a function callable from both host and CUDA device code. Only the
/// pieces a generated kernel may call (view accessors, ops, philox, buffer)
/// carry it; the serial algorithms are host-only reference code.
#if defined(__CUDACC__)
#define INTENT_HD __host__ __device__
#else
#define INTENT_HD
#endif

/// Checks an API precondition in host code. Compiled out in CUDA device code
/// (where the reference semantics do not run) and under NDEBUG.
#if defined(__CUDA_ARCH__)
#define INTENT_ASSERT(Cond, Msg) ((void)0)
#else
#define INTENT_ASSERT(Cond, Msg) assert((Cond) && Msg)
#endif

namespace intent {

/// The index type of every extent, stride, coordinate and position: 64-bit
/// so that views over more than 2^31 elements are addressable.
using index = std::int64_t;

/// A half-open runtime interval [begin, end). A range with end <= begin is
/// empty; the algorithms then visit nothing.
struct range {
  index begin;
  index end;

  /// The number of indices in the range, 0 when end <= begin.
  INTENT_HD constexpr index size() const {
    return end > begin ? end - begin : 0;
  }
  /// True when the range holds no index.
  INTENT_HD constexpr bool empty() const { return end <= begin; }
};

namespace detail {

#if !defined(__CUDA_ARCH__)
/// Reference mode's view of where the serial body is: the kernel running
/// (set by the prologue the plugin inserts into each kernel definition) and
/// the user's line and view of the access about to happen (set by the
/// plugin's wrapper around each view access in a kernel body). Read only
/// when an index check fails.
struct reference_site {
  const char *kernel = nullptr;
  const char *file = nullptr;
  int line = 0;
  const char *view = nullptr;
};
inline reference_site &reference_context() {
  static thread_local reference_site Site;
  return Site;
}
/// Records the line and view of the next access (kernel bodies only).
inline void reference_access(int Line, const char *View) {
  reference_context().line = Line;
  reference_context().view = View;
}
/// Names the kernel while its serial body runs; restores the outer one.
class reference_kernel {
public:
  reference_kernel(const char *Kernel, const char *File)
      : Saved(reference_context()) {
    reference_context() = reference_site{Kernel, File, 0, nullptr};
  }
  ~reference_kernel() { reference_context() = Saved; }
  reference_kernel(const reference_kernel &) = delete;
  reference_kernel &operator=(const reference_kernel &) = delete;

private:
  reference_site Saved;
};
/// A failed view index check on the host: names the kernel, the user's
/// file:line, the view, the index and the extent when known, then aborts.
[[noreturn]] inline void index_failure(const char *What, std::int64_t I,
                                       std::int64_t Extent, int Dim) {
  const reference_site &S = reference_context();
  std::fprintf(stderr, "intent: %s: index %lld along dimension %d, whose "
                       "extent is %lld",
               What, static_cast<long long>(I), Dim,
               static_cast<long long>(Extent));
  if (S.view)
    std::fprintf(stderr, ", of view '%s'", S.view);
  if (S.kernel)
    std::fprintf(stderr, ", in kernel '%s'", S.kernel);
  if (S.file && S.line)
    std::fprintf(stderr, " at %s:%d", S.file, S.line);
  std::fprintf(stderr, "\n");
  std::fflush(stderr);
  std::abort();
}
#endif

/// Checks 0 <= I < Extent in host code (not under NDEBUG, not in device
/// code) and reports a failure through index_failure.
#if defined(__CUDA_ARCH__) || defined(NDEBUG)
#define INTENT_CHECK_INDEX(I, Extent, Dim, What) ((void)0)
#else
#define INTENT_CHECK_INDEX(I, Extent, Dim, What)                              \
  ((I) >= 0 && (I) < (Extent)                                                 \
       ? (void)0                                                               \
       : ::intent::detail::index_failure(What, (I), (Extent), (Dim)))
#endif

/// The largest value of T: +inf for floating point, the maximum otherwise.
template <class T> INTENT_HD constexpr T highest() {
  if constexpr (std::is_floating_point<T>::value) {
    return static_cast<T>(INFINITY);
  } else if constexpr (std::is_same<T, bool>::value) {
    return true;
  } else {
    using U = std::make_unsigned_t<T>;
    U All = static_cast<U>(~U(0));
    if constexpr (std::is_signed<T>::value)
      return static_cast<T>(static_cast<U>(All >> 1));
    else
      return static_cast<T>(All);
  }
}

/// The smallest value of T: -inf for floating point, the minimum otherwise.
template <class T> INTENT_HD constexpr T lowest() {
  if constexpr (std::is_floating_point<T>::value)
    return static_cast<T>(-INFINITY);
  else if constexpr (std::is_signed<T>::value)
    return static_cast<T>(-highest<T>() - 1);
  else
    return T(0);
}

/// True for a floating-point NaN; always false for other types. Written as a
/// self-comparison so it needs no <cmath> overload in device code (and so it
/// does not hold under -ffast-math, which assumes there are no NaN).
template <class T> INTENT_HD constexpr bool isNaN(const T &X) {
  if constexpr (std::is_floating_point<T>::value)
    return X != X;
  else
    return false;
}

/// Blocks template argument deduction through a parameter, so that e.g.
/// atomic_add(FloatRef, 1) deduces T from the reference alone.
template <class T> struct TypeIdentity { using type = T; };
template <class T> using NonDeduced = typename TypeIdentity<T>::type;

} // namespace detail
} // namespace intent

#endif // INTENT_CORE_HPP
