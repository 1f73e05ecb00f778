//===- intent/runtime/bounds.hpp - View bounds checks on demand ---------===//
//
// INTENT_CHECK=bounds (docs/runtime.md §1): generated programs check every
// view coordinate they index with against the view's extent before the
// access. The check is one uniform branch on the kernel argument
// `<m>_args::check`, which the runtime sets to a bounds_record only when
// checking is on (null otherwise), so no recompile is needed and the normal
// path costs one predictable test of a kernel argument per access.
//
// On the host (cpu mode) a failing check throws bounds_error, which the
// launch reports as an rt::error naming the kernel, the user's file:line of
// the access, the view, the index and the extent. On the device the first
// failing thread records itself in the bounds_record (atomicCAS), the access
// is skipped (a load reads 0), and the runtime raises the same rt::error
// after the kernel.
//
//===----------------------------------------------------------------------===//

#ifndef INTENT_RUNTIME_BOUNDS_HPP
#define INTENT_RUNTIME_BOUNDS_HPP

#include "intent/core.hpp"

#include <stdexcept>

namespace intent {
namespace rt {

/// The first out-of-bounds access of a launch (device memory in gpu mode).
struct bounds_record {
  /// 0 until an access failed; the first failing thread sets it to 1.
  unsigned int hit;
  /// The access: user source line and column (the kernel's file), the
  /// kernel parameter indexed (-1: not a parameter), the dimension, the
  /// coordinate and the extent it had to lie below.
  int line;
  int col;
  int param;
  int dim;
  long long index;
  long long extent;
};

/// What a failing host check throws; the launch turns it into an rt::error
/// naming the kernel and the view (docs/runtime.md §3).
class bounds_error : public std::runtime_error {
public:
  explicit bounds_error(const bounds_record &R)
      : std::runtime_error("out-of-bounds view access"), Record(R) {}
  bounds_record Record;
};

/// True when 0 <= i < extent. Otherwise records (device) or throws (host) the
/// failure and returns false, so the caller skips the access.
INTENT_HD inline bool check_index(bounds_record *r, index i, index extent,
                                  int param, int dim, int line, int col) {
  if (i >= 0 && i < extent)
    return true;
#if defined(__CUDA_ARCH__)
  if (atomicCAS(&r->hit, 0u, 1u) == 0u) {
    r->line = line;
    r->col = col;
    r->param = param;
    r->dim = dim;
    r->index = i;
    r->extent = extent;
    __threadfence();
  }
  return false;
#else
  bounds_record R{1u, line, col, param, dim, i, extent};
  (void)r;
  throw bounds_error(R);
#endif
}

} // namespace rt
} // namespace intent

#endif // INTENT_RUNTIME_BOUNDS_HPP
